//===- PackedLoops.cpp - Memory the root packs and the others unpack -------===//
//
// RootBroadcast::packedMemory (RootBroadcast.h): the elements of memory a
// pointer owns, packed field by field into a buffer by the root's loop,
// broadcast, and unpacked the same way by the other ranks' loop.
//
//===----------------------------------------------------------------------===//
#include "analysis/Effects.h"
#include "analysis/Evaluator.h"
#include "analysis/RootBroadcast.h"
#include "mpi/CallModel.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

using IntFn = llvm::function_ref<std::optional<int64_t>(const Expr *)>;

/// A field of an element and, for an array field, the element of it:
/// p[k].cen[0] is {cen, 0}; p[k].type is {type, -1}.
struct FieldStep {
  const FieldDecl *Field;
  int64_t Index;
  bool operator==(const FieldStep &O) const { return Field == O.Field && Index == O.Index; }
};
using FieldPath = std::vector<FieldStep>;

/// E as P[K] followed by fields (and constant elements of array fields):
/// the steps after P[K]; K null: any index. Nullopt for anything else.
std::optional<FieldPath> fieldPath(const Expr *E, const VarDecl *P, const VarDecl *K, IntFn IntAt) {
  FieldPath Rev;
  E = E->IgnoreParens();
  for (;;) {
    int64_t Index = -1;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (!isa<MemberExpr>(Base)) {
        if (namedVar(Base) != P || (K && namedVar(AS->getIdx()) != K))
          return std::nullopt;
        break; // P[K]
      }
      std::optional<int64_t> C = IntAt(AS->getIdx());
      if (!C)
        return std::nullopt;
      Index = *C;
      E = Base;
    }
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *FD = ME && !ME->isArrow() ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!FD || (Index < 0 && FD->getType()->isArrayType()))
      return std::nullopt; // a whole array field
    Rev.push_back({FD, Index});
    E = ME->getBase()->IgnoreParens();
  }
  std::reverse(Rev.begin(), Rev.end());
  return Rev;
}

/// Whether a value of type F converted to E and back is the value again.
bool roundTrips(ASTContext &Ctx, QualType F, QualType E) {
  F = F.getCanonicalType().getUnqualifiedType();
  E = E.getCanonicalType().getUnqualifiedType();
  if (Ctx.hasSameType(F, E))
    return true;
  uint64_t WF = Ctx.getTypeSize(F), WE = Ctx.getTypeSize(E);
  if (E->isSpecificBuiltinType(BuiltinType::Double))
    return F->isSpecificBuiltinType(BuiltinType::Float) || (F->isIntegerType() && WF <= 32);
  if (E->isSpecificBuiltinType(BuiltinType::Float))
    return F->isIntegerType() && WF <= 16;
  if (E->isIntegerType() && F->isIntegerType())
    return WF < WE || (WF == WE && F->isSignedIntegerType() == E->isSignedIntegerType());
  return false;
}

/// E without parentheses, implicit conversions and explicit casts to To;
/// null when an explicit cast goes to another type.
const Expr *uncast(const Expr *E, QualType To, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  while (const auto *C = dyn_cast<CStyleCastExpr>(E)) {
    if (!Ctx.hasSameUnqualifiedType(C->getType(), To))
      return nullptr;
    E = C->getSubExpr()->IgnoreParenImpCasts();
  }
  return E;
}

/// The variables an expression sets to 0: `i = k = 0`, `i = 0, k = 0`.
void zeroed(const Expr *E, std::set<const VarDecl *> &Out, IntFn IntAt) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(E ? E->IgnoreParens() : nullptr);
  if (!B)
    return;
  if (B->getOpcode() == BO_Comma) {
    zeroed(B->getLHS(), Out, IntAt);
    zeroed(B->getRHS(), Out, IntAt);
  } else if (B->getOpcode() == BO_Assign && namedVar(B->getLHS())) {
    const Expr *R = B->getRHS()->IgnoreParenImpCasts();
    if (const auto *Inner = dyn_cast<BinaryOperator>(R); Inner && Inner->getOpcode() == BO_Assign) {
      size_t Before = Out.size();
      zeroed(Inner, Out, IntAt);
      if (Out.size() > Before)
        Out.insert(namedVar(B->getLHS()));
    } else if (IntAt(R) == 0) {
      Out.insert(namedVar(B->getLHS()));
    }
  }
}

