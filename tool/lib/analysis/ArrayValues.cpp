//===- ArrayValues.cpp - What local arrays hold when a call reads them -----===//
#include "analysis/ArrayValues.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include <map>

using namespace clang;

namespace ompi {

namespace {

constexpr size_t MaxPaths = 16;

bool callsNamed(const Expr *E, llvm::StringRef Name) {
  const auto *CE = dyn_cast<CallExpr>(E);
  return CE && CE->getDirectCallee() && CE->getDirectCallee()->getName() == Name;
}

/// CE's two arguments when it is MPI_Aint_diff (addr1 - addr2).
std::optional<std::pair<const Expr *, const Expr *>> addressDiff(const CallExpr *CE) {
  std::optional<AddressDiffArgs> A = addressDiffArgs(calleeName(CE));
  if (!A || std::max(A->Minuend, A->Subtrahend) >= CE->getNumArgs())
    return std::nullopt;
  return std::make_pair(CE->getArg(A->Minuend), CE->getArg(A->Subtrahend));
}

/// The address E evaluates to (&s.m, &p->m, p, &a[2] with a constant index
/// is not followed).
std::optional<ArrayElem> addressOf(ASTContext &Ctx, const Expr *E);

std::optional<ArrayElem> lvalueAddress(ASTContext &Ctx, const Expr *L) {
  L = L->IgnoreParens();
  if (const VarDecl *V = namedVar(L)) {
    if (V->getType()->isPointerType())
      return std::nullopt;
    ArrayElem A = ArrayElem::of(ArrayElem::Address);
    A.Root = V;
    return A;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    auto Base = ME->isArrow() ? addressOf(Ctx, ME->getBase()) : lvalueAddress(Ctx, ME->getBase());
    if (!FD || !Base)
      return std::nullopt;
    Base->Off += Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(FD)).getQuantity();
    return Base;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(L); U && U->getOpcode() == UO_Deref)
    return addressOf(Ctx, U->getSubExpr());
  return std::nullopt;
}

std::optional<ArrayElem> addressOf(ASTContext &Ctx, const Expr *E) {
  E = strip(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return lvalueAddress(Ctx, U->getSubExpr());
  const VarDecl *V = namedVar(E);
  if (!V || !(V->getType()->isPointerType() || V->getType()->isArrayType()))
    return std::nullopt;
  ArrayElem A = ArrayElem::of(ArrayElem::Address);
  A.Root = V;
  A.Pointee = V->getType()->isPointerType();
  return A;
}

/// A - B: the distance between two addresses into one object, or between
/// two integers.
ArrayElem difference(const ArrayElem &A, const ArrayElem &B) {
  if (A.K == ArrayElem::Address && B.K == ArrayElem::Address && A.Root == B.Root && A.Pointee == B.Pointee)
    return ArrayElem::integer(A.Off - B.Off);
  if (A.K == ArrayElem::Int && B.K == ArrayElem::Int)
    return ArrayElem::integer(A.I - B.I);
  return ArrayElem::of(ArrayElem::Unknown);
}

/// Whether a branch ends the path (return, exit, abort): its states do not
/// reach the call.
bool endsPath(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsPath(CS->body_back());
  if (isa_and_nonnull<ReturnStmt>(S))
    return true;
  const auto *E = dyn_cast_or_null<Expr>(S);
  E = E ? E->IgnoreParenCasts() : nullptr;
  return E && (callsNamed(E, "exit") || callsNamed(E, "abort") || abortsJob(calleeName(dyn_cast<CallExpr>(E))));
}

struct State {
  std::vector<std::vector<ArrayElem>> A;
  std::map<const VarDecl *, ArrayElem> Vars;
  std::vector<std::string> Conds;
};

class Walk {
public:
  Walk(Evaluator &Ev, const FunctionDecl *FD, llvm::ArrayRef<const VarDecl *> Arrays)
      : Ev(Ev), Ctx(Ev.context()), FD(FD), Arrays(Arrays.begin(), Arrays.end()), Declared(Arrays.size()) {
    States.emplace_back();
    States.back().A.resize(Arrays.size());
  }

  std::optional<std::vector<ArrayPath>> run(const Stmt *At);

private:
  Evaluator &Ev;
  ASTContext &Ctx;
  const FunctionDecl *FD;
  std::vector<const VarDecl *> Arrays;
  std::vector<bool> Declared;
  std::vector<State> States;
  State *Cur = nullptr;
  const Stmt *Anchor = nullptr; ///< the statement being followed: where values are evaluated
  bool Failed = false;
  /// Whether the function takes each tracked scalar's address (computed
  /// at its first use).
  std::map<const VarDecl *, bool> AddressTaken;

  void walk(const Stmt *St);
  void branch(const IfStmt *If);
  bool unroll(const ForStmt *For);
  std::optional<int64_t> intValue(const Expr *E);
  std::optional<int64_t> arith(const Expr *E);
  void declare(const VarDecl *V);
  void statement(const Stmt *St);
  bool getAddress(const CallExpr *CE);
  bool assign(const BinaryOperator *BO);
  int arrayOf(const Expr *E) const;
  std::optional<std::pair<int, int64_t>> element(const Expr *E);
  ArrayElem value(const Expr *E);
  void clobberMentioned(const Stmt *St);
  bool set(std::optional<std::pair<int, int64_t>> At, const ArrayElem &X) {
    if (!At || At->second < 0 || size_t(At->second) >= Cur->A[At->first].size())
      return false;
    Cur->A[At->first][At->second] = X;
    return true;
  }
};

/// The expression E stands in, through parentheses and implicit casts.
const Stmt *user(ASTContext &Ctx, const Stmt *E) {
  const Stmt *P = parentStmt(Ctx, E);
  while (isa_and_nonnull<ParenExpr, ImplicitCastExpr>(P))
    P = parentStmt(Ctx, P);
  return P;
}

/// Whether FD keeps a pointer into the array V anywhere (q = d, int *q =
/// &d[1], d + 2 stored): writes through it are not followed. An element's
/// use, an address passed to a call (which clobbers where it is called)
/// and sizeof keep none.
bool pointerKept(ASTContext &Ctx, const FunctionDecl *FD, const VarDecl *V) {
  return FD && FD->getBody() && anyNode(FD->getBody(), [&](const Stmt *X) {
           const auto *DRE = dyn_cast<DeclRefExpr>(X);
           if (!DRE || DRE->getDecl() != V)
             return false;
           const Stmt *U = user(Ctx, DRE);
           if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(U))
             return false;
           if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(U);
               AS && AS->getBase()->IgnoreParenImpCasts() == DRE) {
             const auto *A = dyn_cast_or_null<UnaryOperator>(user(Ctx, AS));
             if (!A || A->getOpcode() != UO_AddrOf)
               return false; // an element read or written
             U = user(Ctx, A);
           } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(U); BO && BO->isAdditiveOp())
             U = user(Ctx, BO);
           return !isa_and_nonnull<CallExpr>(U);
         });
}

