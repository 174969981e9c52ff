//===- Events.cpp - What a rank's run records of MPI calls ----------------===//
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi::ranks {

bool RankRun::completion(const CallExpr *CE, P2PEvent E) {
  llvm::StringRef Name = calleeName(CE);
  const FunctionModel *M = lookupFunction(Name);
  const Expr *A0 = argOf(CE, M, Role::Request), *Reqs = argOf(CE, M, Role::Requests);
  std::optional<unsigned> NI = M ? requestCountArg(*M) : std::nullopt;
  const Expr *Count = NI && *NI < CE->getNumArgs() ? CE->getArg(*NI) : nullptr;
  auto keys = [&](bool One) {
    return One ? std::vector<std::string>{requestKey(A0, E.Line)} : requestKeys(Count, Reqs, E.Line);
  };
  if (Name == mpi::MPI_Wait || Name == mpi::MPI_Waitall) {
    E.K = P2PEvent::Wait;
    E.Reqs = keys(Name == mpi::MPI_Wait);
    if (Name == mpi::MPI_Wait && !Persistent.count(E.Reqs.front()))
      setRequest(A0, mpi::MPI_REQUEST_NULL.data());
    Messages.push_back(E);
    return true;
  }
  if (Name == mpi::MPI_Start || Name == mpi::MPI_Startall) {
    for (const std::string &K : keys(Name == mpi::MPI_Start)) {
      auto It = Persistent.find(K);
      if (It == Persistent.end())
        throw Undecided{llvm::formatv("the request {0} starts at line {1} is not followed", Name, E.Line).str()};
      Messages.push_back(It->second);
    }
    return true;
  }
  if (Name == mpi::MPI_Request_free) {
    if (!Persistent.erase(requestKey(A0, E.Line)))
      throw Undecided{llvm::formatv("the request MPI_Request_free frees at line {0} is not followed", E.Line).str()};
    setRequest(A0, mpi::MPI_REQUEST_NULL.data());
    return true;
  }
  return false;
}

void RankRun::setRequest(const Expr *Arg, const char *Value) {
  const UnaryOperator *U = nullptr;
  const VarDecl *V = addressedVar(Arg, &U);
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal())
    return;
  Modelled.insert(U);
  if (V->getType()->isIntegralOrEnumerationType())
    frame().Env[V] = std::nullopt;
  frame().Handles[V] = Value;
}

std::optional<int64_t> RankRun::rankArg(const Expr *E) {
  // Spelled, or held by a variable (int src = MPI_ANY_SOURCE): the
  // constants' values differ between MPIs (MPICH's MPI_ANY_SOURCE is -2).
  if (auto H = handle(E); H && (*H == mpi::MPI_PROC_NULL || *H == mpi::MPI_ANY_SOURCE || *H == mpi::MPI_ANY_TAG))
    return *H == mpi::MPI_PROC_NULL ? -2 : -1;
  if (auto H = Ev.spelledHandle(E))
    return *H == mpi::MPI_PROC_NULL                              ? -2
           : *H == mpi::MPI_ANY_SOURCE || *H == mpi::MPI_ANY_TAG ? -1
                                                                 : std::optional<int64_t>();
  return value(E);
}

void RankRun::messageComm(const Expr *Comm, const CallExpr *CE, llvm::StringRef Name, P2PEvent &E) {
  std::optional<std::string> Held = Comm ? commValue(Comm) : std::nullopt;
  if (Held && llvm::StringRef(*Held).starts_with("#comm")) { // one this run made: its ranks are translated later
    E.CommIndex = std::stoi(Held->substr(5));
    E.Comm = namedVar(Comm);
  } else if (Held && *Held == mpi::MPI_COMM_WORLD) {
    if (const VarDecl *V = namedVar(Comm); V && MadeInto.count(V))
      E.Comm = V; // a variable holding the world here, and one the run made elsewhere
  } else if (Held || !Comm || !Ev.commId(Comm, frame().F, CE).isWorld()) {
    throw Undecided{llvm::formatv("{0} at line {1} is not on MPI_COMM_WORLD", Name, E.Line).str()};
  }
}