/// A loop `for (I = K = 0; K < N; K++)` (I may be zeroed by the statement
/// before it instead) and its body's statements.
struct CountedLoop {
  const VarDecl *I = nullptr, *K = nullptr, *N = nullptr;
  const Expr *Bound = nullptr; ///< the condition's N
  std::vector<const Stmt *> Body;
};

std::optional<CountedLoop> countedLoop(const Stmt *X, const Stmt *Before, IntFn IntAt) {
  const auto *Fo = dyn_cast_or_null<ForStmt>(X);
  if (!Fo || !Fo->getCond() || !Fo->getInc() || !Fo->getInit())
    return std::nullopt;
  std::set<const VarDecl *> Zero;
  if (const auto *Init = dyn_cast<Expr>(Fo->getInit()))
    zeroed(Init, Zero, IntAt);
  if (const auto *B = dyn_cast_or_null<Expr>(Before))
    zeroed(B, Zero, IntAt);
  const auto *C = dyn_cast<BinaryOperator>(Fo->getCond()->IgnoreParenImpCasts());
  const auto *U = dyn_cast<UnaryOperator>(Fo->getInc()->IgnoreParenImpCasts());
  if (!C || C->getOpcode() != BO_LT || !U || !U->isIncrementOp())
    return std::nullopt;
  CountedLoop L;
  L.K = namedVar(C->getLHS());
  L.N = namedVar(C->getRHS());
  L.Bound = C->getRHS();
  if (!L.K || !L.N || namedVar(U->getSubExpr()) != L.K || !Zero.count(L.K) || Zero.size() != 2 ||
      !L.N->getType()->isIntegerType())
    return std::nullopt;
  for (const VarDecl *V : Zero)
    if (V != L.K)
      L.I = V;
  L.Body = blockStatements(Fo->getBody());
  if (L.Body.empty() || L.I == L.N || L.K == L.N)
    return std::nullopt;
  return L;
}

/// `B[I++]`: B.
const VarDecl *bumpedElement(const Expr *E, const VarDecl *I) {
  const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *U = AS ? dyn_cast<UnaryOperator>(AS->getIdx()->IgnoreParenImpCasts()) : nullptr;
  if (!U || U->getOpcode() != UO_PostInc || namedVar(U->getSubExpr()) != I)
    return nullptr;
  return namedVar(AS->getBase());
}

/// The statement of Arm (its top-level statements) that holds X; -1 if none.
long armIndex(ASTContext &Ctx, llvm::ArrayRef<const Stmt *> Arm, const Stmt *X) {
  for (const Stmt *S = X; S; S = parentStmt(Ctx, S))
    for (size_t I = 0; I < Arm.size(); ++I)
      if (Arm[I] == S)
        return long(I);
  return -1;
}

/// The root's pack loop: `B[I++] = (E) P[K].path;` per statement, B's
/// elements of type E, each conversion exact.
struct Pack {
  CountedLoop Loop;
  const VarDecl *B = nullptr;
  QualType Elem;
  std::vector<FieldPath> Paths;
};

std::optional<Pack> packLoop(ASTContext &Ctx, llvm::ArrayRef<const Stmt *> Then, size_t At, const VarDecl *P,
                             IntFn IntAt) {
  std::optional<CountedLoop> L = countedLoop(Then[At], At ? Then[At - 1] : nullptr, IntAt);
  if (!L)
    return std::nullopt;
  Pack K{*L, nullptr, QualType(), {}};
  for (const Stmt *X : L->Body) {
    const auto *A = dyn_cast<BinaryOperator>(X);
    const VarDecl *To = A && A->getOpcode() == BO_Assign ? bumpedElement(A->getLHS(), L->I) : nullptr;
    if (!To || To == P || (K.B && To != K.B))
      return std::nullopt;
    K.B = To;
    K.Elem = A->getLHS()->getType().getCanonicalType().getUnqualifiedType();
    const Expr *From = uncast(A->getRHS(), K.Elem, Ctx);
    std::optional<FieldPath> Path = From ? fieldPath(From, P, L->K, IntAt) : std::nullopt;
    if (!Path || !roundTrips(Ctx, From->getType(), K.Elem))
      return std::nullopt;
    K.Paths.push_back(*Path);
  }
  return K;
}

