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
};

/// The states of one request on the paths reaching a point: RequestUnset
/// (never assigned), RequestUnknown (assigned, passed away), RequestDone, or
/// pending from start event K (K >= 0).
using RequestStates = std::set<int>;
constexpr int RequestUnset = -1, RequestUnknown = -2, RequestDone = -3;

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
/// name by a constant index (`&reqs[1]`, `reqs + 1`): an MPI_Waitall over
/// `reqs` (or `reqs + B`) with a constant count completes the elements it
/// covers; the other calls on arrays (MPI_Waitany, MPI_Testall, ...) and any
/// other use of the array (an index that is not constant, an initialiser,
/// passing it to a function) are "other" events on every element.
std::vector<RequestVar> requestFlow(clang::ASTContext &Ctx, Evaluator &Ev, const clang::FunctionDecl *F,
                                    bool ArraySlots = false);

/// The local request variable (a scalar, not a parameter) whose address a
/// call's request argument is (`&r`), or null.
const clang::VarDecl *requestVariable(const clang::Expr *RequestArg);

/// The element of a local array of requests of constant size that E names
/// (`&reqs[K]`, `reqs + K`, `reqs` for K = 0) with K constant: the array
/// and K; {null, -1} otherwise.
std::pair<const clang::VarDecl *, int> requestSlot(clang::ASTContext &Ctx, const clang::Expr *E);

} // namespace ompi

#endif
