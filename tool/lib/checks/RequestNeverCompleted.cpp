//===- RequestNeverCompleted.cpp - Check: request-never-completed -----------===//
//
// a local request pending at the function's exit on every path (the request
// flow on the CFG, analysis/RequestFlow); and MPI_Request_free of a request
// that every path leaves pending (or never set) with a nonblocking receive
// among the starts: the standard's advice is that an active receive
// request should never be freed, as nothing can tell when its buffer holds
// the message.
//
//===----------------------------------------------------------------------===//
#include "analysis/RequestFlow.h"
#include "checks/Checks.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// MPI_Request_free of an active nonblocking receive.
void checkFreedReceive(CheckContext &C, const RequestVar &R) {
  for (size_t K = 0; K < R.Events.size(); ++K) {
    const RequestEvent &E = R.Events[K];
    if (E.K != RequestEvent::Complete || E.Function != mpi::MPI_Request_free)
      continue;
    const RequestEvent *Recv = nullptr;
    bool Active = !R.At[K].empty();
    for (int S : R.At[K]) {
      Active &= S >= 0 || S == RequestUnset;
      if (S >= 0 && (R.Events[S].Function == mpi::MPI_Irecv || R.Events[S].Function == mpi::MPI_Imrecv))
        Recv = &R.Events[S];
    }
    if (!Active || !Recv)
      continue;
    if (Finding *F = C.report(
            "request-never-completed", E.Loc,
            llvm::formatv("MPI_Request_free frees '{0}' while the {1} at line {2} may still be receiving into its "
                          "buffer: nothing can tell when that receive completes (the standard: an active receive "
                          "request should never be freed); wait for it instead",
                          R.V->getName(), Recv->Function, C.Ctx.getSourceManager().getExpansionLineNumber(Recv->Loc))
                .str()))
      C.note(*F, Recv->Loc, "the receive is started here");
  }
}

} // namespace

void checkRequestNeverCompleted(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const RequestVar &R : C.requests(F)) {
      checkFreedReceive(C, R);
      if (allPending(R.Exit))
        for (int K : R.Exit)
          C.report("request-never-completed", R.Events[K].Loc,
                   llvm::formatv("the request '{0}' of this {1} is never completed: no MPI_Wait, MPI_Test or "
                                 "MPI_Request_free on it follows in {2}",
                                 R.V->getName(), R.Events[K].Function, F->getName())
                       .str());
    }
}

} // namespace ompi
