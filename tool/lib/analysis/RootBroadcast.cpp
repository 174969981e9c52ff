//===- RootBroadcast.cpp - Values the root packs, broadcasts and others unpack =//
#include "analysis/RootBroadcast.h"
#include "analysis/Effects.h"
#include "analysis/Evaluator.h"
#include "analysis/ProgramFacts.h"
#include "mpi/CallModel.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

/// B[k] with B an array variable: B and the subscript.
std::pair<const VarDecl *, const Expr *> element(const Expr *E) {
  const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!AS)
    return {nullptr, nullptr};
  const VarDecl *B = namedVar(AS->getBase());
  if (!B || !B->getType()->isConstantArrayType())
    return {nullptr, nullptr};
  return {B, AS->getIdx()};
}

/// Whether N writes V itself: an assignment to it (or to an element or
/// field of it), an increment or decrement, or its address taken.
bool writesVar(const Stmt *N, const VarDecl *V) {
  if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
    return rootVar(B->getLHS()) == V;
  const auto *U = dyn_cast<UnaryOperator>(N);
  return U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && rootVar(U->getSubExpr()) == V;
}

bool sameType(ASTContext &Ctx, QualType A, QualType B) {
  return Ctx.hasSameUnqualifiedType(A.getCanonicalType(), B.getCanonicalType());
}

/// Whether X holds a jump (return, break, continue, goto) anywhere.
bool jumps(const Stmt *X) {
  return anyNode(X,
                 [](const Stmt *N) { return isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(N); });
}

} // namespace

std::optional<unsigned> RootBroadcast::reconciles(const VarDecl *V, const Stmt *At, const FunctionDecl *F) {
  if (!V || !At || !F || !F->getBody() || !V->getType()->isScalarType())
    return std::nullopt;
  DynTypedNode N = DynTypedNode::create(*At);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return std::nullopt;
    N = Parents[0];
    const Stmt *P = N.get<Stmt>();
    if (!P || P == F->getBody())
      return std::nullopt;
    const auto *S = dyn_cast<IfStmt>(P);
    if (!S || !S->getElse() || S->getCond() == At)
      continue;
    if (holdsOnce(S, V, F))
      return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }
  return std::nullopt;
}

/// holds(S, V, F), computed once per if and variable; a proof that comes
/// back to the same question while it runs (a flag's, a bound's) finds no.
bool RootBroadcast::holdsOnce(const IfStmt *S, const VarDecl *V, const FunctionDecl *F) {
  auto Key = std::make_pair(S, V);
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  Memo[Key] = false;
  bool Holds = holds(S, V, F);
  Memo[Key] = Holds;
  return Holds;
}

