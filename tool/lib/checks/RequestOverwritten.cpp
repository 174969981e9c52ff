//===- RequestOverwritten.cpp - Check: request-overwritten ------------------===//
//
// a nonblocking call storing into a request that every path holds pending
// from an earlier start (the request flow on the CFG, analysis/RequestFlow).
//
//===----------------------------------------------------------------------===//
#include "analysis/RequestFlow.h"
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkRequestOverwritten(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const RequestVar &R : C.requests(F))
      for (unsigned K = 0; K < R.Events.size(); ++K) {
        const RequestEvent &E = R.Events[K];
        if (E.K != RequestEvent::Start || !allPending(R.At[K]))
          continue;
        const RequestEvent &Open = R.Events[*R.At[K].begin()];
        Finding *D =
            C.report("request-overwritten", E.Loc,
                     llvm::formatv("{0} overwrites request '{1}' while the {2} at line {3} that it holds has not "
                                   "completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between)",
                                   E.Function, R.V->getName(), Open.Function, SM.getExpansionLineNumber(Open.Loc))
                         .str());
        if (D)
          C.note(
              *D, Open.Loc,
              llvm::formatv("the {0} that request '{1}' still holds starts here", Open.Function, R.V->getName()).str());
      }
}

} // namespace ompi
