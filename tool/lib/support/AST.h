//===- ASTUtil.h - Small AST helpers shared by the transformations ---------===//
#ifndef OMPI_TOOL_SUPPORT_AST_H
#define OMPI_TOOL_SUPPORT_AST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace ompi {

inline const clang::Expr *strip(const clang::Expr *E) { return E ? E->IgnoreParenCasts() : nullptr; }

/// Whether P holds for S or any statement or expression inside it.
template <typename Pred> bool anyNode(const clang::Stmt *S, Pred P) {
  if (!S)
    return false;
  if (P(S))
    return true;
  for (const clang::Stmt *C : S->children())
    if (anyNode(C, P))
      return true;
  return false;
}

/// Whether S or anything inside it names the declaration V.
inline bool refersTo(const clang::Stmt *S, const clang::ValueDecl *V) {
  return anyNode(S, [&](const clang::Stmt *X) {
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(X);
    return DRE && DRE->getDecl() == V;
  });
}

/// The variable E names (through parentheses and implicit casts), if E is
/// just a variable.
inline const clang::VarDecl *namedVar(const clang::Expr *E) {
  const auto *DRE = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

/// The variable an lvalue expression lies in: x, a[i], s.f, s.a[i].
inline const clang::VarDecl *rootVar(const clang::Expr *E) {
  E = strip(E);
  while (E) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
    if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return nullptr; // p[i]: through a pointer
      E = strip(AS->getBase());
    } else if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E); ME && !ME->isArrow()) {
      E = strip(ME->getBase());
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The parent statement of node N, through declarations (an initializer's
/// parent is its DeclStmt); null at the top of a function body. The one walk
/// up the AST the tool uses.
inline const clang::Stmt *parentStmt(clang::ASTContext &Ctx, clang::DynTypedNode N) {
  for (;;) {
    clang::DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.empty())
      return nullptr;
    if (const clang::Stmt *S = Ps[0].get<clang::Stmt>())
      return S;
    if (Ps[0].get<clang::FunctionDecl>() || !Ps[0].get<clang::Decl>())
      return nullptr;
    N = Ps[0];
  }
}
inline const clang::Stmt *parentStmt(clang::ASTContext &Ctx, const clang::Stmt *S) {
  return S ? parentStmt(Ctx, clang::DynTypedNode::create(*S)) : nullptr;
}

/// The statement E is used in, above any parentheses and casts around E;
/// Child (if given) is set to the outermost of those (E itself when none).
inline const clang::Stmt *parentThroughCasts(clang::ASTContext &Ctx, const clang::Expr *E,
                                             const clang::Expr **Child = nullptr) {
  const clang::Stmt *P = parentStmt(Ctx, E);
  while (P && llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr, clang::CStyleCastExpr>(P)) {
    E = llvm::cast<clang::Expr>(P);
    P = parentStmt(Ctx, P);
  }
  if (Child)
    *Child = E;
  return P;
}

/// The lvalue N writes when N is an assignment (=, +=, ...) or an increment
/// or decrement; null for anything else.
inline const clang::Expr *assignedLValue(const clang::Stmt *N) {
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(N); B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(N); U && U->isIncrementDecrementOp())
    return U->getSubExpr();
  return nullptr;
}

/// The body of a for, while or do statement (null for anything else).
inline const clang::Stmt *loopBody(const clang::Stmt *Loop) {
  if (const auto *F = llvm::dyn_cast_or_null<clang::ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = llvm::dyn_cast_or_null<clang::WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = llvm::dyn_cast_or_null<clang::DoStmt>(Loop))
    return D->getBody();
  return nullptr;
}

/// Whether Loop is `do ... while (0)`: a statement that runs its body once
/// (the usual wrapper of a statement-like macro), not a loop.
inline bool isDoWhileZero(const clang::Stmt *Loop) {
  const auto *D = llvm::dyn_cast_or_null<clang::DoStmt>(Loop);
  const auto *Zero = D ? llvm::dyn_cast<clang::IntegerLiteral>(D->getCond()->IgnoreParenImpCasts()) : nullptr;
  return Zero && Zero->getValue() == 0;
}

/// The for, while and do statements around S within its function,
/// innermost first (not `do ... while (0)`, which runs once).
inline std::vector<const clang::Stmt *> enclosingLoops(clang::ASTContext &Ctx, const clang::Stmt *S) {
  std::vector<const clang::Stmt *> R;
  for (const clang::Stmt *P = parentStmt(Ctx, S); P; P = parentStmt(Ctx, P))
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(P) && !isDoWhileZero(P))
      R.push_back(P);
  return R;
}

/// Limit every traversal of the translation unit (the parent map, the
/// visitors' TraverseDecl of it) to the declarations that can hold code or
/// are the main file's: functions with bodies and variables with
/// initialisers from the headers, everything of the main file. The
/// prototypes, types and macros-made declarations of mpi.h, stdio.h and the
/// rest hold no statement an analysis asks about, and walking them was about
/// a tenth of a small file's run.
inline void limitTraversalToCode(clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::vector<clang::Decl *> Scope;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
    const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())) || (F && F->doesThisDeclarationHaveABody()) ||
        (V && V->hasInit()))
      Scope.push_back(D);
  }
  Ctx.setTraversalScope(Scope);
}

} // namespace ompi

#endif