bool RootBroadcast::holds(const IfStmt *S, const VarDecl *V, const FunctionDecl *F) {
  std::optional<int64_t> Root = rootOf(S, F);
  if (!Root)
    return false;
  auto IntAt = [&](const Expr *E) { return intAt(E, F); };
  auto Writes = [&](const Stmt *X) { return mayWrite(X, V); };
  std::vector<const Stmt *> Then = blockStatements(S->getThen()), Else = blockStatements(S->getElse());
  if (broadcastInBoth(S, Then, Else, V, *Root, F))
    return true;
  // Whether X may write element K of B, or let B's address go anywhere.
  auto TouchesElement = [&](const Stmt *X, const VarDecl *B, int64_t K) {
    return anyNode(X, [&](const Stmt *N) {
      const auto *DRE = dyn_cast<DeclRefExpr>(N);
      if (!DRE || DRE->getDecl() != B)
        return false;
      auto Up = Ctx.getParents(*DRE);
      const auto *Decay = Up.empty() ? nullptr : Up[0].get<ImplicitCastExpr>();
      auto Up2 = Decay ? Ctx.getParents(*Decay) : Up;
      const auto *AS = Up2.empty() ? nullptr : Up2[0].get<ArraySubscriptExpr>();
      if (!AS || AS->getBase()->IgnoreParenImpCasts() != DRE)
        return true; // the address goes somewhere
      auto Up3 = Ctx.getParents(*AS);
      const auto *B2 = Up3.empty() ? nullptr : Up3[0].get<BinaryOperator>();
      const auto *U = Up3.empty() ? nullptr : Up3[0].get<UnaryOperator>();
      bool Written = (B2 && B2->isAssignmentOp() && B2->getLHS()->IgnoreParenImpCasts() == AS) ||
                     (U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf));
      if (!Written)
        return false;
      std::optional<int64_t> I = IntAt(AS->getIdx());
      return !I || *I == K;
    });
  };
  // MPI_Bcast(B, n > K, T, Root, MPI_COMM_WORLD) with T of B's elements' size.
  auto Broadcasts = [&](const Stmt *X, const VarDecl *B, int64_t K) {
    std::optional<WorldBroadcast> W = worldBroadcast(X, *Root, F);
    const auto *AT = Ctx.getAsConstantArrayType(B->getType());
    return W && namedVar(W->Buf) == B && W->Count && *W->Count > K && AT &&
           W->TypeSize == Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
  };
  for (size_t P = 0; P < Then.size(); ++P) {
    const auto *Pack = dyn_cast<BinaryOperator>(Then[P]);
    if (!Pack || Pack->getOpcode() != BO_Assign || namedVar(Pack->getRHS()) != V)
      continue;
    auto [B, Idx] = element(Pack->getLHS());
    std::optional<int64_t> K = Idx ? IntAt(Idx) : std::nullopt;
    const auto *AT = B ? Ctx.getAsConstantArrayType(B->getType()) : nullptr;
    if (!K || !AT || !sameType(Ctx, AT->getElementType(), V->getType()))
      continue;
    if (llvm::any_of(llvm::ArrayRef(Then).drop_front(P + 1), Writes))
      continue;
    size_t Send = P + 1;
    while (Send < Then.size() && !Broadcasts(Then[Send], B, *K) && !TouchesElement(Then[Send], B, *K))
      ++Send;
    if (Send == Then.size() || !Broadcasts(Then[Send], B, *K))
      continue;
    for (size_t Recv = 0; Recv < Else.size(); ++Recv) {
      if (!Broadcasts(Else[Recv], B, *K))
        continue;
      for (size_t U = Recv + 1; U < Else.size(); ++U) {
        const auto *Unpack = dyn_cast<BinaryOperator>(Else[U]);
        if (Unpack && Unpack->getOpcode() == BO_Assign && namedVar(Unpack->getLHS()) == V &&
            element(Unpack->getRHS()).first == B && IntAt(element(Unpack->getRHS()).second) == K) {
          if (!llvm::any_of(llvm::ArrayRef(Else).drop_front(U + 1), Writes))
            return true;
          break;
        }
        // A jump here would leave V unpacked on the ranks that take it.
        if (TouchesElement(Else[U], B, *K) || jumps(Else[U]))
          break;
      }
    }
  }
  return false;
}

/// Whether statement X may write V (or call code that may).
bool RootBroadcast::mayWrite(const Stmt *X, const VarDecl *V) {
  return anyNode(X, [&](const Stmt *N) {
    if (isa<BinaryOperator, UnaryOperator>(N))
      return writesVar(N, V);
    if (const auto *CE = dyn_cast<CallExpr>(N); CE && V->hasGlobalStorage()) {
      const FunctionDecl *G = CE->getDirectCallee(), *Def = nullptr;
      if (!G || !G->getIdentifier())
        return true;
      if (Eff.isLibrary(G) || isMPIFunctionName(G->getName()))
        return false;
      if (G->hasBody(Def))
        return Eff.touchesGlobal(G, V);
      return otherFilesMayWrite(G, V); // code of another file
    }
    return false;
  });
}

