//===- LoopInvariance.h - What stays the same in every iteration ----------===//
//
// Whether an MPI call's argument reads the same in every iteration of a loop
// around the call, and whether an object's contents may change during one:
// the facts persistent requests, planned collectives and hoisted templates
// need. Conservative: a value read through a pointer, a call in the
// expression, or a write the analysis cannot place varies.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_LOOPINVARIANCE_H
#define OMPI_TOOL_ANALYSIS_LOOPINVARIANCE_H

#include "analysis/Effects.h"
#include "analysis/Evaluator.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompi {

/// A loop from which a function is called: the loop, its function, and the
/// call in that loop that leads to the function (directly, or through
/// functions called outside any loop of theirs).
struct CallerLoop {
  const clang::Stmt *Loop = nullptr;
  const clang::FunctionDecl *Caller = nullptr;
  const clang::CallExpr *Call = nullptr;
  std::vector<std::string> Through; ///< the functions between, outermost first
};

/// The calls of a file, indexed once, to find the loops a function is
/// called from.
class CallerLoops {
public:
  explicit CallerLoops(clang::ASTContext &Ctx);
  ~CallerLoops();
  /// The loops of the file from which F is called, in source order,
  /// through at most Depth calls.
  std::vector<CallerLoop> of(const clang::FunctionDecl *F, unsigned Depth = 3);

private:
  clang::ASTContext &Ctx;
  struct Index;
  std::unique_ptr<Index> Sites;
};

class LoopInvariance {
public:
  LoopInvariance(clang::ASTContext &Ctx, Evaluator &Ev) : Ctx(Ctx), Ev(Ev), Eff(Ctx) {}

  /// Why the value of E (an expression of F inside Loop) may differ between
  /// iterations of Loop; nullopt when it cannot.
  std::optional<std::string> varies(const clang::Expr *E, const clang::Stmt *Loop, const clang::FunctionDecl *F);
  /// Why the contents of V may change while Loop (of F) runs: a write to
  /// it, a call that may write it, a write through a pointer when its
  /// address is taken; nullopt when they cannot.
  std::optional<std::string> written(const clang::VarDecl *V, const clang::Stmt *Loop, const clang::FunctionDecl *F);
  /// Why the array an argument E points to (an array variable, &a[k], or a
  /// pointer variable) may change while Loop (of F) runs; nullopt when it
  /// cannot. A pointer counts only when it holds fresh memory no other name
  /// reaches: every definition is malloc, calloc or realloc, and it is only
  /// subscripted, dereferenced, compared, freed or given to MPI calls; then
  /// only writes through that pointer can change the array.
  std::optional<std::string> contentsWritten(const clang::Expr *E, const clang::Stmt *Loop,
                                             const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  Effects Eff;
  std::set<const clang::FunctionDecl *> Busy; ///< callees being searched (recursion)

  bool inside(clang::SourceLocation L, const clang::Stmt *Loop) const;
  unsigned line(const clang::Stmt *S) const;
  std::optional<std::string> variesVar(const clang::VarDecl *V, const clang::Expr *Ref, const clang::Stmt *Loop,
                                       const clang::FunctionDecl *F);
  std::optional<std::string> writesIn(const clang::Stmt *Body, const clang::VarDecl *V, bool AddressTaken);
  std::optional<std::string> callWrites(const clang::CallExpr *CE, const clang::VarDecl *V, bool AddressTaken);
  std::optional<std::string> pointeeWritten(const clang::VarDecl *P, const clang::Stmt *Loop,
                                            const clang::FunctionDecl *F);
  std::optional<std::string> uniquePointer(const clang::VarDecl *P, const clang::FunctionDecl *F);
};

} // namespace ompi

#endif