void RankRun::message(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  const FunctionModel *M = lookupFunction(Name);
  unsigned L = line(CE->getBeginLoc());
  auto arg = [&](Role R) { return argOf(CE, M, R); };
  P2PEvent E;
  E.Call = CE;
  E.Line = L;
  E.Via = viaLine();
  if (completion(CE, E))
    return;
  bool Persist = M->M == Mode::Persistent && M->Cat == Category::PointToPoint && arg(Role::Request);
  bool Nonblocking = (M->M == Mode::Nonblocking || Persist) && M->Cat == Category::PointToPoint && arg(Role::Request);
  bool Probe = Name == mpi::MPI_Probe;
  if ((M->Cat != Category::PointToPoint && !Probe) || (M->M != Mode::Blocking && !Nonblocking))
    throw Undecided{llvm::formatv("{0} at line {1} is not followed", Name, L).str()};
  if (Nonblocking) {
    E.Reqs = {requestKey(arg(Role::Request), L)};
    setRequest(arg(Role::Request), Persist ? "#preq" : "#req");
  }
  messageComm(arg(Role::Comm), CE, Name, E);
  auto side = [&](P2PEvent::Side &S, Role Peer, Role Tag, Role Count, Role Type) {
    const Expr *P = arg(Peer), *T = arg(Tag), *N = arg(Count), *Ty = arg(Type);
    S.Peer = P ? rankArg(P) : std::nullopt;
    S.Tag = T ? rankArg(T) : std::nullopt;
    S.Count = N ? value(N) : std::nullopt;
    S.Type = Ty ? handle(Ty).value_or("") : "";
    const UnaryOperator *Addr = nullptr;
    if (const Expr *B = arg(Peer == Role::Dest ? Role::SendBuf : Role::RecvBuf); B && S.Count == 1)
      if (const VarDecl *V = addressedVar(B, &Addr); V && Addr && V->getType()->isIntegerType()) {
        S.Buf = V;
        S.Value = value(Addr->getSubExpr());
      }
    if (const VarDecl *TV = Ty ? namedVar(Ty->IgnoreParenImpCasts()) : nullptr)
      if (auto It = frame().TypeOf.find(TV); It != frame().TypeOf.end() && It->second)
        S.TypeVar = *It->second;
  };
  if (Name == mpi::MPI_Sendrecv || Name == mpi::MPI_Sendrecv_replace) {
    E.K = P2PEvent::SendRecv;
    bool Replace = Name == mpi::MPI_Sendrecv_replace;
    side(E.S, Role::Dest, Role::SendTag, Replace ? Role::Count : Role::SendCount,
         Replace ? Role::Type : Role::SendType);
    side(E.R, Role::Source, Role::RecvTag, Replace ? Role::Count : Role::RecvCount,
         Replace ? Role::Type : Role::RecvType);
  } else if (Probe) {
    E.K = P2PEvent::Probe;
    side(E.R, Role::Source, Role::Tag, Role::Count, Role::Type);
  } else if (arg(Role::Dest)) {
    E.K = Nonblocking ? P2PEvent::ISend : Name == mpi::MPI_Ssend ? P2PEvent::Ssend : P2PEvent::Send;
    E.Sync = Name == mpi::MPI_Ssend || Name == mpi::MPI_Issend || Name == mpi::MPI_Ssend_init;
    side(E.S, Role::Dest, Role::Tag, Role::Count, Role::Type);
  } else {
    E.K = Nonblocking ? P2PEvent::IRecv : P2PEvent::Recv;
    side(E.R, Role::Source, Role::Tag, Role::Count, Role::Type);
  }
  if (Persist) { // its starts issue it
    Persistent[E.Reqs.front()] = E;
    return;
  }
  Messages.push_back(E);
}

