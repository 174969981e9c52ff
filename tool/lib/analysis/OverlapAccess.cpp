//===- OverlapAccess.cpp - Where buffers and accesses lie, for reordering -===//
#include "analysis/OverlapAccess.h"
#include "analysis/Effects.h"
#include "mpi/CallModel.h"
#include "support/AST.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"

using namespace clang;
using namespace ompi;

bool OverlapMemory::owns(const VarDecl *P) {
  if (!P || !(P->hasLocalStorage() || P->isStaticLocal() || !P->isExternallyVisible()))
    return false;
  const OwnedPointer *O = Owned.find(P);
  return O && !O->reach();
}

Place OverlapMemory::pointee(const Expr *E) {
  E = E ? E->IgnoreParenCasts() : nullptr;
  while (const auto *B = dyn_cast_or_null<BinaryOperator>(E)) {
    if (!B->isAdditiveOp())
      break;
    E = (B->getLHS()->getType()->isPointerType() || B->getLHS()->getType()->isArrayType() ? B->getLHS() : B->getRHS())
            ->IgnoreParenCasts();
  }
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return lvaluePlace(U->getSubExpr());
  // An array that is an element or a field (u[0] of double u[N][M], s.buf),
  // its address taken by decay: where it lies.
  if (E && E->getType()->isArrayType() && isa<ArraySubscriptExpr, MemberExpr>(E))
    return lvaluePlace(E);
  const VarDecl *V = namedVar(E);
  if (!V)
    return {};
  if (V->getType()->isArrayType())
    return {Place::Named, V};
  if (const OwnedAlias *A = V->getType()->isPointerType() ? Owned.alias(V) : nullptr)
    V = A->Owner; // q = &p[i]: p's memory
  if (V->getType()->isPointerType())
    return owns(V) ? Place{Place::Owned, V} : Place{Place::Anywhere, V};
  return {};
}

/// Where an lvalue lies: x, a[i] of an array, s.f; or what a pointer in it
/// points to (p[i], *p, p->f).
Place OverlapMemory::lvaluePlace(const Expr *E) {
  E = E ? E->IgnoreParens() : nullptr;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    return Base->getType()->isArrayType() ? lvaluePlace(Base) : pointee(A->getBase());
  }
  if (const auto *M = dyn_cast_or_null<MemberExpr>(E))
    return M->isArrow() ? pointee(M->getBase()) : lvaluePlace(M->getBase());
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return pointee(U->getSubExpr());
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return {Place::Named, V};
  return {};
}

bool OverlapMemory::writes(const Expr *E) { return mayWrite(Ctx, E); }

/// The reads and writes of memory in a statement.
namespace ompi {
struct AccessFinder : RecursiveASTVisitor<AccessFinder> {
  OverlapMemory &M;
  std::vector<Access> Out;
  explicit AccessFinder(OverlapMemory &M) : M(M) {}

  void add(Place P, const Expr *E) { Out.push_back({P, M.writes(E), E}); }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      if (!isPredefinedHandleObject(D, M.Ctx.getSourceManager(), M.Ctx.getLangOpts()))
        add({Place::Named, V}, D);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_Deref)
      add(M.pointee(U->getSubExpr()), U);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    if (!A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      add(M.pointee(A->getBase()), A);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (E->isArrow())
      add(M.pointee(E->getBase()), E);
    return true;
  }
};
} // namespace ompi

std::vector<Access> OverlapMemory::accesses(const Stmt *S) {
  AccessFinder F(*this);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Out;
}

/// Whether the address a use of a variable yields is kept: used other
/// than as a subscript's base, a dereference or an MPI call's argument.
bool OverlapMemory::addressKept(const DeclRefExpr *D) {
  const Expr *E = D;
  bool Address = false;
  for (;;) {
    const Stmt *P = parentStmt(Ctx, E);
    if (const auto *C = dyn_cast_or_null<CastExpr>(P)) {
      if (C->getCastKind() == CK_LValueToRValue && !Address)
        return false;
      Address |= C->getCastKind() == CK_ArrayToPointerDecay;
      E = C;
    } else if (isa_and_nonnull<ParenExpr>(P)) {
      E = cast<Expr>(P);
    } else if (const auto *M = dyn_cast_or_null<MemberExpr>(P); M && !M->isArrow() && !Address) {
      E = M;
    } else if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(P); A && A->getBase() == E) {
      if (!Address)
        return true;
      Address = false;
      E = A;
    } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(P)) {
      if (U->getOpcode() == UO_Deref && Address)
        Address = false; // *(a + 1): an access, not a kept address
      else if (U->getOpcode() == UO_AddrOf && !Address)
        Address = true;
      else
        return Address; // ++x: a value
      E = U;
    } else if (const auto *M = dyn_cast_or_null<MemberExpr>(P); M && M->isArrow() && Address) {
      Address = false; // (&s)->f
      E = M;
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(P); B && Address && B->isAdditiveOp()) {
      E = B;
    } else if (const auto *CE = dyn_cast_or_null<CallExpr>(P); CE && Address) {
      return !modelOf(CE);
    } else if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P)) {
      return false;
    } else {
      return Address;
    }
  }
}

