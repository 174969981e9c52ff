//===- RankDependentCollective.cpp - Check: rank-dependent-collective -------===//
//
// a collective inside an if, for or while whose condition depends on the
// rank in the collective's own communicator (the evaluator's rank-relative
// values; a duplicate's ranks are its parent's, Evaluator::sameRanks), unless the other branch of the if calls the same
// collective (the root / non-root idiom). Conditions on the size, or on the rank of another communicator (a split's
// colour), are uniform for the collective's members and not reported. Nor are collectives on MPI_COMM_WORLD in
// functions whose every rank analysis/ranks follows and finds issuing the same collectives (it leaves out
// a created communicator's: those are this check's). Where collective-sequence reports a divergence at the call, the
// finding is marked as covered by it, and the driver keeps only collective-sequence's when both run.
//
//===----------------------------------------------------------------------===//
#include "analysis/ranks/RankTraces.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>
#include <set>

using namespace clang;

namespace ompi {

/// Whether S may call the MPI function Name: itself, in a function of this
/// file it calls (directly or through others), or in code the file does
/// not hold (a function of another file the program's facts do not clear,
/// a call through a pointer: ranks::unseenCallee).
static bool mayCallFunction(CheckContext &C, const Stmt *S, llvm::StringRef Name,
                            std::set<const FunctionDecl *> &Seen) {
  return anyNode(S, [&](const Stmt *N) {
    const auto *CE = dyn_cast<CallExpr>(N);
    if (!CE)
      return false;
    const FunctionDecl *F = CE->getDirectCallee(), *Def = nullptr;
    if (F && F->getIdentifier() && F->getName() == Name)
      return true;
    if (F && F->hasBody(Def) && Def)
      return Seen.insert(Def).second && mayCallFunction(C, Def->getBody(), Name, Seen);
    return unseenCallee(CE, C.Ev).has_value();
  });
}

static bool callsFunction(CheckContext &C, const Stmt *S, llvm::StringRef Name) {
  std::set<const FunctionDecl *> Seen;
  return mayCallFunction(C, S, Name, Seen);
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

/// Whether Cond is false on every rank (int flag = 0; if (flag && ...)):
/// the branch is dead, and no rank reaches its collective.
static bool staticallyFalse(CheckContext &C, const Expr *Cond, const CallResult &CR) {
  Cond = Cond->IgnoreParenImpCasts();
  SymValue V = C.Ev.evaluate(Cond, CR.Caller, Cond);
  if (V.K == SymValue::Int)
    return V.I == 0;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond); B && B->getOpcode() == BO_LAnd)
    return staticallyFalse(C, B->getLHS(), CR) || staticallyFalse(C, B->getRHS(), CR);
  return false;
}

/// The variable of Cond that holds the rank in Comm, if any.
static const DeclRefExpr *rankIn(CheckContext &C, const CallResult &CR, const Expr *Cond, const CommId &Comm) {
  const DeclRefExpr *RankRef = nullptr;
  anyNode(Cond, [&](const Stmt *N) {
    const auto *D = dyn_cast<DeclRefExpr>(N);
    if (!D || RankRef || !isa<VarDecl>(D->getDecl()))
      return false;
    SymValue V = C.Ev.evaluate(D, CR.Caller, Cond);
    if (V.K == SymValue::Dynamic)
      V = C.Ev.evaluate(D, CR.Caller, CR.Call);
    if (V.K == SymValue::Affine && V.A.Rank != 0 && C.Ev.sameRanks(V.Comm, Comm))
      RankRef = D;
    return RankRef != nullptr;
  });
  return RankRef;
}

