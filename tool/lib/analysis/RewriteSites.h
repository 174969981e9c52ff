//===- RewriteSites.h - Where a rewrite can be written --------------------===//
//
// What the transformations that rename a call or wrap a loop in a block
// must know about the code around it, as plain answers: why a call cannot
// be renamed where it is written (macros), and why a block opened before a
// loop (a plan or a persistent request declared there, released after the
// loop and before each return in it) could not hold: jumps into or out of
// the loop, returns written through macros, MPI_Finalize run inside it.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_REWRITESITES_H
#define OMPI_TOOL_ANALYSIS_REWRITESITES_H

#include "analysis/CallAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// Why Call cannot be renamed where it is written, or "". A call written as
/// a macro's argument (CHECK(MPI_Alltoallv(...)), the return code still
/// going to the macro) is renamed in the argument's text, if the macro
/// expands that argument once (a second expansion is a second call at the
/// same text); a call in a macro's body has no text of its own to rename.
std::string macroProblem(const clang::ASTContext &Ctx, const clang::CallExpr *Call, const FileResult &Calls);

/// The loop what a rewrite keeps for a call (a plan, a persistent request)
/// can live in: the outermost loop around the call in its function, Level
/// its index in the call's Loops (innermost first), such that Changes finds
/// nothing that may change between iterations of it or of any loop inside
/// it. Null (Level -1) when the innermost loop already has a change, with
/// Why: "in the loop at line L, " and that change.
struct LoopLifetime {
  const clang::Stmt *Loop = nullptr;
  unsigned Line = 0;
  int Level = -1;
  std::string Why;
};
LoopLifetime loopLifetime(const CallResult &C,
                          llvm::function_ref<std::optional<std::string>(const CallResult &, const LoopFact &)> Changes);

/// Why a block wrapped around Loop could not hold what a rewrite declares
/// for Call: code that jumps into the loop past the declaration (a label in
/// it, a case of a switch around it), out of it past the release (a goto),
/// a return the release cannot precede, or MPI_Finalize called in the loop
/// (directly or through the file's functions), after which the release
/// could not run. Returns collects the loop's returns.
std::optional<std::string> wrapBlocker(clang::ASTContext &Ctx, const clang::Stmt *Loop, const clang::CallExpr *Call,
                                       std::vector<const clang::ReturnStmt *> &Returns);

} // namespace ompi

#endif
