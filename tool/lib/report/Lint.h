//===- Lint.h - Rendering the findings of ompi-opt --check ----------------===//
//
// writeDiagnostics prints findings as clang does (file:line:col: LEVEL:
// message [ompi-<check>], the source line, a caret, the fix-it text under
// it, then a note: line per related location), LEVEL being each finding's
// (remark, warning or error); writeSarif writes SARIF 2.1.0 for
// code-scanning services (one run, one rule per check, one result per
// finding at its level, related locations, fixes where mechanical; URIs
// relative to %SRCROOT%, the current directory, where the file is under it).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_LINT_H
#define OMPI_TOOL_LINT_H

#include "checks/Checks.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace ompi {

/// One file's findings and the text they point into.
struct LintFile {
  llvm::StringRef Original;
  llvm::ArrayRef<Finding> Findings;
};

/// Returns the number of findings printed.
unsigned writeDiagnostics(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files);

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files, llvm::StringRef Version);

} // namespace ompi

#endif