std::optional<std::vector<ArrayPath>> Walk::run(const Stmt *At) {
  const Stmt *Top = At;
  const Stmt *P = parentStmt(Ctx, Top);
  while (P && !isa<CompoundStmt>(P))
    Top = P, P = parentStmt(Ctx, P);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(P);
  if (!Block)
    return std::nullopt;
  for (const VarDecl *V : Arrays)
    if (!V || !V->hasLocalStorage() || !Ctx.getAsConstantArrayType(V->getType()) || pointerKept(Ctx, FD, V))
      return std::nullopt;
  for (const Stmt *St : Block->body()) {
    if (St == Top || Failed)
      break;
    walk(St);
  }
  if (Failed || llvm::is_contained(Declared, false) || States.empty())
    return std::nullopt;
  std::vector<ArrayPath> Out;
  for (State &S : States)
    Out.push_back({std::move(S.A), std::move(S.Conds)});
  return Out;
}

void Walk::walk(const Stmt *St) {
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    for (const Stmt *C : CS->body())
      walk(C);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(St); If && !If->getInit() && !If->getConditionVariable()) {
    branch(If);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(St); For && unroll(For))
    return;
  Anchor = St;
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        declare(V);
    return;
  }
  for (State &S : States) {
    Cur = &S;
    statement(St);
  }
}

