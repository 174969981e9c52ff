//===- HandleFlow.h - MPI handles' lives along the CFG ---------------------===//
//
// For every local handle variable of a function (MPI_Datatype, MPI_Comm,
// MPI_Group, MPI_Op, MPI_Win, MPI_Info, MPI_Errhandler, and MPI_Request
// when a persistent _init call creates it), the events on it in source
// order: created (its address given to a constructor: MPI_Type_vector,
// MPI_Comm_split, MPI_Win_create, MPI_Send_init, ...), committed, freed,
// used by value in an MPI call, and for windows the synchronisation calls
// and the RMA operations, for persistent requests the starts and
// completions. Anything else (an assignment, an initialiser, the handle or
// its address given to a function that is not MPI's, a copy into another
// variable) makes the handle unknown from there on, and marks it escaping.
//
// The states a handle may be in flow along the CFG, one set per point, as
// RequestFlow's do: only what holds on every path is a finding.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_HANDLEFLOW_H
#define OMPI_TOOL_ANALYSIS_HANDLEFLOW_H

#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include "clang/Basic/SourceLocation.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompi {

struct HandleEvent {
  enum Kind {
    Create,      ///< the handle's address went to a constructor
    Commit,      ///< MPI_Type_commit
    Free,        ///< MPI_*_free, MPI_Request_free
    UseComm,     ///< a datatype describing a communication's data (must be committed)
    Use,         ///< any other use by value in an MPI call (must be valid)
    Start,       ///< MPI_Start(all) of a persistent request
    Complete,    ///< a wait on a persistent request
    MayComplete, ///< a test on a persistent request
    Fence,       ///< MPI_Win_fence
    Lock,        ///< MPI_Win_lock
    Unlock,      ///< MPI_Win_unlock
    LockAll,     ///< MPI_Win_lock_all
    UnlockAll,   ///< MPI_Win_unlock_all
    AccessStart, ///< MPI_Win_start
    AccessEnd,   ///< MPI_Win_complete
    RMA,         ///< MPI_Put, MPI_Get, MPI_Accumulate, ...
    SetNull,     ///< initialised to its class's null handle (MPI_REQUEST_NULL, MPI_COMM_NULL, ...)
    Other        ///< anything else: unknown from here on
  } K;
  unsigned Offset = 0;
  clang::SourceLocation Loc;
  std::string Function; ///< the call's, for calls
  const clang::Stmt *S = nullptr;
  bool NoSucceed = false;     ///< a fence asserting MPI_MODE_NOSUCCEED
  bool NoPrecede = false;     ///< a fence asserting MPI_MODE_NOPRECEDE
  bool AssertUnknown = false; ///< a fence whose assertion a variable gives (it may assert either)
};

/// The states of a handle on the paths reaching a point.
using HandleStates = std::set<int>;
enum HandleState : int {
  HUnset = -1,   ///< never assigned
  HUnknown = -2, ///< assigned by other means, or given away
  HFreed = -3,
  HNull = -4,        ///< holds the null handle of its class
  HBuilt = 0,        ///< a datatype constructed, not committed
  HLive = 1,         ///< valid (a committed datatype, a communicator, ...)
  HInactive = 2,     ///< a persistent request not started, or completed
  HActive = 3,       ///< a persistent request started
  WNoEpoch = 4,      ///< a window outside any access epoch
  WFenceOpen = 5,    ///< a fence opened an epoch and no RMA was issued yet
  WFencePending = 6, ///< RMA issued in a fence epoch, not yet closed
  WFenceMaybe = 7,   ///< a fence closed an epoch (it opens one only if RMA follows)
  WLockAll = 8,      ///< inside MPI_Win_lock_all
  WAccess = 9,       ///< inside MPI_Win_start .. MPI_Win_complete
  WLocked = 100      ///< WLocked + k: k locks held
};

struct HandleVar {
  const clang::VarDecl *V = nullptr;
  HandleClass Class = HandleClass::Comm;
  std::vector<HandleEvent> Events; ///< in source order
  std::vector<HandleStates> At;    ///< At[k]: the states just before event k
  HandleStates Exit;               ///< the states at the function's exit
  bool Escapes = false;            ///< some event is Other
};

/// Whether every state of S satisfies P (and S is not empty).
template <typename Pred> bool allStates(const HandleStates &S, Pred P) {
  if (S.empty())
    return false;
  for (int X : S)
    if (!P(X))
      return false;
  return true;
}

llvm::StringRef handleClassName(HandleClass C); ///< "datatype", "communicator", ...

/// The state of a handle of class C after event E from state S, added to
/// Out (the transfer function of the flow below).
void stepHandle(const HandleEvent &E, HandleClass C, int S, HandleStates &Out);

/// What MPI call CE (by its name) does to the handle of class C whose
/// address is its argument I: Create, Free, Commit, ... (HandleFlow's
/// model).
HandleEvent::Kind handleAddressEvent(const clang::CallExpr *CE, unsigned I, HandleClass C);

/// The local window variable the MPI call CE names (by value, or by address
/// for its creation and MPI_Win_free) and what the call does to it, as
/// handleFlow records it; nullopt when it names none.
std::optional<std::pair<const clang::VarDecl *, HandleEvent>> windowCall(const clang::CallExpr *CE,
                                                                         const clang::SourceManager &SM);

/// The local handle variables of F with their events and states (empty when
/// F's CFG could not be built).
std::vector<HandleVar> handleFlow(clang::ASTContext &Ctx, Evaluator &Ev, const clang::FunctionDecl *F);

} // namespace ompi

#endif
