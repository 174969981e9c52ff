//===- Rewrite.h - What the rewrites share --------------------------------===//
//
// Fresh names for what a rewrite declares: a name the program already uses
// (even one in the reserved mpiopt_ prefix) is never reused, so inserted
// declarations never shadow or clash with the program's own.
//
// Blocks around loops, for what a rewrite keeps through a loop (a plan, a
// persistent request): declared in a block opened just before the loop,
// released after the loop and before each return inside it:
//
//   { mpiopt_plan mpiopt_plan1_p = 0; for (...) {
//       ...
//   } mpiopt_plan_free(&mpiopt_plan1_p); }
//
// Nothing inserted spans a line, so every line keeps its number.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_TRANSFORMS_REWRITE_H
#define OMPI_TOOL_TRANSFORMS_REWRITE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ompi {

class FreshNames {
public:
  explicit FreshNames(clang::ASTContext &Ctx);
  /// The next prefix Base<N> (N = 1, 2, ...) such that no identifier of the
  /// file is Base<N> or starts with Base<N>_: the caller appends "_what".
  std::string next(llvm::StringRef Base);

private:
  std::set<std::string> Used; ///< the file's identifiers that start with mpiopt_
  std::map<std::string, unsigned> Last;
};

/// The blocks one rewrite opens around loops.
class LoopBlocks {
public:
  LoopBlocks(clang::ASTContext &Ctx, const clang::tooling::Replacements &Out) : Ctx(Ctx), Out(Out) {}
  /// Whether no other transformation already changes the code where the
  /// block around Loop would begin or end (or the loop's body get braces),
  /// or at one of Returns.
  bool writable(const clang::Stmt *Loop, llvm::ArrayRef<const clang::ReturnStmt *> Returns) const;
  /// Declare Decl ("mpiopt_plan a = 0") in the block around Loop and run
  /// Release ("mpiopt_plan_free(&a); ") after the loop and before each of
  /// Returns (returns inside it). Several of one loop share its block.
  void add(const clang::Stmt *Loop, llvm::StringRef Decl, llvm::StringRef Release,
           llvm::ArrayRef<const clang::ReturnStmt *> Returns);
  /// Add the blocks' text to Into.
  llvm::Error write(clang::tooling::Replacements &Into) const;

private:
  clang::ASTContext &Ctx;
  const clang::tooling::Replacements &Out;
  struct Block {
    std::vector<std::string> Decls;
    std::string Release;
  };
  std::map<const clang::Stmt *, Block> Loops;
  std::map<const clang::ReturnStmt *, std::string> Returns;
  unsigned offset(clang::SourceLocation L) const;
};

/// Whether a replacement of Out already changes the file at Off (an
/// insertion there included).
bool changedAt(const clang::tooling::Replacements &Out, unsigned Off);

} // namespace ompi

#endif
