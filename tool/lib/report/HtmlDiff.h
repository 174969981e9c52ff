//===- HtmlDiff.h - Compiler-explorer-style side-by-side diff pages -------===//
//
// One self-contained HTML page per source (inline CSS and JS, no network):
// the original and the transformed text side by side in one table, so that
// changed blocks stay aligned, with line numbers, C syntax highlighting and,
// under each changed block, its notes (what was done, why it is safe, what
// it saves). A summary panel gives the MPI calls before and after by
// function, the collectives per iteration of every loop that holds one, and
// the templates chosen. writeHtmlIndex writes the project page linking every
// file page of a directory.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_HTMLDIFF_H
#define OMPI_TOOL_HTMLDIFF_H

#include "analysis/CallAnalysis.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace ompi {

/// One file's page, and the summary the project index lists for it.
struct HtmlPage {
  std::string Html;
  std::string Summary; ///< JSON: path, blocks, changes, mpi_calls_before, mpi_calls_after
};

/// The page comparing Old (the source at Path) with New.
HtmlPage renderHtmlDiff(llvm::StringRef Path, llvm::StringRef Old, llvm::StringRef New, const FileResult &Analysis);

/// The file name of Path's page in a report directory ("dir/a.c" ->
/// "dir_a.c.html").
std::string htmlPageName(llvm::StringRef Path);

/// Write Dir/index.html listing every page in Dir, from the summaries
/// written beside them as PAGE.html.json (pages from earlier runs included:
/// ompi-cc writes one page per compile).
bool writeHtmlIndex(llvm::StringRef Dir, std::string &Error);

} // namespace ompi

#endif