/// The if-else-if chain an if statement belongs to: each arm's condition
/// (null for a final else) and body.
static std::vector<std::pair<const Expr *, const Stmt *>> ifChain(ASTContext &Ctx, const IfStmt *If) {
  for (const Stmt *P = parentStmt(Ctx, If); P; P = parentStmt(Ctx, If)) {
    const auto *Up = dyn_cast<IfStmt>(P);
    if (!Up || Up->getElse() != If)
      break;
    If = Up;
  }
  std::vector<std::pair<const Expr *, const Stmt *>> Arms;
  for (;;) {
    Arms.push_back({If->getCond(), If->getThen()});
    const Stmt *E = If->getElse();
    if (!E)
      break;
    If = dyn_cast<IfStmt>(E);
    if (!If) {
      Arms.push_back({nullptr, E});
      break;
    }
  }
  return Arms;
}

/// A collective that several arms of an if-else-if chain call (if (rank ==
/// 0) {coll} else if (rank == 1) {coll}): the ranks that skip it are those
/// of the other arms, or of no arm. True when the chain speaks for the call
/// (reported, or every rank calls it, or collective-sequence reports it).
static bool reportChain(CheckContext &C, const CallResult &CR, const IfStmt *If, const DeclRefExpr *RankRef,
                        llvm::StringRef Comm) {
  auto Arms = ifChain(C.Ctx, If);
  std::vector<std::string> Calling, Skipping;
  const SourceManager &SM = C.Ctx.getSourceManager();
  bool Diverges = false;
  const CallExpr *First = nullptr;
  for (auto &[Cond, Body] : Arms) {
    std::string Where =
        Cond ? llvm::formatv("'{0}' (line {1})", C.Ev.text(Cond), SM.getExpansionLineNumber(Cond->getBeginLoc())).str()
             : "the final else";
    bool Calls = anyNode(Body, [&](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
      if (!F || !F->getIdentifier() || F->getName() != CR.Function)
        return false;
      Diverges |= C.sequenceDivergesAt(CE);
      First = First ? First : CE;
      return true;
    });
    (Calls ? Calling : Skipping).push_back(Where);
  }
  if (Calling.size() < 2)
    return false;
  if ((Skipping.empty() && !Arms.back().first) || First != CR.Call)
    return true; // one finding, at the first arm's call
  std::string Skip = Skipping.empty() ? "the ranks for which none of them holds"
                                      : "the ranks that take " + llvm::join(Skipping, " or ") +
                                            (Arms.back().first ? ", or no arm," : "");
  Finding *D =
      C.report("rank-dependent-collective", CR.Call->getBeginLoc(),
               llvm::formatv("{0} is called in the arms of {1} ('{2}' is the rank), but {3} skip it: every rank of {4} "
                             "must call the collective",
                             CR.Function, llvm::join(Calling, " and "), RankRef->getDecl()->getName(), Skip, Comm)
                   .str());
  if (D && Diverges)
    D->CoveredBy = "collective-sequence";
  return true;
}

void checkRankDependentCollectives(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Model->isCollective() || !CR.Call || !CR.Caller)
      continue;
    // Where collective-sequence reports a divergence at this call, its
    // finding (both paths) replaces this one when both checks run.
    bool Covered = C.sequenceDivergesAt(CR.Call);
    const ArgResult *CommArg = CR.arg(Role::Comm);
    if (!CommArg)
      continue;
    CommId Comm = C.Ev.commId(CR.expr(*CommArg), CR.Caller, CR.Call);
    // collective-sequence compares MPI_COMM_WORLD's collectives and leaves
    // out those of a communicator the function created: it speaks for the
    // call only on the world.
    if (C.sequencesAgree(CR.Caller) && Comm.isWorld())
      continue; // every rank's collectives agree
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
      if (Cond && staticallyFalse(C, Cond, CR))
        break; // a dead branch: no rank calls it
      const DeclRefExpr *RankRef = Cond && !mayBeSize(C, Cond, CR) ? rankIn(C, CR, Cond, Comm) : nullptr;
      if (const auto *If = dyn_cast<IfStmt>(P); RankRef && If && reportChain(C, CR, If, RankRef, CommArg->Text))
        break;
      if (Cond && !(Other && callsFunction(C, Other, CR.Function))) {
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
          if (D && Covered)
            D->CoveredBy = "collective-sequence";
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
