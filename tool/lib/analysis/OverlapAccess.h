//===- OverlapAccess.h - Where buffers and accesses lie, for reordering ---===//
//
// The memory questions of the communication-overlap transformation
// (OverlapPlan.h): where an MPI buffer lies, which memory a statement reads
// and writes, and whether the two may meet. Three kinds of place:
//  - a named variable (x, a[i], s.f, &a[k] as a buffer): its own storage;
//  - the memory of a pointer variable that owns it (OwnedMemory.h: only
//    ever given fresh objects, never copied, its address never kept), a
//    local or a static of this file: no other expression reaches it;
//  - anywhere else (a pointer that may have been copied, a parameter, a
//    call's result): any such access may meet any such buffer, and any
//    named variable whose address the program keeps or that is global.
// A named variable's address is kept when it is used other than by value,
// as a subscript's base, or as an argument of an MPI call (sizeof aside).
//
// A statement that may be run in another order relative to an MPI call is
// local: it calls only library functions that touch nothing but their
// arguments' values (sqrt, fabs, ...), does not leave itself (return, goto,
// a break or continue of a loop around it), holds no label or case of a
// switch around it, no asm, no OpenMP directive, and touches nothing
// volatile or atomic.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_OVERLAPACCESS_H
#define OMPI_TOOL_ANALYSIS_OVERLAPACCESS_H

#include "analysis/OwnedMemory.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// Where a buffer or an access lies.
struct Place {
  enum Kind { Named, Owned, Anywhere } K = Anywhere;
  const clang::VarDecl *Var = nullptr; ///< the variable, the owning pointer, or the pointer (may be null)
};

/// One read or write of memory in a statement.
struct Access {
  Place At;
  bool Write = false;
  const clang::Expr *E = nullptr;
};

struct AccessFinder;

class OverlapMemory {
public:
  OverlapMemory(clang::ASTContext &Ctx, OwnedMemory &Owned) : Ctx(Ctx), Owned(Owned) {}

  /// Where the memory a pointer expression (an MPI buffer argument) points
  /// to lies.
  Place pointee(const clang::Expr *Pointer);
  /// Every read and write of memory in S (variables by name, and through
  /// pointers).
  std::vector<Access> accesses(const clang::Stmt *S);
  /// Whether access A may touch the memory of buffer B, in F.
  bool mayMeet(const Access &A, const Place &B, const clang::FunctionDecl *F);
  /// Why S is not local (see above), or nullopt; calls Allowed accepts
  /// count as local too (their effects are the caller's to judge).
  std::optional<std::string> notLocal(const clang::Stmt *S,
                                      llvm::function_ref<bool(const clang::CallExpr *)> Allowed = nullptr);
  /// Whether the program may hold V's address in a pointer (V is global,
  /// static, or its address is used other than by an MPI call or a
  /// subscript in F).
  bool reachable(const clang::VarDecl *V, const clang::FunctionDecl *F);
  /// The text of an access's place, for reports.
  static std::string describe(const Place &P);

private:
  clang::ASTContext &Ctx;
  OwnedMemory &Owned;
  std::map<const clang::VarDecl *, bool> ReachMemo;

  Place lvaluePlace(const clang::Expr *E);
  bool owns(const clang::VarDecl *P);
  bool writes(const clang::Expr *E);
  bool addressKept(const clang::DeclRefExpr *D);

  friend struct AccessFinder;
};

} // namespace ompi

#endif
