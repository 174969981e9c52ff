//===- HandleFlow.cpp - MPI handles' lives along the CFG -------------------===//
#include "analysis/HandleFlow.h"
#include "analysis/EventFlow.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <map>

using namespace clang;
using namespace ompi;

llvm::StringRef ompi::handleClassName(HandleClass C) {
  switch (C) {
  case HandleClass::Datatype:
    return "datatype";
  case HandleClass::Comm:
    return "communicator";
  case HandleClass::Group:
    return "group";
  case HandleClass::Op:
    return "op";
  case HandleClass::Win:
    return "window";
  case HandleClass::Info:
    return "info";
  case HandleClass::Errhandler:
    return "error handler";
  case HandleClass::Request:
    return "persistent request";
  }
  return "handle";
}

namespace {

std::optional<HandleClass> classOfVar(const VarDecl *V) {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
    return std::nullopt;
  return handleClassOf(V->getType().getAsString());
}

const DeclRefExpr *refIn(const Expr *E, bool &Address) {
  E = E->IgnoreParenImpCasts();
  Address = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    Address = true;
    E = U->getSubExpr()->IgnoreParens();
  }
  return dyn_cast<DeclRefExpr>(E);
}

/// What a call does to the handle whose address is its argument I.
HandleEvent::Kind addressEvent(const CallExpr *CE, llvm::StringRef Name, unsigned I, HandleClass C) {
  const FunctionModel *M = lookupFunction(Name);
  if (C == HandleClass::Request) {
    if (M && M->M == Mode::Persistent)
      return HandleEvent::Create;
    if (Name == mpi::MPI_Start)
      return HandleEvent::Start;
    if (Name == mpi::MPI_Wait)
      return HandleEvent::Complete;
    if (Name == mpi::MPI_Test)
      return HandleEvent::MayComplete;
    return Name == mpi::MPI_Request_free ? HandleEvent::Free : HandleEvent::Other;
  }
  if (Name == mpi::MPI_Type_commit)
    return HandleEvent::Commit;
  if (Name.ends_with("_free") || Name == mpi::MPI_Comm_disconnect)
    return HandleEvent::Free;
  // Calls that hand out a handle the program does not own.
  if (Name == mpi::MPI_Type_match_size || Name == mpi::MPI_Comm_get_parent || Name.contains("_get_errhandler") ||
      Name.starts_with(mpi::TypeGetPrefix))
    return HandleEvent::Other;
  if (I + 1 == CE->getNumArgs() || (Name == mpi::MPI_Comm_idup && I == 1))
    return HandleEvent::Create;
  return HandleEvent::Other;
}

/// What a call does to a window given by value.
HandleEvent::Kind windowEvent(llvm::StringRef Name, const FunctionModel *M) {
  auto K = llvm::StringSwitch<std::optional<HandleEvent::Kind>>(Name)
               .Case(mpi::MPI_Win_fence, HandleEvent::Fence)
               .Case(mpi::MPI_Win_lock, HandleEvent::Lock)
               .Case(mpi::MPI_Win_unlock, HandleEvent::Unlock)
               .Case(mpi::MPI_Win_lock_all, HandleEvent::LockAll)
               .Case(mpi::MPI_Win_unlock_all, HandleEvent::UnlockAll)
               .Case(mpi::MPI_Win_start, HandleEvent::AccessStart)
               .Case(mpi::MPI_Win_complete, HandleEvent::AccessEnd)
               .Default(std::nullopt);
  if (K)
    return *K;
  if (M && M->Cat == Category::OneSided && M->find(Role::TargetDisp))
    return HandleEvent::RMA;
  return HandleEvent::Use;
}

/// What a call does to the handle given by value as its argument I.
HandleEvent::Kind valueEvent(llvm::StringRef Name, unsigned I, HandleClass C) {
  const FunctionModel *M = lookupFunction(Name);
  if (C == HandleClass::Win)
    return windowEvent(Name, M);
  if (C == HandleClass::Datatype && M && I < M->Args.size() &&
      (isDatatypeRole(M->Args[I].R) || M->Args[I].R == Role::TargetType) &&
      (M->Cat == Category::PointToPoint || M->Cat == Category::Collective || M->Cat == Category::OneSided ||
       M->Cat == Category::Local))
    return HandleEvent::UseComm;
  return HandleEvent::Use;
}