void RankRun::splitCall(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  const FunctionModel *M = lookupFunction(Name);
  auto arg = [&](Role R) { return argOf(CE, M, R); };
  P2PEvent E;
  E.Call = CE;
  E.Line = line(CE->getBeginLoc());
  E.Via = viaLine();
  if (const HandleCallModel *HM = lookupHandleCall(Name); HM && HM->Kind == HandleCallModel::Split) {
    E.Comm = addressedVar(argAt(CE, HM->Out));
    if (!E.Comm)
      throw Undecided{llvm::formatv("the MPI_Comm_split at line {0} is not followed", E.Line).str()};
    E.K = P2PEvent::Split;
    const Expr *Parent = argAt(CE, HM->Parent);
    if (Parent && Ev.commId(Parent, frame().F, CE).isWorld()) { // else not the world's partition
      SplitColour C = splitColour(CE);
      E.S.Peer = C.Undefined ? std::optional<int64_t>(-1) : C.Value;
    }
    Messages.push_back(E);
    return;
  }
  // Any other call writing a communicator variable makes it unknown.
  for (const Expr *A : CE->arguments())
    if (const VarDecl *V = addressedVar(A); V && handleClassOf(V->getType().getAsString()) == HandleClass::Comm) {
      P2PEvent W = E;
      W.K = P2PEvent::Split;
      W.Comm = V;
      Messages.push_back(W);
    }
  const Expr *Comm = arg(Role::Comm);
  E.Comm = Comm ? namedVar(Comm->IgnoreParenImpCasts()) : nullptr;
  const Expr *Dest = arg(Role::Dest), *Source = arg(Role::Source);
  if (!E.Comm || !isMessageCall(CE) || (!Dest && !Source))
    return;
  E.K = Dest ? P2PEvent::Send : P2PEvent::Recv;
  if (Dest)
    E.S.Peer = rankArg(Dest);
  if (Source)
    E.R.Peer = rankArg(Source);
  Messages.push_back(E);
}

void RankRun::handleElement(const CallExpr *CE, unsigned I) {
  const Expr *Index = nullptr;
  const VarDecl *V = handleArrayOf(CE->getArg(I), &Index);
  P2PEvent E;
  E.K = P2PEvent::Handle;
  E.Call = CE;
  E.Line = line(CE->getBeginLoc());
  E.Via = viaLine();
  E.Win = V;
  E.S.Peer = value(Index);
  if (!E.S.Peer)
    throw Undecided{llvm::formatv("the element of '{0}' at line {1} is not known", V->getName(), E.Line).str()};
  auto C = *handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  E.WinEvent = {handleAddressEvent(CE, I, C), 0, CE->getBeginLoc(), calleeName(CE).str(), CE};
  // A constructor that gives some ranks MPI_COMM_NULL makes the element
  // unknown (Other), unless this rank's colour is known to be defined.
  const HandleCallModel *HM = lookupHandleCall(calleeName(CE));
  auto is = [&](HandleCallModel::Shape K) { return HM && HM->Kind == K; };
  auto ofWorld = [&] {
    const Expr *Parent = HM ? argAt(CE, HM->Parent) : nullptr;
    return Parent && Ev.commId(Parent, frame().F, CE).isWorld();
  };
  bool Null = false; // the element is given MPI_COMM_NULL
  if (is(HandleCallModel::Split)) {
    SplitColour Colour = splitColour(CE);
    Null = Colour.Undefined;
    if (Null || !Colour.Value || *Colour.Value < 0)
      E.WinEvent.K = HandleEvent::Other;
  } else if (is(HandleCallModel::Create) && argAt(CE, HM->Group) && worldGroup(argAt(CE, HM->Group)) && ofWorld()) {
    // the world's own group: every rank is in the new communicator
  } else if (mayGiveNullCommunicator(calleeName(CE))) {
    E.WinEvent.K = HandleEvent::Other;
  }
  // What the element holds from here, for comparisons (com[j] != MPI_COMM_NULL).
  std::pair<const VarDecl *, int64_t> Key{V, *E.S.Peer};
  if (E.WinEvent.K == HandleEvent::Create && is(HandleCallModel::CommGroup) && ofWorld())
    ElemHeld[Key] = "#worldgroup";
  else if (E.WinEvent.K == HandleEvent::Create)
    ElemHeld[Key] = llvm::formatv("#elem{0}", ++Elems).str();
  else if ((E.WinEvent.K == HandleEvent::Free && C == HandleClass::Comm) || Null)
    ElemHeld[Key] = mpi::MPI_COMM_NULL;
  else
    ElemHeld.erase(Key);
  Messages.push_back(E);
}

