//===- HandleLeak.cpp - Check: handle-leak -----------------------------------===//
//
// a handle a function creates (a datatype, communicator, group, op, window,
// info, error handler or persistent request in a local variable) that every
// path leaves alive at the function's end, when the handle never leaves the
// function (not returned, stored, copied or given to a function that is not
// MPI's): nothing can free it any more. analysis/HandleFlow gives the paths.
// Handles kept in the elements of a local array (MPI_Comm com[3]) are
// judged along each rank's run (analysis/ranks'
// handleArrayTraces): an element given a new handle while its old one is
// alive, and elements alive at the end. A constructor that may give a rank
// MPI_COMM_NULL (MPI_Comm_create, a split whose colour is not known) is
// not a creation there.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "checks/P2PText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// "the communicator" of element event E.
std::string kindOf(const P2PEvent &E) {
  auto C = handleClassOf(E.Win->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  return "the " + handleClassName(C.value_or(HandleClass::Comm)).str();
}

/// Handles kept in the elements of local arrays that never leave the
/// function, along each rank's run (handleArrayTraces): an element given a
/// new handle while its old one is alive, and handles alive at the end.
void checkArrayLeaks(CheckContext &C) {
  std::set<const FunctionDecl *> Done;
  std::set<const CallExpr *> Reported;
  for (const P2PTraces &T : handleArrayTraces(C.Ctx, C.Ev, C.Uni)) {
    if (Done.count(T.F) || llvm::is_contained(T.Aborted, true))
      continue;
    Done.insert(T.F);
    for (int R = 0; R < T.Size; ++R) {
      std::map<std::pair<const VarDecl *, int64_t>, const P2PEvent *> Alive;
      for (const P2PEvent &E : T.Ranks[R]) {
        std::pair<const VarDecl *, int64_t> Key{E.Win, *E.S.Peer};
        if (E.WinEvent.K != HandleEvent::Create) {
          Alive.erase(Key); // freed, or not known to hold a handle
          continue;
        }
        if (auto It = Alive.find(Key); It != Alive.end() && Reported.insert(E.Call).second)
          if (Finding *F = C.report(
                  "handle-leak", E.Call->getBeginLoc(),
                  llvm::formatv("{0}, on rank {1}, {2} (line {3}) writes a new handle into '{4}[{5}]', which still "
                                "holds {6} that {7} created at line {8} and nothing freed: that one is lost and "
                                "leaks (free a handle before its variable takes a new one)",
                                withProcesses(T), R, E.WinEvent.Function, E.Line, E.Win->getName(), Key.second,
                                kindOf(E), It->second->WinEvent.Function, It->second->Line)
                      .str()))
            C.note(*F, It->second->Call->getBeginLoc(),
                   It->second->Call == E.Call ? "created here, in an earlier iteration" : "created here");
        Alive[Key] = &E;
      }
      for (auto &[Key, E] : Alive)
        if (Reported.insert(E->Call).second)
          C.report("handle-leak", E->Call->getBeginLoc(),
                   llvm::formatv("{0}, on rank {1}, {2} that {3} creates here in '{4}[{5}]' is never freed and "
                                 "does not leave {6}: it leaks (every handle a program creates should be freed "
                                 "when it is done with it)",
                                 withProcesses(T), R, kindOf(*E), E->WinEvent.Function, E->Win->getName(), Key.second,
                                 T.F->getName())
                       .str());
    }
  }
}

} // namespace

void checkHandleLeaks(CheckContext &C) {
  checkArrayLeaks(C);
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