/// A fence's assertion as spelled: MPI_MODE_NOSUCCEED, MPI_MODE_NOPRECEDE,
/// and whether a variable makes it unknown.
void readAssert(const CallExpr *CE, HandleEvent &E, const SourceManager &SM) {
  const Expr *A = E.K == HandleEvent::Fence ? argOf(CE, Role::Assert) : nullptr;
  if (!A)
    return;
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(A->getSourceRange()).getAsRange());
  llvm::StringRef Text = Lexer::getSourceText(R, SM, LangOptions());
  E.NoSucceed = Text.contains(mpi::MPI_MODE_NOSUCCEED);
  E.NoPrecede = Text.contains(mpi::MPI_MODE_NOPRECEDE);
  E.AssertUnknown = anyNode(A, [](const Stmt *N) {
    const auto *D = dyn_cast<DeclRefExpr>(N);
    return D && isa<VarDecl>(D->getDecl());
  });
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, Evaluator &Ev) : SM(Ctx.getSourceManager()), Ev(Ev) {}
  std::map<const VarDecl *, std::vector<HandleEvent>> Events;
  std::set<const VarDecl *> Persistent; ///< requests some _init call creates

  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }

  bool VisitVarDecl(VarDecl *V) {
    if (!classOfVar(V) || !V->hasInit())
      return true;
    auto H = Ev.spelledHandle(V->getInit());
    bool Null = H && llvm::StringRef(*H).ends_with("_NULL");
    add(V, Null ? HandleEvent::SetNull : HandleEvent::Other, V->getLocation(), "", V->getInit());
    return true;
  }

  /// Comparisons (comm == MPI_COMM_NULL) neither use nor change a handle.
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isEqualityOp())
      for (const Expr *E : {B->getLHS(), B->getRHS()})
        if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
          Seen.insert(D);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier() || !isMPIFunctionName(F->getName()))
      return true;
    llvm::StringRef Name = F->getName();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      bool Address = false;
      const DeclRefExpr *D = refIn(CE->getArg(I), Address);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      std::optional<HandleClass> C = classOfVar(V);
      if (!C)
        continue;
      Seen.insert(D);
      HandleEvent::Kind K = Address ? addressEvent(CE, Name, I, *C) : valueEvent(Name, I, *C);
      if (*C == HandleClass::Request && K == HandleEvent::Create)
        Persistent.insert(V);
      HandleEvent &E = add(V, K, CE->getBeginLoc(), Name.str(), CE);
      readAssert(CE, E, SM);
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (classOfVar(dyn_cast<VarDecl>(D->getDecl())))
      Pending.push_back(D);
    return true;
  }

  /// References not consumed by an MPI call or a comparison: "other" events.
  void finish() {
    for (const DeclRefExpr *D : Pending)
      if (!Seen.count(D))
        add(cast<VarDecl>(D->getDecl()), HandleEvent::Other, D->getLocation(), "", D);
    for (auto &[V, Es] : Events) {
      llvm::stable_sort(Es, [](const HandleEvent &A, const HandleEvent &B) { return A.Offset < B.Offset; });
      // A macro argument the expansion evaluates twice (CHECK(x): if ((x) !=
      // MPI_SUCCESS) fail(x)) is one call in the source: keep its first event.
      Es.erase(std::unique(Es.begin(), Es.end(),
                           [](const HandleEvent &A, const HandleEvent &B) {
                             return A.Offset == B.Offset && A.K == B.K && A.Function == B.Function;
                           }),
               Es.end());
    }
  }

private:
  const SourceManager &SM;
  Evaluator &Ev;
  std::vector<const DeclRefExpr *> Pending;
  std::set<const DeclRefExpr *> Seen;

  HandleEvent &add(const VarDecl *V, HandleEvent::Kind K, SourceLocation L, std::string Fn, const Stmt *S) {
    std::vector<HandleEvent> &Es = Events[V];
    Es.push_back({K, offset(L), L, std::move(Fn), S});
    return Es.back();
  }
};

} // namespace