void RankRun::window(const CallExpr *CE) {
  unsigned L = line(CE->getBeginLoc());
  auto W = windowCall(CE, SM);
  if (!W)
    throw Undecided{llvm::formatv("the window of {0} at line {1} is not a local variable", calleeName(CE), L).str()};
  P2PEvent E;
  E.K = P2PEvent::Window;
  E.Call = CE;
  E.Line = L;
  E.Via = viaLine();
  E.Win = W->first;
  E.WinEvent = W->second;
  if (E.WinEvent.K == HandleEvent::Create)
    if (auto I = lookupFunction(calleeName(CE))->find(Role::Comm); I && *I < CE->getNumArgs())
      E.WorldWindow = Ev.commId(CE->getArg(*I), frame().F, CE).isWorld();
  rmaDetails(CE, E);
  if (E.WinEvent.K == HandleEvent::Create || E.WinEvent.K == HandleEvent::Free)
    windowMemory(CE, E.Win, E.WinEvent.K);
  if (E.WinEvent.AssertUnknown)
    if (auto M = modes(argOf(CE, lookupFunction(calleeName(CE)), Role::Assert))) {
      E.WinEvent.AssertUnknown = false;
      E.WinEvent.NoSucceed = M->count(mpi::MPI_MODE_NOSUCCEED.str());
      E.WinEvent.NoPrecede = M->count(mpi::MPI_MODE_NOPRECEDE.str());
    }
  Messages.push_back(E);
}

void RankRun::rmaDetails(const CallExpr *CE, P2PEvent &E) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  auto arg = [&](Role R) { return argOf(CE, M, R); };
  if (E.WinEvent.K == HandleEvent::Create) {
    if (const Expr *U = arg(Role::DispUnit))
      E.Disp = value(U);
    E.SameOp = sameOpInfo(arg(Role::Info));
  } else if (E.WinEvent.K == HandleEvent::RMA) {
    const Expr *Rk = arg(Role::Dest), *D = arg(Role::TargetDisp), *N = arg(Role::TargetCount),
               *T = arg(Role::TargetType);
    if (!N) // MPI_Fetch_and_op, MPI_Compare_and_swap: one element of the origin's type
      T = arg(Role::Type);
    E.S.Peer = Rk ? value(Rk) : std::nullopt;
    E.Disp = D ? value(D) : std::nullopt;
    E.S.Count = N ? value(N) : std::optional<int64_t>(1);
    E.S.Type = T ? handle(T).value_or("") : "";
    if (const Expr *Op = arg(Role::Op))
      E.Op = handle(Op).value_or("");
  } else if (E.WinEvent.K == HandleEvent::Unlock || E.WinEvent.K == HandleEvent::Use) { // an unlock, a flush
    E.S.Peer = arg(Role::Dest) ? value(arg(Role::Dest)) : std::nullopt;
  } else if (E.WinEvent.K == HandleEvent::Lock) {
    E.S.Peer = arg(Role::Dest) ? value(arg(Role::Dest)) : std::nullopt;
    auto H = arg(Role::LockType) ? handle(arg(Role::LockType)) : std::nullopt;
    E.Exclusive = !H || *H != mpi::MPI_LOCK_SHARED; // unknown: as if exclusive (no conflict judged)
  }
}

