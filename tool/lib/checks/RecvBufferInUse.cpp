//===- RecvBufferInUse.cpp - Check: recv-buffer-in-use ----------------------===//
//
// after a nonblocking receive (or a nonblocking collective's receive
// buffer), a use of the buffer's variable (an array, a struct, a scalar
// passed as &x, a pointer) before the first completion call that names the
// request. Also a second receive into bytes of a local array that a
// pending nonblocking receive is still writing (both in one block, their
// offsets, counts and predefined datatypes static): MPI may write the two
// messages in either order.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/PendingBuffer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// The bytes [From, To) of a local array that the receive side of CR
/// writes, when its address (the evaluator's object and byte offset),
/// count and predefined datatype are static.
std::optional<std::pair<int64_t, int64_t>> recvBytes(CheckContext &C, const CallResult &CR, const VarDecl *&V) {
  const ArgResult *B = CR.arg(Role::RecvBuf), *N = CR.arg(Role::Count) ? CR.arg(Role::Count) : CR.arg(Role::RecvCount);
  const ArgResult *T = CR.arg(Role::Type) ? CR.arg(Role::Type) : CR.arg(Role::RecvType);
  if (!B || !N || !T || !N->Int)
    return std::nullopt;
  SymValue A = C.Ev.evaluate(CR.expr(*B), CR.Caller, CR.Call);
  auto DT = C.Ev.spelledHandle(CR.expr(*T));
  std::optional<int64_t> Size = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
  if (A.K != SymValue::Address || !A.Obj || !A.Obj->hasLocalStorage() || !A.Obj->getType()->isConstantArrayType() ||
      !Size)
    return std::nullopt;
  V = A.Obj;
  return std::make_pair(A.Offset, A.Offset + *N->Int * *Size);
}

/// A later receive in CR's block into bytes CR's pending receive writes.
void checkOverlap(CheckContext &C, const CallResult &CR, const PendingBuffer &P) {
  const VarDecl *V = nullptr;
  auto Mine = recvBytes(C, CR, V);
  const Stmt *Block = parentStmt(C.Ctx, CR.Call);
  if (!Mine || V != P.Buf || Mine->second <= Mine->first)
    return;
  for (const CallResult &O : C.Analysis.Calls) {
    const VarDecl *W = nullptr;
    if (&O == &CR || O.Caller != CR.Caller || !O.Call || O.Line <= CR.Line || O.Line >= P.UntilLine ||
        parentStmt(C.Ctx, O.Call) != Block)
      continue;
    auto Theirs = recvBytes(C, O, W);
    if (!Theirs || W != V || Theirs->first >= Mine->second || Mine->first >= Theirs->second)
      continue;
    C.report("recv-buffer-in-use", O.Call->getBeginLoc(),
             llvm::formatv("this {0} receives into bytes {1} to {2} of '{3}', which the {4} at line {5} (bytes {6} to "
                           "{7}) may still be writing: the completion on '{8}' is at line {9}",
                           O.Function, Theirs->first, Theirs->second, V->getName(), CR.Function, CR.Line, Mine->first,
                           Mine->second, P.Req->getName(), P.UntilLine)
                 .str());
    return;
  }
}

} // namespace

void checkRecvBufferInUse(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller || CR.Model->M != Mode::Nonblocking)
      continue;
    auto P = pendingBuffer(C, CR, Role::RecvBuf);
    if (P && P->Uses.empty() && CR.Model->Cat == Category::PointToPoint)
      checkOverlap(C, CR, *P);
    if (!P || P->Uses.empty())
      continue;
    C.report("recv-buffer-in-use", P->Uses.front()->getLocation(),
             llvm::formatv("'{0}' is used before the {1} at line {2} that writes it has completed (the "
                           "completion on '{3}' is at line {4})",
                           P->Buf->getName(), CR.Function, CR.Line, P->Req->getName(), P->UntilLine)
                 .str());
  }
}

} // namespace ompi
