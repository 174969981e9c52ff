//===- BufferUses.h - The buffers of a call, for the buffer checks --------===//
//
// Each buffer argument of a call with the datatype and count that describe
// it, and the element type a buffer expression points to: shared by
// type-mismatch, count-overflow and pointer-to-pointer.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_BUFFERUSES_H
#define OMPI_TOOL_CHECKS_BUFFERUSES_H

#include "analysis/CallAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace ompi {

struct BufferUse {
  const ArgResult *Buf, *Type, *Count;
};

/// Each buffer argument of a call with the datatype and count that describe it.
inline std::vector<BufferUse> buffers(const CallResult &CR) {
  std::vector<BufferUse> R;
  auto pick = [&](Role A, Role B) { return CR.arg(A) ? CR.arg(A) : CR.arg(B); };
  if (const ArgResult *B = CR.arg(Role::SendBuf))
    R.push_back({B, pick(Role::SendType, Role::Type), pick(Role::SendCount, Role::Count)});
  if (const ArgResult *B = CR.arg(Role::RecvBuf))
    R.push_back({B, pick(Role::RecvType, Role::Type), pick(Role::RecvCount, Role::Count)});
  if (const ArgResult *B = CR.arg(Role::Buf))
    R.push_back({B, CR.arg(Role::Type), CR.arg(Role::Count)});
  return R;
}

/// The buffer expression without implicit conversions or casts to void *.
inline const clang::Expr *bufferExpr(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *CE = llvm::dyn_cast<clang::ExplicitCastExpr>(E)) {
    clang::QualType T = CE->getType();
    if (!T->isPointerType() || !T->getPointeeType()->isVoidType())
      break;
    E = CE->getSubExpr()->IgnoreParenImpCasts();
  }
  return E;
}

/// The element type a buffer expression points to (null type if unknown).
inline clang::QualType elementType(const clang::Expr *E) {
  clang::QualType T = E->getType();
  if (const clang::ArrayType *A = T->getAsArrayTypeUnsafe())
    return A->getElementType();
  if (T->isPointerType())
    return T->getPointeeType();
  return clang::QualType();
}

inline bool sameType(clang::QualType A, clang::QualType B) {
  return A.getCanonicalType().getUnqualifiedType() == B.getCanonicalType().getUnqualifiedType();
}

inline std::string spell(clang::QualType T) { return T.getAsString(clang::PrintingPolicy(clang::LangOptions())); }

} // namespace ompi

#endif