std::optional<std::set<std::string>> RankRun::modes(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && (B->getOpcode() == BO_Or || B->getOpcode() == BO_Add)) {
    auto L = modes(B->getLHS()), R = modes(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    L->insert(R->begin(), R->end());
    return L;
  }
  if (auto H = handle(E); H && llvm::StringRef(*H).starts_with(mpi::ModePrefix))
    return std::set<std::string>{*H};
  if (auto V = value(E); V && *V == 0)
    return std::set<std::string>{};
  return std::nullopt;
}

std::string RankRun::requestKey(const Expr *E, unsigned L) {
  const Expr *X = E ? E->IgnoreParenImpCasts() : nullptr;
  const Expr *Idx = nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
    X = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
      X = AS->getBase()->IgnoreParenImpCasts(), Idx = AS->getIdx();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(X); B && B->getOpcode() == BO_Add) {
    X = B->getLHS()->IgnoreParenImpCasts(), Idx = B->getRHS();
  }
  const VarDecl *V = namedVar(X);
  std::optional<int64_t> K = Idx ? value(Idx) : std::optional<int64_t>(0);
  if (!V || !K || !V->hasLocalStorage() ||
      (!Idx && !isa<UnaryOperator>(E->IgnoreParenImpCasts()) && !V->getType()->isArrayType()))
    throw Undecided{llvm::formatv("the request at line {0} is not a local variable or element", L).str()};
  return llvm::formatv("{0}#{1}", static_cast<const void *>(V), *K).str();
}

std::vector<std::string> RankRun::requestKeys(const Expr *Count, const Expr *Reqs, unsigned L) {
  std::optional<int64_t> N = Count ? value(Count) : std::nullopt;
  const VarDecl *V = Reqs ? namedVar(Reqs->IgnoreParenImpCasts()) : nullptr;
  if (!N || *N < 0 || *N > 1024 || !V || !V->hasLocalStorage() || !V->getType()->isArrayType())
    throw Undecided{llvm::formatv("the requests of the wait at line {0} are not followed", L).str()};
  std::vector<std::string> Out;
  for (int64_t K = 0; K < *N; ++K)
    Out.push_back(llvm::formatv("{0}#{1}", static_cast<const void *>(V), K).str());
  return Out;
}

void RankRun::record(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  const FunctionModel *M = lookupFunction(Name);
  std::string Key = Name.str(), Held;
  CommId Comm{CommId::Predefined, mpi::MPI_COMM_WORLD.str()};
  if (M && M->Cat == Category::OneSided) {
    // A window's collectives count where this run created the window on
    // MPI_COMM_WORLD; others (another communicator's, a window from
    // elsewhere) are left out.
    const VarDecl *W = windowVar(CE, *M);
    if (!W)
      return;
    if (auto I = M->find(Role::Comm); I && *I < CE->getNumArgs()) {
      CommId C = Ev.commId(CE->getArg(*I), frame().F, CE);
      WorldWindows[W] = C.isWorld();
    }
    auto It = WorldWindows.find(W);
    if (It == WorldWindows.end() || !It->second)
      return;
  } else if (M) {
    if (auto I = M->find(Role::Comm); I && *I < CE->getNumArgs()) {
      bool FromRun = false;
      Comm = commOf(CE->getArg(*I), CE, &FromRun);
      if (const VarDecl *V = namedVar(CE->getArg(*I)); V && MadeInto.count(V) && FromRun)
        Held = llvm::formatv(", on {0}, which '{1}' holds there", Comm.Key, V->getName()).str();
    }
    auto arg = [&](Role R) { return argOf(CE, M, R); };
    auto number = [&](const Expr *E) -> std::optional<std::string> {
      if (!E)
        return std::nullopt;
      auto V = value(E);
      return V ? std::to_string(*V) : std::string("?");
    };
    const Expr *Op = arg(Role::Op), *Type = arg(Role::Type);
    Key = collectiveKey(Name, number(arg(Role::Root)), Op ? handle(Op).value_or("?") : std::optional<std::string>(),
                        number(arg(Role::Count)), Type ? handle(Type) : std::nullopt);
  }
  pushCollective(CE, Name, Comm, std::move(Key), std::move(Held));
}

