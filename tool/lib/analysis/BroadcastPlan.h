//===- BroadcastPlan.h - Adjacent broadcasts from one root sent as one ----===//
//
// Broadcast fusion: adjacent MPI_Bcast statements from one root on one
// communicator (the parameters a program reads on one rank and sends to
// all, one call per variable) become one broadcast of their parts, packed
// by templates/mpiopt/aggregate.h's mpiopt_agg_bcast. One collective
// instead of k: at scale, all but one tree of latencies per group.
//
// A group: two or more adjacent statements of one block (nothing but
// blanks between), each a call of MPI_Bcast whose value is discarded,
// outside macros, with side-effect-free arguments, the same root and
// communicator as written, and a predefined datatype each.
//
// Proved, for each group that changes:
//  - Every rank that runs the group's first call runs the whole group
//    (its calls are adjacent statements), and every rank runs it alike:
//    the first call is at a point Uniformity.h finds no rank-dependent
//    branch above, in a function every rank enters alike. So every process
//    of the communicator replaces the same k broadcasts by one: the
//    sequence of collectives on it changes the same way on all of them.
//    (A group in one arm of an if on the rank, with its twin in the other,
//    is declined: the arms need not be fused alike.)
//  - The later calls' arguments read nothing the earlier calls write on a
//    process that is not the root: the buffers of all but the last lie in
//    named objects or pointers that own one allocation, which later
//    arguments do not read (nor anything through a pointer but a buffer's
//    own address): the template evaluates every argument before any part
//    arrives. Buffers that overlap are unpacked in order, so the later
//    part's bytes land last, as the separate calls left them; the root's
//    buffers are only read.
//  - MPI requires every process's count and datatype of each call to match
//    the root's, so every process computes the same packed size and takes
//    the same path: one broadcast of at most MPIOPT_AGG_MAX (1 KiB) bytes,
//    or (larger, known only at run time) the separate calls as written.
//  - The machine profile measured the fused broadcast 5% faster at the
//    group's size (at the size where it does worst when the size is known
//    only at run time): "templates.aggregate_bcast" (two broadcasts against
//    one of their parts), "aggregate_bcast3" (three), "aggregate_bcast4"
//    (four or more); a profile without the family of the group's parts
//    decides by "aggregate_bcast" (fewer parts save less).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_BROADCASTPLAN_H
#define OMPI_TOOL_ANALYSIS_BROADCASTPLAN_H

#include "analysis/CallAnalysis.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace ompi {

class Uniformity;

/// A group of broadcasts that becomes one.
struct BroadcastGroup {
  std::vector<const CallResult *> Calls; ///< in the order written
  ChangeNote Note;
  ChangeNote Declined; ///< its note, should the rewrite not be made (its Why for the caller to give)
};

struct BroadcastPlan {
  std::vector<BroadcastGroup> Groups;
  std::vector<ChangeNote> Declined;
};

/// Taken: the calls another transformation already rewrote.
BroadcastPlan planBroadcastFusion(clang::ASTContext &Ctx, Uniformity &Uni, const FileResult &Calls,
                                  const MachineProfile *Profile,
                                  llvm::function_ref<bool(const clang::CallExpr *)> Taken);

} // namespace ompi

#endif
