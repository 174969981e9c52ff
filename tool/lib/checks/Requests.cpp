//===- Requests.cpp - Checks: nonblocking requests and their buffers ------===//
//
// For every local MPI_Request variable (a scalar of the function: requests
// in arrays, structs or behind pointers belong to code this pass cannot
// follow, such as RAII wrappers and MPI_Waitall over arrays, and are left
// alone), the events on it: started by a nonblocking call, completed by a
// wait, test or free, or anything else (assigned, passed to another
// function, its address taken), which stops the tracking. The states the
// request may be in flow along the function's CFG, one per path, and a
// finding needs every path to agree:
//   request-never-completed  pending at the function's exit on every path
//   request-overwritten      a start where every path holds a pending start
//   wait-without-start       a completion where no path started or assigned
//                            the request (MPI_REQUEST_NULL is fine)
// recv-buffer-in-use: after a nonblocking receive (or a nonblocking
// collective's receive buffer), a use of the buffer's variable before the
// first completion call that names the request.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace ompi {

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

const FunctionModel *mpiModel(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  return F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
}

bool isCompletion(const FunctionModel *M) { return requestEffect(*M) == RequestEffect::Completes; }

enum class Ev { Start, Complete, Other };
struct Event {
  Ev K;
  unsigned Offset;
  SourceLocation Loc;
  std::string Function;
  const Stmt *S;
};

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
      Events[V].push_back({Ev::Other, offset(V->getLocation()), V->getLocation(), "", V->getInit()});
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionModel *M = mpiModel(CE);
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
      Ev K = E == RequestEffect::Completes ? Ev::Complete : E == RequestEffect::Starts ? Ev::Start : Ev::Other;
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
        Events[cast<VarDecl>(D->getDecl())].push_back({Ev::Other, offset(D->getLocation()), D->getLocation(), "", D});
    for (auto &[V, Es] : Events)
      llvm::sort(Es, [](const Event &A, const Event &B) { return A.Offset < B.Offset; });
  }

private:
  const SourceManager &SM;
  std::vector<const DeclRefExpr *> Pending;
};

std::set<const FunctionDecl *> functionsWithCalls(const FileResult &A) {
  std::set<const FunctionDecl *> Fs;
  for (const CallResult &C : A.Calls)
    if (C.Caller && C.Caller->hasBody())
      Fs.insert(C.Caller);
  return Fs;
}
} // namespace

namespace {
/// The states one request variable may be in at a point, one per path:
/// Unset (never assigned), Unknown (assigned, passed away), Done, or
/// pending from start event K (K >= 0).
using States = std::set<int>;
constexpr int Unset = -1, Unknown = -2, Done = -3;

/// Every path's state of V, on F's CFG: the state where each event happens.
struct RequestFlow {
  std::vector<States> At; ///< At[k]: the states just before event k
  States Exit;            ///< the states at the function's exit
};

RequestFlow flow(const std::vector<Event> &Es, FunctionAnalysis &FA) {
  RequestFlow R;
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
  std::vector<std::optional<States>> In(G.getNumBlockIDs());
  In[G.getEntry().getBlockID()] = States{Unset};
  std::vector<const CFGBlock *> Work{&G.getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    States S = *In[B->getBlockID()];
    for (unsigned I = 0; I < B->size(); ++I) {
      auto It = ByPoint.find({B->getBlockID(), I});
      if (It == ByPoint.end())
        continue;
      for (unsigned K : It->second) {
        R.At[K].insert(S.begin(), S.end());
        S = Es[K].K == Ev::Start ? States{int(K)} : Es[K].K == Ev::Complete ? States{Done} : States{Unknown};
      }
    }
    if (B == &G.getExit())
      R.Exit = S;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      std::optional<States> &Next = In[Succ->getBlockID()];
      size_t Before = Next ? Next->size() : 0;
      if (!Next)
        Next = States();
      Next->insert(S.begin(), S.end());
      if (Next->size() != Before || Before == 0)
        Work.push_back(Succ);
    }
  }
  return R;
}

/// Whether every path's state is pending (from some start).
bool allPending(const States &S) { return !S.empty() && *S.begin() >= 0; }
} // namespace

