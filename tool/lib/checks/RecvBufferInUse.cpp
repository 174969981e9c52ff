//===- RecvBufferInUse.cpp - Check: recv-buffer-in-use ----------------------===//
//
// after a nonblocking receive (or a nonblocking collective's receive
// buffer), a use of the buffer's variable (an array, a struct, a scalar
// passed as &x, a pointer) before the first completion call that names the
// request. Also a second receive into bytes of a local array that a
// pending nonblocking receive is still writing (both in one block, their
// offsets, counts and predefined datatypes static; the second's buffer may
// be a pointer one path points there): MPI may write the two messages in
// either order.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/PathValues.h"
#include "checks/PendingBuffer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// Bytes [From, To) of a local array V that a receive writes; Where names
/// the definition of a pointer that gives them when the buffer is a
/// variable set differently on different paths ("" when static).
struct RecvRange {
  const VarDecl *V = nullptr;
  int64_t From = 0, To = 0;
  std::string Where;
};

/// The bytes the receive side of CR writes, along each path that gives its
/// buffer a static address (the evaluator's object and byte offset), with
/// a static count and predefined datatype.
std::vector<RecvRange> recvBytes(CheckContext &C, const CallResult &CR) {
  std::vector<RecvRange> Out;
  const ArgResult *B = CR.arg(Role::RecvBuf), *N = CR.arg(Role::Count) ? CR.arg(Role::Count) : CR.arg(Role::RecvCount);
  const ArgResult *T = CR.arg(Role::Type) ? CR.arg(Role::Type) : CR.arg(Role::RecvType);
  if (!B || !N || !T || !N->Int)
    return Out;
  auto DT = C.Ev.spelledHandle(CR.expr(*T));
  std::optional<int64_t> Size = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
  if (!Size)
    return Out;
  for (const PathValue &A : pathValues(C, CR, CR.expr(*B)))
    if (A.Value.K == SymValue::Address && A.Value.Obj && A.Value.Obj->hasLocalStorage() &&
        A.Value.Obj->getType()->isConstantArrayType())
      Out.push_back({A.Value.Obj, A.Value.Offset, A.Value.Offset + *N->Int * *Size, A.Where});
  return Out;
}

/// A later receive in CR's block into bytes CR's pending receive writes.
void checkOverlap(CheckContext &C, const CallResult &CR, const PendingBuffer &P) {
  std::vector<RecvRange> Mine = recvBytes(C, CR);
  const Stmt *Block = parentStmt(C.Ctx, CR.Call);
  if (Mine.size() != 1 || Mine[0].V != P.Buf || Mine[0].To <= Mine[0].From || !Mine[0].Where.empty())
    return;
  const RecvRange &M = Mine[0];
  for (const CallResult &O : C.Analysis.Calls) {
    if (&O == &CR || O.Caller != CR.Caller || !O.Call || O.Line <= CR.Line || O.Line >= P.UntilLine ||
        parentStmt(C.Ctx, O.Call) != Block)
      continue;
    for (const RecvRange &Th : recvBytes(C, O)) {
      if (Th.V != M.V || Th.From >= M.To || M.From >= Th.To)
        continue;
      C.report("recv-buffer-in-use", O.Call->getBeginLoc(),
               llvm::formatv("this {0} receives into bytes {1} to {2} of '{3}'{4}, which the {5} at line {6} (bytes "
                             "{7} to {8}) may still be writing: the completion on '{9}' is at line {10}",
                             O.Function, Th.From, Th.To, M.V->getName(), Th.Where, CR.Function, CR.Line, M.From, M.To,
                             P.Req->getName(), P.UntilLine)
                   .str());
      return;
    }
  }
}

} // namespace

void checkRecvBufferInUse(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller)
      continue;
    for (const CallExpr *Start : transferStarts(C, CR)) {
      auto P = pendingBuffer(C, CR, Role::RecvBuf, Start);
      if (P && P->Uses.empty() && CR.Model->Cat == Category::PointToPoint && !Start)
        checkOverlap(C, CR, *P);
      if (!P || P->Uses.empty())
        continue;
      C.report("recv-buffer-in-use", P->Uses.front()->getLocation(),
               llvm::formatv("'{0}' is used before the {1} at line {2}{3} that writes it has completed (the "
                             "completion on '{4}' is at line {5})",
                             P->Buf->getName(), CR.Function, CR.Line, startedBy(C, Start), P->Req->getName(),
                             P->UntilLine)
                   .str());
    }
  }
}

} // namespace ompi
