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

#include "analysis/CallAnalysis.h"
#include "support/OptOut.h"
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
  /// Declare Vars of type Type, each = Init, in the block around Loop
  /// ("mpiopt_plan a = 0, b = 0;"), and release each through Free after
  /// the loop and before each of Returns (returns inside it):
  /// "mpiopt_plan_free(&a); mpiopt_plan_free(&b); ".
  void add(const clang::Stmt *Loop, llvm::StringRef Type, llvm::ArrayRef<std::string> Vars, llvm::StringRef Init,
           llvm::StringRef Free, llvm::ArrayRef<const clang::ReturnStmt *> Returns);
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

/// While one lives (the pipeline opens one around each transformation),
/// callChanged also answers true for the calls an opt-out comment keeps as
/// written for that transformation (support/OptOut.h): to every
/// transformation they are calls another one already took, so a plan that
/// involves several calls declines the whole group.
class OptOutScope {
public:
  OptOutScope(clang::ASTContext &Ctx, const OptOuts &Opt, llvm::StringRef Transform);
  ~OptOutScope();
  OptOutScope(const OptOutScope &) = delete;
  OptOutScope &operator=(const OptOutScope &) = delete;
  /// The mark that keeps Call as written in the scope open for Ctx, or null.
  static const OptOutMark *keeps(clang::ASTContext &Ctx, const clang::CallExpr *Call);

private:
  clang::ASTContext &Ctx;
  const OptOuts &Opt;
  std::string Transform;
  OptOutScope *Outer;
};

/// Whether a replacement of Out already changes the file at Off (an
/// insertion there included).
bool changedAt(const clang::tooling::Replacements &Out, unsigned Off);
/// Whether another transformation already rewrote Call (changed its
/// callee), or an opt-out comment keeps it as written (OptOutScope).
bool callChanged(clang::ASTContext &Ctx, const clang::tooling::Replacements &Out, const clang::CallExpr *Call);

/// Rename Call where it is written (in a macro's argument, there): its
/// callee and '(' become Head ("mpiopt_send_persistent(&v, "). False when
/// no '(' follows the callee's name.
llvm::Expected<bool> renameCall(clang::ASTContext &Ctx, clang::tooling::Replacements &Out, const clang::CallExpr *Call,
                                llvm::StringRef Head);

/// The replacement of the statements from call First (where it begins) to
/// the end of call Last's statement by Text, followed by as many newlines
/// as the span held, so that the lines after it keep their numbers (the
/// joined calls of message-aggregation, broadcast-fusion and
/// sendrecv-pairing).
clang::tooling::Replacement spanReplacement(clang::ASTContext &Ctx, const clang::CallExpr *First,
                                            const clang::CallExpr *Last, llvm::StringRef Text);

/// The facts of Call in Calls (null when it has none).
const CallResult *factsOf(const FileResult &Calls, const clang::CallExpr *Call);

/// The note of a call a rewrite planned but leaves as written: Planned's
/// place, "FUNCTION What" (What alone when the call has no facts) and Why.
ChangeNote declinedNote(const ChangeNote &Planned, const FileResult &Calls, const clang::CallExpr *Call,
                        llvm::StringRef What, std::string Why);

} // namespace ompi

#endif
