//===- PeerPlan.h - Calls whose peer is MPI_PROC_NULL or the caller -------===//
//
// Self and null peers (templates/mpiopt/peer.h):
//
// A blocking MPI_Send, MPI_Ssend, MPI_Rsend or MPI_Recv whose peer is
// MPI_PROC_NULL (as written, or through variables and parameters that the
// evaluator proves hold it) becomes the no-op MPI defines for it, the
// receive's status the one MPI gives; an MPI_Sendrecv or
// MPI_Sendrecv_replace with one side or both MPI_PROC_NULL runs the other
// side alone. Proved besides: the dropped side's datatype is predefined (a
// derived one could be uncommitted, an error MPI reports). The templates
// check at run time what else MPI would report (negative count, tag out of
// range, null buffer, MPI_COMM_NULL) and run the generic call there.
//
// An MPI_Sendrecv or MPI_Sendrecv_replace whose destination and source are
// both the caller (its rank in the call's communicator: rank-relative
// rank, (rank + size) % size; or 0 on MPI_COMM_SELF) becomes a copy (the
// replace: nothing to copy). Proved besides: both sides have the same
// predefined datatype without gaps (not a pair type such as
// MPI_DOUBLE_INT, not long double). The template checks at run time that
// no earlier message from the caller to itself that the receive would
// match waits (MPI_Iprobe), that the tags match and the receive is large
// enough, and runs the generic call otherwise.
//
// Left generic and reported: the nonblocking forms (their request must be
// one MPI made), MPI_Bsend (its buffer checks), calls in a macro's body,
// calls another transformation rewrote, and every call where the machine
// profile ("templates.null" for the no-ops, "templates.null_sendrecv",
// "templates.self_sendrecv", "templates.self_replace") does not show the
// template 5% faster than the generic call at the message's size (with no
// static size, at every size measured).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_PEERPLAN_H
#define OMPI_TOOL_ANALYSIS_PEERPLAN_H

#include "analysis/CallAnalysis.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace ompi {

/// A call renamed to its template (same arguments).
struct PeerCall {
  const clang::CallExpr *Call = nullptr;
  std::string To; ///< mpiopt_send_null, mpiopt_sendrecv_self, ...
  ChangeNote Note;
};

struct PeerPlan {
  std::vector<PeerCall> Calls;
  std::vector<ChangeNote> Declined;
};

/// Taken: the calls another transformation already rewrote, which are no
/// candidates (that transformation reports them).
PeerPlan planPeers(clang::ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls, const MachineProfile *Profile,
                   llvm::function_ref<bool(const clang::CallExpr *)> Taken);

} // namespace ompi

#endif
