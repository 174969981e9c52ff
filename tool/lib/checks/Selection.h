//===- Selection.h - Which checks run, which are errors, NOLINT -----------===//
//
// Check lists as clang-tidy reads them: items separated by commas, each a
// name or a glob, with or without the "ompi-" prefix the diagnostics print,
// or in the group form "<kind>-<name>" (correctness-type-mismatch,
// optimisation-*); "-item" removes, "all"/"none" (or "*"/"-*") select every
// check or none; a list that starts with a removal starts from all. A plain
// name that names no check is an error; so is a list that runs no check
// (emptyRunError: "-*", "none", a glob that matches nothing), as
// clang-tidy's "no checks enabled" is.
//
// .ompi-opt (YAML, searched upwards from each source like .clang-tidy)
// gives a file's defaults: Checks and WarningsAsErrors; command-line
// options win over it.
//
// NOLINT: a finding is dropped when its line carries "NOLINT" or the line
// before carries "NOLINTNEXTLINE", either bare or with a list of checks in
// parentheses (names or globs, with or without "ompi-").
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_SELECTION_H
#define OMPI_TOOL_CHECKS_SELECTION_H

#include "checks/Checks.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// A set of checks (by registry index).
class CheckSet {
public:
  /// Parse List; Option names the option in errors ("--checks").
  static llvm::Expected<CheckSet> parse(llvm::StringRef List, llvm::StringRef Option);
  static CheckSet all();
  /// The correctness checks (what a bare --Werror makes errors).
  static CheckSet correctness();
  bool contains(llvm::StringRef Check) const;
  std::vector<std::string> names() const;
  /// Whether the set holds no check.
  bool empty() const {
    return llvm::none_of(In, [](bool B) { return B; });
  }

private:
  std::vector<bool> In;
};

/// The error of a Checks list that selects no check: Where names where the
/// list came from ("--checks", "DIR/.ompi-opt: Checks").
llvm::Error emptyRunError(llvm::StringRef List, llvm::StringRef Where);

/// Pattern (a name or glob, "ompi-" optional) matches check K.
bool matchesCheck(llvm::StringRef Pattern, const CheckInfo &K);

/// NOLINT on Line, or NOLINTNEXTLINE on Previous, covers Check.
bool suppressedByNolint(llvm::StringRef Line, llvm::StringRef Previous, llvm::StringRef Check);

/// What a .ompi-opt file says (absent keys stay empty).
struct LintConfig {
  std::string Path; ///< the file read ("" when none was found)
  std::optional<std::string> Checks, WarningsAsErrors;
  /// NProcs: "4" or "2,4", the process counts the per-rank runs judge at
  /// (as --nprocs); empty when absent.
  std::vector<int> NProcs;
};

/// A list of process counts ("2,4"), each from 1 to 64; an error naming
/// Where otherwise.
llvm::Expected<std::vector<int>> parseProcessCounts(llvm::StringRef List, llvm::StringRef Where);

/// The nearest .ompi-opt in Source's directory or above; an error when one
/// exists but cannot be read or parsed.
llvm::Expected<LintConfig> findLintConfig(llvm::StringRef Source);

} // namespace ompi

#endif
