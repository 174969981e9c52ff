//===- FileOutput.cpp - Writing files atomically, with backups -------------===//
#include "support/FileOutput.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

bool ompi::writeFileAtomic(StringRef Path, StringRef Text, std::string &Error) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return true;
  }
  SmallString<256> Tmp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(Path + ".ompi-tmp-%%%%%%", FD, Tmp)) {
    Error = EC.message();
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Error = OS.error().message();
      OS.clear_error();
      sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path)) {
    Error = EC.message();
    sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

bool ompi::writeFileOrReport(StringRef Path, StringRef Text) {
  std::string Error;
  if (writeFileAtomic(Path, Text, Error))
    return true;
  errs() << "ompi-opt: error: cannot write " << Path << ": " << Error << "\n";
  return false;
}

bool ompi::backupExists(StringRef Path, StringRef Suffix) { return !Suffix.empty() && sys::fs::exists(Path + Suffix); }

bool ompi::replaceWithBackup(StringRef Path, StringRef Original, StringRef Text, StringRef Suffix) {
  if (!Suffix.empty() && !writeFileOrReport((Path + Suffix).str(), Original))
    return false;
  return writeFileOrReport(Path, Text);
}

std::string ompi::displayPath(StringRef Path) {
  SmallString<256> Cwd;
  StringRef Rel = Path;
  if (!sys::fs::current_path(Cwd) && Rel.consume_front(Cwd) && Rel.consume_front("/"))
    return Rel.str();
  return Path.str();
}
