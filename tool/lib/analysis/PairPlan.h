//===- PairPlan.h - Adjacent sends and receives that become one exchange --===//
//
// Protocol choice (the OMPI paper's "short / long" templates): an MPI_Send
// and an MPI_Recv written as adjacent statements of one block (either
// order), on the same communicator, become one MPI_Sendrecv, where the
// machine profile ("templates.sendrecv_pair": the exchange of two ranks,
// one sending first and the other receiving first, against both calling
// MPI_Sendrecv) measured the exchange 5% faster at the message's size.
// MPI_Sendrecv runs its send and its receive as if in parallel; the pair
// ran them one after the other, so every outcome of the exchange is one
// the pair could have had, and a program the pair would deadlock (both
// sides sending first, beyond the MPI's buffering) may complete.
//
// Proved: both calls are statements whose values are discarded, written
// outside macros, with nothing but blanks between them; every argument is
// free of side effects (the exchange evaluates them all before either
// transfer); the send buffer and the receive buffer lie in different
// objects (MPI_Sendrecv needs them disjoint): named variables, or local
// pointers that each hold one allocation of their own (malloc, calloc,
// aligned_alloc), and the send's buffer is not the receive's status; both
// datatypes are predefined (a derived one may reach memory outside its
// buffer's object); the receive names its source
// and tag (a wildcard could match another message when posted earlier);
// neither peer is MPI_PROC_NULL (nothing to overlap). A receive written
// first: the send's arguments read neither the receive buffer's object nor
// the status nor anything through a pointer (the exchange reads them before
// the receive has written).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_PAIRPLAN_H
#define OMPI_TOOL_ANALYSIS_PAIRPLAN_H

#include "analysis/CallAnalysis.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace ompi {

/// An adjacent send and receive that become one MPI_Sendrecv.
struct PairCall {
  const clang::CallExpr *First = nullptr, *Second = nullptr; ///< in the order written
  const clang::CallExpr *Send = nullptr, *Recv = nullptr;
  ChangeNote Note;
};

struct PairPlan {
  std::vector<PairCall> Pairs;
  std::vector<ChangeNote> Declined;
};

/// Taken: the calls another transformation already rewrote.
PairPlan planPairs(clang::ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls, const MachineProfile *Profile,
                   llvm::function_ref<bool(const clang::CallExpr *)> Taken);

} // namespace ompi

#endif
