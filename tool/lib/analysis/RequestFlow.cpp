//===- RequestFlow.cpp - Nonblocking requests along the CFG ---------------===//
#include "analysis/RequestFlow.h"
#include "analysis/EventFlow.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {
bool isRequestVar(const VarDecl *V) {
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && isRequestType(V->getType().getAsString());
}

/// A local array of requests of constant size.
const ConstantArrayType *requestArray(ASTContext &Ctx, const VarDecl *V) {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
    return nullptr;
  const auto *A = Ctx.getAsConstantArrayType(V->getType());
  return A && isRequestType(A->getElementType().getAsString()) ? A : nullptr;
}

const VarDecl *addressOfVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    if (const auto *D = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
      return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

/// The reference to the array in a slot expression.
const DeclRefExpr *arrayRef(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Add)
    E = B->getLHS()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(E);
}

using Event = RequestEvent;
using Key = std::pair<const VarDecl *, int>; ///< a variable, or an element of an array (-1: a scalar)

/// The local variable a loop condition tests for zero (`!flag`,
/// `flag == 0`, `0 == flag`), or null.
const VarDecl *zeroTest(const Expr *Cond) {
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
    return namedVar(U->getSubExpr());
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B || B->getOpcode() != BO_EQ)
    return nullptr;
  const Expr *L = B->getLHS()->IgnoreParenImpCasts(), *R = B->getRHS()->IgnoreParenImpCasts();
  const auto *LI = dyn_cast<IntegerLiteral>(L), *RI = dyn_cast<IntegerLiteral>(R);
  if (RI && RI->getValue() == 0)
    return namedVar(L);
  if (LI && LI->getValue() == 0)
    return namedVar(R);
  return nullptr;
}

/// Whether S sets V to 0: `v = 0;`, or a declaration giving it 0.
bool setsZero(const Stmt *S, const VarDecl *V) {
  auto IsZero = [](const Expr *E) {
    const auto *I = dyn_cast_or_null<IntegerLiteral>(E ? E->IgnoreParenImpCasts() : nullptr);
    return I && I->getValue() == 0;
  };
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(S))
    return llvm::any_of(DS->decls(), [&](const Decl *D) { return D == V && IsZero(V->getInit()); });
  const auto *B = dyn_cast_or_null<BinaryOperator>(S);
  return B && B->getOpcode() == BO_Assign && namedVar(B->getLHS()) == V && IsZero(B->getRHS());
}

/// Whether the statement before S in its block sets V to 0.
bool zeroBefore(ASTContext &Ctx, const Stmt *S, const VarDecl *V) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, S));
  const Stmt *Prev = nullptr;
  for (const Stmt *C : CS ? CS->body() : llvm::ArrayRef<Stmt *>()) {
    if (C == S)
      return setsZero(Prev, V);
    Prev = C;
  }
  return false;
}

/// The count of the requests CE's Requests array holds (MPI_Waitall's
/// count, MPI_Waitsome's incount), or null.
const Expr *requestCount(const CallExpr *CE) {
  const FunctionModel *M = modelOf(CE);
  std::optional<unsigned> I = M ? requestCountArg(*M) : std::nullopt;
  return I ? argAt(CE, int(*I)) : nullptr;
}

