//===- DeferralPlan.h - Which reductions the lazy runtime takes ------------===//
//
// MPI_Allreduce / MPI_Reduce calls that static fusion left alone become
// mpiopt_lazy_allreduce / mpiopt_lazy_reduce (same arguments): the runtime
// queues them and fuses everything pending on the communicator at the next
// force point. The tool inserts the force points: a call to
// mpiopt_lazy_wait_range(&v, sizeof(v)) before every statement that touches
// the receive variable v after the call (in any function, for a global), and
// before every return (and the end of the function) for a local v, so its
// storage outlives the delivery.
//
// Proof obligations: v is a named, non-volatile variable (not reached
// through a pointer); its address is used only by MPI calls (so every access
// is a visible use of its name); a global v is invisible to other files
// (static, --closed-world, or the program's facts say no other file's code
// names it: ProgramFacts::namedOnlyIn); a local v lives for the whole function, or
// for an inner block that control leaves only through its end (the wait then
// goes before its closing brace); the function has no goto. A read in the
// condition of a loop whose body queues v waits inside the condition. A call is deferred only when that can help:
// its result is not used before the end of its function, or another
// reduction can join it before the first force point.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_DEFERRALPLAN_H
#define OMPI_TOOL_ANALYSIS_DEFERRALPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/Uniformity.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <utility>
#include <vector>

namespace ompi {

struct DeferredCall {
  clang::SourceLocation Callee; ///< the callee's name token
  std::string From, To;         ///< MPI_Allreduce -> mpiopt_lazy_allreduce
  bool PendingAtExit = false;   ///< its result is not used before its function returns
  std::string Summary;          ///< "MPI_Allreduce(&s -> &s1)"
  ChangeNote Note;
};

struct ForcePoint {
  enum Kind { Before, Braces, Comma, BeforeBrace } K = Before;
  clang::SourceLocation At;  ///< statement start / reference / closing brace
  clang::SourceLocation End; ///< Braces: just after the statement; Comma: end of the reference
  std::string Indent;
  std::string Var; ///< the variable's name
  /// Before a declaration that only declarations precede in its block: the
  /// wait is written as a declaration too, so C89 and
  /// -Wdeclaration-after-statement builds still compile.
  bool AsDeclaration = false;
  ChangeNote Note;
};

struct DeferralPlan {
  std::vector<DeferredCall> Calls;
  std::vector<ForcePoint> Forces;
  std::vector<ChangeNote> Declined;
};

/// Analysis: which reductions to defer and where their force points are.
/// Calls inside Changed (file offsets [begin, end) that static fusion
/// rewrites) are skipped, and a use of a result inside them is not deferred.
DeferralPlan analyzeLazyDeferral(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                 const std::vector<std::pair<unsigned, unsigned>> &Changed);

} // namespace ompi

#endif
