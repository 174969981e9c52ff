//===- Values.cpp - The values a rank's run holds -------------------------===//
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ompi::ranks {

/// X Op Y for the integer operators the runs evaluate, or none.
std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t X, int64_t Y) {
  switch (Op) {
  case BO_Add:
    return X + Y;
  case BO_Sub:
    return X - Y;
  case BO_Mul:
    return X * Y;
  case BO_Div:
    return Y ? std::optional<int64_t>(X / Y) : std::nullopt;
  case BO_Rem:
    return Y ? std::optional<int64_t>(X % Y) : std::nullopt;
  case BO_LT:
    return X < Y;
  case BO_GT:
    return X > Y;
  case BO_LE:
    return X <= Y;
  case BO_GE:
    return X >= Y;
  case BO_EQ:
    return X == Y;
  case BO_NE:
    return X != Y;
  case BO_LAnd:
    return X && Y;
  case BO_LOr:
    return X || Y;
  case BO_And:
    return X & Y;
  case BO_Or:
    return X | Y;
  case BO_Xor:
    return X ^ Y;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> RankRun::concrete(const SymValue &V) const {
  if (V.K == SymValue::Int)
    return V.I;
  if (V.K != SymValue::Affine || (TheComm && V.Comm.known() && V.Comm != *TheComm))
    return std::nullopt;
  int64_t X = V.A.Rank * Rank + V.A.Size * Size + V.A.Const;
  int64_t M = V.A.Mod == AffineForm::ModSize ? Size : V.A.Mod == AffineForm::ModConst ? V.A.ModValue : 0;
  if (V.A.Mod != AffineForm::NoMod)
    X = M > 0 ? X % M : 0;
  return X;
}

std::optional<int64_t> RankRun::leaf(const Expr *E) {
  SymValue V = Ev.evaluate(E, frame().F, E);
  if (V.K == SymValue::Dynamic && Cur)
    V = Ev.evaluate(E, frame().F, Cur);
  return concrete(V);
}

std::optional<int64_t> RankRun::value(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (auto It = frame().Env.find(V); It != frame().Env.end())
        return It->second;
    return leaf(E);
  }
  if (const auto *Ref = deref(E))
    return Frames[Ref->first].Env.count(Ref->second) ? Frames[Ref->first].Env[Ref->second] : std::nullopt;
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (auto V = callValue(CE))
      return V;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    auto X = value(U->getSubExpr());
    if (!X)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_LNot:
      return !*X;
    case UO_Minus:
      return -*X;
    case UO_Plus:
      return *X;
    default:
      return leaf(E);
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return binary(B);
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    auto X = value(C->getCond());
    return X ? value(*X ? C->getTrueExpr() : C->getFalseExpr()) : std::nullopt;
  }
  return leaf(E);
}

std::optional<int64_t> RankRun::binary(const BinaryOperator *B) {
  BinaryOperatorKind Op = B->getOpcode();
  if (B->isEqualityOp()) // comm == MPI_COMM_NULL: by the handles held, under any MPI
    if (auto X = commValue(B->getLHS()), Y = commValue(B->getRHS()); X && Y)
      return (*X == *Y) == (Op == BO_EQ);
  auto L = value(B->getLHS());
  if (Op == BO_LAnd && L && !*L)
    return 0;
  if (Op == BO_LOr && L && *L)
    return 1;
  auto R = value(B->getRHS());
  if (Op == BO_LAnd && R && !*R)
    return 0;
  if (Op == BO_LOr && R && *R)
    return 1;
  if (!L || !R)
    return B->isAssignmentOp() || B->isCommaOp() ? std::nullopt : leaf(B);
  return apply(Op, *L, *R);
}

void RankRun::assign(const Expr *LHS, std::optional<int64_t> V, std::optional<std::string> H) {
  if (const auto *Ref = deref(LHS)) { // *p, p pointing to a caller's integer
    Frames[Ref->first].Env[Ref->second] = V;
    Frames[Ref->first].Handles.erase(Ref->second);
    return;
  }
  const auto *DR = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts());
  const auto *Var = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDecl() || Var->isStaticLocal())
    return;
  if (Var->getType()->isIntegralOrEnumerationType())
    frame().Env[Var] = V;
  frame().Handles[Var] = std::move(H); // MPICH's handles are integers
}

void RankRun::alias(const VarDecl *L, const Expr *From) {
  if (!L || !L->isLocalVarDecl() || L->isStaticLocal() ||
      handleClassOf(L->getType().getAsString()) != HandleClass::Datatype)
    return;
  const VarDecl *R = namedVar(From->IgnoreParenImpCasts());
  std::optional<const VarDecl *> To;
  if (R && handleClassOf(R->getType().getAsString()) == HandleClass::Datatype) {
    auto It = frame().TypeOf.find(R);
    To = It == frame().TypeOf.end() ? std::optional<const VarDecl *>(R) : It->second;
  }
  frame().TypeOf[L] = To;
}

const std::pair<size_t, const VarDecl *> *RankRun::deref(const Expr *E) {
  const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  const VarDecl *P = U && U->getOpcode() == UO_Deref ? namedVar(U->getSubExpr()) : nullptr;
  auto It = P ? frame().Refs.find(P) : frame().Refs.end();
  return It == frame().Refs.end() ? nullptr : &It->second;
}