/// The second shape: each arm has, as a statement of its own,
/// MPI_Bcast(&V, 1, T, Root, MPI_COMM_WORLD) with T of V's size, no jump
/// before it and nothing after it that writes V; or each arm has it under
/// `if (G)`, the same flag G in both (flagGuarded).
bool RootBroadcast::broadcastInBoth(const IfStmt *S, llvm::ArrayRef<const Stmt *> Then,
                                    llvm::ArrayRef<const Stmt *> Else, const VarDecl *V, int64_t Root,
                                    const FunctionDecl *F) {
  auto Broadcast = [&](const Stmt *X) {
    std::optional<WorldBroadcast> W = worldBroadcast(X, Root, F);
    return W && addressedVar(W->Buf) == V && W->Count == 1 &&
           W->TypeSize == Ctx.getTypeSizeInChars(V->getType()).getQuantity();
  };
  // `if (G) MPI_Bcast(&V, ...);` (no else): G.
  auto Guard = [&](const Stmt *X) -> const VarDecl * {
    const auto *If = dyn_cast<IfStmt>(X);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
      return nullptr;
    std::vector<const Stmt *> Body = blockStatements(If->getThen());
    const VarDecl *G = namedVar(If->getCond());
    return Body.size() == 1 && Broadcast(Body[0]) && G && G != V && G->getType()->isIntegerType() ? G : nullptr;
  };
  // The index of the arm's broadcast (guarded by Flag where Flag is set),
  // with no jump before it and nothing after it that writes V.
  auto Arm = [&](llvm::ArrayRef<const Stmt *> A, const VarDecl *&Flag) -> std::optional<size_t> {
    for (size_t I = 0; I < A.size(); ++I) {
      const VarDecl *G = Guard(A[I]);
      if (Broadcast(A[I]) || (G && (!Flag || G == Flag))) {
        Flag = G;
        if (llvm::any_of(A.drop_front(I + 1), [&](const Stmt *X) { return mayWrite(X, V); }))
          return std::nullopt;
        return I;
      }
      if (jumps(A[I]))
        return std::nullopt;
    }
    return std::nullopt;
  };
  const VarDecl *Flag = nullptr;
  std::optional<size_t> T = Arm(Then, Flag);
  const VarDecl *RootFlag = Flag;
  std::optional<size_t> E = T ? Arm(Else, Flag) : std::nullopt;
  if (!T || !E || Flag != RootFlag)
    return false;
  return !Flag || flagGuarded(S, Then, *T, Else, *E, V, Flag, F);
}

/// The guarded form of the second shape, `if (G) MPI_Bcast(&V, ...)` in
/// both arms (Then[T], Else[E]). When G is nonzero at both, both ranks
/// broadcast V. When it is 0 on the root, the root never wrote V in its
/// arm, and the others never write it in theirs, so V keeps the value it
/// had before S on every rank. What is proved:
///  - G holds the root's value at the end of S on every rank (this
///    pattern, for G) and nothing after either guard writes G;
///  - every assignment of G in the then arm stores a nonzero constant, and
///    every write of V there before the guard is a statement `V = e;` of a
///    block whose next statement is `G = c;` (c nonzero): so G is nonzero
///    from any such write on;
///  - the else arm writes V only by its broadcast.
bool RootBroadcast::flagGuarded(const IfStmt *S, llvm::ArrayRef<const Stmt *> Then, size_t T,
                                llvm::ArrayRef<const Stmt *> Else, size_t E, const VarDecl *V, const VarDecl *G,
                                const FunctionDecl *F) {
  auto WritesG = [&](const Stmt *X) { return mayWrite(X, G); };
  if (llvm::any_of(Then.drop_front(T + 1), WritesG) || llvm::any_of(Else.drop_front(E + 1), WritesG) ||
      llvm::any_of(Else.take_front(E), [&](const Stmt *X) { return mayWrite(X, V); }))
    return false;
  if (!holdsOnce(S, G, F))
    return false;
  // `G = c;` with c a nonzero constant.
  auto SetsFlag = [&](const Stmt *X) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(X);
    std::optional<int64_t> C =
        B && B->getOpcode() == BO_Assign && namedVar(B->getLHS()) == G ? intAt(B->getRHS(), F) : std::nullopt;
    return C && *C != 0;
  };
  bool Ok = true;
  for (const Stmt *X : Then.take_front(T))
    anyNode(X, [&](const Stmt *N) {
      if (isa<CallExpr>(N) && ((V->hasGlobalStorage() && mayWrite(N, V)) || (G->hasGlobalStorage() && mayWrite(N, G))))
        Ok = false; // a call that may write V: no flag follows it
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp() && rootVar(B->getLHS()) == G)
        Ok &= SetsFlag(B);
      else if (writesVar(N, G))
        Ok = false;
      if (!isa<CallExpr>(N) && writesVar(N, V)) {
        const auto *B = dyn_cast<BinaryOperator>(N);
        const auto *Block = dyn_cast_or_null<CompoundStmt>(B ? parentStmt(Ctx, B) : nullptr);
        const Stmt *const *At = Block ? llvm::find(Block->body(), B) : nullptr;
        Ok &= B && B->getOpcode() == BO_Assign && namedVar(B->getLHS()) == V && Block && At != Block->body_end() &&
              At + 1 != Block->body_end() && SetsFlag(*(At + 1));
      }
      return !Ok;
    });
  return Ok;
}

