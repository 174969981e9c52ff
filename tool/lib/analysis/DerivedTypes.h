//===- DerivedTypes.h - Datatype variables whose shape is known ------------===//
//
// A variable of type MPI_Datatype has a known shape when every construction
// of it in the file (MPI_Type_contiguous, MPI_Type_vector,
// MPI_Type_create_hvector, MPI_Type_create_subarray of up to 3 dimensions,
// MPI_Type_create_resized, MPI_Type_create_(h)indexed_block into &v)
// builds the same shape from static arguments over a predefined datatype of
// one C type, or over another variable of known shape, and nothing else
// writes it: its address goes
// only to those constructors, MPI_Type_commit and MPI_Type_free; it is never
// assigned or initialised; it is a local or a static global of the main
// file. Then wherever the program may legally pass it to a communication
// call (after a construction and a commit, before a free), it is that
// shape: templates can pack and unpack it with a compiled loop.
//
// A variable whose constructions are not static may still be recorded at
// run time (DatatypeVar::runtime()): contiguous, vector, hvector and
// resized of a predefined type or of such a variable, subarray and
// (h)indexed_block of a predefined type (the latter recorded as a strided
// shape where its displacements turn out evenly spaced, otherwise as a run
// list of up to 32 blocks).
//
// A shape is at most two levels of strided blocks from an offset (a 3-D
// subarray; a vector of a resized vector), or a run list: an
// (h)indexed_block whose blocks no stride describes, at a displacement
// each, over a type without holes (nothing is built from a run list). The
// blocks of a level must not overlap (strides of at least the block);
// groups may interleave. A resized type keeps its old type's blocks and
// gets a new extent (its lower bound moves no data: MPI places element i at
// i x extent).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_DERIVEDTYPES_H
#define OMPI_TOOL_ANALYSIS_DERIVEDTYPES_H

#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// One element of a compiled datatype: NOuter groups OuterStrideBytes
/// apart, each NBlocks blocks of BlockLength elements of Base, block starts
/// StrideBytes apart, the first block OffsetBytes into the element;
/// successive elements ExtentBytes apart. Or a run list (runList()): the
/// NBlocks blocks at DisplsBytes from the element's start, in typemap
/// order (an (h)indexed_block whose blocks no stride describes; one level,
/// no offset, StrideBytes unused).
struct TypeShape {
  int64_t OffsetBytes = 0, NOuter = 1, OuterStrideBytes = 0;
  int64_t NBlocks = 0, BlockLength = 0, StrideBytes = 0, ExtentBytes = 0;
  std::vector<int64_t> DisplsBytes; ///< a run list's block starts; empty: strided
  std::string Base;                 ///< the predefined datatype ("MPI_DOUBLE")
  int64_t ElemBytes = 0;
  std::string Built; ///< the construction as written, canonical ("MPI_Type_vector(256, 1, 512, MPI_DOUBLE)")
  /// Elements of Base in one element of the shape (its type signature's length).
  int64_t elements() const { return NOuter * NBlocks * BlockLength; }
  int64_t sizeBytes() const { return elements() * ElemBytes; }
  bool runList() const { return !DisplsBytes.empty(); }
  /// Where the last byte of one element's data ends, from the buffer.
  int64_t trueUpperBytes() const {
    if (runList())
      return *std::max_element(DisplsBytes.begin(), DisplsBytes.end()) + BlockLength * ElemBytes;
    return OffsetBytes + (NOuter - 1) * OuterStrideBytes + (NBlocks - 1) * StrideBytes + BlockLength * ElemBytes;
  }
  /// One level of strided blocks, from the buffer's start: the templates'
  /// short form.
  bool simple() const { return OffsetBytes == 0 && NOuter == 1 && !runList(); }
  /// One element is one contiguous run from the buffer's start.
  bool dense() const { return simple() && NBlocks == 1 && ExtentBytes == sizeBytes(); }
  /// The same data in the fewest levels (blocks that abut merged).
  void normalise();
  /// Whether Count consecutive elements may write a byte twice (the
  /// predicate of templates/mpiopt/dtype.h's mpiopt_dtype_may_overlap:
  /// exact for one level, conservative for two).
  bool mayOverlap(int64_t Count) const;
  bool operator==(const TypeShape &O) const {
    return OffsetBytes == O.OffsetBytes && NOuter == O.NOuter && OuterStrideBytes == O.OuterStrideBytes &&
           NBlocks == O.NBlocks && BlockLength == O.BlockLength && StrideBytes == O.StrideBytes &&
           ExtentBytes == O.ExtentBytes && Base == O.Base && DisplsBytes == O.DisplsBytes;
  }
};

