//===- OwnedMemory.h - Pointers that alone reach the memory they point to -===//
//
// Memory read through a pointer may differ between ranks: any code that
// holds the address may have written it. Most heap arrays of real codes are
// reached through one variable, though (`double *grid_sum = malloc(...)`),
// and then every write of the memory is visible where that variable is
// used. This analysis finds such *owning* pointers and every store through
// them, so that Uniformity can judge the memory like a variable: the same on
// every rank when every store puts the same value at the same index at a
// point every rank reaches alike.
//
// A pointer variable (a local, a static or a global; not a parameter,
// whose value a caller chose) owns its memory when
//  - it points to arithmetic data (int, double, ...; void for an allocator
//    that returns it), to MPI_Status (the statuses a wait writes, whose
//    fields are read as an element is: `st[i].MPI_SOURCE`; a wait's write
//    of them is a store of what differs between ranks), or to a struct of
//    such data (arithmetic fields, arrays of them, such structs; no
//    pointer, no bit-field, no union): a field of an element, `p[i].f`,
//    `p[i].a[k]`, `p->f`, is used as the element is (a store into it is a
//    store into element i; the indices within, k, are kept with it),
//  - every value it is given is a fresh object: malloc, calloc,
//    aligned_alloc, posix_memalign(&p, ...), realloc of its own value, a
//    function that returns one (below), or a null pointer;
//  - its value is only indexed or dereferenced (`p[i]`, `*p`, `*(p + i)`),
//    tested (`if (p)`, `p == NULL`), freed (by free, or by a function of
//    this file that only passes its parameter to free), passed (itself,
//    `&p[i]` or `p + i`) to an MPI call as a buffer, or to memset, memcpy
//    or memmove; never copied, returned (but
//    see below), passed to another function, exposed in a window, nor its
//    address or an element's address kept, except in a read alias below.
//
// A read alias of an owner p is a local pointer variable q of the same
// function whose every value is `&p[i]`, `p + i` or a null pointer, and
// through which nothing is stored (`op = &objects[o]; ... op->size[0]`):
// its uses are those of an owner (read, tested, given to an MPI call that
// reads), none of which writes. A read through q reads p's memory at the
// index q was given.
//
// A function returns a fresh object when every return statement returns a
// null pointer, a fresh allocation, or a local that owns its memory, through
// which nothing is stored and which escapes only by the return
// (`void *p = malloc(n); if (!p) exit(1); return p;`).
//
// Memory that a rank reads before any store is not initialised: a program
// that branches on it is wrong on every MPI, and the analysis does not look
// for that.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_OWNEDMEMORY_H
#define OMPI_TOOL_ANALYSIS_OWNEDMEMORY_H

#include "clang/AST/ASTContext.h"
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompi {

/// A store into owned memory.
struct OwnedStore {
  const clang::Stmt *At = nullptr;         ///< the assignment, increment or call
  const clang::Expr *Index = nullptr;      ///< the element's index (p[i], *(p + i)), or null
  const clang::Expr *Value = nullptr;      ///< the value stored (memset's byte), or null
  const clang::CallExpr *Mpi = nullptr;    ///< an MPI call that gives every rank the same data
  const clang::FunctionDecl *F = nullptr;  ///< the function of the store
  std::string Fixed;                       ///< why it differs between ranks whatever the values
  std::vector<const clang::Expr *> Within; ///< indices within the element (p[i].a[k]: k)
};

/// A read alias of an owner (above): where it is given `&Owner[i]` or
/// `Owner + i`.
struct OwnedAlias {
  const clang::VarDecl *Owner = nullptr;
  struct Set {
    const clang::Stmt *At;
    const clang::Expr *Index; ///< i
    const clang::FunctionDecl *F;
  };
  std::vector<Set> Sets;
};

/// What a pointer variable's uses say about the memory it points to.
struct OwnedPointer {
  const clang::VarDecl *Var = nullptr;
  std::optional<std::string> Escapes;  ///< why other code may reach the memory
  std::optional<std::string> Returned; ///< where a return hands the memory to a caller
  std::vector<OwnedStore> Stores;
  /// Where the pointer is given a value (a fresh object or null, or it
  /// escapes), the value, and in which function.
  struct Set {
    const clang::Stmt *At;
    const clang::Expr *Value;
    const clang::FunctionDecl *F;
  };
  std::vector<Set> Sets;
  /// Why the memory may differ between ranks whatever the stored values
  /// (it escapes or is returned), or nullopt.
  std::optional<std::string> reach() const { return Escapes ? Escapes : Returned; }
};

class OwnedMemory {
public:
  /// Whether a function the file does not define returns a fresh object
  /// (ProgramFacts' answer).
  using FreshElsewhere = std::function<bool(const clang::FunctionDecl *)>;
  /// Whether a function the file does not define only frees its parameter
  /// ArgNo (ProgramFacts' answer).
  using FreesElsewhere = std::function<bool(const clang::FunctionDecl *, unsigned ArgNo)>;
  OwnedMemory(clang::ASTContext &Ctx, FreshElsewhere Fresh, FreesElsewhere Frees = nullptr);

  /// The uses of pointer variable V (any declaration of it); null when V is
  /// not a pointer to arithmetic data or void (or is a parameter).
  const OwnedPointer *find(const clang::VarDecl *V);
  /// Every pointer variable the file uses that may own its memory.
  std::vector<const OwnedPointer *> all();
  /// The read alias V is (above), or null.
  const OwnedAlias *alias(const clang::VarDecl *V);
  /// Whether F, defined in this file, returns a fresh object on every return.
  bool returnsFresh(const clang::FunctionDecl *F);
  /// Whether E (through casts) is a fresh object (an allocation, or a call of
  /// a function that returns one) or a null pointer.
  bool freshObject(const clang::Expr *E) { return freshValue(E, nullptr); }
  /// Whether the call CE only frees its argument ArgNo: free, or a function
  /// (of this file, or of another by the program's facts) whose every use of
  /// that parameter is free's argument or a test of it.
  bool freesArg(const clang::CallExpr *CE, unsigned ArgNo);

private:
  clang::ASTContext &Ctx;
  FreshElsewhere Fresh;
  FreesElsewhere Frees;
  bool Collected = false;
  std::map<const clang::VarDecl *, OwnedPointer> Pointers;
  /// Candidate read aliases (an owner's element address kept in a local
  /// pointer), checked once every use is known; then the valid ones.
  std::map<const clang::VarDecl *, OwnedAlias> Pending, Aliases;
  std::map<const clang::VarDecl *, std::set<const clang::VarDecl *>> PendingOwners;
  void checkAliases();
  std::map<const clang::FunctionDecl *, bool> FreshMemo;
  std::set<const clang::FunctionDecl *> FreshBusy;

  void collect();
  bool freshValue(const clang::Expr *E, const clang::VarDecl *Self);
  friend class OwnedUses;
};

/// Whether F, defined in this file, only frees its parameter ArgNo: every
/// use of it is the argument of free or a test (`if (p) free(p);`, a wrapper
/// such as the PRK's `prk_free(p) { free(p); }`), so the memory passed goes
/// nowhere else.
bool freesOnly(const clang::FunctionDecl *F, unsigned ArgNo);

/// Whether V's type makes it a candidate owner (a non-parameter pointer to
/// arithmetic data, void, MPI_Status or a struct of arithmetic data).
bool ownerCandidate(const clang::VarDecl *V);

} // namespace ompi

#endif
