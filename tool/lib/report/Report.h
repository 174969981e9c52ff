//===- Report.h - Text and JSON reports of the analysis --------------------===//
#ifndef OMPI_TOOL_REPORT_H
#define OMPI_TOOL_REPORT_H

#include "analysis/CallAnalysis.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace ompi {

/// One line per MPI call:
///   file:line:col: MPI_Send(buf=static(&x), count=dynamic(n; why), ...)
///   CommNode=... CommSize=... Buffer=... Tag=...
/// One line per call (file:line:col: function: how many arguments of each
/// class, and what the rank-relative and dynamic ones are, that part cut at
/// 120 columns), then one line per change and declined candidate; Long: every
/// argument of every call with its class and value (--report=long).
void writeTextReport(llvm::raw_ostream &OS, const std::vector<FileResult> &Files, bool Long = false);

/// The same as JSON; the schema is documented in README.md.
void writeJSONReport(llvm::raw_ostream &OS, const std::vector<FileResult> &Files);

} // namespace ompi

#endif
