//===- RmaEpoch.cpp - Check: rma-epoch ---------------------------------------===//
//
// one-sided synchronisation that is wrong on every path to the call: RMA
// (MPI_Put, MPI_Get, MPI_Accumulate, ...) on a window outside any access
// epoch; MPI_Win_lock or MPI_Win_lock_all inside the access epoch a fence
// opened; a fence while a lock or an MPI_Win_start epoch is open; an unlock
// with no lock held; MPI_Win_free while RMA of an open epoch has not been
// completed; a fence asserting MPI_MODE_NOPRECEDE that completes RMA;
// MPI_Win_start inside its own access epoch, MPI_Win_complete outside. A
// fence that closes an epoch opens another only if RMA follows (then a lock
// may follow it). analysis/HandleFlow follows each window. Where the paths
// do not all agree, each rank's own run (rmaTraces) is judged by the same
// rules: a rule one rank certainly breaks is reported with the number of
// processes, the ranks and any assumed outcome. The runs also compare the
// fences' MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED rank against rank.
//
//===----------------------------------------------------------------------===//
#include "analysis/ranks/RankTraces.h"
#include "checks/Checks.h"
#include "checks/P2PText.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool inFenceEpoch(int S) { return S == WFenceOpen || S == WFencePending; }
bool inOtherEpoch(int S) { return S >= WLocked || S == WLockAll || S == WAccess; }
bool outsideLock(int S) { return S == WNoEpoch || S == WFenceOpen || S == WFencePending || S == WFenceMaybe; }

/// The rules a window call may break.
enum class Rule { None, Outside, LockInFence, FenceInEpoch, NoLock, FreeOpen, NoPrecede, NoStart, StartInStart };

/// The rule event E breaks in state S.
Rule wrongIn(const HandleEvent &E, int S) {
  switch (E.K) {
  case HandleEvent::RMA:
    return S == WNoEpoch ? Rule::Outside : Rule::None;
  case HandleEvent::Lock:
  case HandleEvent::LockAll:
    return inFenceEpoch(S) ? Rule::LockInFence : Rule::None;
  case HandleEvent::Fence:
    return inOtherEpoch(S) ? Rule::FenceInEpoch : E.NoPrecede && S == WFencePending ? Rule::NoPrecede : Rule::None;
  case HandleEvent::Unlock:
  case HandleEvent::UnlockAll:
    return outsideLock(S) ? Rule::NoLock : Rule::None;
  case HandleEvent::Free:
    return S == WFencePending || inOtherEpoch(S) ? Rule::FreeOpen : Rule::None;
  case HandleEvent::AccessStart:
    return S == WAccess ? Rule::StartInStart : Rule::None;
  case HandleEvent::AccessEnd:
    return outsideLock(S) ? Rule::NoStart : Rule::None;
  default:
    return Rule::None;
  }
}

/// The rule every state of S breaks (None where they differ).
Rule wrongInAll(const HandleEvent &E, const HandleStates &S) {
  Rule R = S.empty() ? Rule::None : wrongIn(E, *S.begin());
  return allStates(S, [&](int X) { return wrongIn(E, X) == R; }) ? R : Rule::None;
}

/// Rule R broken by event E on window W in words. L is the line of the
/// event the rule names (namedBy).
std::string describe(Rule R, const HandleEvent &E, const std::string &W, unsigned L) {
  switch (R) {
  case Rule::Outside:
    return llvm::formatv("{0} on window '{1}' outside any access epoch (none open since line {2}): RMA must "
                         "follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window",
                         E.Function, W, L);
  case Rule::LockInFence:
    return llvm::formatv("{0} on window '{1}' inside the access epoch the fence at line {2} opened: a lock "
                         "epoch must not start inside a fence epoch (end it with a fence asserting "
                         "MPI_MODE_NOSUCCEED first)",
                         E.Function, W, L);
  case Rule::FenceInEpoch:
    return llvm::formatv("MPI_Win_fence on window '{0}' while the epoch that line {1} opened is still open: "
                         "close it (MPI_Win_unlock, MPI_Win_unlock_all, MPI_Win_complete) before a fence",
                         W, L);
  case Rule::NoLock:
    return llvm::formatv("{0} on window '{1}', on which no lock is held: an unlock must end an epoch that "
                         "{2} opened",
                         E.Function, W, E.K == HandleEvent::Unlock ? mpi::MPI_Win_lock : mpi::MPI_Win_lock_all);
  case Rule::NoStart:
    return llvm::formatv("MPI_Win_complete on window '{0}', on which no MPI_Win_start epoch is open: "
                         "MPI_Win_complete must end an access epoch that MPI_Win_start opened",
                         W);
  case Rule::StartInStart:
    return llvm::formatv("MPI_Win_start on window '{0}' while the access epoch that line {1} opened is still "
                         "open: end it with MPI_Win_complete first",
                         W, L);
  case Rule::NoPrecede:
    return llvm::formatv("MPI_Win_fence on window '{0}' asserts MPI_MODE_NOPRECEDE, but it completes the RMA "
                         "of line {1}: the assertion says that no RMA call of this process precedes the fence",
                         W, L);
  default:
    return llvm::formatv("MPI_Win_free on window '{0}' while the epoch of line {1} is still open: RMA must be "
                         "completed (a closing fence, MPI_Win_unlock, MPI_Win_complete) before the window is "
                         "freed",
                         W, L);
  }
}

