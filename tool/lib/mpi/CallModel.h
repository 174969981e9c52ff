//===- CallModel.h - The model of the function a call names ---------------===//
#ifndef OMPI_TOOL_MPI_CALLMODEL_H
#define OMPI_TOOL_MPI_CALLMODEL_H

#include "mpi/MPIModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

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

/// The handle class of T when T is a handle type (MPI_Comm, MPI_Request,
/// ...), through any typedefs of it, spelled as any MPI's mpi.h spells it.
inline std::optional<HandleClass> handleClassOfType(clang::QualType T) {
  for (const clang::TypedefType *TT = T->getAs<clang::TypedefType>(); TT;) {
    if (std::optional<HandleClass> C = handleClassOf(TT->getDecl()->getName()))
      return C;
    TT = TT->getDecl()->getUnderlyingType()->getAs<clang::TypedefType>();
  }
  return std::nullopt;
}

/// Whether T is MPI_Request, or an array (of arrays) of them.
inline bool requestVariableType(clang::QualType T) {
  if (const clang::ArrayType *A = T->getAsArrayTypeUnsafe())
    return requestVariableType(A->getElementType());
  return handleClassOfType(T) == HandleClass::Request;
}

/// Whether T is a pointer to MPI_Request (memory that holds requests).
inline bool requestPointerType(clang::QualType T) {
  const auto *P = T->getAs<clang::PointerType>();
  return P && handleClassOfType(P->getPointeeType()) == HandleClass::Request;
}

/// Whether T is MPI_Status, by its spelling through typedefs
/// (`typedef MPI_Status hypre_MPI_Status;`): each MPI's struct has its own
/// tag.
inline bool statusType(clang::QualType T) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *TT = T->getAs<clang::TypedefType>();
    if (!TT)
      return false;
    if (TT->getDecl()->getName() == "MPI_Status")
      return true;
    T = TT->getDecl()->getUnderlyingType();
  }
  return false;
}

/// The role of the argument Arg (one of CE's arguments, as passed) by the
/// model of the MPI function CE calls; null when CE calls no modelled
/// function or Arg is not one of its modelled arguments.
inline std::optional<Role> roleOf(const clang::CallExpr *CE, const clang::Expr *Arg) {
  const FunctionModel *M = modelOf(CE);
  for (unsigned I = 0; M && I < CE->getNumArgs() && I < M->Args.size(); ++I)
    if (CE->getArg(I) == Arg)
      return M->Args[I].R;
  return std::nullopt;
}

/// Whether D names an object behind one of the MPI's predefined handles:
/// a variable the MPI's header declares (not the file analysed) that a
/// handle's name spells. Open MPI's MPI_DOUBLE is &ompi_mpi_double, SMPI's
/// &smpi_MPI_DOUBLE, SMPI's MPI_COMM_WORLD a variable of that name; MPICH's
/// are integer constants. Only the MPI library touches such an object, so
/// the memory accesses of the program's own statements never include it.
bool isPredefinedHandleObject(const clang::DeclRefExpr *D, const clang::SourceManager &SM,
                              const clang::LangOptions &LO);

} // namespace ompi

#endif