/// Where the test CE (its flag, `&flag`, the argument in role Out; its
/// request or requests the one in role Requests) completes its request for sure, when it is
/// repeated until the flag is set: a statement of the body of a loop on
/// `!flag` that is a do-while (then at CE), or a while or for loop entered
/// with the flag just set to 0 (then at the loop's condition, which exits
/// only once a test has set the flag). The body has no break, goto or
/// return and names neither the flag nor the requests but in this test; the
/// function takes the flag's address only for tests. Null otherwise.
const Stmt *testedUntilDone(ASTContext &Ctx, const CallExpr *CE, Role Requests) {
  const Expr *FlagArg = argOf(CE, Role::Out), *ReqArg = argOf(CE, Requests);
  const auto *U = FlagArg ? dyn_cast<UnaryOperator>(FlagArg->IgnoreParenImpCasts()) : nullptr;
  const VarDecl *Flag = U && U->getOpcode() == UO_AddrOf ? namedVar(U->getSubExpr()) : nullptr;
  const DeclRefExpr *Req = ReqArg ? arrayRef(ReqArg) : nullptr;
  if (!Flag || !Flag->hasLocalStorage() || isa<ParmVarDecl>(Flag) || !Req)
    return nullptr;
  const Stmt *P = parentStmt(Ctx, CE);
  const Stmt *Body = isa_and_nonnull<CompoundStmt>(P) ? P : CE;
  const Stmt *Loop = parentStmt(Ctx, Body);
  const Expr *Cond = nullptr;
  const Stmt *At = nullptr;
  if (const auto *D = dyn_cast_or_null<DoStmt>(Loop); D && D->getBody() == Body) {
    Cond = D->getCond();
    At = CE;
  } else if (const auto *W = dyn_cast_or_null<WhileStmt>(Loop); W && W->getBody() == Body) {
    Cond = W->getCond();
    At = zeroBefore(Ctx, W, Flag) ? Cond : nullptr;
  } else if (const auto *F = dyn_cast_or_null<ForStmt>(Loop); F && F->getBody() == Body) {
    Cond = F->getCond();
    bool Zero = F->getInit() ? setsZero(F->getInit(), Flag) : zeroBefore(Ctx, F, Flag);
    At = Zero && !(F->getInc() && (refersTo(F->getInc(), Flag) || refersTo(F->getInc(), Req->getDecl()))) ? Cond
                                                                                                          : nullptr;
  }
  if (!At || !Cond || zeroTest(Cond) != Flag)
    return nullptr;
  bool Other = anyNode(Body, [&](const Stmt *X) {
    if (isa<BreakStmt>(X) || isa<GotoStmt>(X) || isa<ReturnStmt>(X) || isa<IndirectGotoStmt>(X))
      return true;
    const auto *R = dyn_cast<DeclRefExpr>(X);
    return R && ((R->getDecl() == Flag && R != U->getSubExpr()->IgnoreParens()) ||
                 (R->getDecl() == Req->getDecl() && R != Req));
  });
  if (Other)
    return nullptr;
  // The flag's address goes only to tests, so nothing else writes it.
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Flag->getDeclContext());
  bool Escapes = !FD || !FD->getBody() || anyNode(FD->getBody(), [&](const Stmt *X) {
    const auto *A = dyn_cast<UnaryOperator>(X);
    if (!A || A->getOpcode() != UO_AddrOf || namedVar(A->getSubExpr()) != Flag)
      return false;
    const auto *Call = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, A));
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    return !Callee || !Callee->getIdentifier() ||
           (Callee->getName() != mpi::MPI_Test && Callee->getName() != mpi::MPI_Testall);
  });
  return Escapes ? nullptr : At;
}

/// Whether F counts k from 0 to N: a counting loop (support/AST's
/// countingHeader) from k = 0 while k < N or k != N, its body naming k only
/// to read it.
bool countsTo(ASTContext &Ctx, const ForStmt *F, const llvm::APSInt &N) {
  std::optional<CountingHeader> H = countingHeader(Ctx, F);
  Expr::EvalResult Bound;
  if (!H || H->Op == BO_LE || !setsZero(F->getInit(), H->Counter) || !H->Bound->EvaluateAsInt(Bound, Ctx) ||
      Bound.Val.getInt() != N)
    return false;
  return !anyNode(F->getBody(), [&](const Stmt *X) {
    const auto *R = dyn_cast<DeclRefExpr>(X);
    return R && R->getDecl() == H->Counter && !onlyReads(Ctx, R);
  });
}