/// Both arms of an if, each from the states before it; an arm that ends
/// the path drops its states.
void Walk::branch(const IfStmt *If) {
  Anchor = If;
  for (State &S : States) {
    Cur = &S;
    clobberMentioned(If->getCond());
  }
  if (anyNode(If, [](const Stmt *S) { return isa<BreakStmt, ContinueStmt, GotoStmt, SwitchCase>(S); })) {
    Failed = true;
    return;
  }
  std::string Cond = Ev.text(If->getCond());
  std::vector<State> Before = States;
  for (State &S : States)
    S.Conds.push_back(Cond);
  walk(If->getThen());
  std::vector<State> Then = endsPath(If->getThen()) ? std::vector<State>() : std::move(States);
  States = std::move(Before);
  for (State &S : States)
    S.Conds.push_back("!(" + Cond + ")");
  if (If->getElse())
    walk(If->getElse());
  if (If->getElse() && endsPath(If->getElse()))
    States.clear();
  // A state both arms leave alike is one path: the condition does not
  // matter to it, and a variable the arms set differently is unknown.
  for (State &S : Then) {
    auto Same = llvm::find_if(States, [&](const State &O) { return O.A == S.A; });
    if (Same == States.end()) {
      States.push_back(std::move(S));
      continue;
    }
    if (!Same->Conds.empty() && Same->Conds.back() == "!(" + Cond + ")")
      Same->Conds.pop_back();
    for (auto &[V, X] : Same->Vars)
      if (!S.Vars.count(V) || !(S.Vars[V] == X))
        X = ArrayElem::of(ArrayElem::Unknown);
  }
  Failed |= States.size() > MaxPaths;
}

/// A counting loop (support/AST's countingHeader) of an integer counter
/// whose start and bound have no side effects and whose body is plain
/// assignments without side effects in their operands, none of them to the
/// counter: its header and those assignments; nothing otherwise.
struct CountedLoop {
  CountingHeader H;
  std::vector<const BinaryOperator *> Body;
};

std::optional<CountedLoop> countedLoop(ASTContext &Ctx, const ForStmt *For) {
  std::optional<CountingHeader> H = countingHeader(Ctx, For);
  if (!H || !H->Counter->getType()->isIntegerType() || H->Start->HasSideEffects(Ctx) || H->Bound->HasSideEffects(Ctx) ||
      refersTo(H->Bound, H->Counter))
    return std::nullopt;
  CountedLoop L{*H, {}};
  const auto *CS = dyn_cast_or_null<CompoundStmt>(For->getBody());
  std::vector<const Stmt *> Stmts =
      CS ? std::vector<const Stmt *>(CS->body_begin(), CS->body_end()) : std::vector<const Stmt *>{For->getBody()};
  for (const Stmt *St : Stmts) {
    const auto *BO =
        dyn_cast_or_null<BinaryOperator>(dyn_cast_or_null<Expr>(St) ? cast<Expr>(St)->IgnoreParens() : nullptr);
    if (!BO || BO->getOpcode() != BO_Assign || BO->getRHS()->HasSideEffects(Ctx) || BO->getLHS()->HasSideEffects(Ctx) ||
        namedVar(BO->getLHS()) == H->Counter)
      return std::nullopt;
    L.Body.push_back(BO);
  }
  return L;
}

