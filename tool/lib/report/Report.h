//===- Report.h - Text and JSON reports of the analysis --------------------===//
#ifndef OMPI_TOOL_REPORT_H
#define OMPI_TOOL_REPORT_H

#include "analysis/CallAnalysis.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
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

/// "declined", "fused", "deferred", "force-point", "template", "planned".
llvm::StringRef noteKindName(NoteKind K);

/// Read the JSON reports (--report=json: one document, or an array of
/// them) in Paths back into what writeSummary needs (the calls' places,
/// functions and callers; the changes); an error message naming the file
/// that cannot be read.
std::optional<std::string> readJSONReports(const std::vector<std::string> &Paths, std::vector<FileResult> &Files);

/// The whole program's reach (--summary): its communication call sites by
/// what happened to them (changed, by transformation; declined, by reason;
/// not considered, by function), with counts and the first sites of each.
void writeSummary(llvm::raw_ostream &OS, const std::vector<FileResult> &Files, unsigned Failed = 0);

/// The class of a declined candidate's reason, for grouping: the reason's
/// first clause, without what is in parentheses, numbers as N and the
/// call's enclosing function as "the function" ("only some ranks may run
/// it").
std::string reasonClass(const std::string &Why, const CallResult *C);

} // namespace ompi

#endif
