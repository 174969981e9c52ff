//===- LineMap.h - Keep every original line's number in rewritten code ----===//
//
// A rewritten file is compiled instead of the original (ompi-cc), so every
// line the user wrote must keep its number: compiler warnings, __LINE__ and
// the debugger's line table must point where they point in the original.
// keepLineNumbers() rewrites each replacement so that it does: one that
// inserts no newline but replaces several lines is padded with newlines;
// one that inserts newlines gets a "#line N" after each, so the inserted
// code counts as the first line of what it replaces and the code after it
// as its own line. Replacements are our own code, inserted between statements and
// tokens, where a preprocessing directive may stand.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_SUPPORT_LINEMAP_H
#define OMPI_TOOL_SUPPORT_LINEMAP_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"

namespace ompi {

/// The replacements Reps of the text Original, rewritten to keep every
/// original line's number.
clang::tooling::Replacements keepLineNumbers(llvm::StringRef Original, const clang::tooling::Replacements &Reps);

} // namespace ompi

#endif