/// A counted loop (countedLoop) of at most 4096 iterations whose start and
/// bound are known on every path: each iteration's assignments followed in
/// turn, the counter's value known in each; then the counter's final value.
bool Walk::unroll(const ForStmt *For) {
  std::optional<CountedLoop> L = countedLoop(Ctx, For);
  if (!L)
    return false;
  for (const BinaryOperator *BO : L->Body)
    if (!isa<ArraySubscriptExpr>(strip(BO->getLHS())) && !namedVar(BO->getLHS()))
      return false;
  std::vector<std::pair<int64_t, int64_t>> Range;
  for (State &S : States) {
    Cur = &S;
    Anchor = For;
    bool Inclusive = L->H.Op == BO_LE;
    std::optional<int64_t> A = intValue(L->H.Start), B = intValue(L->H.Bound);
    if (!A || !B || *B - *A + Inclusive > 4096 || (L->H.Op == BO_NE && *A > *B))
      return false;
    Range.push_back({*A, *B + Inclusive});
  }
  for (size_t K = 0; K < States.size(); ++K) {
    Cur = &States[K];
    int64_t I = Range[K].first;
    for (; I < Range[K].second; ++I) {
      Cur->Vars[L->H.Counter] = ArrayElem::integer(I);
      for (const BinaryOperator *BO : L->Body) {
        Anchor = BO;
        if (!assign(BO))
          clobberMentioned(BO);
      }
    }
    Cur->Vars[L->H.Counter] = ArrayElem::integer(I);
  }
  return true;
}

void Walk::declare(const VarDecl *V) {
  const Expr *Init = V->getInit();
  auto It = llvm::find(Arrays, V);
  for (State &S : States) {
    Cur = &S;
    if (It == Arrays.end()) {
      if (Init && V->getType()->isIntegerType())
        S.Vars[V] = value(Init);
      else if (Init)
        clobberMentioned(Init); // a pointer into an array: it may be written through
      continue;
    }
    size_t I = It - Arrays.begin();
    Declared[I] = true;
    size_t N = Ctx.getAsConstantArrayType(V->getType())->getSize().getZExtValue();
    S.A[I].assign(N, Init ? ArrayElem::integer(0) : ArrayElem::of(ArrayElem::Unset));
    if (const auto *IL = dyn_cast_or_null<InitListExpr>(Init))
      for (unsigned K = 0; K < IL->getNumInits() && K < N; ++K)
        S.A[I][K] = value(IL->getInit(K));
    else if (Init)
      S.A[I].assign(N, ArrayElem::of(ArrayElem::Unknown));
  }
}

/// Whether St may write V: it names V other than as an argument for a
/// pointer-to-const parameter (MPI_Type_create_struct's arrays) or in an
/// element read.
bool mayWrite(ASTContext &Ctx, const Stmt *St, const VarDecl *V) {
  return anyNode(St, [&](const Stmt *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X);
    if (!DRE || DRE->getDecl() != V)
      return false;
    const Expr *Child = nullptr;
    const Stmt *P = parentThroughCasts(Ctx, DRE, &Child);
    if (const auto *CE = dyn_cast_or_null<CallExpr>(P); CE && CE->getDirectCallee()) {
      const FunctionDecl *F = CE->getDirectCallee();
      for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I)
        if (CE->getArg(I) == Child) {
          QualType T = F->getParamDecl(I)->getType();
          return !(T->isPointerType() && T->getPointeeType().isConstQualified());
        }
      return true;
    }
    const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P);
    const auto *Cast = AS ? dyn_cast_or_null<ImplicitCastExpr>(parentStmt(Ctx, AS)) : nullptr;
    return !(Cast && Cast->getCastKind() == CK_LValueToRValue);
  });
}

/// Whether St may write the scalar V: it names V other than to read its
/// value (an lvalue-to-rvalue conversion, through parentheses). A variable
/// whose address the function takes anywhere may be written through a
/// pointer: any statement that names it may write it.
bool mayWriteScalar(ASTContext &Ctx, const Stmt *St, const VarDecl *V, bool AddressTaken) {
  return anyNode(St, [&](const Stmt *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X);
    if (!DRE || DRE->getDecl() != V)
      return false;
    return AddressTaken || !onlyReads(Ctx, DRE);
  });
}

