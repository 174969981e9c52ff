//===- BufferTypes.cpp - Buffers whose type their datatype does not describe -===//
//
// the element type of a buffer (through typedefs, to the canonical type)
// against the C type(s) of its predefined datatype; pair types (MPI_2INT,
// MPI_DOUBLE_INT) accept a struct of those members or an array of the one
// type they pair; a derived datatype of known shape (analysis/DerivedTypes:
// contiguous, vector, hvector over one predefined type) is judged by the
// type it is built from, and one of no known shape built once by the
// type its construction's old type is on each path; MPI_BYTE and
// MPI_PACKED, void pointers, other
// derived datatypes and MPI_IN_PLACE / MPI_BOTTOM are not checked, nor a
// character type with a count computed by sizeof (bytes sent as MPI_CHAR).
// Read by type-mismatch (different representations) and
// portability-type-size (the same representation on this target).
//
//===----------------------------------------------------------------------===//
#include "checks/BufferTypes.h"
#include "checks/BufferUses.h"
#include "checks/PathValues.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

/// Whether T is made of scalars of type W only (through arrays and nested
/// structs), with no padding: sizeof(T) is a multiple of sizeof(W) that
/// the members fill.
static bool onlyOf(ASTContext &Ctx, QualType T, QualType W, int Depth = 0) {
  if (Depth > 8)
    return false;
  if (const auto *A = Ctx.getAsConstantArrayType(T))
    return onlyOf(Ctx, A->getElementType(), W, Depth + 1);
  const RecordType *RT = T->getAsStructureType();
  if (!RT)
    return sameType(T, W);
  const RecordDecl *RD = RT->getDecl()->getDefinition();
  if (!RD || RD->field_empty())
    return false;
  uint64_t Sum = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField() || !onlyOf(Ctx, F->getType(), W, Depth + 1))
      return false;
    Sum += Ctx.getTypeSize(F->getType());
  }
  return Sum == Ctx.getTypeSize(T);
}

/// Two different arithmetic types that are alike on this target: integers
/// of one size and signedness (long and long long on LP64, int64_t and
/// long long), or floating types of one size and format.
static bool sameRepresentation(ASTContext &Ctx, QualType A, QualType B) {
  A = A.getCanonicalType().getUnqualifiedType();
  B = B.getCanonicalType().getUnqualifiedType();
  if (A->isBooleanType() || B->isBooleanType() || A->isAnyCharacterType() || B->isAnyCharacterType())
    return false;
  if (A->isIntegerType() && B->isIntegerType())
    return Ctx.getTypeSize(A) == Ctx.getTypeSize(B) && A->isSignedIntegerType() == B->isSignedIntegerType();
  if (A->isRealFloatingType() && B->isRealFloatingType())
    return &Ctx.getFloatTypeSemantics(A) == &Ctx.getFloatTypeSemantics(B);
  return false;
}

/// Whether the buffer goes as bytes: a one-byte character datatype with a
/// count computed by sizeof (MPI_CHAR and sizeof(int) * n for an int
/// array), which moves the same bytes as MPI_BYTE on a homogeneous system.
static bool countsBytes(CheckContext &C, const CallResult &CR, const BufferUse &U, llvm::StringRef DT) {
  if (!U.Count || C.Ev.datatypeSize(DT) != 1)
    return false;
  return anyNode(CR.expr(*U.Count), [](const Stmt *N) {
    const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(N);
    return S && S->getKind() == UETT_SizeOf;
  });
}

