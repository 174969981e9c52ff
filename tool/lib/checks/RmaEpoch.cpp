//===- RmaEpoch.cpp - Check: rma-epoch ---------------------------------------===//
//
// one-sided synchronisation that is wrong on every path to the call: RMA
// (MPI_Put, MPI_Get, MPI_Accumulate, ...) on a window outside any access
// epoch; MPI_Win_lock or MPI_Win_lock_all inside the access epoch a fence
// opened; a fence while a lock or an MPI_Win_start epoch is open; an unlock
// with no lock held; MPI_Win_free while RMA of an open epoch has not been
// completed. A fence that closes an epoch opens another only if RMA follows
// (then a lock may follow it). analysis/HandleFlow follows each window.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool inFenceEpoch(int S) { return S == WFenceOpen || S == WFencePending; }
bool inOtherEpoch(int S) { return S >= WLocked || S == WLockAll || S == WAccess; }
bool outsideLock(int S) { return S == WNoEpoch || S == WFenceOpen || S == WFencePending || S == WFenceMaybe; }

/// The line of the last synchronisation before event I (0: none).
unsigned lastSync(CheckContext &C, const HandleVar &H, unsigned I) {
  for (unsigned J = I; J-- > 0;) {
    HandleEvent::Kind K = H.Events[J].K;
    if (K != HandleEvent::RMA && K != HandleEvent::Use && K != HandleEvent::UseComm)
      return C.Ctx.getSourceManager().getExpansionLineNumber(H.Events[J].Loc);
  }
  return 0;
}

void checkEvent(CheckContext &C, const HandleVar &H, unsigned I) {
  const HandleEvent &E = H.Events[I];
  const HandleStates &At = H.At[I];
  std::string W = H.V->getName().str();
  unsigned L = lastSync(C, H, I);
  auto report = [&](const llvm::Twine &Msg) { C.report("rma-epoch", E.Loc, Msg.str()); };
  switch (E.K) {
  case HandleEvent::RMA:
    if (allStates(At, [](int S) { return S == WNoEpoch; }))
      report(llvm::formatv("{0} on window '{1}' outside any access epoch (none open since line {2}): RMA must "
                           "follow an MPI_Win_fence, MPI_Win_lock(_all) or MPI_Win_start on the window",
                           E.Function, W, L));
    return;
  case HandleEvent::Lock:
  case HandleEvent::LockAll:
    for (unsigned J = I; J-- > 0;)
      if (H.Events[J].K == HandleEvent::Fence) {
        L = C.Ctx.getSourceManager().getExpansionLineNumber(H.Events[J].Loc);
        break;
      }
    if (allStates(At, inFenceEpoch))
      report(llvm::formatv("{0} on window '{1}' inside the access epoch the fence at line {2} opened: a lock "
                           "epoch must not start inside a fence epoch (end it with a fence asserting "
                           "MPI_MODE_NOSUCCEED first)",
                           E.Function, W, L));
    return;
  case HandleEvent::Fence:
    if (allStates(At, inOtherEpoch))
      report(llvm::formatv("MPI_Win_fence on window '{0}' while the epoch that line {1} opened is still open: "
                           "close it (MPI_Win_unlock, MPI_Win_unlock_all, MPI_Win_complete) before a fence",
                           W, L));
    return;
  case HandleEvent::Unlock:
  case HandleEvent::UnlockAll:
    if (allStates(At, outsideLock))
      report(llvm::formatv("{0} on window '{1}', on which no lock is held: an unlock must end an epoch that "
                           "{2} opened",
                           E.Function, W, E.K == HandleEvent::Unlock ? "MPI_Win_lock" : "MPI_Win_lock_all"));
    return;
  case HandleEvent::Free:
    if (allStates(At, [](int S) { return S == WFencePending || inOtherEpoch(S); }))
      report(llvm::formatv("MPI_Win_free on window '{0}' while the epoch of line {1} is still open: RMA must be "
                           "completed (a closing fence, MPI_Win_unlock, MPI_Win_complete) before the window is "
                           "freed",
                           W, L));
    return;
  default:
    return;
  }
}

} // namespace

void checkRmaEpochs(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const HandleVar &H : C.handles(F))
      if (H.Class == HandleClass::Win)
        for (unsigned I = 0; I < H.Events.size(); ++I)
          checkEvent(C, H, I);
}

} // namespace ompi
