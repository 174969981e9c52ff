//===- PersistentRequest.cpp - Check: persistent-request ---------------------===//
//
// MPI_Start of a persistent request that every path left active (started,
// not yet completed), and a wait on a persistent request that no path
// started (it returns at once: a start is missing). analysis/HandleFlow
// follows the request's states.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkPersistentRequests(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const HandleVar &H : C.handles(F)) {
      if (H.Class != HandleClass::Request)
        continue;
      bool EverStarted = llvm::any_of(
          H.Events, [](const HandleEvent &E) { return E.K == HandleEvent::Start || E.K == HandleEvent::Other; });
      unsigned LastStart = 0;
      for (unsigned I = 0; I < H.Events.size(); ++I) {
        const HandleEvent &E = H.Events[I];
        auto Only = [&](int X) { return allStates(H.At[I], [X](int S) { return S == X; }); };
        if (E.K == HandleEvent::Start && Only(HActive))
          C.report("persistent-request", E.Loc,
                   llvm::formatv("MPI_Start on persistent request '{0}', which is still active (started at line "
                                 "{1} and not completed since): a request must be complete before it is started "
                                 "again",
                                 H.V->getName(), LastStart)
                       .str());
        else if ((E.K == HandleEvent::Complete || E.K == HandleEvent::MayComplete) && !EverStarted && Only(HInactive))
          C.report("persistent-request", E.Loc,
                   llvm::formatv("{0} on persistent request '{1}', which no MPI_Start of this function ever starts: "
                                 "an inactive request completes at once with an empty status (is a start missing?)",
                                 E.Function, H.V->getName())
                       .str());
        if (E.K == HandleEvent::Start)
          LastStart = SM.getExpansionLineNumber(E.Loc);
      }
    }
}

} // namespace ompi
