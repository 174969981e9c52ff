//===- SourceText.h - Where rewritten text goes ---------------------------===//
//
// The one set of helpers for placing inserted text: the indentation of a
// line, whether a statement starts its line, and the end of a statement
// (after its ';' or '}'), so every rewrite indents and inserts alike.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_SUPPORT_SOURCETEXT_H
#define OMPI_TOOL_SUPPORT_SOURCETEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include <string>

namespace ompi {

/// E as written in the file; "" when part of it is in a macro's body (a
/// macro that is all of E, such as MPI_DOUBLE, reads as itself).
std::string fileText(const clang::SourceManager &SM, const clang::LangOptions &LO, const clang::Expr *E);
/// The same in Ctx's main source; "" for no expression (E null).
std::string fileText(clang::ASTContext &Ctx, const clang::Expr *E);

/// The blank characters that begin the line holding L (its expansion).
std::string lineIndent(const clang::SourceManager &SM, clang::SourceLocation L);

/// The text between the start of L's line and L when it is all blank (the
/// statement at L starts its line), else "".
std::string blankBefore(const clang::SourceManager &SM, clang::SourceLocation L);

/// Just after statement S: after its ';', or after the '}' of the body
/// that ends it; invalid when the ';' cannot be found.
clang::SourceLocation stmtEnd(clang::ASTContext &Ctx, const clang::Stmt *S);

/// Whether statement B follows statement A with nothing but blanks between
/// them (no comment, no other code), in one file.
bool onlyBlanksBetween(clang::ASTContext &Ctx, const clang::Stmt *A, const clang::Stmt *B);

/// The first argument of CE that a rewrite joining calls cannot move or
/// write again: one with side effects, or one with no text of its own in
/// the file (written in a macro's body); null when there is none.
const clang::Expr *unmovableArgument(clang::ASTContext &Ctx, const clang::CallExpr *CE);

/// The start of the line after the main file's #include through which the
/// file holding L was included (directly, or through other headers), with
/// that line's number: where code that needs the header can go. Invalid
/// when L is not in an included file, or when the directive's line goes on
/// (a trailing backslash, or a comment it opens).
std::pair<clang::SourceLocation, unsigned> afterIncludeOf(const clang::SourceManager &SM, clang::SourceLocation L);

} // namespace ompi

#endif
