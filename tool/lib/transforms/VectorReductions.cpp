//===- VectorReductions.cpp - Rewrite: large-vector reductions ------------===//
//
// Renames the reductions of the vector plan (analysis/CollectivePlan.h
// states what is proved and when the profile chooses them) to the
// runtime's large-vector selector, which takes the same arguments:
// MPI_Allreduce(...) becomes mpiopt_allreduce(...), MPI_Reduce(...)
// mpiopt_reduce(...). The file includes mpiopt/coll_optional.h (weak
// fallbacks that call the MPI where the runtime is not linked).
//
//===----------------------------------------------------------------------===//
#include "analysis/CollectivePlan.h"
#include "analysis/ReductionPlan.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace ompi;

llvm::Error ompi::runVectorReductions(TransformContext &TC) {
  // The calls reduction fusion and lazy deferral take stay theirs.
  const ReductionPlan &R = TC.Plans.get(TC.enabled("reduction-fusion"), TC.enabled("lazy-deferral"));
  std::set<std::pair<unsigned, unsigned>> Taken;
  for (const FusionGroup &G : R.Fusion.Groups)
    for (const FusionMember &M : G.Members)
      Taken.insert({M.Line, M.Column});
  for (const LoopFusion &L : R.Fusion.Loops)
    Taken.insert({L.Line, L.Column});
  for (const DeferredCall &D : R.Deferral.Calls)
    Taken.insert({D.Note.Line, D.Note.Column});
  VectorPlan Plan = planVectorReductions(TC.Ctx, TC.Ev, TC.Uni, TC.Analysis, TC.Profile, Taken, TC.Reassociate);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  if (Plan.Calls.empty())
    return llvm::Error::success();
  TC.needs("#include <mpiopt/coll_optional.h>");
  const SourceManager &SM = TC.Ctx.getSourceManager();
  for (const VectorReduction &V : Plan.Calls) {
    // As written: a call in a macro's argument is renamed there.
    SourceLocation Callee = SM.getFileLoc(V.Call->getCallee()->getBeginLoc());
    std::string To = V.SiteLine ? V.To + "_at" : V.To;
    if (auto E = TC.Out.add(
            tooling::Replacement(SM, CharSourceRange::getTokenRange(Callee, Callee), To, TC.Ctx.getLangOpts())))
      return E;
    // Twins name one site of the runtime: the first twin's line.
    if (V.SiteLine)
      if (auto E = TC.Out.add(tooling::Replacement(SM, SM.getFileLoc(V.Call->getRParenLoc()), 0,
                                                   ", __FILE__, " + std::to_string(V.SiteLine))))
        return E;
    TC.Notes.push_back(V.Note);
  }
  return llvm::Error::success();
}