/// Whether the function FD takes V's address anywhere (&v).
bool addressTakenIn(const FunctionDecl *FD, const VarDecl *V) {
  return FD && FD->getBody() && anyNode(FD->getBody(), [&](const Stmt *X) {
           const auto *U = dyn_cast<UnaryOperator>(X);
           return U && U->getOpcode() == UO_AddrOf && refersTo(U->getSubExpr(), V);
         });
}

void Walk::clobberMentioned(const Stmt *St) {
  for (size_t I = 0; I < Arrays.size(); ++I)
    if (mayWrite(Ctx, St, Arrays[I]))
      Cur->A[I].assign(Cur->A[I].size(), ArrayElem::of(ArrayElem::Unknown));
  for (auto &[V, X] : Cur->Vars) {
    auto [It, New] = AddressTaken.try_emplace(V, false);
    if (New)
      It->second = addressTakenIn(FD, V);
    if (mayWriteScalar(Ctx, St, V, It->second))
      X = ArrayElem::of(ArrayElem::Unknown);
  }
}

void Walk::statement(const Stmt *St) {
  const auto *E = dyn_cast<Expr>(St);
  E = E ? E->IgnoreParenCasts() : nullptr;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(E); CE && getAddress(CE))
    return;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_SubAssign) && assign(BO))
    return;
  clobberMentioned(St);
}

/// MPI_Get_address(location, &a[k] | a + k | a | &v).
bool Walk::getAddress(const CallExpr *CE) {
  std::optional<AddressCallArgs> Args = addressCallArgs(calleeName(CE));
  if (!Args || CE->getNumArgs() != 2)
    return false;
  ArrayElem X = ArrayElem::of(ArrayElem::Unknown);
  if (auto A = addressOf(Ctx, CE->getArg(Args->Location))) {
    X = *A;
    X.Name = Ev.text(CE->getArg(Args->Location));
  }
  const Expr *Out = strip(CE->getArg(Args->Address));
  if (const auto *U = dyn_cast<UnaryOperator>(Out); U && U->getOpcode() == UO_AddrOf) {
    if (const VarDecl *V = namedVar(U->getSubExpr()); V && arrayOf(U->getSubExpr()) < 0) {
      Cur->Vars[V] = X;
      return true;
    }
    Out = U->getSubExpr();
  }
  if (int I = arrayOf(Out); I >= 0)
    return set(std::pair<int, int64_t>(I, 0), X);
  return set(element(Out), X);
}

/// a[k] = value, v = value, a[k] -= value.
bool Walk::assign(const BinaryOperator *BO) {
  if (anyNode(BO->getRHS(), [](const Stmt *S) { return isa<CallExpr>(S) && !addressDiff(cast<CallExpr>(S)); }))
    return false; // a call may write what it is given
  ArrayElem X = value(BO->getRHS());
  if (BO->getOpcode() == BO_SubAssign)
    X = difference(value(BO->getLHS()), X);
  if (const VarDecl *V = namedVar(BO->getLHS()); V && arrayOf(BO->getLHS()) < 0) {
    if (!V->getType()->isIntegerType())
      return false;
    Cur->Vars[V] = X;
    return true;
  }
  return isa<ArraySubscriptExpr>(strip(BO->getLHS())) && set(element(BO->getLHS()), X);
}

int Walk::arrayOf(const Expr *E) const {
  auto It = llvm::find(Arrays, namedVar(E));
  return It == Arrays.end() ? -1 : int(It - Arrays.begin());
}

/// a[k] or a + k with a constant k.
std::optional<std::pair<int, int64_t>> Walk::element(const Expr *E) {
  E = strip(E);
  const Expr *Base = nullptr, *Idx = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Base = AS->getBase(), Idx = AS->getIdx();
  else if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Add)
    Base = BO->getLHS(), Idx = BO->getRHS();
  int I = Base ? arrayOf(Base) : -1;
  if (I < 0)
    return std::nullopt;
  std::optional<int64_t> V = intValue(Idx);
  return V ? std::optional(std::pair<int, int64_t>(I, *V)) : std::nullopt;
}

