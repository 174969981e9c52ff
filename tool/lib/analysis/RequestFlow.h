//===- RequestFlow.h - Nonblocking requests along the CFG -----------------===//
//
// For every local MPI_Request variable of a function (a scalar: requests in
// structs or behind pointers belong to code this analysis cannot follow,
// such as RAII wrappers; on request, also the elements of local arrays of
// requests named by constant indices), the events on
// it in source order: started by a nonblocking call, completed by a wait,
// test or free, or anything else (initialised, assigned, passed to another
// function, its address taken), which stops the tracking. The states the
// request may be in flow along the function's CFG, one per path: never set,
// unknown, done, or pending from a given start.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_REQUESTFLOW_H
#define OMPI_TOOL_ANALYSIS_REQUESTFLOW_H

#include "analysis/Evaluator.h"
#include "clang/Basic/SourceLocation.h"
#include <set>
#include <string>
#include <vector>

namespace ompi {

struct RequestEvent {
  enum Kind { Start, Complete, Other } K;
  unsigned Offset = 0;
  clang::SourceLocation Loc;
  std::string Function; ///< the MPI function, for starts and completions
  const clang::Stmt *S = nullptr;
  /// A completion that may leave the request pending (with UncertainTests:
  /// a test outside a loop that repeats it until its flag is set, a wait
  /// or test for any or some of an array).
  bool Uncertain = false;
  /// Where the flow takes the event to happen, when not at S: the
  /// condition of a loop that tests until its flag is set, or that waits
  /// for any of N requests N times (complete there).
  const clang::Stmt *FlowAt = nullptr;
};

/// The states of one request on the paths reaching a point: RequestUnset
/// (never assigned), RequestUnknown (assigned, passed away), RequestDone, or
/// pending from start event K (K >= 0).
using RequestStates = std::set<int>;
constexpr int RequestUnset = -1, RequestUnknown = -2, RequestDone = -3;
/// Added to K: pending from start event K after an uncertain completion
/// (a test that may have left it pending).
constexpr int RequestTested = 1 << 24;
/// The start event a pending state comes from.
inline int startOf(int State) { return State >= RequestTested ? State - RequestTested : State; }

struct RequestVar {
  const clang::VarDecl *V = nullptr;
  /// With array slots: the element of an array of requests (-1: a scalar).
  int Index = -1;
  std::vector<RequestEvent> Events; ///< in source order
  std::vector<RequestStates> At;    ///< At[k]: the states just before event k
  RequestStates Exit;               ///< the states at the function's exit
};

/// Whether every path's state is pending (from some start).
inline bool allPending(const RequestStates &S) { return !S.empty() && *S.begin() >= 0; }

/// The local, non-persistent request variables of F with their events and
/// states (empty when F's CFG could not be built). With ArraySlots, also
/// each element of a local array of requests of constant size that calls
/// name by a constant index (`&reqs[1]`, `reqs + 1`): an MPI_Waitall,
/// MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome over
/// `reqs` (or `reqs + B`) with a constant count is a completion of each
/// element it covers (a test, or a wait for any or some, may leave it
/// pending; as for MPI_Test, the states count it done); any other use of
/// the array (an index that is not constant, an initialiser, passing it to
/// a function) is an "other" event on every element.
///
/// With UncertainTests, a completion that may leave the request pending
/// keeps its pending states (marked RequestTested) beside RequestDone:
/// MPI_Test and MPI_Testall unless they are repeated until their flag is
/// set (a loop `do { MPI_Test(&r, &flag, ...); } while (!flag);`, or a
/// while or for loop on `!flag` entered with the flag just set to 0, whose
/// body tests the request as one of its statements, has no break, goto or
/// return, and names the flag nowhere else, the flag's address going only
/// to tests), and the waits and tests for any or some of an array, except
/// an MPI_Waitany over N requests that is a statement of the body of a loop
/// `for (k = 0; k < N; k++)` (k only read in it; no break, continue, goto
/// or return; the requests named only in that call): its N calls complete
/// all N, so they are done at the loop's exit. Without it every completion
/// counts as done.
std::vector<RequestVar> requestFlow(clang::ASTContext &Ctx, Evaluator &Ev, const clang::FunctionDecl *F,
                                    bool ArraySlots = false, bool UncertainTests = false);

/// Whether the MPI function Name completes requests of a run of an array
/// given by a count and its first element (all of them, or some):
/// MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome,
/// MPI_Testsome.
bool completesRun(llvm::StringRef Name);

/// The local request variable (a scalar, not a parameter) whose address a
/// call's request argument is (`&r`), or null.
const clang::VarDecl *requestVariable(const clang::Expr *RequestArg);

/// The element of a local array of requests of constant size that E names
/// (`&reqs[K]`, `reqs + K`, `reqs` for K = 0) with K constant: the array
/// and K; {null, -1} otherwise.
std::pair<const clang::VarDecl *, int> requestSlot(clang::ASTContext &Ctx, const clang::Expr *E);

} // namespace ompi

#endif
