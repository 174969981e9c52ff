//===- BufferStorage.cpp - Where a buffer argument lies, and who reads it -===//
#include "analysis/BufferStorage.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

/// The pointer variable a buffer argument points into: p, p + k, p - k,
/// &p[k], through casts.
const VarDecl *basePointer(const Expr *E) {
  E = E ? E->IgnoreParenCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
      E = A->getBase()->IgnoreParenCasts();
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(E); B && B->isAdditiveOp())
    E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenCasts();
  const VarDecl *V = namedVar(E);
  return V && V->getType()->isPointerType() ? V : nullptr;
}

/// The first read, in the arguments of a call, of the memory a receive
/// writes: its buffer's storage or its status object by name, or anything
/// through a pointer outside the call's own buffer argument (whose address
/// is no read).
struct WrittenReader : RecursiveASTVisitor<WrittenReader> {
  const VarDecl *Obj, *Status;
  bool Buffer = false; ///< visiting the buffer argument
  std::optional<WrittenRead> Found;
  /// Operands of & (and arrays in &a[k]), and an array named as the buffer
  /// (a, a + k): their address is no read.
  std::set<const DeclRefExpr *> Addressed;

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (Addressed.count(D))
      return true;
    if (D->getDecl() == Obj || (Status && D->getDecl() == Status))
      Found = WrittenRead{D->getDecl()->getNameAsString(), false};
    return !Found;
  }
  bool throughPointer() {
    if (!Buffer)
      Found = WrittenRead{"", true};
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf) {
      const Expr *Sub = U->getSubExpr()->IgnoreParens();
      // &a[k] of an array a: its address, no read of a (k is read, and
      // visited on its own).
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(Sub))
        if (const auto *D = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
            D && D->getType()->isArrayType())
          Addressed.insert(D);
      if (const auto *D = dyn_cast<DeclRefExpr>(Sub))
        Addressed.insert(D);
    }
    return U->getOpcode() != UO_Deref || throughPointer();
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    return !A->getBase()->IgnoreParenImpCasts()->getType()->isPointerType() || throughPointer();
  }
  bool VisitMemberExpr(MemberExpr *M) { return !M->isArrow() || throughPointer(); }
};

} // namespace

const VarDecl *ompi::addressObject(const ArgResult *A) {
  return A && A->Sym.K == SymValue::Address ? A->Sym.Obj : nullptr;
}

const VarDecl *ompi::bufferStorage(ASTContext &Ctx, const CallResult &C, Role R) {
  if (const VarDecl *V = addressObject(C.arg(R)))
    return V;
  const VarDecl *P = basePointer(C.expr(R));
  return onlyAllocation(Ctx, P, C.Caller) ? P : nullptr;
}

std::optional<WrittenRead> ompi::readsWritten(const CallExpr *CE, const Expr *Buffer, const VarDecl *Obj,
                                              const VarDecl *Status) {
  WrittenReader R{{}, Obj, Status, false, std::nullopt, {}};
  if (const Expr *E = Buffer ? Buffer->IgnoreParenCasts() : nullptr) {
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp())
      E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E); D && D->getType()->isArrayType())
      R.Addressed.insert(D);
  }
  for (const Expr *A : CE->arguments()) {
    if (R.Found)
      break;
    R.Buffer = A == Buffer;
    R.TraverseStmt(const_cast<Expr *>(A));
  }
  return R.Found;
}
