//===- Lint.h - Rendering the findings of ompi-opt --check ----------------===//
//
// writeDiagnostics prints findings as clang does (file:line:col: LEVEL:
// message [ompi-<check>], the source line, a caret, the fix-it text under
// it, then a note: line per related location), LEVEL being each finding's
// (remark, warning or error); writeSarif writes SARIF 2.1.0 for
// code-scanning services (one run, one rule per check, one result per
// finding at its level, related locations, fixes where mechanical; URIs
// relative to %SRCROOT%, the current directory, where the file is under it;
// an invocation per source that could not be processed; helpUri per rule).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_LINT_H
#define OMPI_TOOL_LINT_H

#include "checks/Checks.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace ompi {

/// One file's findings and the text they point into.
struct LintFile {
  llvm::StringRef Original;
  llvm::ArrayRef<Finding> Findings;
};

/// A source that could not be processed: the first error about it.
struct LintFailure {
  std::string Path, Message;
  std::string ErrorFile; ///< where the error is ("" when it has no location)
  unsigned Line = 0, Column = 0;
};

/// A file URI of the absolute path Path (percent-encoded).
std::string fileUri(llvm::StringRef Path);

/// Returns the number of findings printed. When there are findings, the
/// last line says how to read a check's page (--explain).
unsigned writeDiagnostics(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files);

/// The SARIF log; always valid, findings or not. Each source in Failures
/// gets an invocation with executionSuccessful false and its error as a
/// notification (else one invocation says the run succeeded). DocsBase,
/// when not empty, is the URI each rule's helpUri is DocsBase/<check>.md of.
void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<LintFile> Files, llvm::StringRef Version,
                llvm::ArrayRef<LintFailure> Failures = {}, llvm::StringRef DocsBase = "");

} // namespace ompi

#endif
