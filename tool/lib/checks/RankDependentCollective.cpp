//===- RankDependentCollective.cpp - Check: rank-dependent-collective -------===//
//
// a collective inside an if, for or while whose condition depends on the
// rank in the collective's own communicator (the evaluator's rank-relative
// values), unless the other branch of the if calls the same collective (the
// root / non-root idiom). Conditions on the size, or on the rank of another
// communicator (a split's colour), are uniform for the collective's members
// and not reported. Nor are calls of functions whose every rank
// analysis/CollectiveSequence follows and finds issuing the same
// collectives, and the call where collective-sequence reports a divergence.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>

using namespace clang;

namespace ompi {

static bool callsFunction(const Stmt *S, llvm::StringRef Name) {
  return anyNode(S, [&](const Stmt *N) {
    const auto *CE = dyn_cast<CallExpr>(N);
    const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
    return F && F->getIdentifier() && F->getName() == Name;
  });
}

/// Whether the condition compares with a variable that one path sets to
/// the size or more ("participants = size" on one path, a constant on
/// another): "rank < participants" may then hold on every rank.
static bool mayBeSize(CheckContext &C, const Expr *Cond, const CallResult &CR) {
  return anyNode(Cond, [&](const Stmt *N) {
    const auto *D = dyn_cast<DeclRefExpr>(N);
    if (!D || !isa<VarDecl>(D->getDecl()))
      return false;
    std::vector<Evaluator::Alternative> Alts = C.Ev.alternatives(D, CR.Caller, Cond->IgnoreParens());
    if (Alts.empty())
      Alts = C.Ev.alternatives(D, CR.Caller, D);
    for (const Evaluator::Alternative &A : Alts)
      if (A.Value.K == SymValue::Affine && A.Value.A.Rank == 0 && A.Value.A.Size >= 1 && A.Value.A.Const >= 0 &&
          A.Value.A.Mod == AffineForm::NoMod)
        return true;
    return false;
  });
}

void checkRankDependentCollectives(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Model->isCollective() || !CR.Call || !CR.Caller || C.sequencesAgree(CR.Caller) ||
        C.sequenceDivergesAt(CR.Call))
      continue; // every rank's collectives agree, or collective-sequence reports this call
    const ArgResult *CommArg = CR.arg(Role::Comm);
    if (!CommArg)
      continue;
    CommId Comm = C.Ev.commId(CR.expr(*CommArg), CR.Caller, CR.Call);
    const Stmt *Child = CR.Call;
    for (const Stmt *P = parentStmt(C.Ctx, CR.Call); P; Child = P, P = parentStmt(C.Ctx, P)) {
      const Expr *Cond = nullptr;
      const Stmt *Other = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond()) {
        Cond = If->getCond();
        Other = Child == If->getThen() ? If->getElse() : If->getThen();
      } else if (const auto *F = dyn_cast<ForStmt>(P); F && Child == F->getBody()) {
        Cond = F->getCond();
      } else if (const auto *W = dyn_cast<WhileStmt>(P); W && Child == W->getBody()) {
        Cond = W->getCond();
      }
      if (Cond && !(Other && callsFunction(Other, CR.Function)) && !mayBeSize(C, Cond, CR)) {
        const DeclRefExpr *RankRef = nullptr;
        anyNode(Cond, [&](const Stmt *N) {
          const auto *D = dyn_cast<DeclRefExpr>(N);
          if (!D || RankRef || !isa<VarDecl>(D->getDecl()))
            return false;
          SymValue V = C.Ev.evaluate(D, CR.Caller, Cond);
          if (V.K == SymValue::Dynamic)
            V = C.Ev.evaluate(D, CR.Caller, CR.Call);
          if (V.K == SymValue::Affine && V.A.Rank != 0 && Comm.known() && V.Comm == Comm)
            RankRef = D;
          return RankRef != nullptr;
        });
        if (RankRef) {
          std::string Text =
              Lexer::getSourceText(CharSourceRange::getTokenRange(Cond->getSourceRange()), SM, C.Ctx.getLangOpts())
                  .str();
          Finding *D =
              C.report("rank-dependent-collective", CR.Call->getBeginLoc(),
                       llvm::formatv("{0} is reached only by the ranks for which '{1}' (line {2}) holds, as '{3}' is "
                                     "the rank: every rank of {4} must call the collective",
                                     CR.Function, Text, SM.getExpansionLineNumber(Cond->getBeginLoc()),
                                     RankRef->getDecl()->getName(), CommArg->Text)
                           .str());
          if (D)
            C.note(
                *D, Cond->getBeginLoc(),
                llvm::formatv("the condition that selects the ranks ('{0}' is the rank)", RankRef->getDecl()->getName())
                    .str());
          break;
        }
      }
    }
  }
}

} // namespace ompi