void checkRequests(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const FunctionDecl *F : functionsWithCalls(C.Analysis)) {
    FunctionAnalysis &FA = C.Ev.analysis(F);
    if (!FA.valid())
      continue;
    Collector Col(C.Ctx);
    Col.TraverseStmt(F->getBody());
    Col.finish();
    for (auto &[V, Es] : Col.Events) {
      if (Col.Persistent.count(V))
        continue;
      // The states every path may reach each event in.
      const std::vector<Event> &All = Es;
      RequestFlow R = flow(All, FA);
      for (unsigned K = 0; K < All.size(); ++K) {
        const Event &E = All[K];
        const States &S = R.At[K];
        if (E.K == Ev::Start && allPending(S)) {
          const Event &Open = All[*S.begin()];
          C.report("request-overwritten", E.Loc,
                   llvm::formatv("{0} overwrites request '{1}' while the {2} at line {3} that it holds has not "
                                 "completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between)",
                                 E.Function, V->getName(), Open.Function, SM.getExpansionLineNumber(Open.Loc))
                       .str());
        } else if (E.K == Ev::Complete && S == States{Unset}) {
          C.report("wait-without-start", E.Loc,
                   llvm::formatv("{0} on request '{1}', which no nonblocking call started (initialise it to "
                                 "MPI_REQUEST_NULL if that is intended)",
                                 E.Function, V->getName())
                       .str());
        }
      }
      if (allPending(R.Exit))
        for (int K : R.Exit)
          C.report("request-never-completed", All[K].Loc,
                   llvm::formatv("the request '{0}' of this {1} is never completed: no MPI_Wait, MPI_Test or "
                                 "MPI_Request_free on it follows in {2}",
                                 V->getName(), All[K].Function, F->getName())
                       .str());
    }
  }
}

void checkRecvBufferInUse(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  auto offset = [&](SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); };
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller || CR.Model->M != Mode::Nonblocking)
      continue;
    const ArgResult *B = CR.arg(Role::RecvBuf), *R = CR.arg(Role::Request);
    if (!B || !R)
      continue;
    const Expr *BE = CR.expr(*B);
    if (C.Ev.spelledHandle(BE))
      continue;
    const VarDecl *BV = rootVar(BE);
    if (!BV) // a pointer variable p (or p + k) as the buffer
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(BE)))
        BV = dyn_cast<VarDecl>(D->getDecl());
    const Expr *RE = CR.expr(*R)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(RE); U && U->getOpcode() == UO_AddrOf)
      RE = U->getSubExpr();
    const VarDecl *RV = rootVar(RE);
    if (!BV || !RV)
      continue;
    unsigned From = offset(CR.Call->getEndLoc());
    // The first completion naming the request (or the request escaping) after the call.
    unsigned Until = ~0u, UntilLine = 0;
    std::vector<std::pair<unsigned, const DeclRefExpr *>> Uses;
    std::vector<std::pair<unsigned, unsigned>> MPIArgs; // ranges of MPI calls' arguments
    anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
      if (const auto *CE = dyn_cast<CallExpr>(S)) {
        unsigned O = offset(CE->getBeginLoc());
        bool NamesR = llvm::any_of(CE->arguments(), [&](const Expr *A) {
          return anyNode(A, [&](const Stmt *N) {
            const auto *D = dyn_cast<DeclRefExpr>(N);
            return D && D->getDecl() == RV;
          });
        });
        const FunctionModel *M = mpiModel(CE);
        if (M)
          MPIArgs.push_back({O, offset(CE->getEndLoc())});
        if (O > From && NamesR && (!M || isCompletion(M)) && O < Until) {
          Until = O;
          UntilLine = SM.getExpansionLineNumber(CE->getBeginLoc());
        }
      } else if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == BV) {
        Uses.push_back({offset(D->getLocation()), D});
      }
      return false;
    });
    if (Until == ~0u)
      continue; // never completed here: request-never-completed's business
    for (auto &[O, D] : Uses) {
      if (O <= From || O >= Until)
        continue;
      if (llvm::any_of(MPIArgs, [&](auto &Rg) { return O >= Rg.first && O <= Rg.second; }))
        continue; // another MPI call: a different part of the buffer, its own business
      C.report("recv-buffer-in-use", D->getLocation(),
               llvm::formatv("'{0}' is used before the {1} at line {2} that writes it has completed (the "
                             "completion on '{3}' is at line {4})",
                             BV->getName(), CR.Function, CR.Line, RV->getName(), UntilLine)
                   .str());
      break; // one finding per receive
    }
  }
}

} // namespace ompi