/// Whether Loop unpacks what K packed: `P[K'].path = (T) B[I'++];` for the
/// same paths in the same order, bounded by the same N.
bool unpacks(ASTContext &Ctx, const CountedLoop &Loop, const Pack &K, const VarDecl *P, IntFn IntAt) {
  if (Loop.N != K.Loop.N || Loop.Body.size() != K.Paths.size())
    return false;
  for (size_t J = 0; J < K.Paths.size(); ++J) {
    const auto *A = dyn_cast<BinaryOperator>(Loop.Body[J]);
    std::optional<FieldPath> Path =
        A && A->getOpcode() == BO_Assign ? fieldPath(A->getLHS(), P, Loop.K, IntAt) : std::nullopt;
    const Expr *From = Path ? uncast(A->getRHS(), A->getLHS()->getType(), Ctx) : nullptr;
    if (!Path || *Path != K.Paths[J] || !From || bumpedElement(From, Loop.I) != K.B)
      return false;
  }
  return true;
}

/// Whether every store into P's memory in the if (Then, Else) is the
/// root's into a packed field before the pack (Then[TP]) or the unpack's
/// (Else[LU]), and P is given memory only before the loops.
bool storesAllowed(ASTContext &Ctx, llvm::ArrayRef<const Stmt *> Then, size_t TP, llvm::ArrayRef<const Stmt *> Else,
                   size_t LU, const Pack &K, const VarDecl *P, llvm::ArrayRef<const Stmt *> Stores,
                   llvm::ArrayRef<const Stmt *> Sets, IntFn IntAt) {
  for (const Stmt *X : Stores) {
    long T = armIndex(Ctx, Then, X), E = armIndex(Ctx, Else, X);
    if (E >= 0 && E != long(LU))
      return false;
    if (T < 0)
      continue;
    const Expr *Lhs = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->isAssignmentOp())
      Lhs = B->getLHS();
    else if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->isIncrementDecrementOp())
      Lhs = U->getSubExpr();
    std::optional<FieldPath> Path = Lhs ? fieldPath(Lhs, P, nullptr, IntAt) : std::nullopt;
    if (T >= long(TP) || !Path || !llvm::is_contained(K.Paths, *Path))
      return false;
  }
  for (const Stmt *X : Sets) {
    long T = armIndex(Ctx, Then, X), E = armIndex(Ctx, Else, X);
    if ((T >= 0 && T >= long(TP)) || (E >= 0 && E >= long(LU)))
      return false;
  }
  return true;
}

} // namespace

std::optional<unsigned> RootBroadcast::packedMemory(const VarDecl *P, const Stmt *At, const FunctionDecl *F,
                                                    llvm::ArrayRef<const Stmt *> Stores,
                                                    llvm::ArrayRef<const Stmt *> Sets, UniformFn Uniform) {
  if (!P || !At || !F || !F->getBody())
    return std::nullopt;
  for (const Stmt *S = parentStmt(Ctx, At); S && S != F->getBody(); S = parentStmt(Ctx, S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || !If->getElse())
      continue;
    auto Key = std::make_pair(If, P);
    auto It = PackMemo.find(Key);
    bool Holds = It != PackMemo.end() ? It->second : (PackMemo[Key] = packedLoops(If, P, F, Stores, Sets, Uniform));
    if (Holds)
      return Ctx.getSourceManager().getExpansionLineNumber(If->getBeginLoc());
  }
  return std::nullopt;
}

