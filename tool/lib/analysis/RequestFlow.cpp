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

const VarDecl *addressOfVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    if (const auto *D = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
      return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

using Event = RequestEvent;

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  std::map<const VarDecl *, std::vector<Event>> Events;
  std::set<const VarDecl *> Persistent;
  std::set<const DeclRefExpr *> Seen;

  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }

  /// An initialised request (MPI_REQUEST_NULL or another value) is known
  /// from its declaration on.
  bool VisitVarDecl(VarDecl *V) {
    if (isRequestVar(V) && V->hasInit())
      Events[V].push_back({RequestEvent::Other, offset(V->getLocation()), V->getLocation(), "", V->getInit()});
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
      const VarDecl *V = addressOfVar(CE->getArg(I));
      if (!isRequestVar(V))
        continue;
      if (const auto *U = dyn_cast<UnaryOperator>(CE->getArg(I)->IgnoreParenImpCasts()))
        Seen.insert(cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()));
      if (M->M == Mode::Persistent) {
        Persistent.insert(V);
        continue;
      }
      RequestEffect E = requestEffect(*M);
      RequestEvent::Kind K = E == RequestEffect::Completes ? RequestEvent::Complete
                             : E == RequestEffect::Starts  ? RequestEvent::Start
                                                           : RequestEvent::Other;
      Events[V].push_back({K, offset(CE->getBeginLoc()), CE->getBeginLoc(), M->Name, CE});
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!isRequestVar(V) || Seen.count(D))
      return true;
    Pending.push_back(D);
    return true;
  }

  /// References not consumed by a start or completion: "other" events.
  void finish() {
    for (const DeclRefExpr *D : Pending)
      if (!Seen.count(D))
        Events[cast<VarDecl>(D->getDecl())].push_back(
            {RequestEvent::Other, offset(D->getLocation()), D->getLocation(), "", D});
    for (auto &[V, Es] : Events)
      llvm::sort(Es, [](const Event &A, const Event &B) { return A.Offset < B.Offset; });
  }

private:
  const SourceManager &SM;
  std::vector<const DeclRefExpr *> Pending;
};

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

std::vector<RequestVar> ompi::requestFlow(ASTContext &Ctx, Evaluator &Ev, const FunctionDecl *F) {
  std::vector<RequestVar> Out;
  FunctionAnalysis &FA = Ev.analysis(F);
  if (!FA.valid())
    return Out;
  Collector Col(Ctx);
  Col.TraverseStmt(F->getBody());
  Col.finish();
  for (auto &[V, Es] : Col.Events) {
    if (Col.Persistent.count(V))
      continue;
    RequestVar R;
    R.V = V;
    R.Events = std::move(Es);
    flow(R, FA);
    Out.push_back(std::move(R));
  }
  return Out;
}
