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
}

} // namespace ompi
