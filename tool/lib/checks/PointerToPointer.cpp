//===- PointerToPointer.cpp - Check: pointer-to-pointer ---------------------===//
//
// the buffer's elements are pointers (&p for a pointer p: fix-it p).
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

/// Whether the datatype argument E is a predefined datatype, on every path
/// that reaches the call, that does not send addresses on purpose
/// (MPI_AINT, MPI_OFFSET, MPI_COUNT).
static bool predefinedOnEveryPath(CheckContext &C, const CallResult &CR, const Expr *E) {
  if (auto DT = C.datatype(E))
    return !isAddressSizedDatatype(DT->Base); // predefined, or built from one predefined type
  std::vector<PathValue> Vs = pathValues(C, CR, E);
  return !Vs.empty() && llvm::all_of(Vs, [](const PathValue &V) {
    return V.Value.K == SymValue::Handle && !isAddressSizedDatatype(V.Value.Name);
  });
}

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
      if (U.Type && !predefinedOnEveryPath(C, CR, CR.expr(*U.Type)))
        continue; // a derived datatype of unknown layout may describe what the pointers point to
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