void RankRun::pushCollective(const CallExpr *CE, llvm::StringRef Name, const CommId &Comm, std::string Key,
                             std::string Held) {
  if (Comm.K == CommId::Predefined && Comm.Key == mpi::MPI_COMM_SELF)
    return; // each rank alone: nothing to agree on
  if (Comm.K == CommId::Created)
    return; // its members are not known; the world's collectives are still compared
  if (Comm.known() && !Comm.isWorld())
    throw Undecided{llvm::formatv("{0} at line {1} runs on a communicator whose members the tool does not know", Name,
                                  line(CE->getBeginLoc()))
                        .str()};
  if (!Comm.known())
    throw Undecided{
        llvm::formatv("the communicator of {0} at line {1} is not known", Name, line(CE->getBeginLoc())).str()};
  if (!TheComm)
    TheComm = Comm;
  else if (*TheComm != Comm && Name != mpi::MPI_Finalize)
    throw Undecided{"collectives on more than one communicator"};
  if (Frames.size() > 1)
    Events.push_back({Site, line(CE->getBeginLoc()), line(Site->getBeginLoc()), CE, Key, Held});
  else
    Events.push_back({CE, line(CE->getBeginLoc()), 0, CE, Key, Held});
  if (Rel.P2P) { // the point-to-point runs see where every rank waits for the others
    P2PEvent E;
    E.K = P2PEvent::Collective;
    E.Call = CE; // for a collective sequence, the call of another file's function
    E.Coll = Name.str();
    E.Line = Events.back().Line;
    E.Via = Events.back().Via;
    Messages.push_back(E);
  }
}

/// The key two ranks' collectives must share: "MPI_Bcast root=0 count=1
/// type=MPI_INT", a part for each argument the call has ("?" where its
/// value is not known), count and type only where the type is known.
std::string RankRun::collectiveKey(llvm::StringRef Name, std::optional<std::string> Root, std::optional<std::string> Op,
                                   std::optional<std::string> Count, std::optional<std::string> Type) {
  std::string Key = Name.str();
  if (Root)
    Key += " root=" + *Root;
  if (Op)
    Key += " op=" + *Op;
  if (Count && Type)
    Key += " count=" + *Count + " type=" + *Type;
  return Key;
}

CommId RankRun::commOf(const Expr *E, const CallExpr *CE, bool *Held) {
  std::optional<std::string> H = commValue(E); // the communicator this rank's variable holds
  if (Held)
    *Held = H.has_value();
  if (!H)
    return Ev.commId(E, frame().F, CE);
  return llvm::StringRef(*H).starts_with("#comm") ? CommId{CommId::Created, *H} : CommId{CommId::Predefined, *H};
}

/// The argument of CE that a sequence's "param:N" names; null for any
/// other text.
static const Expr *sequenceArg(const CallExpr *CE, llvm::StringRef T) {
  unsigned N = 0;
  if (!T.consume_front("param:") || T.getAsInteger(10, N) || N >= CE->getNumArgs())
    return nullptr;
  return CE->getArg(N);
}

