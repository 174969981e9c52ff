//===- RequestFlow.cpp - Nonblocking requests along the CFG ---------------===//
#include "analysis/RequestFlow.h"
#include "mpi/CallModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
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

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, bool ArraySlots) : Ctx(Ctx), SM(Ctx.getSourceManager()), ArraySlots(ArraySlots) {}
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
  bool ArraySlots;
  std::vector<const DeclRefExpr *> Pending;

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
    Events[{V, -1}].push_back({kindOf(M), offset(CE->getBeginLoc()), CE->getBeginLoc(), M.Name, CE});
  }
  /// An element (Request) or a run of elements (Requests: MPI_Waitall with
  /// a constant count completes them; any other call is "other" on all).
  void element(CallExpr *CE, const FunctionModel &M, Role R, unsigned I) {
    auto [V, K] = requestSlot(Ctx, CE->getArg(I));
    if (!V)
      return;
    if (const DeclRefExpr *D = arrayRef(CE->getArg(I)))
      Seen.insert(D);
    Event E{kindOf(M), offset(CE->getBeginLoc()), CE->getBeginLoc(), M.Name, CE};
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
    if (M.Name != "MPI_Waitall" || !CE->getArg(0)->EvaluateAsInt(N, Ctx) || N.Val.getInt().isNegative() ||
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

/// Every path's state of one variable on F's CFG: the states where each
/// event happens, and at the exit.
void flow(RequestVar &R, FunctionAnalysis &FA) {
  const std::vector<Event> &Es = R.Events;
  R.At.resize(Es.size());
  const CFG &G = FA.cfg();
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPoint;
  // The CFG point of an event: its statement's, or the first inside it.
  std::function<std::optional<Point>(const Stmt *)> PointIn = [&](const Stmt *S) -> std::optional<Point> {
    if (!S)
      return std::nullopt;
    if (std::optional<Point> P = FA.pointOf(S))
      return P;
    for (const Stmt *Child : S->children())
      if (std::optional<Point> P = PointIn(Child))
        return P;
    return std::nullopt;
  };
  for (unsigned K = 0; K < Es.size(); ++K)
    if (std::optional<Point> P = PointIn(Es[K].S))
      ByPoint[{P->Block, P->Index}].push_back(K);
  std::vector<std::optional<RequestStates>> In(G.getNumBlockIDs());
  In[G.getEntry().getBlockID()] = RequestStates{RequestUnset};
  std::vector<const CFGBlock *> Work{&G.getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    RequestStates S = *In[B->getBlockID()];
    for (unsigned I = 0; I < B->size(); ++I) {
      auto It = ByPoint.find({B->getBlockID(), I});
      if (It == ByPoint.end())
        continue;
      for (unsigned K : It->second) {
        R.At[K].insert(S.begin(), S.end());
        S = Es[K].K == RequestEvent::Start      ? RequestStates{int(K)}
            : Es[K].K == RequestEvent::Complete ? RequestStates{RequestDone}
                                                : RequestStates{RequestUnknown};
      }
    }
    if (B == &G.getExit())
      R.Exit = S;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      std::optional<RequestStates> &Next = In[Succ->getBlockID()];
      size_t Before = Next ? Next->size() : 0;
      if (!Next)
        Next = RequestStates();
      Next->insert(S.begin(), S.end());
      if (Next->size() != Before || Before == 0)
        Work.push_back(Succ);
    }
  }
}

} // namespace

std::vector<RequestVar> ompi::requestFlow(ASTContext &Ctx, Evaluator &Ev, const FunctionDecl *F, bool ArraySlots) {
  std::vector<RequestVar> Out;
  FunctionAnalysis &FA = Ev.analysis(F);
  if (!FA.valid())
    return Out;
  Collector Col(Ctx, ArraySlots);
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
