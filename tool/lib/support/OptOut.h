//===- OptOut.h - Per-call opt-outs written in comments -------------------===//
//
// A call keeps its text for every transformation when a comment on one of
// its lines says "ompi: off" (// ompi: off), and for the transformations a
// comment names with OMPI-NOOPT, as NOLINT names checks
// (// OMPI-NOOPT(persistent-requests, sendrecv-pairing); bare OMPI-NOOPT:
// all). The comments are read with the raw lexer over the main file, so a
// string that holds the words is not one.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_SUPPORT_OPTOUT_H
#define OMPI_TOOL_SUPPORT_OPTOUT_H

#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ompi {

/// The opt-out comments of one line.
struct OptOutMark {
  unsigned Line = 0;
  bool All = false;               ///< "ompi: off", or a bare OMPI-NOOPT
  std::vector<std::string> Names; ///< the transformations OMPI-NOOPT(...) names
  std::string Spelling;           ///< as written: "// ompi: off", "// OMPI-NOOPT(a, b)"
  bool covers(llvm::StringRef Transform) const;
};

/// Every opt-out comment of a main file, by line.
class OptOuts {
public:
  static OptOuts read(const clang::SourceManager &SM, const clang::LangOptions &LO);
  bool empty() const { return Marks.empty(); }
  const std::map<unsigned, OptOutMark> &marks() const { return Marks; }
  /// The mark on one of Call's lines that keeps it as written for Transform
  /// ("" for any transformation), or null.
  const OptOutMark *find(const clang::SourceManager &SM, const clang::CallExpr *Call, llvm::StringRef Transform) const;
  /// The first and last line of the main file where Call is written (0, 0
  /// when it is not in the main file).
  static std::pair<unsigned, unsigned> callLines(const clang::SourceManager &SM, const clang::CallExpr *Call);

private:
  std::map<unsigned, OptOutMark> Marks;
};

} // namespace ompi

#endif