/// Whether an earlier event of kind K is the one rule R names: for a lock
/// the last fence, for MPI_MODE_NOPRECEDE the last RMA call, for the others
/// the last synchronisation.
bool namedBy(Rule R, HandleEvent::Kind K) {
  if (R == Rule::LockInFence)
    return K == HandleEvent::Fence;
  if (R == Rule::NoPrecede)
    return K == HandleEvent::RMA;
  return K != HandleEvent::RMA && K != HandleEvent::Use && K != HandleEvent::UseComm && K != HandleEvent::SetNull;
}

/// Along the CFG: the events every path reaches in a wrong state.
void checkEvent(CheckContext &C, const HandleVar &H, unsigned I) {
  const HandleEvent &E = H.Events[I];
  Rule R = wrongInAll(E, H.At[I]);
  if (R == Rule::None)
    return;
  unsigned L = 0;
  for (unsigned J = I; J-- > 0 && !L;)
    if (namedBy(R, H.Events[J].K))
      L = C.Ctx.getSourceManager().getExpansionLineNumber(H.Events[J].Loc);
  C.report("rma-epoch", E.Loc, describe(R, E, H.V->getName().str(), L));
}

/// The locks one rank holds on a window: a second lock on a target it
/// holds, or a lock beside MPI_Win_lock_all, is erroneous (a process holds
/// at most one lock on each target of a window).
struct Locks {
  std::map<int64_t, unsigned> Target; // rank -> line of its lock
  unsigned All = 0;                   // line of MPI_Win_lock_all
  /// Steps over E; the rule it breaks in words, or "".
  std::string step(const P2PEvent &E) {
    std::string Why;
    const char *Rule = ": a process may hold only one lock on each target of a window at a time (unlock it first)";
    if (E.WinEvent.K == HandleEvent::Lock && E.S.Peer) {
      if (All)
        Why = llvm::formatv("MPI_Win_lock of rank {0} on window '{1}' while the MPI_Win_lock_all of line {2} holds "
                            "a lock on every rank{3}",
                            *E.S.Peer, E.Win->getName(), All, Rule);
      else if (auto It = Target.find(*E.S.Peer); It != Target.end())
        Why = llvm::formatv("MPI_Win_lock of rank {0} on window '{1}' while the lock of line {2} on that rank is "
                            "still held{3}",
                            *E.S.Peer, E.Win->getName(), It->second, Rule);
      Target.emplace(*E.S.Peer, E.Line);
    } else if (E.WinEvent.K == HandleEvent::LockAll) {
      if (All || !Target.empty())
        Why = llvm::formatv("MPI_Win_lock_all on window '{0}' while the lock of line {1} is still held{2}",
                            E.Win->getName(), All ? All : Target.begin()->second, Rule);
      All = E.Line;
    } else if (E.WinEvent.K == HandleEvent::Lock) {
      Target.clear(); // a lock of a rank not known: not followed from here
      All = 0;
    } else if (E.WinEvent.K == HandleEvent::Unlock) {
      if (E.S.Peer)
        Target.erase(*E.S.Peer);
      else
        Target.clear();
    } else if (E.WinEvent.K == HandleEvent::UnlockAll) {
      All = 0;
    }
    return Why;
  }
};

/// One rank's run: each window's states event by event, and the events
/// that break a rule, with the rule in words.
std::vector<std::pair<const P2PEvent *, std::string>> wrongOnRank(const std::vector<P2PEvent> &Run) {
  std::vector<std::pair<const P2PEvent *, std::string>> Out;
  std::map<const VarDecl *, HandleStates> State;
  std::map<const VarDecl *, Locks> Held;
  for (unsigned I = 0; I < Run.size(); ++I) {
    const P2PEvent &E = Run[I];
    if (E.K != P2PEvent::Window)
      continue;
    HandleStates &S = State.try_emplace(E.Win, HandleStates{HUnset}).first->second;
    if (std::string Twice = Held[E.Win].step(E); !Twice.empty()) {
      Out.push_back({&E, Twice});
    } else if (Rule R = wrongInAll(E.WinEvent, S); R != Rule::None) {
      unsigned L = 0;
      for (unsigned J = I; J-- > 0 && !L;)
        if (Run[J].K == P2PEvent::Window && Run[J].Win == E.Win && namedBy(R, Run[J].WinEvent.K))
          L = Run[J].Line;
      Out.push_back({&E, describe(R, E.WinEvent, E.Win->getName().str(), L)});
    }
    HandleStates Next;
    for (int X : S)
      stepHandle(E.WinEvent, HandleClass::Win, X, Next);
    S = std::move(Next);
  }
  return Out;
}

