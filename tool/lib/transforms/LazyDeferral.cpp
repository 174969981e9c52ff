//===- LazyDeferral.cpp - Rewrite: hand reductions to the lazy runtime ----===//
//
// Rewrites the deferrals of the reduction plan (analysis/DeferralPlan.h
// states what is proved): each deferred call is renamed to its runtime
// counterpart, each force point gets a wait, and the file includes the
// runtime's header.
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {

llvm::Error rewrite(const DeferralPlan &Plan, ASTContext &Ctx, tooling::Replacements &Out,
                    std::vector<ChangeNote> &Notes, TransformContext &TC) {
  for (const ChangeNote &N : Plan.Declined)
    Notes.push_back(N);
  if (Plan.Calls.empty())
    return llvm::Error::success();
  TC.needs("#include <mpiopt/lazy_optional.h>"); // the runtime's header; linking the runtime is optional
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  auto Add = [&](tooling::Replacement R) -> llvm::Error { return Out.add(R); };
  auto Wait = [](const std::string &V) { return "mpiopt_lazy_wait_range(&" + V + ", sizeof(" + V + "));"; };
  unsigned Decls = 0; // waits among a block's declarations: declarations too
  auto WaitDecl = [&](const std::string &V) {
    return "mpiopt_lazy_wait_decl(mpiopt_wait" + std::to_string(++Decls) + ", &" + V + ", sizeof(" + V + "));";
  };

  for (const DeferredCall &D : Plan.Calls) {
    if (auto E = Add(tooling::Replacement(SM, CharSourceRange::getTokenRange(D.Callee, D.Callee), D.To, LO)))
      return E;
    Notes.push_back(D.Note);
  }
  // Force points at one place are merged into one insertion.
  std::map<std::pair<unsigned, int>, std::vector<const ForcePoint *>> At;
  for (const ForcePoint &FP : Plan.Forces)
    At[{SM.getFileOffset(FP.At), FP.K}].push_back(&FP);
  for (auto &[Key, FPs] : At) {
    const ForcePoint &F = *FPs.front();
    std::string Text;
    switch (F.K) {
    case ForcePoint::Before:
      for (const ForcePoint *P : FPs)
        Text += (F.AsDeclaration ? WaitDecl(P->Var) : Wait(P->Var)) + "\n" + F.Indent;
      if (auto E = Add(tooling::Replacement(SM, F.At, 0, Text)))
        return E;
      break;
    case ForcePoint::BeforeBrace:
      for (const ForcePoint *P : FPs)
        Text += "  " + Wait(P->Var) + "\n" + F.Indent;
      if (auto E = Add(tooling::Replacement(SM, F.At, 0, Text)))
        return E;
      break;
    case ForcePoint::Braces:
      Text = "{ ";
      for (const ForcePoint *P : FPs)
        Text += Wait(P->Var) + " ";
      if (auto E = Add(tooling::Replacement(SM, F.At, 0, Text)))
        return E;
      if (auto E = Add(tooling::Replacement(SM, F.End, 0, " }")))
        return E;
      break;
    case ForcePoint::Comma: {
      std::string W = Wait(F.Var);
      W.pop_back(); // no ';' inside an expression
      if (auto E = Add(
              tooling::Replacement(SM, CharSourceRange::getTokenRange(F.At, F.End), "(" + W + ", " + F.Var + ")", LO)))
        return E;
      break;
    }
    }
    for (const ForcePoint *P : FPs)
      Notes.push_back(P->Note);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error ompi::runLazyDeferral(TransformContext &TC) {
  const ReductionPlan &P = TC.Plans.get(TC.enabled("reduction-fusion"), true);
  return rewrite(P.Deferral, TC.Ctx, TC.Out, TC.Notes, TC);
}
