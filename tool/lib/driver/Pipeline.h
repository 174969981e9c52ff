//===- Pipeline.h - Parse, analyse, transform one or more sources ----------===//
#ifndef OMPI_TOOL_PIPELINE_H
#define OMPI_TOOL_PIPELINE_H

#include "analysis/CallAnalysis.h"
#include "analysis/ProgramFacts.h"
#include "checks/Checks.h"
#include "support/FileOutput.h"
#include "transforms/Transforms.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace ompi {

struct PipelineOptions {
  EvalOptions Eval;
  /// Extra compiler arguments appended to every command (resource dir,
  /// default MPI include directory, warning suppression).
  std::vector<std::string> ExtraArgs;
  /// Print the target's size of every predefined datatype instead of running
  /// transformations (a check of the model against a real MPI).
  bool ListDatatypes = false;
  /// The transformations to run (names from the registry); empty: all.
  std::vector<std::string> Transforms;
  /// Run the lint checks (--check), these ones (empty: all).
  bool RunChecks = false;
  /// Keep every original line's number in the transformed text (#line after
  /// inserted lines): for code compiled in place of the original (ompi-cc).
  bool LineDirectives = false;
  /// The machine profile (a file, checked by the driver) or, when empty, the
  /// one of the MPI the source is compiled with in ProfileDir, if there is
  /// one; "none": no profile.
  std::string Profile;
  std::string ProfileDir;
  /// --reassociate: transformations may reorder floating-point sums.
  bool Reassociate = false;
  /// An HTML page will be written: record each function's lines and the
  /// loops that run it (FileResult::Functions).
  bool FunctionSpans = false; /// Record what each file tells the others (FileOutcome::Facts).
  bool CollectFacts = false;
  /// Only that: no transformation, no check, nothing rewritten (the rounds
  /// of the whole-program facts).
  bool FactsOnly = false;
};

struct FileOutcome {
  std::string Path; ///< the source as given
  FileResult Analysis;
  std::string Original;                                   ///< the source text as parsed
  std::string Transformed;                                ///< the source text after every transformation
  std::vector<std::pair<std::string, int64_t>> Datatypes; ///< --list-datatypes
  std::vector<Finding> Findings;                          ///< --check
  std::vector<P2PEnd> Receives;                           ///< --check: the receiving ends (whole-program checks)
  std::string Profile;                                    ///< the machine profile used, if any
  ProgramFacts Facts;                                     ///< CollectFacts: what this file tells the others
  /// Calls of forwarding wrappers that the changes wrote as their MPI calls
  /// (analysis/Wrappers.h; the others stay as written).
  unsigned WrapperCallsInlined = 0;
};

/// A source that could not be processed, and the first error about it.
struct FileFailure {
  std::string Path;      ///< the source as given
  std::string Message;   ///< clang's first error (or ompi-opt's), without location
  std::string ErrorFile; ///< where that error is ("" when it has no location)
  unsigned Line = 0, Column = 0;
};

/// Run the pipeline over Sources. Returns false if any source could not be
/// parsed or transformed (clang's diagnostics are printed to stderr);
/// Outcomes then holds only the files that succeeded, and Failures (when
/// given) one entry per source that did not, in the order of Sources.
bool runPipeline(const clang::tooling::CompilationDatabase &DB, const std::vector<std::string> &Sources,
                 const PipelineOptions &Opts, std::vector<FileOutcome> &Outcomes,
                 std::vector<FileFailure> *Failures = nullptr);

} // namespace ompi

#endif
