//===- HandleLeak.cpp - Check: handle-leak -----------------------------------===//
//
// a handle a function creates (a datatype, communicator, group, op, window,
// info, error handler or persistent request in a local variable) that every
// path leaves alive at the function's end, when the handle never leaves the
// function (not returned, stored, copied or given to a function that is not
// MPI's): nothing can free it any more. analysis/HandleFlow gives the paths.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkHandleLeaks(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const HandleVar &H : C.handles(F)) {
      if (H.Escapes || !allStates(H.Exit, [](int S) { return S >= 0; }))
        continue;
      const HandleEvent *Made = nullptr;
      for (const HandleEvent &E : H.Events)
        if (E.K == HandleEvent::Create)
          Made = &E;
      if (!Made)
        continue;
      C.report("handle-leak", Made->Loc,
               llvm::formatv("the {0} '{1}' that {2} creates here is never freed and does not leave {3}: it "
                             "leaks (every handle a program creates should be freed when it is done with it)",
                             handleClassName(H.Class), H.V->getName(), Made->Function, F->getName())
                   .str());
      (void)SM;
    }
}

} // namespace ompi
