//===- Inlining.h - Calls of forwarding wrappers parsed as their MPI calls --===//
//
// The driver's half of analysis/Wrappers.h. A file with calls of
// forwarding wrappers is parsed a second time with those calls written as
// their MPI calls, so that every transformation judges them with the
// caller's facts. Only the calls a transformation then changed keep the
// inlined text; every other call is put back as it was written, so that
// a call nothing improves is not rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_DRIVER_INLINING_H
#define OMPI_TOOL_DRIVER_INLINING_H

#include "analysis/CallAnalysis.h"
#include "analysis/Wrappers.h"
#include "clang/Tooling/Core/Replacement.h"
#include <string>
#include <vector>

namespace ompi {

/// A file whose first parse found calls to inline.
struct PendingInline {
  std::string Original;           ///< the file's text
  std::vector<InlinedCall> Calls; ///< the calls written inlined, in order
  std::string Text;               ///< the file's text with them inlined
  size_t Index = 0;               ///< where its outcome goes
  PendingInline(std::string Original, std::vector<InlinedCall> Calls, size_t Index);
  /// The wrappers the file defines whose calls are inlined: the second
  /// parse does not see those calls (EvalOptions::UnseenCallers).
  std::vector<std::string> definedHere() const;
};

/// Transformed, made by Applied from P.Text, with every inlined call that
/// no replacement of Applied touched written back as it was. Returns how
/// many kept the inlined text; Kept (one flag per call) says which.
unsigned restoreUnchanged(const PendingInline &P, const clang::tooling::Replacements &Applied, std::string &Transformed,
                          std::vector<bool> &Kept);

/// Whether Applied (made from P.Text) changes the definition of a wrapper
/// of the file whose calls are inlined: the second parse, which does not
/// see those calls, must not (its decisions there are the first parse's).
bool changesWrapperBody(const PendingInline &P, const clang::tooling::Replacements &Applied);

/// The calls and notes of R in the definitions of the file's wrappers whose
/// calls are inlined, as the first parse (First), which saw every call of
/// them, found them.
void keepFirstParse(const PendingInline &P, const FileResult &First, FileResult &R);

/// Name the wrapper in the calls and notes of R at each inlined call.
void noteWrappers(const PendingInline &P, const std::vector<bool> &Kept, FileResult &R);

} // namespace ompi

#endif
