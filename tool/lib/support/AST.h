//===- ASTUtil.h - Small AST helpers shared by the transformations ---------===//
#ifndef OMPI_TOOL_SUPPORT_AST_H
#define OMPI_TOOL_SUPPORT_AST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
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

/// The for, while and do statements around S within its function,
/// innermost first.
inline std::vector<const clang::Stmt *> enclosingLoops(clang::ASTContext &Ctx, const clang::Stmt *S) {
  std::vector<const clang::Stmt *> R;
  if (!S)
    return R;
  clang::DynTypedNodeList Ps = Ctx.getParents(*S);
  while (!Ps.empty()) {
    if (Ps[0].get<clang::FunctionDecl>())
      break;
    if (const clang::Stmt *P = Ps[0].get<clang::Stmt>()) {
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(P))
        R.push_back(P);
      Ps = Ctx.getParents(*P);
      continue;
    }
    Ps = Ctx.getParents(Ps[0]);
  }
  return R;
}

} // namespace ompi

#endif
