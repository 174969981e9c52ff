//===- PeerTemplates.cpp - Rewrite: self and null peers -------------------===//
//
// Renames the calls of the peer plan (analysis/PeerPlan.h states what is
// proved and when the profile chooses it) to their templates in
// templates/mpiopt/peer.h, which take the same arguments:
//
//   MPI_Send(buf, n, MPI_DOUBLE, MPI_PROC_NULL, 0, comm)
//     -> mpiopt_send_null(buf, n, MPI_DOUBLE, MPI_PROC_NULL, 0, comm)
//   MPI_Sendrecv(a, n, MPI_INT, rank, 7, b, n, MPI_INT, rank, 7, comm, &st)
//     -> mpiopt_sendrecv_self(a, n, MPI_INT, rank, 7, b, n, MPI_INT, rank, 7, comm, &st)
//
// A call another transformation already rewrote is no candidate (that
// transformation reports it).
//
//===----------------------------------------------------------------------===//
#include "analysis/PeerPlan.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"

using namespace clang;
using namespace ompi;

llvm::Error ompi::runPeerTemplates(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  PeerPlan Plan = planPeers(TC.Ctx, TC.Ev, TC.Analysis, TC.Profile, Taken);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  for (const PeerCall &P : Plan.Calls) {
    // As written: a call in a macro's argument is renamed there.
    llvm::Expected<bool> Renamed = renameCall(TC.Ctx, TC.Out, P.Call, P.To + "(");
    if (!Renamed)
      return Renamed.takeError();
    if (!*Renamed)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "no '(' after the callee of a peer template");
    TC.Notes.push_back(P.Note);
  }
  if (!Plan.Calls.empty())
    TC.needs("#include <mpiopt/peer.h>");
  return llvm::Error::success();
}
