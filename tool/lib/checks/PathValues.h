//===- PathValues.h - The values an argument may have on some path -------===//
//
// A variable set to different values on different paths (a count chosen
// by an if) is dynamic to the evaluator; a check of invalid values still
// wants to know that one of those paths passes a bad one. pathValues gives
// the argument's value when it is known, else the value of each reaching
// definition, leaving out a definition when the variable is tested by a
// condition between the definition and the call (a guard such as
// "if (peer >= 0)" may exclude that path: the check then stays silent).
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
  auto refersToV = [&](const clang::Stmt *S) {
    return S && anyNode(S, [&](const clang::Stmt *N) {
             const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(N);
             return D && D->getDecl() == V;
           });
  };
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
    return L >= From && L <= To && refersToV(Cond);
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
    if (A.Value.K != SymValue::Dynamic && Var && !testedBetween(C.Ctx, CR.Caller, Var, A.Line, CR.Line))
      Out.push_back({A.Value, llvm::formatv(" (as set at line {0}, one of the values reaching the call)", A.Line)});
  return Out;
}

} // namespace ompi

#endif
