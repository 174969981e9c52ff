//===- WaitPairing.h - The waits that complete a nonblocking call ---------===//
//
// For nonblocking calls on one automatic MPI_Request variable (or one
// element of a local array of requests, named by a constant index), whether
// the completions on it that templates can take over cover them on every
// path (analysis/RequestFlow.h): from each such call, every path reaches an
// MPI_Wait or MPI_Test on it (over the array: an MPI_Waitall, MPI_Testall,
// MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome whose constant
// count covers the element), and while it may be pending nothing else uses
// it: it is not started again, freed, cancelled or passed to anything else,
// and the function does not return before such a completion. A test (or a
// wait for any or some) may leave it pending; the next event is then again
// one of those completions, or the end of the function, where the request
// is lost to the program (which can then never read a receive's buffer;
// the template's buffer stays out of its pool). Then a template that starts
// the call can leave work for the completion (the datatype templates unpack
// a receive and return its buffer there), and that runs in the same thread
// and the same invocation as the call, since the request lives in the
// function's frame.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_WAITPAIRING_H
#define OMPI_TOOL_ANALYSIS_WAITPAIRING_H

#include "analysis/RequestFlow.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace ompi {

struct WaitPairing {
  /// Every completion on the variable or element that a template can take
  /// over (MPI_Wait, MPI_Test, and the calls on runs of an array), written
  /// outside macros (to be rewritten alike; those that complete one of the
  /// calls are among them).
  std::vector<const clang::CallExpr *> Waits;
  std::string Why; ///< not proven: why ("" when proven)
};

/// Whether the waits on Req (element Index of it; -1: a scalar) complete
/// every one of Starts (calls that start it) on every path of their
/// function, whose request flow (with array slots) is Flow.
WaitPairing pairWaits(const clang::SourceManager &SM, const std::vector<RequestVar> &Flow, const clang::VarDecl *Req,
                      int Index, llvm::ArrayRef<const clang::CallExpr *> Starts);

} // namespace ompi

#endif