/// The fences of each window created once, on MPI_COMM_WORLD, in one
/// rank's run, in order.
std::map<const VarDecl *, std::vector<const P2PEvent *>> worldFences(const std::vector<P2PEvent> &Run) {
  std::map<const VarDecl *, std::vector<const P2PEvent *>> Out;
  std::map<const VarDecl *, int> Created; // 1: once, on the world; -1: otherwise
  for (const P2PEvent &E : Run) {
    if (E.K != P2PEvent::Window)
      continue;
    if (E.WinEvent.K == HandleEvent::Create) {
      int &N = Created[E.Win];
      N = E.WorldWindow && !N ? 1 : -1;
    } else if (E.WinEvent.K == HandleEvent::Fence) {
      Out[E.Win].push_back(&E);
    }
  }
  for (auto It = Out.begin(); It != Out.end();)
    It = Created[It->first] == 1 ? std::next(It) : Out.erase(It);
  return Out;
}

/// The first fence of each window at which the ranks' assertions part:
/// MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED must be given by every process
/// of the window's group or by none.
void checkAgreement(CheckContext &C, const P2PTraces &T) {
  std::vector<std::map<const VarDecl *, std::vector<const P2PEvent *>>> Fences;
  for (const std::vector<P2PEvent> &Run : T.Ranks)
    Fences.push_back(worldFences(Run));
  for (const auto &[W, Mine] : Fences[0]) {
    auto differ = [&]() -> std::optional<std::pair<int, unsigned>> {
      for (unsigned K = 0; K < Mine.size(); ++K)
        for (int R = 1; R < T.Size; ++R) {
          auto It = Fences[R].find(W);
          if (It == Fences[R].end() || K >= It->second.size())
            continue;
          const HandleEvent &A = Mine[K]->WinEvent, &B = It->second[K]->WinEvent;
          if (!A.AssertUnknown && !B.AssertUnknown && (A.NoPrecede != B.NoPrecede || A.NoSucceed != B.NoSucceed))
            return std::make_pair(R, K);
        }
      return std::nullopt;
    };
    auto D = differ();
    if (!D)
      continue;
    const P2PEvent *A = Mine[D->second], *B = Fences[D->first].at(W)[D->second];
    bool Precede = A->WinEvent.NoPrecede != B->WinEvent.NoPrecede;
    bool ByA = Precede ? A->WinEvent.NoPrecede : A->WinEvent.NoSucceed;
    const P2PEvent *Giver = ByA ? A : B, *Other = ByA ? B : A;
    int GiverRank = ByA ? 0 : D->first, OtherRank = ByA ? D->first : 0;
    llvm::StringRef Mode = Precede ? mpi::MPI_MODE_NOPRECEDE : mpi::MPI_MODE_NOSUCCEED;
    Finding *F =
        C.report("rma-epoch", Giver->Call->getBeginLoc(),
                 llvm::formatv("{0}, fence {1} on window '{2}' asserts {3} on rank {4} but not on rank {5} (line {6}): "
                               "the assertion must be given by every process of the window's group or by none",
                               withProcesses(T), D->second + 1, W->getName(), Mode, GiverRank, OtherRank, Other->Line)
                     .str());
    if (F && Other->Call != Giver->Call)
      C.note(*F, Other->Call->getBeginLoc(), llvm::formatv("rank {0}'s fence", OtherRank).str());
  }
}

/// Along each rank's run (analysis/ranks' rmaTraces), at the
/// smallest number of processes at which no rank aborts, and for each set
/// of assumed outcomes of conditions every rank takes alike: what one rank
/// certainly does wrong where the paths of the function do not all agree
/// (rank 0 puts after its last fence while the others do not; an outcome
/// of argc that skips the fences), and fence assertions the ranks do not
/// all give.
void checkRuns(CheckContext &C) {
  std::set<std::pair<const FunctionDecl *, std::string>> Done;
  for (const P2PTraces &T : rmaTraces(C.Ctx, C.Ev, C.Uni)) {
    if (llvm::is_contained(T.Aborted, true) || !Done.insert({T.F, T.Assumed}).second)
      continue;
    std::map<const CallExpr *, std::pair<std::vector<int>, std::string>> Wrong;
    for (int R = 0; R < T.Size; ++R)
      for (auto &[E, Rule] : wrongOnRank(T.Ranks[R])) {
        auto &W = Wrong[E->Call];
        if (W.first.empty() || W.first.back() != R)
          W.first.push_back(R);
        W.second = Rule;
      }
    for (auto &[Call, W] : Wrong)
      C.report("rma-epoch", Call->getBeginLoc(),
               llvm::formatv("{0}, on rank{1} {2}: {3}", withProcesses(T), W.first.size() > 1 ? "s" : "",
                             describeRanks(W.first), W.second)
                   .str());
    checkAgreement(C, T);
  }
}

} // namespace

void checkRmaEpochs(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const HandleVar &H : C.handles(F))
      if (H.Class == HandleClass::Win)
        for (unsigned I = 0; I < H.Events.size(); ++I)
          checkEvent(C, H, I);
  checkRuns(C);
}

} // namespace ompi