void ompi::stepHandle(const HandleEvent &E, HandleClass C, int S, HandleStates &Out) {
  using EK = HandleEvent;
  auto Win = [&](int X) { return S == HUnset || S == HUnknown || S == HFreed || S == HNull ? S : X; };
  switch (E.K) {
  case EK::Other:
    Out.insert(HUnknown);
    return;
  case EK::SetNull:
    Out.insert(HNull);
    return;
  case EK::Create:
    // MPI_Type_dup's copy is committed if its original is (a predefined or
    // committed one, as duplicated types almost always are).
    Out.insert(C == HandleClass::Datatype && E.Function != mpi::MPI_Type_dup ? HBuilt
               : C == HandleClass::Request                                   ? HInactive
               : C == HandleClass::Win                                       ? WNoEpoch
                                                                             : HLive);
    return;
  case EK::Commit:
    Out.insert(S == HBuilt ? HLive : S);
    return;
  case EK::Free:
    Out.insert(HFreed);
    return;
  case EK::Start:
    Out.insert(S == HInactive ? HActive : S);
    return;
  case EK::Complete:
    Out.insert(S == HActive ? HInactive : S);
    return;
  case EK::MayComplete:
    Out.insert(S);
    if (S == HActive)
      Out.insert(HInactive);
    return;
  case EK::Fence:
    if (S >= WLocked || S == WLockAll || S == WAccess)
      Out.insert(S);
    else
      Out.insert(Win(E.NoSucceed ? WNoEpoch : S == WNoEpoch ? WFenceOpen : WFenceMaybe));
    if (S < WLocked && S != WLockAll && S != WAccess && E.AssertUnknown)
      Out.insert(Win(WNoEpoch)); // a variable's assertion may be MPI_MODE_NOSUCCEED
    return;
  case EK::RMA:
    Out.insert(S == WFenceOpen || S == WFenceMaybe ? WFencePending : S);
    return;
  case EK::Lock:
    Out.insert(S >= WLocked ? std::min(S + 1, WLocked + 16) : Win(WLocked + 1));
    return;
  case EK::Unlock:
    Out.insert(S > WLocked + 1 ? S - 1 : S == WLocked + 1 ? WNoEpoch : S);
    return;
  case EK::LockAll:
    Out.insert(Win(WLockAll));
    return;
  case EK::AccessStart:
    Out.insert(Win(WAccess));
    return;
  case EK::UnlockAll:
  case EK::AccessEnd:
    Out.insert(S == WLockAll || S == WAccess ? WNoEpoch : S);
    return;
  case EK::UseComm:
  case EK::Use:
    Out.insert(S);
    return;
  }
}

HandleEvent::Kind ompi::handleAddressEvent(const CallExpr *CE, unsigned I, HandleClass C) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() || !isMPIFunctionName(F->getName()))
    return HandleEvent::Other;
  return addressEvent(CE, F->getName(), I, C);
}

std::optional<std::pair<const VarDecl *, HandleEvent>> ompi::windowCall(const CallExpr *CE, const SourceManager &SM) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() || !isMPIFunctionName(F->getName()))
    return std::nullopt;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    bool Address = false;
    const DeclRefExpr *D = refIn(CE->getArg(I), Address);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (classOfVar(V) != HandleClass::Win)
      continue;
    HandleEvent::Kind K =
        Address ? addressEvent(CE, F->getName(), I, HandleClass::Win) : valueEvent(F->getName(), I, HandleClass::Win);
    HandleEvent E{K, SM.getFileOffset(SM.getExpansionLoc(CE->getBeginLoc())), CE->getBeginLoc(), F->getName().str(),
                  CE};
    readAssert(CE, E, SM);
    return std::make_pair(V, E);
  }
  return std::nullopt;
}

namespace {

/// Every path's state of one variable on F's CFG: the states where each
/// event happens, and at the exit.
void flow(HandleVar &H, FunctionAnalysis &FA) {
  std::vector<const Stmt *> Where;
  for (const HandleEvent &E : H.Events)
    Where.push_back(E.S);
  StateFlow F = flowStates(FA, Where, HUnset, [&](unsigned K, const HandleStates &S) {
    HandleStates Next;
    for (int X : S)
      stepHandle(H.Events[K], H.Class, X, Next);
    return Next;
  });
  H.At = std::move(F.At);
  H.Exit = std::move(F.Exit);
}

} // namespace

std::vector<HandleVar> ompi::handleFlow(ASTContext &Ctx, Evaluator &Ev, const FunctionDecl *F) {
  std::vector<HandleVar> Out;
  FunctionAnalysis &FA = Ev.analysis(F);
  if (!FA.valid() || !F->getBody())
    return Out;
  Collector Col(Ctx, Ev);
  Col.TraverseStmt(F->getBody());
  Col.finish();
  for (auto &[V, Es] : Col.Events) {
    HandleClass C = *classOfVar(V);
    if (C == HandleClass::Request && !Col.Persistent.count(V))
      continue; // a nonblocking request: RequestFlow's
    HandleVar H;
    H.V = V;
    H.Class = C;
    H.Events = std::move(Es);
    H.Escapes = llvm::any_of(H.Events, [](const HandleEvent &E) { return E.K == HandleEvent::Other; });
    flow(H, FA);
    Out.push_back(std::move(H));
  }
  llvm::sort(Out, [](const HandleVar &A, const HandleVar &B) { return A.V->getLocation() < B.V->getLocation(); });
  return Out;
}
