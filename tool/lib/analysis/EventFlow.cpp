//===- EventFlow.cpp - Sets of states along a function's CFG --------------===//
#include "analysis/EventFlow.h"
#include "support/AST.h"
#include "clang/Analysis/CFG.h"
#include <map>
#include <optional>

using namespace clang;
using namespace ompi;

namespace {

/// The CFG point of S: its own, or the first of a statement inside it.
std::optional<Point> pointIn(FunctionAnalysis &FA, const Stmt *S) {
  if (!S)
    return std::nullopt;
  if (std::optional<Point> P = FA.pointOf(S))
    return P;
  for (const Stmt *Child : subStmts(S))
    if (std::optional<Point> P = pointIn(FA, Child))
      return P;
  return std::nullopt;
}

} // namespace

StateFlow ompi::flowStates(FunctionAnalysis &FA, llvm::ArrayRef<const Stmt *> Where, int Entry,
                           llvm::function_ref<std::set<int>(unsigned K, const std::set<int> &Before)> Step) {
  StateFlow R;
  R.At.resize(Where.size());
  const CFG &G = FA.cfg();
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPoint;
  for (unsigned K = 0; K < Where.size(); ++K)
    if (std::optional<Point> P = pointIn(FA, Where[K]))
      ByPoint[{P->Block, P->Index}].push_back(K);
  std::vector<std::optional<std::set<int>>> In(G.getNumBlockIDs());
  In[G.getEntry().getBlockID()] = std::set<int>{Entry};
  std::vector<const CFGBlock *> Work{&G.getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    std::set<int> S = *In[B->getBlockID()];
    for (unsigned I = 0; I < B->size(); ++I) {
      auto It = ByPoint.find({B->getBlockID(), I});
      if (It == ByPoint.end())
        continue;
      for (unsigned K : It->second) {
        R.At[K].insert(S.begin(), S.end());
        S = Step(K, S);
      }
    }
    if (B == &G.getExit())
      R.Exit = S;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      std::optional<std::set<int>> &Next = In[Succ->getBlockID()];
      size_t Before = Next ? Next->size() : 0;
      if (!Next)
        Next = std::set<int>();
      Next->insert(S.begin(), S.end());
      if (Next->size() != Before || Before == 0)
        Work.push_back(Succ);
    }
  }
  return R;
}
