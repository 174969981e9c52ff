//===- CountOverflow.cpp - Check: count-overflow ----------------------------===//
//
// count x datatype size against the bytes left in a statically sized object
// from the buffer's address on (for the buffers that hold a block per
// process, two blocks: the fewest of any run on more than one process),
// with each count a path may pass.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "checks/PathValues.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

/// How many blocks of its count the buffer U must hold: 1, or (for the
/// buffers holding one block per process) 2, the fewest of any run on more
/// than one process; 0 when the count does not size the buffer.
static int64_t blocks(CheckContext &C, const CallResult &CR, const BufferUse &U) {
  if (CR.Model->Cat == Category::PointToPoint || U.Count->R == Role::Count)
    return 1;
  if (significantOnlyAtRoot(CR.Function, U.Buf->R) && C.Uni.at(CR.Call, CR.Caller))
    return 0; // the root may not make this call
  if (blockPerProcess(CR.Function, U.Buf->R))
    return 2;
  return U.Count->R == Role::SendCount || U.Count->R == Role::RecvCount ? 1 : 0;
}

void checkCountOverflow(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller)
      continue;
    for (const BufferUse &U : buffers(CR)) {
      if (!U.Count || !U.Type || U.Count->Index >= CR.Call->getNumArgs())
        continue;
      int64_t Blocks = blocks(C, CR, U);
      auto DT = C.Ev.spelledHandle(CR.expr(*U.Type));
      std::optional<int64_t> TS = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
      if (!TS || !Blocks)
        continue;
      SymValue V = C.Ev.evaluate(CR.expr(*U.Buf), CR.Caller, CR.Call);
      if (V.K != SymValue::Address || !V.Obj || V.Obj->getType()->isIncompleteType() ||
          V.Obj->getType()->isVariablyModifiedType() || V.Obj->getType()->isPointerType())
        continue;
      int64_t Size = C.Ctx.getTypeSizeInChars(V.Obj->getType()).getQuantity(), Left = Size - V.Offset;
      for (const PathValue &Count : pathValues(C, CR, CR.expr(*U.Count))) {
        if (Count.Value.K != SymValue::Int || Count.Value.I * *TS * Blocks <= Left)
          continue;
        int64_t Need = Count.Value.I * *TS;
        C.report("count-overflow", CR.expr(*U.Count)->getBeginLoc(),
                 llvm::formatv("{0} {1} {2} x {3} = {4} bytes{5} {6} '{7}'{8}, but '{9}' has {10} bytes{11}",
                               CR.Function,
                               U.Buf->R == Role::SendBuf   ? "reads"
                               : U.Buf->R == Role::RecvBuf ? "writes"
                                                           : "uses",
                               Count.Value.I, *DT, Need, Blocks > 1 ? " per process" : "",
                               U.Buf->R == Role::SendBuf ? "from" : "into", U.Buf->Text, Count.Where, V.Obj->getName(),
                               Size, V.Offset ? llvm::formatv(" ({0} from byte {1} on)", Left, V.Offset).str() : "")
                         .str() +
                     (Blocks > 1 ? ": too few for any run on more than one process" : ""));
        break;
      }
    }
  }
}

} // namespace ompi
