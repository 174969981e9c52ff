//===- CountOverflow.cpp - Check: count-overflow ----------------------------===//
//
// count x datatype size against the bytes left in a statically sized object
// from the buffer's address on.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkCountOverflow(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller)
      continue;
    bool P2P = CR.Model->Cat == Category::PointToPoint;
    for (const BufferUse &U : buffers(CR)) {
      // The per-process counts of gathers and scatters are not the buffer's size.
      if (!U.Count || !U.Type || !U.Count->Int || (U.Count->R != Role::Count && !P2P))
        continue;
      auto DT = C.Ev.spelledHandle(CR.expr(*U.Type));
      std::optional<int64_t> TS = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
      if (!TS)
        continue;
      SymValue V = C.Ev.evaluate(CR.expr(*U.Buf), CR.Caller, CR.Call);
      if (V.K != SymValue::Address || !V.Obj || V.Obj->getType()->isIncompleteType() ||
          V.Obj->getType()->isVariablyModifiedType() || V.Obj->getType()->isPointerType())
        continue;
      int64_t Size = C.Ctx.getTypeSizeInChars(V.Obj->getType()).getQuantity();
      int64_t Need = *U.Count->Int * *TS, Left = Size - V.Offset;
      if (Need <= Left)
        continue;
      C.report("count-overflow", CR.expr(*U.Count)->getBeginLoc(),
               llvm::formatv("{0} {1} {2} x {3} = {4} bytes from '{5}', but '{6}' has {7} bytes{8}", CR.Function,
                             U.Buf->R == Role::SendBuf   ? "reads"
                             : U.Buf->R == Role::RecvBuf ? "writes"
                                                         : "uses",
                             *U.Count->Int, *DT, Need, U.Buf->Text, V.Obj->getName(), Size,
                             V.Offset ? llvm::formatv(" ({0} from byte {1} on)", Left, V.Offset).str() : "")
                   .str());
    }
  }
}

} // namespace ompi
