//===- CollectivePlan.h - Which collectives the runtime plans or selects --===//
//
// Two decisions on the runtime's planned collectives (runtime/coll/):
//
// planAllToAll: an MPI_Alltoallv (or MPI_Alltoall, MPI_Allgatherv or
// MPI_Allgather: the runtime's Allgatherv plan of equal blocks) whose
// counts, displacements, datatypes and communicator read the same on every
// iteration of a loop (the call facts' loop invariance: the arrays are not
// written in the loop, nothing the loop calls can write them, their
// addresses reach nothing that could) gets a plan that lives as long as
// that loop runs: the runtime makes it at the call and reuses it on every
// later iteration; the plan is freed after the loop and before every
// return inside it. The outermost loop for which every plan argument stays
// the same is the one the plan lives in. A call the analysis cannot prove
// so, in a loop or in a function a loop calls, goes to the runtime's plan
// cache instead (the ranks agree at each call whether their cached plans
// still fit; MPI_Alltoallv only). Either needs every rank to run the call
// alike (the uniformity analysis) and a machine profile that measured the
// planned form faster than the MPI's own call (its "alltoallv" points, or
// "allgatherv" for MPI_Allgatherv, "allgather" for MPI_Allgather, whose
// MPI algorithms differ, at the call's block size where static).
//
// planVectorReductions: an MPI_Allreduce or MPI_Reduce that reduction
// fusion and lazy deferral leave alone, of a predefined arithmetic type
// with a predefined commutative op, goes to the runtime's large-vector
// selector when the machine profile measured the selector faster at its
// size (a size known only at run time: where it measured it faster at
// all; the selector itself calls the MPI's own below the sizes it wins).
// Floating-point sums and products are reassociated by the runtime's
// algorithms, so they go only with --reassociate. Integer results, and
// every minimum and maximum, are exactly the MPI's. A call in one arm of an
// if that only some ranks take goes too when its twin is the other arm
// (the root's MPI_Reduce with MPI_IN_PLACE, the others' with their buffer):
// each arm is that one call of the same MPI function, the arguments and the
// condition call no function, every rank reaches the if alike, and both
// calls qualify; then every rank that reaches the if makes the runtime's
// call, and both name one site of the runtime (the first twin's line).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_COLLECTIVEPLAN_H
#define OMPI_TOOL_ANALYSIS_COLLECTIVEPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/RewriteSites.h"
#include "analysis/Uniformity.h"
#include "mpi/MachineProfile.h"
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ReturnStmt;
}

namespace ompi {

/// The loop an all-to-all's plan can live in: the outermost loop around the
/// call in its function every plan argument stays the same in (null when
/// none, with Why: the innermost loop's reason).
using PlanLifetime = LoopLifetime;
PlanLifetime planLifetime(const CallResult &C);

/// An all-to-all call the runtime plans: Loop is the loop the plan lives
/// in (null: the plan cache).
struct PlannedCall {
  const clang::CallExpr *Call = nullptr;
  const clang::Stmt *Loop = nullptr;
  std::string To;                                 ///< the runtime's function
  std::vector<const clang::ReturnStmt *> Returns; ///< returns inside Loop (the plan is freed before each)
  ChangeNote Note;
  /// The plan cache's form, where the call may go there when its loop's
  /// block cannot be written (""), and what its note says then.
  std::string Cached, CachedWhy;
};

struct AllToAllPlan {
  std::vector<PlannedCall> Calls;
  std::vector<ChangeNote> Declined;
};

AllToAllPlan planAllToAll(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                          const MachineProfile *Profile);

/// A reduction handed to the large-vector selector.
struct VectorReduction {
  const clang::CallExpr *Call = nullptr;
  std::string To; ///< mpiopt_allreduce or mpiopt_reduce
  ChangeNote Note;
  /// A twin in the other arm of a rank-dependent if: both calls name the
  /// runtime's site by this line (To + "_at", `__FILE__, SiteLine`), so
  /// that its per-site state is one for the ranks of both arms.
  unsigned SiteLine = 0;
};

struct VectorPlan {
  std::vector<VectorReduction> Calls;
  std::vector<ChangeNote> Declined;
};

/// Taken: the (line, column) of the calls reduction fusion or lazy deferral
/// rewrite (left to them).
VectorPlan planVectorReductions(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                const MachineProfile *Profile, const std::set<std::pair<unsigned, unsigned>> &Taken,
                                bool Reassociate);

} // namespace ompi

#endif
