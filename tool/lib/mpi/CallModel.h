//===- CallModel.h - The model of the function a call names ---------------===//
#ifndef OMPI_TOOL_MPI_CALLMODEL_H
#define OMPI_TOOL_MPI_CALLMODEL_H

#include "mpi/MPIModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace ompi {

/// The model of the MPI function CE calls by name, or null (not an MPI
/// function, or a call through a pointer).
inline const FunctionModel *modelOf(const clang::CallExpr *CE) {
  const clang::FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
}

} // namespace ompi

#endif