namespace {

/// One datatype a buffer may be judged against: the predefined type (or
/// the one a derived type is built from) and how the message names it.
struct Candidate {
  std::string Base;
  std::string Named; ///< "MPI_DOUBLE", "'col' (built from MPI_DOUBLE)", "'t' is MPI_INT (as set at ...), which"
};

/// The predefined types a datatype variable of no known shape may be built
/// from: its only construction's old type, along each path to it (a
/// contiguous type of 'ty', where one path sets ty to MPI_INT).
std::vector<Candidate> builtFrom(CheckContext &C, const Expr *TE) {
  const DatatypeVar *V = C.derived().of(TE);
  if (!V || V->Written || V->Constructions.size() != 1)
    return {};
  const CallExpr *Cons = V->Constructions.front();
  const FunctionDecl *Callee = Cons->getDirectCallee();
  const TypeConstructorModel *M = Callee ? lookupTypeConstructor(Callee->getName()) : nullptr;
  auto CCR = llvm::find_if(C.Analysis.Calls, [&](const CallResult &X) { return X.Call == Cons; });
  if (!M || M->OldType < 0 || unsigned(M->OldType) >= Cons->getNumArgs() || CCR == C.Analysis.Calls.end() ||
      !CCR->Caller)
    return {};
  const Expr *Old = Cons->getArg(unsigned(M->OldType));
  unsigned Line = C.Ctx.getSourceManager().getExpansionLineNumber(Cons->getBeginLoc());
  std::vector<Candidate> Out;
  for (const PathValue &P : pathValues(C, *CCR, Old))
    if (P.Value.K == SymValue::Handle)
      Out.push_back(
          {P.Value.Name,
           llvm::formatv("'{0}' (built at line {1} from {2}{3})", V->Name, Line,
                         P.Where.empty() ? P.Value.Name : "'" + C.Ev.text(Old) + "', " + P.Value.Name, P.Where)
               .str()});
  return Out;
}

/// The datatypes the call's datatype argument TE may be: its known shape,
/// else what a variable of no known shape is built from, else the
/// predefined type each path sets a datatype variable to.
std::vector<Candidate> candidates(CheckContext &C, const CallResult &CR, const Expr *TE) {
  if (auto Info = C.datatype(TE))
    return {{Info->Base, Info->shown()}};
  std::vector<Candidate> Out = builtFrom(C, TE);
  if (!Out.empty())
    return Out;
  for (const PathValue &P : pathValues(C, CR, TE))
    if (P.Value.K == SymValue::Handle && !P.Where.empty())
      Out.push_back({P.Value.Name, "'" + C.Ev.text(TE) + "' is " + P.Value.Name + P.Where + ", which"});
  return Out;
}

/// Whether the datatype of C types Parts (spelled) describes a buffer of
/// element type Elem, or std::nullopt when a type is not known here.
std::optional<bool> describes(CheckContext &C, QualType Elem, llvm::ArrayRef<llvm::StringRef> Parts,
                              std::vector<QualType> &Want) {
  for (llvm::StringRef P : Parts) {
    QualType T = C.Ev.typeOfSpelling(P.trim());
    if (T.isNull())
      return std::nullopt; // a type this translation unit does not know
    Want.push_back(T);
  }
  if (const RecordType *RT = Elem->getAsStructureType()) {
    std::vector<QualType> Fields;
    for (const FieldDecl *F : RT->getDecl()->fields())
      Fields.push_back(F->getType());
    bool Ok = Fields.size() == Want.size();
    for (size_t I = 0; Ok && I < Fields.size(); ++I)
      Ok = sameType(Fields[I], Want[I]);
    // A struct made of the one type only (struct { double x, y, q; } sent
    // as doubles, PRK's particles): the same bytes, no padding.
    return Ok || (Want.size() == 1 && onlyOf(C.Ctx, Elem, Want[0]));
  }
  return llvm::all_of(Want, [&](QualType W) { return sameType(Elem, W); });
}

/// The mismatch of buffer U of CR against datatype D, if any.
std::optional<BufferTypeMismatch> judge(CheckContext &C, const CallResult &CR, const BufferUse &U, const Candidate &D) {
  const HandleModel *H = lookupHandle(D.Base);
  if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty() || isUntypedDatatype(D.Base) ||
      countsBytes(C, CR, U, D.Base))
    return std::nullopt;
  const Expr *BE = CR.expr(*U.Buf);
  QualType Elem = elementType(bufferExpr(BE));
  // &a of T a[N], &m[i] of T m[N][M]: the elements are T.
  while (!Elem.isNull() && Elem->isConstantArrayType())
    Elem = C.Ctx.getAsArrayType(Elem)->getElementType();
  if (Elem.isNull() || Elem->isVoidType() || Elem->isPointerType())
    return std::nullopt; // unknown, or pointer-to-pointer's business
  llvm::SmallVector<llvm::StringRef, 2> Parts;
  llvm::StringRef(H->CTypes).split(Parts, '+');
  std::vector<QualType> Want;
  std::optional<bool> Ok = describes(C, Elem, Parts, Want);
  if (!Ok || *Ok)
    return std::nullopt;
  std::string Is = spell(Elem), Canon = spell(Elem.getCanonicalType());
  if (Is != Canon)
    Is += " (" + Canon + ")";
  BufferTypeMismatch M;
  M.Call = &CR;
  M.At = BE;
  M.Message =
      llvm::formatv("{0} {1} '{2}' has elements of type {3}, but its datatype {4} describes {5}", CR.Function,
                    U.Buf->Name, U.Buf->Text, Is, D.Named, Parts.size() == 1 ? H->CTypes : "a pair (" + H->CTypes + ")")
          .str();
  M.SameRepresentation = Want.size() == 1 && sameRepresentation(C.Ctx, Elem, Want[0]);
  return M;
}

} // namespace

void bufferTypeMismatches(CheckContext &C, llvm::function_ref<void(const BufferTypeMismatch &)> Found) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call)
      continue;
    for (const BufferUse &U : buffers(CR)) {
      if (!U.Type || U.Buf->Index >= CR.Call->getNumArgs() || U.Type->Index >= CR.Call->getNumArgs())
        continue;
      if (C.Ev.spelledHandle(CR.expr(*U.Buf))) // MPI_IN_PLACE, MPI_BOTTOM, NULL
        continue;
      for (const Candidate &D : candidates(C, CR, CR.expr(*U.Type)))
        if (std::optional<BufferTypeMismatch> M = judge(C, CR, U, D)) {
          Found(*M);
          break;
        }
    }
  }
}

} // namespace ompi
