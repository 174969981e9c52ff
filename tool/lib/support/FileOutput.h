//===- FileOutput.h - Writing files atomically, with backups ---------------===//
//
// The one way the tool writes a file: into a temporary file beside it, then
// renamed over it, so a reader (or a parallel build) never sees half a file
// and a failure leaves the old one. Backups of rewritten sources are never
// overwritten: an old backup may be the only copy of the original.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_SUPPORT_FILEOUTPUT_H
#define OMPI_TOOL_SUPPORT_FILEOUTPUT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace ompi {

/// Write Text to Path atomically ("-": standard output). On failure Error
/// says why and Path is unchanged.
bool writeFileAtomic(llvm::StringRef Path, llvm::StringRef Text, std::string &Error);

/// The same, printing "ompi-opt: error: cannot write PATH: why" on failure.
bool writeFileOrReport(llvm::StringRef Path, llvm::StringRef Text);

/// Whether writing Path with backups would overwrite an existing backup
/// (Path + Suffix); false when Suffix is empty (no backups).
bool backupExists(llvm::StringRef Path, llvm::StringRef Suffix);

/// Keep Original as Path + Suffix (unless Suffix is empty), then write Text
/// to Path; both atomically. Prints the error on failure.
bool replaceWithBackup(llvm::StringRef Path, llvm::StringRef Original, llvm::StringRef Text, llvm::StringRef Suffix);

/// A path as shown to users: relative to the current directory when it is
/// below it (as clang prints the names it was given, and as patch -p1 and
/// git apply expect), else as it is.
std::string displayPath(llvm::StringRef Path);

} // namespace ompi

#endif
