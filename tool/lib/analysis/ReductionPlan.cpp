//===- ReductionPlan.cpp - One decision per reduction: fuse, defer or leave ===//
#include "analysis/ReductionPlan.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace ompi;

namespace {

/// Drop the groups of Plan whose every member Deferred leaves pending at
/// the end of its function; their calls get a declined note.
void leaveToRuntime(FusionPlan &Plan, const DeferralPlan &Deferred, const std::string &File) {
  std::set<std::pair<unsigned, unsigned>> Leave;
  for (const DeferredCall &C : Deferred.Calls)
    if (C.PendingAtExit)
      Leave.insert({C.Note.Line, C.Note.Column});
  std::vector<FusionGroup> Keep;
  for (FusionGroup &G : Plan.Groups) {
    if (!llvm::all_of(G.Members, [&](const FusionMember &M) { return Leave.count({M.Line, M.Column}); })) {
      Keep.push_back(std::move(G));
      continue;
    }
    for (const FusionMember &M : G.Members)
      Plan.Declined.push_back(ChangeNote::at(
          "reduction-fusion", false, File, M.Line, M.Column, G.Function + " not fused",
          "left to lazy-deferral: no code of this function uses the results, so the runtime can fuse them with the "
          "reductions that run before their first use"));
  }
  Plan.Groups = std::move(Keep);
}

} // namespace

const ReductionPlan &ReductionPlans::get(bool Fuse, bool Defer) {
  std::unique_ptr<ReductionPlan> &Slot = Cache[{Fuse, Defer}];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<ReductionPlan>();
  ReductionPlan &P = *Slot;
  std::optional<DeferralPlan> Alone;
  if (Defer)
    Alone = analyzeLazyDeferral(Ctx, Ev, Uni, Calls, {});
  if (Fuse) {
    P.Fusion = analyzeReductionFusion(Ctx, Ev, Uni, Calls, Profile);
    if (Defer)
      leaveToRuntime(P.Fusion, *Alone, Calls.File);
  }
  if (Defer)
    P.Deferral = P.Fusion.Groups.empty() && P.Fusion.Loops.empty()
                     ? std::move(*Alone)
                     : analyzeLazyDeferral(Ctx, Ev, Uni, Calls, fusionRanges(P.Fusion, Ctx));
  return P;
}
