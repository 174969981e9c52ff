//===- Lint.h - Rendering the findings of ompi-opt --check ----------------===//
//
// writeDiagnostics prints findings as clang does (file:line:col: warning:
// message [ompi-<check>], the source line, a caret, and the fix-it text
// under it); writeSarif writes SARIF 2.1.0 for code-scanning services (one
// run, one rule per check, one result per finding, fixes where mechanical).
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
unsigned writeDiagnostics(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files, bool AsErrors);

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files, llvm::StringRef Version, bool AsErrors);

} // namespace ompi

#endif
