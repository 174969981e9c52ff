//===- ReductionPlan.h - One decision per reduction: fuse, defer or leave --===//
//
// reduction-fusion and lazy-deferral compete for the same calls. This plan
// decides once, for the transformations that run: static fusion takes the
// groups it proves, except those whose results no code of their function
// uses while lazy-deferral runs too (the runtime can fuse those with the
// reductions of the functions that run before the first use, Fig. 1 of the
// CFL paper); deferral takes what fusion leaves. Both rewrites and the
// checks read the same plan, cached per translation unit.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_REDUCTIONPLAN_H
#define OMPI_TOOL_ANALYSIS_REDUCTIONPLAN_H

#include "analysis/DeferralPlan.h"
#include "analysis/FusionPlan.h"
#include <map>
#include <memory>

namespace ompi {

struct ReductionPlan {
  FusionPlan Fusion;     ///< empty when reduction-fusion does not run
  DeferralPlan Deferral; ///< empty when lazy-deferral does not run
};

/// The plan for one translation unit, computed once per choice of the
/// transformations that run.
class ReductionPlans {
public:
  ReductionPlans(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                 const MachineProfile *Profile = nullptr)
      : Ctx(Ctx), Ev(Ev), Uni(Uni), Calls(Calls), Profile(Profile) {}
  const ReductionPlan &get(bool Fuse, bool Defer);

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  Uniformity &Uni;
  const FileResult &Calls;
  const MachineProfile *Profile;
  std::map<std::pair<bool, bool>, std::unique_ptr<ReductionPlan>> Cache;
};

} // namespace ompi

#endif
