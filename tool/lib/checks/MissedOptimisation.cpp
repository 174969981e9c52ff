//===- MissedOptimisation.cpp - Checks: what the optimiser would change ---===//
//
// fusable-reductions and deferrable-reductions report what reduction-fusion
// and lazy-deferral proved (their notes), so CI can ask for it without
// rewriting; persistent-candidate and alltoallv-plan report point-to-point
// calls and MPI_Alltoallv in loops whose arguments do not change.
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

// The checks ask the transformations' analyses what ompi-cc would do (both
// transformations on), whatever --transforms selects for this run.

void checkFusableReductions(CheckContext &C) {
  for (const FusionGroup &G : C.Plans.get(true, true).Fusion.Groups) {
    ChangeNote N = fusionNote(G, C.Analysis.File);
    C.report("fusable-reductions", N.File, N.Line, N.Column,
             "fuse " + fusionSummary(G) + " (saves " + N.Saves + "; ompi-opt --in-place or ompi-cc does it)");
  }
}

void checkDeferrableReductions(CheckContext &C) {
  for (const DeferredCall &D : C.Plans.get(true, true).Deferral.Calls)
    C.report("deferrable-reductions", D.Note.File, D.Note.Line, D.Note.Column,
             "defer " + D.Summary + " to the lazy runtime: " + D.Note.Why + " (saves " + D.Note.Saves +
                 "; ompi-opt --in-place or ompi-cc does it)");
}

/// Whether the argument of role R (if the call has one) reads the same in
/// every iteration of the innermost loop around the call.
static bool invariant(const CallResult &CR, Role R) {
  const ArgResult *A = CR.arg(R);
  return !A || CR.Loops.empty() || CR.Loops.front().invariant(A->Index);
}

void checkPersistentCandidates(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || CR.Loops.empty())
      continue;
    llvm::StringRef Init = persistentCounterpart(CR.Function);
    if (Init.empty())
      continue;
    bool Same = true;
    for (Role R :
         {Role::SendBuf, Role::RecvBuf, Role::Count, Role::Type, Role::Dest, Role::Source, Role::Tag, Role::Comm})
      Same = Same && invariant(CR, R);
    if (!Same)
      continue;
    C.report("persistent-candidate", CR.File, CR.Line, CR.Column,
             llvm::formatv("{0} in the loop at line {1} has the same buffer, count, datatype, peer, tag and "
                           "communicator on every iteration: a persistent request ({2} before the loop, "
                           "MPI_Start and MPI_Wait in it) sets the message up once",
                           CR.Function, CR.LoopLine, Init)
                 .str());
  }
}

void checkAlltoallvPlans(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!hasPlannedForm(CR.Function) || !CR.LoopLine || !CR.Call)
      continue;
    if (CR.Loops.empty())
      continue;
    bool Changes = false;
    for (Role R : {Role::SendCounts, Role::SendDispls, Role::RecvCounts, Role::RecvDispls}) {
      const ArgResult *A = CR.arg(R);
      Changes = Changes || !A || !CR.Loops.front().unchanged(A->Index);
    }
    if (Changes)
      continue;
    C.report("alltoallv-plan", CR.File, CR.Line, CR.Column,
             llvm::formatv("the counts and displacements of this MPI_Alltoallv do not change in the loop at line "
                           "{0}: its communication plan can be computed once before the loop (a planned "
                           "Alltoallv)",
                           CR.LoopLine)
                 .str());
  }
}

} // namespace ompi
