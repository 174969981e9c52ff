//===- DeferrableReductions.cpp - Check: deferrable-reductions --------------===//
//
// what lazy-deferral would hand to the lazy runtime (the reduction plan,
// whatever --transforms selects for this run).
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkDeferrableReductions(CheckContext &C) {
  for (const DeferredCall &D : C.Plans.get(true, true).Deferral.Calls)
    C.report("deferrable-reductions", D.Note.File, D.Note.Line, D.Note.Column,
             "defer " + D.Summary + " to the lazy runtime: " + D.Note.Why + " (saves " + D.Note.Saves +
                 "; ompi-opt --in-place or ompi-cc does it)");
}

} // namespace ompi