std::optional<int64_t> RankRun::callValue(const CallExpr *CE) {
  const FunctionDecl *F = definedCallee(CE);
  if (!F || !F->getReturnType()->isIntegralOrEnumerationType() || Frames.size() > 6 ||
      llvm::any_of(Frames, [&](const Frame &Fr) { return Fr.F == F; }) || callsMPI(F) || keepsState(F))
    return std::nullopt;
  Frame New{F, {}, {}, {}};
  for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
    if (P->getType()->isIntegralOrEnumerationType()) {
      New.Env[P] = value(A);
      continue;
    }
    const VarDecl *V = addressedVar(A);
    if (P->getType()->isPointerType() && P->getType()->getPointeeType()->isIntegralOrEnumerationType() && V &&
        V->isLocalVarDecl() && !V->isStaticLocal() && V->getType()->isIntegralOrEnumerationType())
      New.Refs[P] = {Frames.size() - 1, V};
    else if (const VarDecl *Q = namedVar(A); Q && frame().Refs.count(Q) && P->getType()->isPointerType())
      New.Refs[P] = frame().Refs[Q];
  }
  std::vector<std::pair<size_t, const VarDecl *>> Bound;
  for (auto &[P, R] : New.Refs)
    Bound.push_back(R);
  size_t Depth = Frames.size();
  const Stmt *SavedCur = Cur;
  Frames.push_back(std::move(New));
  std::optional<int64_t> Out;
  try {
    if (exec(F->getBody()) == Flow::Returned)
      Out = Frames.back().Ret;
  } catch (const Undecided &) {
    Frames.resize(Depth);
    for (auto &[Fi, V] : Bound)
      Frames[Fi].Env[V] = std::nullopt;
  }
  Frames.resize(Depth);
  Cur = SavedCur;
  return Out;
}

bool RankRun::keepsState(const FunctionDecl *F) {
  return anyNode(F->getBody(), [](const Stmt *N) {
    const auto *D = dyn_cast<DeclRefExpr>(N);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && V->hasGlobalStorage() && !V->getType().isConstQualified();
  });
}

bool RankRun::callsMPI(const FunctionDecl *F) {
  return llvm::any_of(reachable(F), [](const FunctionDecl *G) {
    return anyNode(G->getBody(), [](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      const FunctionDecl *C = CE ? CE->getDirectCallee() : nullptr;
      return C && C->getIdentifier() && isMPIFunctionName(C->getName());
    });
  });
}

std::optional<std::string> RankRun::handle(const Expr *E) {
  if (const VarDecl *V = namedVar(E))
    if (auto It = frame().Handles.find(V); It != frame().Handles.end())
      return It->second;
  auto H = Ev.spelledHandle(E);
  return H && lookupHandle(*H) ? H : std::nullopt;
}

std::optional<std::string> RankRun::commValue(const Expr *E) {
  if (isa<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
    return elemHeld(E);
  const VarDecl *V = namedVar(E);
  if (V && !frame().Handles.count(V))
    return std::nullopt;
  auto H = handle(E);
  llvm::StringRef X = H ? llvm::StringRef(*H) : "";
  if (!X.starts_with(mpi::CommHandlePrefix) && !X.starts_with("#comm") && X != mpi::MPI_REQUEST_NULL && X != "#req" &&
      X != "#preq")
    return std::nullopt;
  return H;
}

std::optional<std::string> RankRun::elemHeld(const Expr *E) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  const VarDecl *A = AS ? namedVar(AS->getBase()) : nullptr;
  auto K = A ? value(AS->getIdx()) : std::nullopt;
  auto It = K ? ElemHeld.find({A, *K}) : ElemHeld.end();
  return It == ElemHeld.end() ? std::nullopt : std::optional<std::string>(It->second);
}

void RankRun::effects(const Expr *E) {
  anyNode(E, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp()) {
      std::optional<int64_t> V;
      std::optional<std::string> H;
      if (B->getOpcode() == BO_Assign)
        V = value(B->getRHS()), H = handle(B->getRHS()), alias(B->getLHS(), B->getRHS());
      else if (const auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
        auto X = value(B->getLHS()), Y = value(B->getRHS());
        V = X && Y ? apply(BinaryOperator::getOpForCompoundAssignment(CA->getOpcode()), *X, *Y) : std::nullopt;
      }
      assign(B->getLHS(), V, std::move(H));
    } else if (const auto *U = dyn_cast<UnaryOperator>(N)) {
      if (U->isIncrementDecrementOp()) {
        auto X = value(U->getSubExpr());
        assign(U->getSubExpr(), X ? std::optional<int64_t>(*X + (U->isIncrementOp() ? 1 : -1)) : std::nullopt);
      } else if (U->getOpcode() == UO_AddrOf) {
        if (const auto *V = namedVar(U->getSubExpr()); V && !Modelled.count(U))
          frame().Env.erase(V), frame().Handles.erase(V), frame().TypeOf.erase(V);
      }
    }
    return false;
  });
}

void RankRun::forget(const Stmt *S) {
  anyNode(S, [&](const Stmt *N) {
    if (const Expr *LHS = assignedLValue(N))
      assign(LHS, std::nullopt);
    return false;
  });
}

} // namespace ompi::ranks
