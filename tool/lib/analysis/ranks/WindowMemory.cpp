//===- WindowMemory.cpp - A rank's loads and stores of its window memory --===//
//
// rmaTraces records, beside the one-sided calls, the loads and stores a
// rank makes of the memory it exposes in a window (K == Local): the
// variable given to MPI_Win_create (&x, a, &a[k], p) or the pointer
// MPI_Win_allocate(_shared) sets, read or written as x, a[k], p[k] or *p
// with k concrete; and the barriers of the world (K == Collective), which
// order the ranks' calls and accesses, or a mark where the run cannot place
// one. rma-conflict judges them against other ranks' RMA calls
// that reach the same bytes in the same epoch. A variable whose element
// the run cannot tell (an unknown index), a pointer assigned afterwards, or
// memory reached through another name (a copy of the pointer, a function's
// parameter) is not followed: fewer findings, none false.
//
//===----------------------------------------------------------------------===//
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace ompi::ranks {

namespace {

/// The size in bytes of T, when it is a complete object type.
std::optional<int64_t> sizeOf(ASTContext &Ctx, QualType T) {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() || T->isVoidType() || T->isFunctionType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

} // namespace

void RankRun::windowMemory(const CallExpr *CE, const VarDecl *Win, HandleEvent::Kind K) {
  for (auto It = WinMem.begin(); It != WinMem.end();) // a window made again, or freed: its memory is not followed
    It = It->second.Win == Win ? WinMem.erase(It) : std::next(It);
  if (K != HandleEvent::Create)
    return;
  const FunctionModel *M = lookupFunction(calleeName(CE));
  if (const Expr *B = argOf(CE, M, Role::WinBase)) { // MPI_Win_create: &x, a, &a[k], p
    B = B->IgnoreParenImpCasts();
    int64_t Index = 0;
    if (const auto *U = dyn_cast<UnaryOperator>(B); U && U->getOpcode() == UO_AddrOf) {
      B = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(B)) {
        auto K = value(AS->getIdx());
        if (!K)
          return;
        Index = *K;
        B = AS->getBase()->IgnoreParenImpCasts();
      } else if (const auto *V = namedVar(B); V && !V->getType()->isArrayType() && !V->getType()->isPointerType()) {
        WinMem[V] = {Win, 0};
        return;
      } else {
        return;
      }
    }
    const VarDecl *V = namedVar(B);
    if (!V || !(V->getType()->isArrayType() || V->getType()->isPointerType()))
      return;
    QualType Elem = V->getType()->isArrayType() ? Ctx.getAsArrayType(V->getType())->getElementType()
                                                : V->getType()->getPointeeType();
    int64_t Base = 0;
    if (auto Size = sizeOf(Ctx, Elem); Size && Index >= 0 && !llvm::MulOverflow(-Index, *Size, Base))
      WinMem[V] = {Win, Base};
    return;
  }
  // MPI_Win_allocate(_shared): &p, the pointer the call sets to the memory.
  if (const Expr *P = argOf(CE, M, Role::Out))
    if (const auto *U = dyn_cast<UnaryOperator>(P->IgnoreParenImpCasts()); U && U->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = namedVar(U->getSubExpr()); V && V->getType()->isPointerType())
        WinMem[V] = {Win, 0};
}

std::optional<RankRun::LocalBytes> RankRun::windowBytes(const Expr *L) {
  L = L->IgnoreParens();
  auto Size = sizeOf(Ctx, L->getType());
  if (!Size || L->getType()->isArrayType())
    return std::nullopt;
  const VarDecl *V = nullptr;
  int64_t From = 0;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
    V = namedVar(AS->getBase()->IgnoreParenImpCasts());
    auto K = value(AS->getIdx());
    if (!K || llvm::MulOverflow(*K, *Size, From))
      return std::nullopt;
  } else if (const auto *U = dyn_cast<UnaryOperator>(L); U && U->getOpcode() == UO_Deref) {
    V = namedVar(U->getSubExpr()->IgnoreParenImpCasts());
    if (V && !V->getType()->isPointerType())
      return std::nullopt;
  } else if (const auto *D = dyn_cast<DeclRefExpr>(L)) {
    V = dyn_cast<VarDecl>(D->getDecl());
    if (V && (V->getType()->isPointerType() || V->getType()->isArrayType()))
      return std::nullopt; // the pointer itself, not the memory
  }
  auto It = V ? WinMem.find(V) : WinMem.end();
  int64_t Start = 0, End = 0;
  if (It == WinMem.end() || llvm::AddOverflow(It->second.Base, From, Start) || Start < 0 ||
      llvm::AddOverflow(Start, *Size, End))
    return std::nullopt;
  return LocalBytes{It->second.Win, Start, End};
}

void RankRun::localAccess(const Expr *L, const Expr *At, bool Store) {
  auto B = windowBytes(L);
  if (!B)
    return;
  P2PEvent E;
  E.K = P2PEvent::Local;
  E.Line = line(At->getBeginLoc());
  E.Via = viaLine();
  E.Win = B->Win;
  E.Disp = B->From;
  E.S.Count = B->To - B->From;
  E.Exclusive = Store;
  E.Access = At;
  Messages.push_back(E);
}

void RankRun::localAccesses(const Stmt *S) {
  if (WinMem.empty() || !S)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && isMPIFunctionName(calleeName(CE)))
    return; // MPI's own use of the memory (an origin buffer): not a load or store
  if (const auto *C = dyn_cast<ImplicitCastExpr>(S); C && C->getCastKind() == CK_LValueToRValue) {
    localAccess(C->getSubExpr(), C, false);
  } else if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
    if (B->isCompoundAssignmentOp())
      localAccess(B->getLHS(), B, false);
    localAccess(B->getLHS(), B, true);
  } else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
    localAccess(U->getSubExpr(), U, false);
    localAccess(U->getSubExpr(), U, true);
  }
  for (const Stmt *C : S->children())
    localAccesses(C);
  // A pointer to the memory assigned or stepped points elsewhere from here.
  const Expr *Set = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    Set = B->getLHS();
  else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    Set = U->getSubExpr();
  if (const VarDecl *V = namedVar(Set); V && V->getType()->isPointerType())
    WinMem.erase(V);
}

void RankRun::barrier(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  const Expr *Comm = argOf(CE, M, Role::Comm);
  if (!Comm || !Ev.commId(Comm, frame().F, CE).isWorld()) {
    unplacedBarrier();
    return;
  }
  P2PEvent E;
  E.K = P2PEvent::Collective;
  E.Call = CE;
  E.Coll = calleeName(CE).str();
  E.Line = line(CE->getBeginLoc());
  E.Via = viaLine();
  Messages.push_back(E);
}

void RankRun::unplacedBarrier() {
  P2PEvent E;
  E.K = P2PEvent::Collective;
  Messages.push_back(E);
}

bool RankRun::mentionsBarrier(const Stmt *S, unsigned Depth) {
  return Depth < 4 && anyNode(
                          S,
                          [&](const Stmt *N) {
                            const auto *CE = dyn_cast<CallExpr>(N);
                            if (!CE)
                              return false;
                            if (calleeName(CE) == mpi::MPI_Barrier)
                              return true;
                            const FunctionDecl *F = definedCallee(CE);
                            return F && mentionsBarrier(F->getBody(), Depth + 1);
                          });
}

} // namespace ompi::ranks