/// An integer value: arith(E), else value(E).
std::optional<int64_t> Walk::intValue(const Expr *E) {
  if (std::optional<int64_t> R = arith(E))
    return R;
  ArrayElem X = value(E);
  return X.K == ArrayElem::Int ? std::optional<int64_t>(X.I) : std::nullopt;
}

/// The arithmetic (+, -, *, /, % and unary -) of integers intValue gives
/// (i * 40 + 2 with the counter i of a loop being followed), or nothing.
std::optional<int64_t> Walk::arith(const Expr *E) {
  E = strip(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Minus) {
    std::optional<int64_t> X = intValue(U->getSubExpr());
    return X && *X != INT64_MIN ? std::optional<int64_t>(-*X) : std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || !(BO->isMultiplicativeOp() || BO->isAdditiveOp()) || !BO->getType()->isIntegerType())
    return std::nullopt;
  std::optional<int64_t> X = intValue(BO->getLHS()), Y = intValue(BO->getRHS());
  int64_t R = 0;
  if (!X || !Y)
    return std::nullopt;
  bool Overflow = false;
  switch (BO->getOpcode()) {
  case BO_Add:
    Overflow = __builtin_add_overflow(*X, *Y, &R);
    break;
  case BO_Sub:
    Overflow = __builtin_sub_overflow(*X, *Y, &R);
    break;
  case BO_Mul:
    Overflow = __builtin_mul_overflow(*X, *Y, &R);
    break;
  default: // BO_Div, BO_Rem
    Overflow = *Y == 0 || (*Y == -1 && *X == INT64_MIN);
    R = Overflow ? 0 : BO->getOpcode() == BO_Div ? *X / *Y : *X % *Y;
  }
  return Overflow ? std::nullopt : std::optional<int64_t>(R);
}

/// The value of an initialiser or right-hand side: a constant or handle,
/// an element or tracked variable, or the difference of two.
ArrayElem Walk::value(const Expr *E) {
  if (auto H = Ev.spelledHandle(E)) {
    ArrayElem X = ArrayElem::of(ArrayElem::Handle);
    X.Name = *H;
    return X;
  }
  E = strip(E);
  if (const auto *CE = dyn_cast<CallExpr>(E); CE && CE->getNumArgs() == 2)
    if (auto D = addressDiff(CE))
      return difference(value(D->first), value(D->second));
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Sub)
    return difference(value(BO->getLHS()), value(BO->getRHS()));
  if (isa<ArraySubscriptExpr>(E)) {
    auto At = element(E);
    if (At && At->second >= 0 && size_t(At->second) < Cur->A[At->first].size())
      return Cur->A[At->first][At->second];
  }
  if (const VarDecl *V = namedVar(E); V && Cur->Vars.count(V))
    return Cur->Vars[V];
  if (std::optional<int64_t> R = arith(E))
    return ArrayElem::integer(*R);
  if (llvm::any_of(Arrays, [&](const VarDecl *V) { return refersTo(E, V); }))
    return ArrayElem::of(ArrayElem::Unknown);
  // A constant needs no control flow (and a declaration of several
  // variables is not one point of the CFG, which splits it).
  if (Expr::EvalResult R; !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return ArrayElem::integer(R.Val.getInt().getExtValue());
  SymValue V = Ev.evaluate(E, FD, Anchor);
  return V.K == SymValue::Int ? ArrayElem::integer(V.I) : ArrayElem::of(ArrayElem::Unknown);
}

} // namespace

std::optional<std::vector<ArrayPath>> arrayValuesAt(Evaluator &Ev, const FunctionDecl *FD, const Stmt *At,
                                                    llvm::ArrayRef<const VarDecl *> Arrays) {
  return Walk(Ev, FD, Arrays).run(At);
}

} // namespace ompi
