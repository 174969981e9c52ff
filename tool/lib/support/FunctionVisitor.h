//===- FunctionVisitor.h - A visitor that knows the enclosing function -----===//
#ifndef OMPI_TOOL_FUNCTIONVISITOR_H
#define OMPI_TOOL_FUNCTIONVISITOR_H

#include "clang/AST/RecursiveASTVisitor.h"

namespace ompi {

/// A RecursiveASTVisitor whose Cur is the function definition being
/// traversed (null outside function bodies).
template <typename Derived> class FunctionVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  bool TraverseFunctionDecl(clang::FunctionDecl *FD) {
    const clang::FunctionDecl *Saved = Cur;
    if (FD->doesThisDeclarationHaveABody())
      Cur = FD;
    bool R = clang::RecursiveASTVisitor<Derived>::TraverseFunctionDecl(FD);
    Cur = Saved;
    return R;
  }

protected:
  const clang::FunctionDecl *Cur = nullptr;
};

} // namespace ompi

#endif
