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

/// The argument of CE in role R, by the model of the MPI function it calls;
/// null when CE calls no modelled function or it has no such argument.
inline const clang::Expr *argOf(const clang::CallExpr *CE, Role R) {
  const FunctionModel *M = modelOf(CE);
  std::optional<unsigned> I = M ? M->find(R) : std::nullopt;
  return I && *I < CE->getNumArgs() ? CE->getArg(*I) : nullptr;
}

} // namespace ompi

#endif
