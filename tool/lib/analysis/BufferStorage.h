//===- BufferStorage.h - Where a buffer argument lies, and who reads it ---===//
//
// What the plans that join adjacent point-to-point calls share
// (PairPlan: a send and a receive as one exchange; AggregationPlan:
// messages to one peer as one): the one object a buffer argument lies in,
// when that is known, and whether another call's arguments read what a
// receive writes.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_BUFFERSTORAGE_H
#define OMPI_TOOL_ANALYSIS_BUFFERSTORAGE_H

#include "analysis/CallAnalysis.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class VarDecl;
} // namespace clang

namespace ompi {

/// The variable whose address an argument's value is (&x; an array x).
const clang::VarDecl *addressObject(const ArgResult *A);

/// The storage a buffer argument (role R of C) lies in, when it is known
/// to be one object: a named variable, or the allocation of a local
/// pointer that holds one allocation of its own (p, p + k, &p[k]).
/// Different storages do not overlap.
const clang::VarDecl *bufferStorage(clang::ASTContext &Ctx, const CallResult &C, Role R);

/// What the arguments of CE read of the memory a receive writes (its
/// buffer's storage Obj, its status object Status, which may be null):
/// Name, a variable read, or Pointer, a read through a pointer (which may
/// reach either; the address Buffer, CE's own buffer argument, reads none).
struct WrittenRead {
  std::string Name;
  bool Pointer = false;
};
std::optional<WrittenRead> readsWritten(const clang::CallExpr *CE, const clang::Expr *Buffer, const clang::VarDecl *Obj,
                                        const clang::VarDecl *Status);

} // namespace ompi

#endif
