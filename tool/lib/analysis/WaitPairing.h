//===- WaitPairing.h - The waits that complete a nonblocking call ---------===//
//
// For nonblocking calls on one local MPI_Request variable (or one element of
// a local array of requests, named by a constant index), whether the waits
// on it complete them on every path (analysis/RequestFlow.h): from each
// such call, every path reaches an MPI_Wait on it (or an MPI_Waitall over
// the array that covers the element) before it is started again, tested,
// freed, passed to anything else, or the function returns. Then a template that starts the call can
// leave work for the wait (the datatype templates unpack a receive and
// return its buffer there), and the wait runs in the same thread and the
// same invocation as the call.
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
  /// Every MPI_Wait (and MPI_Waitall) on the variable or element written
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
