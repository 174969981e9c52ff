//===- FusableReductions.cpp - Check: fusable-reductions --------------------===//
//
// what reduction-fusion would fuse (the reduction plan, whatever
// --transforms selects for this run).
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkFusableReductions(CheckContext &C) {
  for (const FusionGroup &G : C.Plans.get(true, true).Fusion.Groups) {
    ChangeNote N = fusionNote(G, C.Analysis.File);
    C.report("fusable-reductions", N.File, N.Line, N.Column,
             "fuse " + fusionSummary(G) + " (saves " + N.Saves + "; ompi-opt --in-place or ompi-cc does it)");
  }
  for (const LoopFusion &L : C.Plans.get(true, true).Fusion.Loops) {
    ChangeNote N = loopFusionNote(L, C.Analysis.File);
    C.report("fusable-reductions", N.File, N.Line, N.Column,
             "fuse the 1-element " + L.Function + " of each iteration of the loop at line " +
                 std::to_string(L.LoopLine) + " into one of the range (" + L.Buffers + " for " + L.Range + ") (saves " +
                 N.Saves + "; ompi-opt --in-place or ompi-cc does it)");
  }
}

} // namespace ompi
