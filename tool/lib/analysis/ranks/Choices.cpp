//===- Choices.cpp - Runs over conditions no run decides ------------------===//
#include "analysis/ranks/Interpreter.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace ompi::ranks {

/// A condition that compares a variable with a constant ("n > 1", "!n",
/// "n"), as the variable, the comparison and the constant.
namespace {

struct Bound {
  const VarDecl *V = nullptr;
  BinaryOperatorKind Op = BO_NE;
  int64_t C = 0;
};

std::optional<Bound> boundOf(ASTContext &Ctx, const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const VarDecl *V = namedVar(E))
    return Bound{V, BO_NE, 0};
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    if (const VarDecl *V = namedVar(U->getSubExpr()))
      return Bound{V, BO_EQ, 0};
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  Expr::EvalResult R;
  if (const VarDecl *V = namedVar(B->getLHS()); V && B->getRHS()->EvaluateAsInt(R, Ctx))
    return Bound{V, B->getOpcode(), R.Val.getInt().getExtValue()};
  if (const VarDecl *V = namedVar(B->getRHS()); V && B->getLHS()->EvaluateAsInt(R, Ctx))
    return Bound{V, BinaryOperator::reverseComparisonOp(B->getOpcode()), R.Val.getInt().getExtValue()};
  return std::nullopt;
}

/// Whether the outcomes Fixed gives the conditions Chosen took can hold
/// together, as far as comparisons of one variable with constants tell
/// ("argc == 1" and "argc > 2" cannot both hold).
bool feasible(ASTContext &Ctx, const Choices &Fixed, const Taken &Chosen) {
  std::map<const VarDecl *, std::vector<std::pair<Bound, bool>>> ByVar;
  for (const auto &[Text, E] : Chosen)
    if (std::optional<Bound> B = boundOf(Ctx, E))
      ByVar[B->V].push_back({*B, Fixed.at(Text)});
  for (const auto &[V, Bs] : ByVar) {
    bool Any = false;
    for (const auto &[B, _] : Bs)
      for (int64_t X : {B.C - 1, B.C, B.C + 1})
        Any |= llvm::all_of(Bs, [&, X = X](const std::pair<Bound, bool> &P) {
          return (apply(P.first.Op, X, P.first.C).value_or(0) != 0) == P.second;
        });
    if (!Any)
      return false;
  }
  return true;
}

} // namespace

/// The conditions a job took from its choices, in words ("'argc == 1'
/// holds"), or "" when the runs were not real (a rank decided a condition
/// another took as given) or took none.
std::string assumed(ASTContext &Ctx, const Choices &Fixed, const Taken &Chosen, const std::set<std::string> &Decided) {
  if (!feasible(Ctx, Fixed, Chosen))
    return "";
  std::vector<std::string> Out;
  for (const auto &[C, E] : Chosen) {
    if (Decided.count(C))
      return "";
    Out.push_back("'" + C + "' " + (Fixed.at(C) ? "holds" : "does not hold"));
  }
  return llvm::join(Out, " and ");
}

/// Runs Job once for each outcome of the conditions that every rank
/// evaluates alike but the runs cannot decide (argc, input), as the runs ask
/// for them, until Job returns true or 16 jobs have run.
void explore(llvm::function_ref<bool(const Choices &)> Job) {
  std::vector<Choices> Work{{}};
  for (unsigned N = 0; !Work.empty() && N < 16; ++N) {
    Choices C = std::move(Work.back());
    Work.pop_back();
    try {
      if (Job(C))
        return;
    } catch (const NeedChoice &W) {
      for (bool B : {false, true}) {
        Work.push_back(C);
        Work.back()[W.Cond] = B;
      }
    } catch (const Undecided &) {
    }
  }
}

} // namespace ompi::ranks