std::optional<int64_t> RootBroadcast::intAt(const Expr *E, const FunctionDecl *F) {
  SymValue X = Ev.evaluate(E, F, E);
  return X.K == SymValue::Int ? std::optional<int64_t>(X.I) : std::nullopt;
}

/// Statement X as MPI_Bcast(Buf, Count, T, Root, MPI_COMM_WORLD), T a
/// datatype of known size (Count's value where it is a constant); nullopt
/// otherwise.
std::optional<RootBroadcast::WorldBroadcast> RootBroadcast::worldBroadcast(const Stmt *X, int64_t Root,
                                                                           const FunctionDecl *F) {
  const CallExpr *CE = statementCallTo(X, mpi::MPI_Bcast);
  const Expr *Buf = argOf(CE, Role::Buf), *Count = argOf(CE, Role::Count), *Type = argOf(CE, Role::Type),
             *RootArg = argOf(CE, Role::Root), *Comm = argOf(CE, Role::Comm);
  if (!Buf || !Count || !Type || !RootArg || !Comm)
    return std::nullopt;
  std::optional<int64_t> R = intAt(RootArg, F);
  std::optional<std::string> T = Ev.spelledHandle(Type), C = Ev.spelledHandle(Comm);
  std::optional<int64_t> Size = T ? Ev.datatypeSize(*T) : std::nullopt;
  if (!R || *R != Root || !C || *C != mpi::MPI_COMM_WORLD || !Size)
    return std::nullopt;
  return WorldBroadcast{Buf, Count, intAt(Count, F), *Size};
}

/// Whether the program's facts say no file but this one writes the global
/// X (true for one without external linkage, or in a closed world).
bool RootBroadcast::onlyThisFileWrites(const VarDecl *X) {
  if (!X->isExternallyVisible() || (Ev.options().ClosedWorld && Ev.index().DefinesMain))
    return true;
  const ProgramFacts *P = Ev.options().Program.get();
  if (!P || !P->program())
    return false;
  if (P->Seed)
    return true; // the fixpoint's first round
  std::string Here = ProgramFacts::nameOf(Ctx);
  auto G = P->Globals.find(X->getName().str());
  return G != P->Globals.end() && G->second.Defined &&
         llvm::all_of(G->second.WrittenBy, [&](const std::string &W) { return W == Here; });
}

/// Whether G, a function of another file, may write the global V: by the
/// program's facts of what each function writes where V has external
/// linkage, else by otherFilesCannotWrite.
bool RootBroadcast::otherFilesMayWrite(const FunctionDecl *G, const VarDecl *V) {
  const ProgramFacts *P = Ev.options().Program.get();
  if (V->isExternallyVisible() && P && P->program() && !P->Seed && G->isExternallyVisible())
    if (auto It = P->Functions.find(G->getName().str()); It != P->Functions.end() && It->second.Defined)
      return P->mayWrite(G->getName(), V->getName());
  return !otherFilesCannotWrite(V);
}

/// Whether code of another file cannot write the global V: by the
/// program's facts no other file writes it, and no function of this file
/// that writes it (main aside), nor any function of this file that calls
/// one, is called from another file or through a pointer.
bool RootBroadcast::otherFilesCannotWrite(const VarDecl *V) {
  if (!onlyThisFileWrites(V))
    return false;
  auto WritesV = [&](const Stmt *N) { return writesVar(N, V); };
  std::vector<const FunctionDecl *> Work;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->doesThisDeclarationHaveABody() && !FD->isMain() && anyNode(FD->getBody(), WritesV))
      Work.push_back(FD->getCanonicalDecl());
  const ProgramFacts *P = Ev.options().Program.get();
  bool Closed = Ev.options().ClosedWorld && Ev.index().DefinesMain;
  std::set<const FunctionDecl *> Seen(Work.begin(), Work.end());
  while (!Work.empty()) {
    const FunctionDecl *FD = Work.back();
    Work.pop_back();
    if (Ev.index().AddressTaken.count(FD))
      return false;
    if (FD->isExternallyVisible() && !Closed) {
      if (!P || !P->program() || P->reachedFromOtherFiles(FD->getName()))
        return false;
    }
    auto It = Ev.index().CallSites.find(FD);
    if (It != Ev.index().CallSites.end())
      for (auto [Caller, CE] : It->second)
        if (!Caller->isMain() && Seen.insert(Caller->getCanonicalDecl()).second)
          Work.push_back(Caller->getCanonicalDecl());
  }
  return true;
}

