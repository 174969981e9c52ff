//===- Diff.h - Line diffs of a source and its transformed text -----------===//
//
// computeDiff compares two texts line by line (Myers' O((N+M)D) algorithm)
// and groups the differences into hunks with context; each hunk gets the
// transformation notes whose original line falls in it. writeUnifiedDiff
// renders them as a unified diff that patch and git apply accept: the notes
// (what, why, saves) in a preamble before the file header, and the
// transformation's name and what it did after each hunk's "@@" line.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_DIFF_H
#define OMPI_TOOL_DIFF_H

#include "analysis/CallAnalysis.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace ompi {

struct DiffLine {
  char Kind;                 ///< ' ' context, '-' only in the original, '+' only in the transformed text
  llvm::StringRef Text;      ///< without its line ending
  unsigned OldLine, NewLine; ///< 1-based; 0 where the line does not exist on that side
};

struct DiffHunk {
  unsigned OldStart = 0, OldCount = 0, NewStart = 0, NewCount = 0;
  std::vector<DiffLine> Lines;
  std::vector<const ChangeNote *> Notes; ///< applied notes whose line is in the hunk
};

/// The lines of Text without their line endings ("\n" or "\r\n").
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text);

/// The hunks turning Old into New, with Context lines around each change
/// (hunks closer than 2 * Context lines merge). Notes: the file's change
/// notes; each applied one goes to the hunk containing (or nearest to) its
/// line. The DiffLines point into Old and New.
std::vector<DiffHunk> computeDiff(llvm::StringRef Old, llvm::StringRef New, const std::vector<ChangeNote> &Notes,
                                  unsigned Context = 3);

/// A unified diff of Path (a/Path -> b/Path) with the notes; nothing when the
/// texts are equal.
void writeUnifiedDiff(llvm::raw_ostream &OS, llvm::StringRef Path, llvm::StringRef Old, llvm::StringRef New,
                      const std::vector<ChangeNote> &Notes);

} // namespace ompi

#endif