/// Whether X names V or calls code that might reach it (anything but the C
/// library and MPI).
bool RootBroadcast::namesOrCalls(const Stmt *X, const VarDecl *V) {
  return anyNode(X, [&](const Stmt *N) {
    if (const auto *CE = dyn_cast<CallExpr>(N)) {
      const FunctionDecl *G = CE->getDirectCallee();
      return !G || !G->getIdentifier() || !(Eff.isLibrary(G) || isMPIFunctionName(G->getName()));
    }
    const auto *D = dyn_cast<DeclRefExpr>(N);
    return D && D->getDecl() == V;
  });
}

/// Whether X is MPI_Bcast(B, m*N or N*m, T of B's element size, Root,
/// MPI_COMM_WORLD) with m the number of packed fields and N the loops'.
bool RootBroadcast::packBroadcast(const Stmt *X, const VarDecl *B, const VarDecl *N, size_t M, QualType Elem,
                                  int64_t Root, const FunctionDecl *F) {
  std::optional<WorldBroadcast> W = worldBroadcast(X, Root, F);
  const auto *Mul = W ? dyn_cast<BinaryOperator>(W->CountExpr->IgnoreParenImpCasts()) : nullptr;
  if (!Mul || Mul->getOpcode() != BO_Mul || namedVar(W->Buf) != B)
    return false;
  bool Shape = (intAt(Mul->getLHS(), F) == int64_t(M) && namedVar(Mul->getRHS()) == N) ||
               (intAt(Mul->getRHS(), F) == int64_t(M) && namedVar(Mul->getLHS()) == N);
  return Shape && W->TypeSize == Ctx.getTypeSizeInChars(Elem).getQuantity();
}

bool RootBroadcast::packedLoops(const IfStmt *S, const VarDecl *P, const FunctionDecl *F,
                                llvm::ArrayRef<const Stmt *> Stores, llvm::ArrayRef<const Stmt *> Sets,
                                UniformFn Uniform) {
  std::optional<int64_t> Root = rootOf(S, F);
  if (!Root)
    return false;
  auto IntAt = [&](const Expr *E) { return intAt(E, F); };
  std::vector<const Stmt *> Then = blockStatements(S->getThen()), Else = blockStatements(S->getElse());
  size_t TP = 0;
  std::optional<Pack> K;
  while (TP < Then.size() && !(K = packLoop(Ctx, Then, TP, P, IntAt)))
    ++TP;
  if (!K)
    return false;
  auto Sends = [&](const Stmt *X) { return packBroadcast(X, K->B, K->Loop.N, K->Paths.size(), K->Elem, *Root, F); };
  // The root: nothing between the pack and its broadcast. The others: the
  // broadcast, then nothing that names the buffer before the unpack.
  size_t TB = TP + 1, EB = 0;
  while (TB < Then.size() && !namesOrCalls(Then[TB], K->B) && !namesOrCalls(Then[TB], P))
    ++TB;
  while (EB < Else.size() && !Sends(Else[EB]))
    ++EB;
  size_t LU = EB + 1;
  while (LU < Else.size() && !namesOrCalls(Else[LU], K->B))
    ++LU;
  if (TB == Then.size() || !Sends(Then[TB]) || LU >= Else.size())
    return false;
  std::optional<CountedLoop> U = countedLoop(Else[LU], Else[LU - 1], IntAt);
  if (!U || !unpacks(Ctx, *U, *K, P, IntAt) || !storesAllowed(Ctx, Then, TP, Else, LU, *K, P, Stores, Sets, IntAt))
    return false;
  // N reads the same at both loops: by what reaches them, or it is the
  // root's at the end of S (this pattern for N) and nothing after either
  // loop writes it.
  if (Uniform(K->Loop.Bound) && Uniform(U->Bound))
    return true;
  auto WritesN = [&](const Stmt *X) { return mayWrite(X, K->Loop.N); };
  if (llvm::any_of(llvm::ArrayRef(Then).drop_front(TP + 1), WritesN) ||
      llvm::any_of(llvm::ArrayRef(Else).drop_front(LU + 1), WritesN))
    return false;
  return holdsOnce(S, K->Loop.N, F);
}
