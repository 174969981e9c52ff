//===- ReductionHelpers.h - Helpers that return one reduction's result ----===//
//
// double dot(const double *x, const double *y, int n) {
//   double s = 0, g;
//   for (...) s += x[i] * y[i];
//   MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
//   return g;
// }
//
// Such a helper is its local part (everything before the reduction) and one
// reduction of one element whose result it returns. Calls of it (rr =
// norm2(r); rq = dot(r, q);) fuse like the reductions themselves: each call
// runs a variant of the helper that returns the local contribution s where
// the call was, and the fused collective delivers every result where the
// last call was. What makes the split exact: the reduction and the return
// are the last two statements, the only way out of the helper (no other
// return); the local part makes no MPI call and calls no code that may; the
// helper has no static local (the variant would have its own) and does not
// name itself (__func__); the input and the result are automatic scalars of
// the datatype's C type, which is also the return type; count 1; datatype,
// op and communicator static.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_REDUCTIONHELPERS_H
#define OMPI_TOOL_ANALYSIS_REDUCTIONHELPERS_H

#include "analysis/CallAnalysis.h"
#include "analysis/Effects.h"
#include "clang/AST/Decl.h"
#include <map>
#include <string>

namespace ompi {

struct ReductionHelper {
  const clang::FunctionDecl *F = nullptr;
  const CallResult *Reduction = nullptr; ///< the MPI_Allreduce at its end
  std::string Name;
  std::string ValueType;        ///< the C type of the contribution (and of the result)
  std::string Params;           ///< "(const double *x, int n)", as written
  std::string Body;             ///< the variant's body: the local part, then "return s;"
  clang::SourceLocation After;  ///< just after the helper's closing brace
  clang::CharSourceRange Local; ///< the local part, which the variant copies
  /// Just after the first declaration of the helper before its definition
  /// (a prototype), where the variant's prototype can go; invalid if none.
  clang::SourceLocation Proto;
  std::string Why; ///< why F is not such a helper ("" when it is)
};

/// The helpers of a file, each examined once.
class ReductionHelpers {
public:
  ReductionHelpers(clang::ASTContext &Ctx, const FileResult &Calls);
  /// F as a reduction helper (Why says why not).
  const ReductionHelper &of(const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  Effects Eff;
  std::map<const clang::CallExpr *, const CallResult *> ByCall;
  std::map<const clang::FunctionDecl *, ReductionHelper> Memo;
  ReductionHelper examine(const clang::FunctionDecl *F);
  std::string localPartProblem(const clang::FunctionDecl *F, const clang::Stmt *Reduction);
};

} // namespace ompi

#endif
