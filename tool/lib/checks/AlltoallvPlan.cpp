//===- AlltoallvPlan.cpp - Check: alltoallv-plan ----------------------------===//
//
// an MPI_Alltoallv in a loop whose counts and displacements nothing in the
// loop changes: its communication plan can be computed once.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

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
