//===- OpenMP.h - Small helpers for OpenMP directives ---------------------===//
#ifndef OMPI_TOOL_SUPPORT_OPENMP_H
#define OMPI_TOOL_SUPPORT_OPENMP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include <optional>

namespace ompi {

/// The statement an OpenMP directive applies to, inside its captured
/// regions (a parallel region's body, a worksharing loop's for statement);
/// null for a standalone directive (barrier, flush, taskwait).
inline const clang::Stmt *ompBody(const clang::OMPExecutableDirective *D) {
  if (!D->hasAssociatedStmt())
    return nullptr;
  const clang::Stmt *S = D->getAssociatedStmt();
  while (const auto *CS = llvm::dyn_cast_or_null<clang::CapturedStmt>(S))
    S = CS->getCapturedStmt();
  return S;
}

/// The constant of a directive's num_threads clause, if it has one.
inline std::optional<int64_t> ompNumThreads(clang::ASTContext &Ctx, const clang::OMPExecutableDirective *D) {
  const auto *NT = D->getSingleClause<clang::OMPNumThreadsClause>();
  clang::Expr::EvalResult R;
  if (!NT || !NT->getNumThreads()->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

} // namespace ompi

#endif
