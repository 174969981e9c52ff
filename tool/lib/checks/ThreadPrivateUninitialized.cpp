//===- ThreadPrivateUninitialized.cpp - Check: thread-private-uninitialized ===//
//
// A call inside an OpenMP construct that sends the private copy its
// private(x) clause makes before any statement gives the copy a value: the
// copy starts uninitialized (firstprivate copies the value in), and the
// receiver gets indeterminate bytes.
//
// The check stays silent unless no statement could have written the copy
// before the call: every reference to it in the construct other than a
// plain read (an assignment, an increment, &x or x decaying to a pointer
// passed anywhere, a receive into it) counts as a possible write when it
// comes before the call in the source, or anywhere in a loop around the
// call, or anywhere at all in a function with a goto.
//
// (Automatic variables declared without an initializer and sent are left
// alone: test programs and benchmarks send such buffers as payload on
// purpose; on MPICH's test suite and the MPI Bugs Initiative's programs
// they were hundreds of findings, nearly all of them harmless.)
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// The variable whose own storage the buffer expression E is: &x, x (an
/// array), &x[k], x + k (an array), &x.f; null otherwise (memory behind a
/// pointer, a global, a parameter: never a private copy the clause makes
/// here).
const VarDecl *bufferObject(const Expr *E) {
  E = bufferExpr(E);
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Add)
    E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenImpCasts();
  bool Address = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    Address = true;
    E = U->getSubExpr()->IgnoreParens();
    for (;;) {
      const auto *A = dyn_cast<ArraySubscriptExpr>(E);
      const auto *M = dyn_cast<MemberExpr>(E);
      if (A && A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        E = A->getBase()->IgnoreParenImpCasts();
      else if (M && !M->isArrow())
        E = M->getBase()->IgnoreParens();
      else
        break;
    }
  }
  const auto *D = dyn_cast<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || (!Address && !V->getType()->isArrayType()))
    return nullptr;
  QualType T = V->getType();
  if (T->isPointerType() || T.isVolatileQualified() || !T.isTrivialType(V->getASTContext()))
    return nullptr;
  return V;
}

/// The innermost OpenMP construct around S (within its function) whose
/// private clause names V, if any.
const OMPExecutableDirective *privatizing(ASTContext &Ctx, const Stmt *S, const VarDecl *V) {
  for (const Stmt *P = parentStmt(Ctx, S); P; P = parentStmt(Ctx, P))
    if (const auto *D = dyn_cast<OMPExecutableDirective>(P))
      for (const auto *PC : D->getClausesOfKind<OMPPrivateClause>())
        for (const Expr *E : PC->varlists())
          if (const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()); R && R->getDecl() == V)
            return D;
  return nullptr;
}

struct RefCollector : RecursiveASTVisitor<RefCollector> {
  const VarDecl *V;
  std::vector<const DeclRefExpr *> Refs;
  bool Goto = false;
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == V)
      Refs.push_back(D);
    return true;
  }
  bool VisitGotoStmt(GotoStmt *) { return Goto = true; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return Goto = true; }
};

bool within(const Stmt *Outer, const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *P = S; P; P = parentStmt(Ctx, P))
    if (P == Outer)
      return true;
  return false;
}

/// Whether some statement of Region may write V before Call: see the file's
/// comment. Region is the function's body or the OpenMP construct's.
bool mayBeWritten(ASTContext &Ctx, const Stmt *Region, const Stmt *Body, const VarDecl *V, const CallExpr *Call,
                  const Expr *Arg) {
  RefCollector RC;
  RC.V = V;
  RC.TraverseStmt(const_cast<Stmt *>(Body));
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const Stmt *> Loops = enclosingLoops(Ctx, Call);
  for (const DeclRefExpr *R : RC.Refs) {
    if (within(Arg, R, Ctx) || !within(Region, R, Ctx) || !mayWrite(Ctx, R))
      continue;
    if (RC.Goto ||
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(R->getBeginLoc()), SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    for (const Stmt *L : Loops)
      if (within(L, R, Ctx))
        return true;
  }
  return false;
}

/// Whether the count of the buffer is the literal 0 (nothing is sent).
bool sendsNothing(const CallResult &CR, const BufferUse &U) {
  const Expr *N = U.Count ? CR.expr(U.Count->R) : nullptr;
  const auto *L = N ? dyn_cast<IntegerLiteral>(N->IgnoreParenImpCasts()) : nullptr;
  return L && L->getValue() == 0;
}

} // namespace

void checkThreadPrivateUninitialized(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller || CR.Model->M == Mode::Persistent || !CR.Caller->hasBody())
      continue;
    for (const BufferUse &U : buffers(CR)) {
      if (U.Buf->R == Role::RecvBuf || sendsNothing(CR, U))
        continue;
      const Expr *BE = CR.expr(U.Buf->R);
      const VarDecl *V = BE && !C.Ev.spelledHandle(BE) ? bufferObject(BE) : nullptr;
      const OMPExecutableDirective *D = V ? privatizing(C.Ctx, CR.Call, V) : nullptr;
      const Stmt *Region = D ? D->getAssociatedStmt() : nullptr;
      if (!Region || mayBeWritten(C.Ctx, Region, CR.Caller->getBody(), V, CR.Call, BE))
        continue;
      unsigned Line = C.Ctx.getSourceManager().getExpansionLineNumber(D->getBeginLoc());
      C.report("thread-private-uninitialized", BE->getBeginLoc(),
               llvm::formatv("{0} sends the private copy of '{1}' that the OpenMP {2} construct at line {3} makes, "
                             "which starts uninitialized, before any statement gives it a value: the message "
                             "carries indeterminate values (firstprivate({1}) copies the value in)",
                             CR.Function, V->getName(), llvm::omp::getOpenMPDirectiveName(D->getDirectiveKind()), Line)
                   .str());
    }
  }
}

} // namespace ompi
