//===- EventFlow.h - Sets of states along a function's CFG ----------------===//
//
// The states one variable may be in (small integers, one per path: a
// request pending from a start, a handle freed) flow along a function's CFG
// through events at statements: each event maps the states before it to
// those after it. The result is, for each event, the states of the paths
// that reach it, and the states at the function's exit. RequestFlow and
// HandleFlow build on it.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_EVENTFLOW_H
#define OMPI_TOOL_ANALYSIS_EVENTFLOW_H

#include "analysis/Evaluator.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <set>
#include <vector>

namespace ompi {

struct StateFlow {
  std::vector<std::set<int>> At; ///< At[k]: the states just before event k
  std::set<int> Exit;            ///< the states at the function's exit
};

/// Event k happens at Where[k] (its CFG point, or the first point inside
/// it; an event with no point never happens); the states start as {Entry};
/// Step(k, S) gives the states after event k from the states S before it.
StateFlow flowStates(FunctionAnalysis &FA, llvm::ArrayRef<const clang::Stmt *> Where, int Entry,
                     llvm::function_ref<std::set<int>(unsigned K, const std::set<int> &Before)> Step);

} // namespace ompi

#endif
