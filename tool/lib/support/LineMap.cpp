//===- LineMap.cpp - Keep every original line's number in rewritten code --===//
#include "support/LineMap.h"
#include "llvm/Support/Error.h"
#include <string>

using namespace ompi;

clang::tooling::Replacements ompi::keepLineNumbers(llvm::StringRef Original, const clang::tooling::Replacements &Reps) {
  clang::tooling::Replacements Out;
  for (const clang::tooling::Replacement &R : Reps) {
    llvm::StringRef Text = R.getReplacementText();
    unsigned First = 1 + Original.take_front(R.getOffset()).count('\n');
    unsigned Removed = Original.substr(R.getOffset(), R.getLength()).count('\n');
    unsigned Added = Text.count('\n');
    std::string New;
    if (Text.contains("#line") || (Added == 0 && Removed == 0)) {
      New = Text.str();
    } else if (Added == 0) {
      New = Text.str() + std::string(Removed, '\n');
    } else {
      // Each inserted line counts as the first line of the replaced text;
      // what follows the replacement is the replaced text's last line.
      for (char C : Text) {
        New += C;
        if (C == '\n')
          New += "#line " + std::to_string(First) + "\n";
      }
      if (Removed)
        New += "\n#line " + std::to_string(First + Removed) + "\n";
    }
    llvm::consumeError(Out.add(clang::tooling::Replacement(R.getFilePath(), R.getOffset(), R.getLength(), New)));
  }
  return Out;
}
