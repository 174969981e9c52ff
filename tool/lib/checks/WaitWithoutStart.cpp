//===- WaitWithoutStart.cpp - Check: wait-without-start ---------------------===//
//
// a completion on a request no path started or assigned (MPI_REQUEST_NULL
// is fine; the request flow on the CFG, analysis/RequestFlow).
//
//===----------------------------------------------------------------------===//
#include "analysis/RequestFlow.h"
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkWaitWithoutStart(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const RequestVar &R : C.requests(F))
      for (unsigned K = 0; K < R.Events.size(); ++K) {
        const RequestEvent &E = R.Events[K];
        if (E.K != RequestEvent::Complete || R.At[K] != RequestStates{RequestUnset})
          continue;
        C.report("wait-without-start", E.Loc,
                 llvm::formatv("{0} on request '{1}', which no nonblocking call started (initialise it to "
                               "MPI_REQUEST_NULL if that is intended)",
                               E.Function, R.V->getName())
                     .str());
      }
}

} // namespace ompi
