//===- RmaEpoch.cpp - Check: rma-epoch ---------------------------------------===//
//
// one-sided synchronisation that is wrong on every path to the call: RMA
// (MPI_Put, MPI_Get, MPI_Accumulate, ...) on a window outside any access
// epoch; MPI_Win_lock or MPI_Win_lock_all inside the access epoch a fence
// opened; a fence while a lock or an MPI_Win_start epoch is open; an unlock
// with no lock held; MPI_Win_free while RMA of an open epoch has not been
// completed. A fence that closes an epoch opens another only if RMA follows
// (then a lock may follow it). analysis/HandleFlow follows each window.
// Where the paths do not all agree, each rank's own run (rmaTraces) is
// judged by the same rules: a rule one rank certainly breaks is reported
// with the number of processes, the ranks and any assumed outcome.
//
//===----------------------------------------------------------------------===//
#include "analysis/CollectiveSequence.h"
#include "checks/Checks.h"
#include "checks/P2PText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool inFenceEpoch(int S) { return S == WFenceOpen || S == WFencePending; }
bool inOtherEpoch(int S) { return S >= WLocked || S == WLockAll || S == WAccess; }
bool outsideLock(int S) { return S == WNoEpoch || S == WFenceOpen || S == WFencePending || S == WFenceMaybe; }

/// Whether event K breaks an epoch rule in state S.
bool wrongIn(HandleEvent::Kind K, int S) {
  switch (K) {
  case HandleEvent::RMA:
    return S == WNoEpoch;
  case HandleEvent::Lock:
  case HandleEvent::LockAll:
    return inFenceEpoch(S);
  case HandleEvent::Fence:
    return inOtherEpoch(S);
  case HandleEvent::Unlock:
  case HandleEvent::UnlockAll:
    return outsideLock(S);
  case HandleEvent::Free:
    return S == WFencePending || inOtherEpoch(S);
  default:
    return false;
  }
}

/// The rule event E breaks on window W. L is the line of the last
/// synchronisation before it (for a lock: of the last fence).
std::string rule(const HandleEvent &E, const std::string &W, unsigned L) {
  switch (E.K) {
  case HandleEvent::RMA:
    return llvm::formatv("{0} on window '{1}' outside any access epoch (none open since line {2}): RMA must "
                         "follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window",
                         E.Function, W, L);
  case HandleEvent::Lock:
  case HandleEvent::LockAll:
    return llvm::formatv("{0} on window '{1}' inside the access epoch the fence at line {2} opened: a lock "
                         "epoch must not start inside a fence epoch (end it with a fence asserting "
                         "MPI_MODE_NOSUCCEED first)",
                         E.Function, W, L);
  case HandleEvent::Fence:
    return llvm::formatv("MPI_Win_fence on window '{0}' while the epoch that line {1} opened is still open: "
                         "close it (MPI_Win_unlock, MPI_Win_unlock_all, MPI_Win_complete) before a fence",
                         W, L);
  case HandleEvent::Unlock:
  case HandleEvent::UnlockAll:
    return llvm::formatv("{0} on window '{1}', on which no lock is held: an unlock must end an epoch that "
                         "{2} opened",
                         E.Function, W, E.K == HandleEvent::Unlock ? "MPI_Win_lock" : "MPI_Win_lock_all");
  default:
    return llvm::formatv("MPI_Win_free on window '{0}' while the epoch of line {1} is still open: RMA must be "
                         "completed (a closing fence, MPI_Win_unlock, MPI_Win_complete) before the window is "
                         "freed",
                         W, L);
  }
}

/// Whether the event is a synchronisation a message names: for a lock the
/// fences, for the others every call but RMA and plain uses.
bool namedSync(HandleEvent::Kind Of, HandleEvent::Kind K) {
  if (Of == HandleEvent::Lock || Of == HandleEvent::LockAll)
    return K == HandleEvent::Fence;
  return K != HandleEvent::RMA && K != HandleEvent::Use && K != HandleEvent::UseComm;
}

/// Along the CFG: the events every path reaches in a wrong state.
void checkEvent(CheckContext &C, const HandleVar &H, unsigned I) {
  const HandleEvent &E = H.Events[I];
  if (!allStates(H.At[I], [&](int S) { return wrongIn(E.K, S); }))
    return;
  unsigned L = 0;
  for (unsigned J = I; J-- > 0 && !L;)
    if (namedSync(E.K, H.Events[J].K))
      L = C.Ctx.getSourceManager().getExpansionLineNumber(H.Events[J].Loc);
  C.report("rma-epoch", E.Loc, rule(E, H.V->getName().str(), L));
}

/// One rank's run: each window's state event by event, and the events
/// that break a rule, with the rule in words.
std::vector<std::pair<const P2PEvent *, std::string>> wrongOnRank(CheckContext &C, const std::vector<P2PEvent> &Run) {
  std::vector<std::pair<const P2PEvent *, std::string>> Out;
  std::map<const VarDecl *, int> State;
  for (unsigned I = 0; I < Run.size(); ++I) {
    const P2PEvent &E = Run[I];
    if (E.K != P2PEvent::Window)
      continue;
    auto It = State.try_emplace(E.Win, HUnset).first;
    if (wrongIn(E.WinEvent.K, It->second)) {
      unsigned L = 0;
      for (unsigned J = I; J-- > 0 && !L;)
        if (Run[J].K == P2PEvent::Window && Run[J].Win == E.Win && namedSync(E.WinEvent.K, Run[J].WinEvent.K))
          L = Run[J].Line;
      Out.push_back({&E, rule(E.WinEvent, E.Win->getName().str(), L)});
    }
    HandleStates Next;
    stepHandle(E.WinEvent, HandleClass::Win, It->second, Next);
    It->second = Next.empty() ? HUnknown : *Next.begin();
  }
  return Out;
}

/// Along each rank's run (analysis/CollectiveSequence's rmaTraces), at the
/// smallest number of processes at which no rank aborts, and for each set
/// of assumed outcomes of conditions every rank takes alike: what one rank
/// certainly does wrong where the paths of the function do not all agree
/// (rank 0 puts after its last fence while the others do not; an outcome
/// of argc that skips the fences).
void checkRuns(CheckContext &C) {
  std::set<std::pair<const FunctionDecl *, std::string>> Done;
  for (const P2PTraces &T : rmaTraces(C.Ctx, C.Ev, C.Uni)) {
    if (llvm::is_contained(T.Aborted, true) || !Done.insert({T.F, T.Assumed}).second)
      continue;
    std::map<const CallExpr *, std::pair<std::vector<int>, std::string>> Wrong;
    for (int R = 0; R < T.Size; ++R)
      for (auto &[E, Rule] : wrongOnRank(C, T.Ranks[R])) {
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
