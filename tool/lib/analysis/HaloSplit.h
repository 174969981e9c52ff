//===- HaloSplit.h - The loop split a halo exchange could overlap ---------===//
//
// The report's hint for the split communication-overlap does not make
// (issue: "where the code exchanges a halo and then updates every cell, and
// only the boundary cells read the halo, say so"). A receive's wait stops
// at the first statement that reads its buffer. Where that statement is a
// loop nest that reads the buffer's array only at small constant offsets
// of its counters, with two or more offsets of one counter (a stencil:
// u[i-1][j], u[i+1][j]), and never writes it, only the iterations whose
// reads reach the received edge need the wait: the others could run while
// the message is in flight, if the loop were split into the two. Nothing
// here proves which iterations those are (the receive may fill any part
// of the array), so the tool says so and leaves the loop as it is.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_HALOSPLIT_H
#define OMPI_TOOL_ANALYSIS_HALOSPLIT_H

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Stmt;
class VarDecl;
} // namespace clang

namespace ompi {

/// The hint for loop S, which a wait whose receives fill Buffers stops at:
/// "the loop at line 40 reads u only at offsets of its counters (u[i - 1],
/// u[i + 1]): ...", or none where S is no such loop.
std::optional<std::string> haloSplitHint(clang::ASTContext &Ctx, const clang::Stmt *S,
                                         llvm::ArrayRef<const clang::VarDecl *> Buffers);

} // namespace ompi

#endif