/// Where a loop of MPI_Waitany calls CE over a run of N requests has
/// completed every one of them for sure: CE a statement of the body of a
/// loop counting k from 0 to N (countsTo), so run in every iteration; a body
/// with no break, continue, goto or return that names the requests only in
/// CE. N calls, each completing one active request of the run (or finding
/// none active), leave all N complete when the loop exits: at its
/// condition, where the flow places the completion (nothing else in the
/// loop touches the requests). Null otherwise.
const Stmt *waitedForEach(ASTContext &Ctx, const CallExpr *CE) {
  Expr::EvalResult N;
  const Expr *ReqArg = argOf(CE, Role::Requests), *Count = requestCount(CE);
  const DeclRefExpr *Req = ReqArg ? arrayRef(ReqArg) : nullptr;
  if (!Req || !Count || !Count->EvaluateAsInt(N, Ctx) || N.Val.getInt().isNegative())
    return nullptr;
  const Stmt *P = parentStmt(Ctx, CE);
  const Stmt *Body = isa_and_nonnull<CompoundStmt>(P) ? P : CE;
  const auto *F = dyn_cast_or_null<ForStmt>(parentStmt(Ctx, Body));
  if (!F || F->getBody() != Body || !countsTo(Ctx, F, N.Val.getInt()))
    return nullptr;
  bool Other = anyNode(Body, [&](const Stmt *X) {
    if (isa<BreakStmt, ContinueStmt, GotoStmt, ReturnStmt, IndirectGotoStmt>(X))
      return true;
    const auto *R = dyn_cast<DeclRefExpr>(X);
    return R && R->getDecl() == Req->getDecl() && R != Req;
  });
  return Other ? nullptr : F->getCond();
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, bool ArraySlots, bool UncertainTests)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), ArraySlots(ArraySlots), UncertainTests(UncertainTests) {}
  std::map<Key, std::vector<Event>> Events;
  std::map<const VarDecl *, std::vector<Event>> Everywhere; ///< events on every element of an array
  std::set<const VarDecl *> Persistent;
  std::set<const DeclRefExpr *> Seen;
  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
  /// An initialised request (MPI_REQUEST_NULL or another value) is known
  /// from its declaration on.
  bool VisitVarDecl(VarDecl *V) {
    Event E{RequestEvent::Other, offset(V->getLocation()), V->getLocation(), "", V->getInit()};
    if (isRequestVar(V) && V->hasInit())
      Events[{V, -1}].push_back(E);
    else if (ArraySlots && requestArray(Ctx, V) && V->hasInit())
      Everywhere[V].push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionModel *M = modelOf(CE);
    if (!M)
      return true;
    for (unsigned I = 0; I < M->Args.size() && I < CE->getNumArgs(); ++I) {
      Role R = M->Args[I].R;
      if (R != Role::Request && R != Role::Requests)
        continue;
      if (const VarDecl *V = requestVariable(CE->getArg(I))) {
        scalar(CE, *M, V, I);
        continue;
      }
      if (ArraySlots)
        element(CE, *M, R, I);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if ((isRequestVar(V) || (ArraySlots && requestArray(Ctx, V))) && !Seen.count(D))
      Pending.push_back(D);
    return true;
  }
  /// References not consumed by a start or completion: "other" events (on
  /// every element of an array); each element gets its array's.
  void finish() {
    for (const DeclRefExpr *D : Pending) {
      if (Seen.count(D))
        continue;
      const auto *V = cast<VarDecl>(D->getDecl());
      Event E{RequestEvent::Other, offset(D->getLocation()), D->getLocation(), "", D};
      if (isRequestVar(V))
        Events[{V, -1}].push_back(E);
      else
        Everywhere[V].push_back(E);
    }
    for (auto &[K, Es] : Events) {
      if (K.second >= 0)
        if (auto It = Everywhere.find(K.first); It != Everywhere.end())
          Es.insert(Es.end(), It->second.begin(), It->second.end());
      llvm::sort(Es, [](const Event &A, const Event &B) { return A.Offset < B.Offset; });
    }
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  bool ArraySlots, UncertainTests;
  std::vector<const DeclRefExpr *> Pending;

  /// Whether a completion E by CE (of model M) may leave its request
  /// pending; where a loop repeats a test until it completes, the point
  /// where it is complete for sure.
  void certainty(Event &E, const CallExpr *CE, const FunctionModel &M) const {
    if (!UncertainTests || requestEffect(M) != RequestEffect::Completes)
      return;
    const Stmt *At = M.Name == mpi::MPI_Test      ? testedUntilDone(Ctx, CE, Role::Request)
                     : M.Name == mpi::MPI_Testall ? testedUntilDone(Ctx, CE, Role::Requests)
                     : M.Name == mpi::MPI_Waitany ? waitedForEach(Ctx, CE)
                                                  : nullptr;
    E.FlowAt = At;
    E.Uncertain = !At && (M.Name == mpi::MPI_Test || (completesRun(M.Name) && M.Name != mpi::MPI_Waitall));
  }

  RequestEvent::Kind kindOf(const FunctionModel &M) const {
    RequestEffect E = requestEffect(M);
    return E == RequestEffect::Completes ? RequestEvent::Complete
           : E == RequestEffect::Starts  ? RequestEvent::Start
                                         : RequestEvent::Other;
  }
  void scalar(CallExpr *CE, const FunctionModel &M, const VarDecl *V, unsigned I) {
    if (const auto *U = dyn_cast<UnaryOperator>(CE->getArg(I)->IgnoreParenImpCasts()))
      Seen.insert(cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()));
    if (M.M == Mode::Persistent) {
      Persistent.insert(V);
      return;
    }
    Event E{kindOf(M), offset(CE->getBeginLoc()), CE->getBeginLoc(), M.Name, CE};
    certainty(E, CE, M);
    Events[{V, -1}].push_back(E);
  }
  /// An element (Request) or a run of elements (Requests: MPI_Waitall,
  /// MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome
  /// with a constant count completes them, all or some; any other call is
  /// "other" on all).
  void element(CallExpr *CE, const FunctionModel &M, Role R, unsigned I) {
    auto [V, K] = requestSlot(Ctx, CE->getArg(I));
    if (!V)
      return;
    if (const DeclRefExpr *D = arrayRef(CE->getArg(I)))
      Seen.insert(D);
    Event E{kindOf(M), offset(CE->getBeginLoc()), CE->getBeginLoc(), M.Name, CE};
    certainty(E, CE, M);
    if (M.M == Mode::Persistent) {
      Persistent.insert(V);
      return;
    }
    if (R == Role::Request) {
      Events[{V, K}].push_back(E);
      return;
    }
    Expr::EvalResult N;
    uint64_t Size = requestArray(Ctx, V)->getSize().getZExtValue();
    const Expr *Count = requestCount(CE);
    if (!completesRun(M.Name) || !Count || !Count->EvaluateAsInt(N, Ctx) || N.Val.getInt().isNegative() ||
        uint64_t(K) + N.Val.getInt().getZExtValue() > Size) {
      E.K = RequestEvent::Other;
      Everywhere[V].push_back(E);
      return;
    }
    for (int J = K; J < K + int(N.Val.getInt().getZExtValue()); ++J)
      Events[{V, J}].push_back(E);
  }
};

} // namespace

