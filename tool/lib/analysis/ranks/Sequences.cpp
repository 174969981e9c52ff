//===- Sequences.cpp - The collectives each rank issues -------------------===//
#include "analysis/ProcessCounts.h"
#include "analysis/ranks/Interpreter.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

std::string ompi::describeRanks(const std::vector<int> &R) {
  std::string S;
  for (size_t I = 0; I < R.size(); ++I) {
    size_t J = I;
    while (J + 1 < R.size() && R[J + 1] == R[J] + 1)
      ++J;
    S += (S.empty() ? "" : ", ") + std::to_string(R[I]) + (J > I ? "-" + std::to_string(R[J]) : "");
    I = J;
  }
  return S;
}

namespace ompi::ranks {
namespace {

struct SequenceJob {
  ASTContext &Ctx;
  Evaluator &Ev;
  Uniformity &Uni;
  Relevance &Rel;
  const FunctionDecl *F;
  const Choices *Fixed = nullptr;
  Taken Chosen;
  std::set<std::string> Decided;
  bool WouldFork = false; ///< without Fixed: some run met a condition a job with choices would take both ways

  /// Where the ranks' collectives part with Size processes.
  std::optional<SequenceDivergence> at(int Size) {
    struct Group {
      std::vector<int> Ranks;
      std::vector<CollectiveEvent> Events;
      unsigned End;
    };
    std::vector<Group> Groups;
    for (int Rank = 0; Rank < Size; ++Rank) {
      RankRun Run(Ctx, Ev, Uni, Rel, Rank, Size);
      Run.Fixed = Fixed;
      Run.WouldFork = &WouldFork;
      Flow R = Run.function(F, {});
      Chosen.insert(Run.Chosen.begin(), Run.Chosen.end());
      Decided.insert(Run.Decided.begin(), Run.Decided.end());
      if (R == Flow::Aborted)
        continue;
      auto Same = [&](const Group &G) {
        if (G.Events.size() != Run.Events.size())
          return false;
        for (size_t I = 0; I < G.Events.size(); ++I)
          if (!sameKey(G.Events[I].Key, Run.Events[I].Key))
            return false;
        return true;
      };
      auto It = llvm::find_if(Groups, Same);
      if (It == Groups.end())
        Groups.push_back({{}, Run.Events, Run.EndLine}), It = std::prev(Groups.end());
      It->Ranks.push_back(Rank);
    }
    if (Groups.size() < 2)
      return std::nullopt;
    SequenceDivergence D;
    D.Size = Size;
    const Group &A = Groups[0], &B = Groups[1];
    D.RanksA = A.Ranks;
    D.RanksB = B.Ranks;
    while (D.Index < A.Events.size() && D.Index < B.Events.size() &&
           sameKey(A.Events[D.Index].Key, B.Events[D.Index].Key))
      ++D.Index;
    if (D.Index < A.Events.size())
      D.A = A.Events[D.Index];
    if (D.Index < B.Events.size())
      D.B = B.Events[D.Index];
    D.EndLineA = A.End;
    D.EndLineB = B.End;
    return D;
  }

  std::optional<SequenceDivergence> run() {
    for (int Size : processCounts(Ev, F, {2, 3, 4, 8}))
      if (auto D = at(Size))
        return D;
    return std::nullopt;
  }
};

SequenceResult analyse(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel, const FunctionDecl *F) {
  SequenceResult Out;
  Out.F = F;
  SequenceJob Base{Ctx, Ev, Uni, Rel, F, nullptr, {}, {}, false};
  try {
    Out.Divergence = Base.run();
    Out.Decided = true;
  } catch (const Undecided &U) {
    Out.Why = U.Why;
    debugUndecided(F, "collective", U.Why);
  }
  if (Out.Divergence || !Base.WouldFork)
    return Out;
  // Follow each outcome of the conditions the runs could not decide.
  explore([&](const Choices &C) {
    SequenceJob J{Ctx, Ev, Uni, Rel, F, &C, {}, {}, false};
    std::optional<SequenceDivergence> D = J.run();
    std::string Assumed = assumed(Ctx, C, J.Chosen, J.Decided);
    if (!D || Assumed.empty())
      return false;
    Out.Divergence = D;
    Out.Divergence->Assumed = Assumed;
    Out.Decided = true;
    return true;
  });
  return Out;
}
} // namespace
} // namespace ompi::ranks

using namespace ompi;
using namespace ompi::ranks;

std::vector<SequenceResult> ompi::collectiveSequences(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel;
  Rel.Program = Ev.options().Program.get();
  std::vector<SequenceResult> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel)) {
    Out.push_back(analyse(Ctx, Ev, Uni, Rel, F));
    Out.back().Reaches = reachable(F);
  }
  return Out;
}
