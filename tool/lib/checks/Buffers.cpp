//===- Buffers.cpp - Checks: buffers against their count and datatype -----===//
//
// type-mismatch: the element type of a buffer (through typedefs, to the
//   canonical type) against the C type(s) of its predefined datatype; pair
//   types (MPI_2INT, MPI_DOUBLE_INT) accept a struct of those members or an
//   array of the one type they pair; MPI_BYTE and MPI_PACKED, void pointers,
//   derived datatypes and MPI_IN_PLACE / MPI_BOTTOM are not checked.
// count-overflow: count x datatype size against the bytes left in a
//   statically sized object from the buffer's address on.
// pointer-to-pointer: the buffer's elements are pointers (&p for a pointer
//   p: fix-it p).
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {
struct BufferUse {
  const ArgResult *Buf, *Type, *Count;
};

/// Each buffer argument of a call with the datatype and count that describe it.
std::vector<BufferUse> buffers(const CallResult &CR) {
  std::vector<BufferUse> R;
  auto pick = [&](Role A, Role B) { return CR.arg(A) ? CR.arg(A) : CR.arg(B); };
  if (const ArgResult *B = CR.arg(Role::SendBuf))
    R.push_back({B, pick(Role::SendType, Role::Type), pick(Role::SendCount, Role::Count)});
  if (const ArgResult *B = CR.arg(Role::RecvBuf))
    R.push_back({B, pick(Role::RecvType, Role::Type), pick(Role::RecvCount, Role::Count)});
  if (const ArgResult *B = CR.arg(Role::Buf))
    R.push_back({B, CR.arg(Role::Type), CR.arg(Role::Count)});
  return R;
}

/// The buffer expression without implicit conversions or casts to void *.
const Expr *bufferExpr(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    QualType T = CE->getType();
    if (!T->isPointerType() || !T->getPointeeType()->isVoidType())
      break;
    E = CE->getSubExpr()->IgnoreParenImpCasts();
  }
  return E;
}

/// The element type a buffer expression points to (null type if unknown).
QualType elementType(const Expr *E) {
  QualType T = E->getType();
  if (const ArrayType *A = T->getAsArrayTypeUnsafe())
    return A->getElementType();
  if (T->isPointerType())
    return T->getPointeeType();
  return QualType();
}

bool sameType(QualType A, QualType B) {
  return A.getCanonicalType().getUnqualifiedType() == B.getCanonicalType().getUnqualifiedType();
}

std::string spell(QualType T) { return T.getAsString(PrintingPolicy(LangOptions())); }
} // namespace

void checkTypeMismatch(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call)
      continue;
    for (const BufferUse &U : buffers(CR)) {
      if (!U.Type || U.Buf->Index >= CR.Call->getNumArgs() || U.Type->Index >= CR.Call->getNumArgs())
        continue;
      const Expr *BE = CR.expr(*U.Buf);
      if (C.Ev.spelledHandle(BE)) // MPI_IN_PLACE, MPI_BOTTOM, NULL
        continue;
      auto DT = C.Ev.spelledHandle(CR.expr(*U.Type));
      const HandleModel *H = DT ? lookupHandle(*DT) : nullptr;
      if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty() || isUntypedDatatype(*DT))
        continue;
      const Expr *E = bufferExpr(BE);
      QualType Elem = elementType(E);
      if (Elem.isNull() || Elem->isVoidType() || Elem->isPointerType())
        continue; // unknown, or pointer-to-pointer's business
      llvm::SmallVector<llvm::StringRef, 2> Parts;
      llvm::StringRef(H->CTypes).split(Parts, '+');
      std::vector<QualType> Want;
      for (llvm::StringRef P : Parts) {
        QualType T = C.Ev.typeOfSpelling(P.trim());
        if (T.isNull())
          break;
        Want.push_back(T);
      }
      if (Want.size() != Parts.size())
        continue; // a type this translation unit does not know
      bool Ok;
      if (const RecordType *RT = Elem->getAsStructureType()) {
        std::vector<QualType> Fields;
        for (const FieldDecl *F : RT->getDecl()->fields())
          Fields.push_back(F->getType());
        Ok = Fields.size() == Want.size();
        for (size_t I = 0; Ok && I < Fields.size(); ++I)
          Ok = sameType(Fields[I], Want[I]);
      } else {
        Ok = llvm::all_of(Want, [&](QualType W) { return sameType(Elem, W); });
      }
      if (Ok)
        continue;
      std::string Is = spell(Elem), Canon = spell(Elem.getCanonicalType());
      if (Is != Canon)
        Is += " (" + Canon + ")";
      C.report("type-mismatch", BE->getBeginLoc(),
               llvm::formatv("{0} {1} '{2}' has elements of type {3}, but its datatype {4} describes {5}", CR.Function,
                             U.Buf->Name, U.Buf->Text, Is, *DT,
                             Parts.size() == 1 ? H->CTypes : "a pair (" + H->CTypes + ")")
                   .str());
    }
  }
}

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
      auto DT = U.Type ? C.Ev.spelledHandle(CR.expr(*U.Type)) : std::nullopt;
      if (DT && isAddressSizedDatatype(*DT))
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