bool ompi::completesRun(llvm::StringRef Name) {
  return Name == mpi::MPI_Waitall || Name == mpi::MPI_Testall || Name == mpi::MPI_Waitany || Name == mpi::MPI_Testany ||
         Name == mpi::MPI_Waitsome || Name == mpi::MPI_Testsome;
}

const VarDecl *ompi::requestVariable(const Expr *RequestArg) {
  const VarDecl *V = RequestArg ? addressOfVar(RequestArg) : nullptr;
  return isRequestVar(V) ? V : nullptr;
}

std::pair<const VarDecl *, int> ompi::requestSlot(ASTContext &Ctx, const Expr *E) {
  const DeclRefExpr *D = E ? arrayRef(E) : nullptr;
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  const ConstantArrayType *A = requestArray(Ctx, V);
  if (!A)
    return {nullptr, -1};
  const Expr *X = E->IgnoreParenImpCasts();
  bool Addr = false;
  if (const auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
    X = U->getSubExpr()->IgnoreParenImpCasts();
    Addr = true;
  }
  const Expr *Index = nullptr;
  if (const auto *S = dyn_cast<ArraySubscriptExpr>(X)) {
    if (!Addr)
      return {nullptr, -1}; // reqs[K] itself, not its address
    Index = S->getIdx();
  } else if (const auto *B = dyn_cast<BinaryOperator>(X)) {
    if (Addr)
      return {nullptr, -1};
    Index = B->getRHS();
  } else if (Addr) {
    return {nullptr, -1}; // &reqs: the whole array
  }
  Expr::EvalResult K;
  int64_t Size = int64_t(A->getSize().getZExtValue());
  if (!Index)
    return {V, 0};
  if (!Index->EvaluateAsInt(K, Ctx) || K.Val.getInt().isNegative() || K.Val.getInt().getSExtValue() >= Size)
    return {nullptr, -1};
  return {V, int(K.Val.getInt().getSExtValue())};
}

namespace {

/// The states after event E (number K) from the states S before it.
RequestStates after(const Event &E, int K, const RequestStates &S) {
  if (E.K == RequestEvent::Start)
    return {K};
  if (E.K != RequestEvent::Complete)
    return {RequestUnknown};
  RequestStates Out{RequestDone};
  if (E.Uncertain) // still pending, tested
    for (int X : S)
      if (X >= 0)
        Out.insert(startOf(X) + RequestTested);
  return Out;
}

/// Every path's state of one variable on F's CFG: the states where each
/// event happens, and at the exit.
void flow(RequestVar &R, FunctionAnalysis &FA) {
  std::vector<const Stmt *> Where;
  for (const Event &E : R.Events)
    Where.push_back(E.FlowAt ? E.FlowAt : E.S);
  StateFlow F = flowStates(FA, Where, RequestUnset,
                           [&](unsigned K, const RequestStates &S) { return after(R.Events[K], int(K), S); });
  R.At = std::move(F.At);
  R.Exit = std::move(F.Exit);
}

} // namespace

std::vector<RequestVar> ompi::requestFlow(ASTContext &Ctx, Evaluator &Ev, const FunctionDecl *F, bool ArraySlots,
                                          bool UncertainTests) {
  std::vector<RequestVar> Out;
  FunctionAnalysis &FA = Ev.analysis(F);
  if (!FA.valid())
    return Out;
  Collector Col(Ctx, ArraySlots, UncertainTests);
  Col.TraverseStmt(F->getBody());
  Col.finish();
  for (auto &[K, Es] : Col.Events) {
    if (Col.Persistent.count(K.first))
      continue;
    RequestVar R;
    R.V = K.first;
    R.Index = K.second;
    R.Events = std::move(Es);
    flow(R, FA);
    Out.push_back(std::move(R));
  }
  return Out;
}
