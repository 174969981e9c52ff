//===- ArrayValues.h - What local arrays hold when a call reads them -------===//
//
// MPI_Type_create_struct (and other calls taking arrays of block lengths,
// displacements and types) reads small local arrays that the code fills
// just before the call: an initialiser, element stores, MPI_Get_address
// into an element, differences of addresses (MPI_Aint_diff or '-'),
// counted loops of plain assignments (for (i = 0; i < n; i++) d[i] = i *
// 40; with a known trip count of at most 4096, run iteration by
// iteration). For the arrays asked for, arrayValuesAt follows the
// statements of the call's block before it, in order, and gives each
// element's value along every path the if statements there make (at most
// 16 paths). An element a statement changes in a way not followed becomes
// unknown; every element of an array does when a statement not followed
// mentions the array (another loop, a call it is passed to). Nothing is
// given when an array is not a local array declared in that block, or when
// the function keeps a pointer into it (q = &d[1]: writes through q are
// not followed).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_ARRAYVALUES_H
#define OMPI_TOOL_ANALYSIS_ARRAYVALUES_H

#include "analysis/Evaluator.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// One element's value.
struct ArrayElem {
  enum Kind {
    Unset,   ///< nothing stored before the call (an uninitialised local)
    Int,     ///< an integer constant
    Handle,  ///< a predefined handle (MPI_INT)
    Address, ///< an absolute address from MPI_Get_address
    Unknown
  } K = Unknown;
  int64_t I = 0;                        ///< Int
  std::string Name;                     ///< Handle: its spelling; Address: the expression whose address it is
  const clang::VarDecl *Root = nullptr; ///< Address: the variable (or pointer) the address is into
  bool Pointee = false;                 ///< Address: into what Root points to
  int64_t Off = 0;                      ///< Address: byte offset

  static ArrayElem of(Kind K) {
    ArrayElem E;
    E.K = K;
    return E;
  }
  static ArrayElem integer(int64_t V) {
    ArrayElem E = of(Int);
    E.I = V;
    return E;
  }
  bool operator==(const ArrayElem &O) const {
    return K == O.K && I == O.I && Name == O.Name && Root == O.Root && Pointee == O.Pointee && Off == O.Off;
  }
};

/// The arrays' contents along one path.
struct ArrayPath {
  std::vector<std::vector<ArrayElem>> Arrays; ///< in the order asked for
  std::vector<std::string> Conds;             ///< the if conditions that select the path ("!(c)" for else)
};

/// The values of Arrays (local arrays of fixed size) where the call At of
/// FD reads them, one entry per path; none when they cannot be followed.
std::optional<std::vector<ArrayPath>> arrayValuesAt(Evaluator &Ev, const clang::FunctionDecl *FD, const clang::Stmt *At,
                                                    llvm::ArrayRef<const clang::VarDecl *> Arrays);

} // namespace ompi

#endif
