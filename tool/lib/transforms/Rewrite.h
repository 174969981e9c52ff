//===- Rewrite.h - What the rewrites share --------------------------------===//
//
// Fresh names for what a rewrite declares: a name the program already uses
// (even one in the reserved mpiopt_ prefix) is never reused, so inserted
// declarations never shadow or clash with the program's own.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_TRANSFORMS_REWRITE_H
#define OMPI_TOOL_TRANSFORMS_REWRITE_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>
#include <string>

namespace ompi {

class FreshNames {
public:
  explicit FreshNames(clang::ASTContext &Ctx);
  /// The next prefix Base<N> (N = 1, 2, ...) such that no identifier of the
  /// file is Base<N> or starts with Base<N>_: the caller appends "_what".
  std::string next(llvm::StringRef Base);

private:
  std::set<std::string> Used; ///< the file's identifiers that start with mpiopt_
  std::map<std::string, unsigned> Last;
};

} // namespace ompi

#endif
