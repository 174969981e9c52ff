//===- PathValues.h - The values an argument may have on some path -------===//
//
// A variable set to different values on different paths (a count chosen
// by an if) is dynamic to the evaluator; a check of invalid values still
// wants to know that one of those paths passes a bad one. pathValues gives
// the argument's value when it is known, else the value of each reaching
// definition, leaving out a definition when the variable is tested by a
// condition between the definition and the call (a guard such as
// "if (peer >= 0)" may exclude that path: the check then stays silent), or
// when every path to the call sets the variable again after the definition
// (under conditions spelled like those that guard the call).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_PATHVALUES_H
#define OMPI_TOOL_CHECKS_PATHVALUES_H

#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

namespace ompi {

struct PathValue {
  SymValue Value;
  std::string Where; ///< "" when the value holds on every path, else " (as set at line N)"
};

/// Whether a condition of F between lines From and To tests the variable V.
inline bool testedBetween(clang::ASTContext &Ctx, const clang::FunctionDecl *F, const clang::VarDecl *V, unsigned From,
                          unsigned To) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  return anyNode(F->getBody(), [&](const clang::Stmt *N) {
    const clang::Stmt *Cond = nullptr;
    if (const auto *I = llvm::dyn_cast<clang::IfStmt>(N))
      Cond = I->getCond();
    else if (const auto *W = llvm::dyn_cast<clang::WhileStmt>(N))
      Cond = W->getCond();
    else if (const auto *Fo = llvm::dyn_cast<clang::ForStmt>(N))
      Cond = Fo->getCond();
    else if (const auto *D = llvm::dyn_cast<clang::DoStmt>(N))
      Cond = D->getCond();
    else if (const auto *Sw = llvm::dyn_cast<clang::SwitchStmt>(N))
      Cond = Sw->getCond();
    else if (const auto *CO = llvm::dyn_cast<clang::ConditionalOperator>(N))
      Cond = CO->getCond();
    else if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(N); B && B->isLogicalOp())
      Cond = B->getLHS();
    if (!Cond)
      return false;
    unsigned L = SM.getExpansionLineNumber(Cond->getBeginLoc());
    return L >= From && L <= To && refersTo(Cond, V);
  });
}

/// The conditions of the if statements whose then-branch holds S, or none
/// when S may be skipped otherwise (an else branch, a loop, a switch, the
/// right of && or ||, an arm of ?:).
inline std::optional<std::vector<std::string>> guardsOf(CheckContext &C, const clang::Stmt *S) {
  std::vector<std::string> Out;
  for (const clang::Stmt *Cur = S, *P = parentStmt(C.Ctx, S); P; Cur = P, P = parentStmt(C.Ctx, P)) {
    if (const auto *I = llvm::dyn_cast<clang::IfStmt>(P)) {
      if (I->getThen() == Cur)
        Out.push_back(C.Ev.text(I->getCond()));
      else if (I->getElse() == Cur)
        return std::nullopt;
    } else if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt, clang::CaseStmt,
                         clang::DefaultStmt, clang::ConditionalOperator>(P)) {
      return std::nullopt;
    } else if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(P); B && B->isLogicalOp() && B->getRHS() == Cur) {
      return std::nullopt;
    }
  }
  return Out;
}

/// Whether V is assigned between line From and the call CR where every path
/// to the call assigns it: under if conditions, spelled the same, that also
/// guard the call ("if (me == last) p = malloc(...); ... if (me == last)
/// MPI_Put(p, ...)" passes the malloc'd p, not the value p had before).
inline bool reassignedOnEveryPath(CheckContext &C, const CallResult &CR, const clang::VarDecl *V, unsigned From) {
  std::optional<std::vector<std::string>> Guards = guardsOf(C, CR.Call);
  if (!Guards)
    return false;
  const clang::SourceManager &SM = C.Ctx.getSourceManager();
  return anyNode(CR.Caller->getBody(), [&](const clang::Stmt *N) {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(N);
    if (!B || B->getOpcode() != clang::BO_Assign || namedVar(B->getLHS()) != V)
      return false;
    unsigned L = SM.getExpansionLineNumber(B->getBeginLoc());
    if (L <= From || L >= CR.Line)
      return false;
    std::optional<std::vector<std::string>> Mine = guardsOf(C, B);
    return Mine && llvm::all_of(*Mine, [&](const std::string &G) { return llvm::is_contained(*Guards, G); });
  });
}

/// The values the argument E of the call CR may have (see above).
inline std::vector<PathValue> pathValues(CheckContext &C, const CallResult &CR, const clang::Expr *E) {
  SymValue V = C.Ev.evaluate(E, CR.Caller, CR.Call);
  if (V.K != SymValue::Dynamic)
    return {{V, ""}};
  std::vector<PathValue> Out;
  const auto *Var = namedVar(E);
  for (const Evaluator::Alternative &A : C.Ev.alternatives(E, CR.Caller, CR.Call))
    if (A.Value.K != SymValue::Dynamic && Var && !testedBetween(C.Ctx, CR.Caller, Var, A.Line, CR.Line) &&
        !reassignedOnEveryPath(C, CR, Var, A.Line))
      Out.push_back({A.Value, llvm::formatv(" (as set at line {0}, one of the values reaching the call)", A.Line)});
  return Out;
}

/// The values two arguments A and B of the call CR may have together: each
/// of A's with each of B's, except that one variable passed as both takes
/// one value per path.
inline std::vector<std::pair<PathValue, PathValue>> pathValuePairs(CheckContext &C, const CallResult &CR,
                                                                   const clang::Expr *A, const clang::Expr *B) {
  const clang::VarDecl *V = namedVar(A);
  bool Same = V && V == namedVar(B);
  std::vector<PathValue> Bs = pathValues(C, CR, B);
  std::vector<std::pair<PathValue, PathValue>> Out;
  for (PathValue &X : pathValues(C, CR, A))
    for (const PathValue &Y : Bs)
      if (!Same || X.Where == Y.Where)
        Out.push_back({X, Y});
  return Out;
}

} // namespace ompi

#endif