void RankRun::recordSequenceMessage(const CallExpr *CE, const SequenceCall &S) {
  auto param = [&](llvm::StringRef T) { return sequenceArg(CE, T); };
  // A rank or tag as rankArg gives it (MPI_PROC_NULL -2, the wildcards -1).
  auto rank = [&](llvm::StringRef T) -> std::optional<int64_t> {
    int64_t V = 0;
    if (const Expr *A = param(T))
      return rankArg(A);
    if (T == mpi::MPI_PROC_NULL)
      return -2;
    if (T == mpi::MPI_ANY_SOURCE || T == mpi::MPI_ANY_TAG)
      return -1;
    return T.getAsInteger(10, V) ? std::nullopt : std::optional<int64_t>(V);
  };
  auto count = [&](llvm::StringRef T) -> std::optional<int64_t> {
    int64_t V = 0;
    if (const Expr *A = param(T))
      return value(A);
    return T.getAsInteger(10, V) ? std::nullopt : std::optional<int64_t>(V);
  };
  P2PEvent E;
  E.Call = CE;
  E.Line = line(CE->getBeginLoc());
  E.Via = viaLine();
  E.Coll = S.Call;
  if (const Expr *C = param(S.Comm))
    messageComm(C, CE, S.Call, E);
  else if (S.Comm != mpi::MPI_COMM_WORLD)
    throw Undecided{
        llvm::formatv("the communicator of {0} in {1} (line {2}) is not known", S.Call, calleeName(CE), E.Line).str()};
  const FunctionModel *M = lookupFunction(S.Call);
  bool Sends = M && M->find(Role::Dest);
  P2PEvent::Side &Side = Sends ? E.S : E.R;
  Side.Peer = rank(S.Peer);
  Side.Tag = rank(S.Tag);
  Side.Count = count(S.Count);
  if (const Expr *T = param(S.Type))
    Side.Type = handle(T).value_or("");
  else if (S.Type != "?")
    Side.Type = S.Type;
  E.Sync = S.Call == mpi::MPI_Ssend;
  E.K = !Sends ? P2PEvent::Recv : E.Sync ? P2PEvent::Ssend : P2PEvent::Send;
  Messages.push_back(E);
}

void RankRun::recordSequence(const CallExpr *CE, const SequenceCall &S) {
  auto param = [&](llvm::StringRef T) { return sequenceArg(CE, T); };
  auto number = [&](const std::string &T) -> std::optional<std::string> {
    if (T.empty() || !llvm::StringRef(T).starts_with("param:"))
      return T.empty() ? std::nullopt : std::optional<std::string>(T);
    auto V = param(T) ? value(param(T)) : std::nullopt;
    return V ? std::to_string(*V) : std::string("?");
  };
  auto named = [&](const std::string &T) -> std::optional<std::string> {
    if (!llvm::StringRef(T).starts_with("param:"))
      return T.empty() || T == "?" ? std::nullopt : std::optional<std::string>(T);
    return param(T) ? handle(param(T)) : std::nullopt;
  };
  CommId Comm{CommId::Predefined, mpi::MPI_COMM_WORLD.str()};
  if (const Expr *C = param(S.Comm))
    Comm = commOf(C, CE);
  else if (S.Comm != mpi::MPI_COMM_WORLD)
    throw Undecided{llvm::formatv("the communicator of {0} in {1} (line {2}) is not known", S.Call, calleeName(CE),
                                  line(CE->getBeginLoc()))
                        .str()};
  std::optional<std::string> Op = S.Op.empty() ? std::nullopt : std::optional<std::string>(named(S.Op).value_or("?"));
  pushCollective(CE, S.Call, Comm, collectiveKey(S.Call, number(S.Root), Op, number(S.Count), named(S.Type)),
                 llvm::formatv(", in {0}, {1} line {2}", calleeName(CE), S.File, S.Line).str());
}

bool RankRun::sameOpInfo(const Expr *Info) const {
  const VarDecl *V = Info ? namedVar(Info) : nullptr;
  if (!V || !Frames.back().F->getBody())
    return false;
  auto text = [](const Expr *E) {
    const auto *S = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
    return S ? S->getString() : llvm::StringRef();
  };
  return anyNode(Frames.back().F->getBody(), [&](const Stmt *N) {
    const auto *CE = dyn_cast<CallExpr>(N);
    auto A = CE ? infoSetArgs(calleeName(CE)) : std::nullopt;
    return A && CE->getNumArgs() == 3 && namedVar(CE->getArg(A->Info)) == V &&
           text(CE->getArg(A->Key)) == "accumulate_ops" && text(CE->getArg(A->Value)) == "same_op";
  });
}

} // namespace ompi::ranks