/// What is known of one datatype variable.
struct DatatypeVar {
  std::string Name; ///< the variable's
  const clang::VarDecl *Decl = nullptr;
  std::optional<TypeShape> Shape;
  std::string Why; ///< why the shape is not known ("" when it is)
  /// Something other than its constructions, MPI_Type_commit and
  /// MPI_Type_free writes it (or it is initialised, a parameter, a global
  /// other files can write, declared in a header): Constructions are then
  /// not all that makes it.
  bool Written = false;
  unsigned BuiltLine = 0; ///< the first construction
  /// Run-time shapes: every construction is MPI_Type_contiguous, vector,
  /// create_hvector or create_resized of a predefined type of one C type or
  /// of another variable whose shape is recorded, or create_subarray of a
  /// predefined type, called by name outside macros, so a wrapper taking
  /// the same arguments (evaluated once, as the call evaluates them) can
  /// build the type and record its shape in a shadow beside the variable
  /// (three levels of blocks are recorded as not valid: the generic call).
  /// Why not ("" when it can; the constructions are then Constructions).
  std::string RuntimeWhy;
  std::vector<const clang::CallExpr *> Constructions;
  /// For each construction, the variable it builds from (whose shadow its
  /// wrapper reads), or null for a predefined type.
  std::vector<const clang::VarDecl *> RuntimeOlds;
  bool runtime() const { return RuntimeWhy.empty() && !Constructions.empty(); }
};

class DerivedTypes {
public:
  DerivedTypes(clang::ASTContext &Ctx, Evaluator &Ev);
  /// The variable a datatype argument names, or null when it names none
  /// (a predefined handle, an array element, an expression).
  const DatatypeVar *of(const clang::Expr *DatatypeArg) const;
  /// What is known of the variable V, or null when it is no datatype
  /// variable of the file.
  const DatatypeVar *var(const clang::VarDecl *V) const;

  /// A construction of a variable, resolved once every other variable it
  /// builds from is.
  struct Construction {
    const clang::VarDecl *V;
    const clang::CallExpr *CE;
    const TypeConstructorModel *M;
    const clang::FunctionDecl *FD;
    unsigned Line;
  };

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  std::map<const clang::VarDecl *, DatatypeVar> Vars;
  std::vector<Construction> Pending;
  void collect();
  void use(const clang::DeclRefExpr *R, const clang::FunctionDecl *FD);
  void resolve();
  void apply(const Construction &C);
  const clang::VarDecl *oldVar(const Construction &C) const;
  /// The shape C builds, or why not; NotStatic: an argument is not static
  /// (the shape may still be recorded at run time).
  std::optional<TypeShape> construction(const Construction &C, std::string &Why, bool &NotStatic);
  void taint(const clang::VarDecl *V, std::string Why, bool AlsoRuntime = true);
  void written(const clang::VarDecl *V, std::string Why) {
    Vars[V].Written = true;
    taint(V, std::move(Why));
  }
  std::string runtimeWhy(const Construction &C);
};

/// A file's DerivedTypes, made at the first use: the pipeline owns one per
/// file, which the transformations and the checks share.
class LazyDerivedTypes {
public:
  LazyDerivedTypes(clang::ASTContext &Ctx, Evaluator &Ev) : Ctx(Ctx), Ev(Ev) {}
  const DerivedTypes &get() {
    if (!DT)
      DT.emplace(Ctx, Ev);
    return *DT;
  }

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  std::optional<DerivedTypes> DT;
};

/// The integers as a C initialiser list, "{0, 24, 80}" (as the
/// constructions' arrays are shown, and as run-list tables are declared).
std::string bracedInts(const std::vector<int64_t> &V);

/// Whether T is the MPI_Datatype type, by its typedef's spelling.
bool isDatatypeType(clang::QualType T);

} // namespace ompi

#endif