std::optional<int64_t> RootBroadcast::rootOf(const IfStmt *S, const FunctionDecl *F) {
  const Expr *C = S->getCond()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot)
    return isWorldRank(U->getSubExpr(), S, F) ? std::optional<int64_t>(0) : std::nullopt;
  const auto *B = dyn_cast<BinaryOperator>(C);
  if (!B || B->getOpcode() != BO_EQ)
    return std::nullopt;
  for (auto [X, R] : {std::pair{B->getLHS(), B->getRHS()}, std::pair{B->getRHS(), B->getLHS()}}) {
    SymValue RV = Ev.evaluate(R, F, S->getCond());
    if (RV.K == SymValue::Int && isWorldRank(X, S, F))
      return RV.I;
  }
  return std::nullopt;
}

bool RootBroadcast::isWorldRank(const Expr *X, const IfStmt *S, const FunctionDecl *F) {
  SymValue V = Ev.evaluate(X, F, S->getCond());
  if (V.K == SymValue::Affine && V.A.Rank == 1 && V.A.Size == 0 && V.A.Const == 0 && V.A.Mod == AffineForm::NoMod &&
      V.Comm.K == CommId::Predefined && V.Comm.Key == mpi::MPI_COMM_WORLD)
    return true;
  const VarDecl *G = namedVar(X);
  return G && G->hasGlobalStorage() && !G->isStaticLocal() && globalRank(G, S, F);
}

/// A global only MPI_Comm_rank(MPI_COMM_WORLD, &X) writes, in every file of
/// the program, called by a statement of F's body before the one holding S.
bool RootBroadcast::globalRank(const VarDecl *X, const IfStmt *S, const FunctionDecl *F) {
  if (!onlyThisFileWrites(X))
    return false;
  auto RankCall = [&](const CallExpr *CE) {
    const Expr *Comm = argOf(CE, Role::Comm);
    return Comm && argOf(CE, Role::RankOut) && Ev.spelledHandle(Comm) == mpi::MPI_COMM_WORLD;
  };
  // Every write of X in this file is such a call.
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasBody() || FD->getBody() == nullptr)
      continue;
    bool Other = anyNode(FD->getBody(), [&](const Stmt *N) {
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
        return rootVar(B->getLHS()) == X;
      const auto *U = dyn_cast<UnaryOperator>(N);
      if (!U || rootVar(U->getSubExpr()) != X)
        return false;
      if (U->isIncrementDecrementOp())
        return true;
      if (U->getOpcode() != UO_AddrOf)
        return false;
      auto Up = Ctx.getParents(*U);
      const auto *CE = Up.empty() ? nullptr : Up[0].get<CallExpr>();
      const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
      return !(Callee && Callee->getIdentifier() && Callee->getName() == mpi::MPI_Comm_rank && RankCall(CE) &&
               argOf(CE, Role::RankOut) == U);
    });
    if (Other)
      return false;
  }
  // ... and one is made before S, at the top of F (with no label in F, so
  // no jump skips it).
  const auto *Body = dyn_cast<CompoundStmt>(F->getBody());
  if (!Body || anyNode(Body, [](const Stmt *N) { return isa<LabelStmt>(N); }))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *T : Body->body()) {
    if (!SM.isBeforeInTranslationUnit(T->getEndLoc(), S->getBeginLoc()))
      return false;
    const CallExpr *CE = statementCallTo(T, mpi::MPI_Comm_rank);
    if (RankCall(CE)) {
      const auto *U = dyn_cast<UnaryOperator>(argOf(CE, Role::RankOut)->IgnoreParenImpCasts());
      if (U && U->getOpcode() == UO_AddrOf && rootVar(U->getSubExpr()) == X)
        return true;
    }
  }
  return false;
}