bool OverlapMemory::reachable(const VarDecl *V, const FunctionDecl *F) {
  if (!V->hasLocalStorage() || !F || !F->hasBody())
    return true;
  auto It = ReachMemo.find(V);
  if (It != ReachMemo.end())
    return It->second;
  bool R = anyNode(F->getBody(), [&](const Stmt *S) {
    const auto *D = dyn_cast<DeclRefExpr>(S);
    return D && D->getDecl() == V && addressKept(D);
  });
  return ReachMemo[V] = R;
}

bool OverlapMemory::mayMeet(const Access &A, const Place &B, const FunctionDecl *F) {
  switch (B.K) {
  case Place::Named:
    if (A.At.K == Place::Named)
      return A.At.Var->getCanonicalDecl() == B.Var->getCanonicalDecl();
    return A.At.K == Place::Anywhere && reachable(B.Var, F);
  case Place::Owned:
    return A.At.K == Place::Owned && A.At.Var->getCanonicalDecl() == B.Var->getCanonicalDecl();
  case Place::Anywhere:
    if (A.At.K == Place::Named)
      return reachable(A.At.Var, F);
    return A.At.K == Place::Anywhere;
  }
  return true;
}

/// Whether S, a statement to be run in another order, stays inside itself
/// and calls nothing that could communicate or touch memory unseen.
struct LocalChecker : RecursiveASTVisitor<LocalChecker> {
  std::string Why;
  unsigned Loops = 0, Switches = 0;
  llvm::function_ref<bool(const CallExpr *)> Allowed;

  bool fail(std::string W) {
    Why = std::move(W);
    return false;
  }
  bool TraverseStmt(Stmt *S) {
    if (!S || !Why.empty())
      return Why.empty();
    bool Loop = isa<ForStmt, WhileStmt, DoStmt>(S), Switch = isa<SwitchStmt>(S);
    Loops += Loop;
    Switches += Switch;
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    Loops -= Loop;
    Switches -= Switch;
    return R && Why.empty();
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if ((F && F->getIdentifier() && Effects::isPureLibraryFunction(F->getName())) || (Allowed && Allowed(CE)))
      return true;
    return fail("it calls " + (F ? F->getNameAsString() : std::string("a function through a pointer")));
  }
  bool VisitReturnStmt(ReturnStmt *) { return fail("it returns"); }
  bool VisitGotoStmt(GotoStmt *) { return fail("it holds a goto"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return fail("it holds a goto"); }
  bool VisitLabelStmt(LabelStmt *) { return fail("it holds a label"); }
  bool VisitBreakStmt(BreakStmt *) { return Loops + Switches ? true : fail("it breaks out of a loop around it"); }
  bool VisitContinueStmt(ContinueStmt *) { return Loops ? true : fail("it continues a loop around it"); }
  bool VisitSwitchCase(SwitchCase *) { return Switches ? true : fail("it holds a case of a switch around it"); }
  bool VisitAsmStmt(AsmStmt *) { return fail("it holds asm"); }
  bool VisitOMPExecutableDirective(OMPExecutableDirective *) { return fail("it holds an OpenMP directive"); }
  bool VisitStmtExpr(StmtExpr *) { return fail("it holds a statement expression"); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return E->getConstructor()->isTrivial() ? true : fail("it constructs an object");
  }
  bool VisitCXXNewExpr(CXXNewExpr *) { return fail("it allocates with new"); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return fail("it deletes an object"); }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return fail("it throws"); }
  bool VisitCXXTryStmt(CXXTryStmt *) { return fail("it holds a try block"); }
  bool VisitLambdaExpr(LambdaExpr *) { return fail("it holds a lambda"); }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    return !D->getType().isVolatileQualified() ? true : fail(D->getDecl()->getNameAsString() + " is volatile");
  }
  bool VisitExpr(Expr *E) {
    if (E->isGLValue() && E->getType().isVolatileQualified())
      return fail("it touches volatile memory");
    if (E->getType()->isAtomicType())
      return fail("it touches an atomic object");
    return true;
  }
};

std::optional<std::string> OverlapMemory::notLocal(const Stmt *S, llvm::function_ref<bool(const CallExpr *)> Allowed) {
  LocalChecker C;
  C.Allowed = Allowed;
  C.TraverseStmt(const_cast<Stmt *>(S));
  if (C.Why.empty())
    return std::nullopt;
  return C.Why;
}

std::string OverlapMemory::describe(const Place &P) {
  if (P.K == Place::Named)
    return P.Var->getNameAsString();
  if (P.K == Place::Owned)
    return "the memory " + P.Var->getNameAsString() + " owns";
  return P.Var ? "memory through " + P.Var->getNameAsString() : "memory through a pointer";
}
