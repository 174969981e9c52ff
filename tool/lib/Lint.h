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

#include "Pipeline.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace ompi {

/// Returns the number of findings printed.
unsigned writeDiagnostics(llvm::raw_ostream &OS, const std::vector<FileOutcome> &Files, bool AsErrors);

void writeSarif(llvm::raw_ostream &OS, const std::vector<FileOutcome> &Files, llvm::StringRef Version,
                bool AsErrors);

} // namespace ompi

#endif
