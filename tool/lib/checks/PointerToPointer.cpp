//===- PointerToPointer.cpp - Check: pointer-to-pointer ---------------------===//
//
// the buffer's elements are pointers (&p for a pointer p: fix-it p).
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkPointerToPointer(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call)
      continue;
    for (const BufferUse &U : buffers(CR)) {
      const Expr *BE = CR.expr(*U.Buf);
      if (C.Ev.spelledHandle(BE))
        continue;
      const Expr *E = bufferExpr(BE);
      QualType Elem = elementType(E);
      if (Elem.isNull() || !Elem->isPointerType())
        continue;
      auto DT = U.Type ? C.datatype(CR.expr(*U.Type)) : std::nullopt;
      if (U.Type && !DT)
        continue; // a derived datatype of unknown layout may describe what the pointers point to
      if (DT && isAddressSizedDatatype(DT->Base))
        continue; // addresses sent on purpose
      Finding *F = C.report("pointer-to-pointer", BE->getBeginLoc(),
                            llvm::formatv("{0} {1} '{2}' is a pointer to {3}: the call would transfer the "
                                          "pointer, not the data it points to",
                                          CR.Function, U.Buf->Name, U.Buf->Text, spell(Elem))
                                .str());
      // &p for a pointer p: the data is p.
      if (const auto *UO = dyn_cast<UnaryOperator>(E); F && UO && UO->getOpcode() == UO_AddrOf)
        if (const auto *D = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
          C.fix(*F, UO->getSourceRange(), D->getDecl()->getName().str());
    }
  }
}

} // namespace ompi
