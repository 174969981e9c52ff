//===- Effects.h - What code may touch: calls, globals, addresses ---------===//
//
// The effects analyses the transformations and checks share: whether a
// function communicates, whether it may touch a global, whether a
// variable's address escapes where the tool cannot follow it. Conservative
// wherever code is not in this file.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_EFFECTS_H
#define OMPI_TOOL_ANALYSIS_EFFECTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <map>
#include <optional>

namespace ompi {

class Effects {
public:
  explicit Effects(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// A C library function that touches no memory but its arguments' values
  /// (sqrt, fabs, ...).
  static bool isPureLibraryFunction(llvm::StringRef Name);
  /// A C library function (pure, or declared in a system header): it neither
  /// communicates nor names the program's variables (it may write what its
  /// arguments point to).
  static bool isLibrary(const clang::FunctionDecl *F);
  /// Whether F, or what it calls, makes an MPI call (or might: unknown code).
  bool callsMPI(const clang::FunctionDecl *F);
  /// Whether F (or what it calls) may read or write the global V.
  bool touchesGlobal(const clang::FunctionDecl *F, const clang::VarDecl *V);
  /// Whether S names V or calls code that may touch it.
  bool touches(const clang::Stmt *S, const clang::VarDecl *V);
  /// The line where the address of V is stored or passed anywhere but to a
  /// blocking MPI call or a subscript (where it cannot outlive the use), if
  /// it is; F is V's function for a local.
  std::optional<unsigned> escapes(const clang::VarDecl *V, const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, bool> MPIMemo;
  std::map<const clang::FunctionDecl *, bool> Busy;
  std::map<const clang::VarDecl *, std::optional<unsigned>> EscapeMemo;

  bool harmlessUse(const clang::Expr *E);
};

} // namespace ompi

#endif
