//===- DerivedTypes.h - Datatype variables whose shape is known ------------===//
//
// A variable of type MPI_Datatype has a known shape when every construction
// of it in the file (MPI_Type_contiguous, MPI_Type_vector,
// MPI_Type_create_hvector into &v) builds the same shape from static
// arguments over a predefined datatype of one C type, and nothing else
// writes it: its address goes only to those constructors, MPI_Type_commit
// and MPI_Type_free; it is never assigned or initialised; it is a local or
// a static global of the main file. Then wherever the program may legally
// pass it to a communication call (after a construction and a commit,
// before a free), it is that shape: templates can pack and unpack it with a
// compiled loop.
//
// Vectors must have positive strides of at least the block length (no
// overlap, lower bound 0); the extent of one element is then
// (count - 1) * stride + blocklength elements.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_DERIVEDTYPES_H
#define OMPI_TOOL_ANALYSIS_DERIVEDTYPES_H

#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ompi {

/// One element of a compiled datatype: NBlocks blocks of BlockLength
/// elements of Base, block starts StrideBytes apart, successive elements
/// ExtentBytes apart.
struct TypeShape {
  int64_t NBlocks = 0, BlockLength = 0, StrideBytes = 0, ExtentBytes = 0;
  std::string Base; ///< the predefined datatype ("MPI_DOUBLE")
  int64_t ElemBytes = 0;
  std::string Built; ///< the construction as written, canonical ("MPI_Type_vector(256, 1, 512, MPI_DOUBLE)")
  int64_t sizeBytes() const { return NBlocks * BlockLength * ElemBytes; }
  bool operator==(const TypeShape &O) const {
    return NBlocks == O.NBlocks && BlockLength == O.BlockLength && StrideBytes == O.StrideBytes &&
           ExtentBytes == O.ExtentBytes && Base == O.Base;
  }
};

/// What is known of one datatype variable.
struct DatatypeVar {
  std::string Name; ///< the variable's
  std::optional<TypeShape> Shape;
  std::string Why;        ///< why the shape is not known ("" when it is)
  unsigned BuiltLine = 0; ///< the first construction
};

class DerivedTypes {
public:
  DerivedTypes(clang::ASTContext &Ctx, Evaluator &Ev);
  /// The variable a datatype argument names, or null when it names none
  /// (a predefined handle, an array element, an expression).
  const DatatypeVar *of(const clang::Expr *DatatypeArg) const;

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  std::map<const clang::VarDecl *, DatatypeVar> Vars;
  void collect();
  void use(const clang::DeclRefExpr *R, const clang::FunctionDecl *FD);
  std::optional<TypeShape> construction(const clang::CallExpr *CE, const TypeConstructorModel &M,
                                        const clang::FunctionDecl *FD, std::string &Why);
  void taint(const clang::VarDecl *V, std::string Why);
};

/// Whether T is the MPI_Datatype type, by its typedef's spelling.
bool isDatatypeType(clang::QualType T);

} // namespace ompi

#endif
