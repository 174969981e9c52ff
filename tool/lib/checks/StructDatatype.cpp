//===- StructDatatype.cpp - Check: struct-datatype ---------------------------===//
//
// an MPI_Type_create_struct datatype against the C struct it describes: the
// struct is the element type of a buffer a communication call passes with
// the datatype (the datatype variable built once in the function, from
// arrays with static initialisers). Block k must describe member k: the
// datatype of its C type (an array member: its element type, with the
// array's length as the block length) and, where the displacement is
// static, the member's offset; the count must cover every member. The
// finding is at the constructor, with a note at the communication.
//
//===----------------------------------------------------------------------===//
#include "analysis/ArrayValues.h"
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "checks/PathValues.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// What the constructor's arguments say along one path.
struct StructArgs {
  int64_t Count = 0;
  llvm::ArrayRef<ArrayElem> Len, Disp, Types;
};

/// The first communication call passing the datatype variable NV with a
/// buffer whose elements are a struct.
std::pair<const CallResult *, const RecordDecl *> useWithStruct(CheckContext &C, const VarDecl *NV) {
  for (const CallResult &U : C.Analysis.Calls) {
    if (!U.Model || !U.Call)
      continue;
    for (const BufferUse &B : buffers(U)) {
      if (!B.Type || namedVar(U.expr(*B.Type)) != NV || B.Buf->Index >= U.Call->getNumArgs())
        continue;
      QualType T = elementType(bufferExpr(U.expr(*B.Buf)));
      if (const RecordType *RT = T.isNull() ? nullptr : T->getAsStructureType())
        return {&U, RT->getDecl()};
    }
  }
  return {nullptr, nullptr};
}

/// One scalar of the struct's layout: a member, an element of an array
/// member, a member of a nested struct.
struct Leaf {
  int64_t Off;
  QualType T;
  std::string Name; ///< the member path: "d", "x[2]", "p.y"
  unsigned Field;   ///< the top-level member it belongs to
};

/// The scalars of RD at offset Base, at most Max of them (false: more, or a
/// bit-field or union on the way).
bool flatten(ASTContext &Ctx, const RecordDecl *RD, int64_t Base, const std::string &Prefix, unsigned Top,
             std::vector<Leaf> &Out, size_t Max);

bool flattenType(ASTContext &Ctx, QualType T, int64_t Off, const std::string &Name, unsigned Top,
                 std::vector<Leaf> &Out, size_t Max) {
  if (Out.size() > Max)
    return false;
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    int64_t Sz = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
    for (uint64_t K = 0; K < AT->getSize().getZExtValue(); ++K)
      if (!flattenType(Ctx, AT->getElementType(), Off + int64_t(K) * Sz, Name + "[" + std::to_string(K) + "]", Top, Out,
                       Max))
        return false;
    return true;
  }
  if (const RecordType *RT = T->getAsStructureType())
    return RT->getDecl()->getDefinition() &&
           flatten(Ctx, RT->getDecl()->getDefinition(), Off, Name + ".", Top, Out, Max);
  if (T->isRecordType() || T->isIncompleteType())
    return false;
  Out.push_back({Off, T, Name, Top});
  return true;
}

bool flatten(ASTContext &Ctx, const RecordDecl *RD, int64_t Base, const std::string &Prefix, unsigned Top,
             std::vector<Leaf> &Out, size_t Max) {
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  unsigned Index = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField())
      return false;
    int64_t Off = Base + Ctx.toCharUnitsFromBits(L.getFieldOffset(F->getFieldIndex())).getQuantity();
    if (!flattenType(Ctx, F->getType(), Off, Prefix + F->getName().str(), Prefix.empty() ? Index : Top, Out, Max))
      return false;
    ++Index;
  }
  return true;
}

/// Displacements the constructor reads that are wrong whatever the struct
/// is: never set, or absolute addresses used with a buffer.
std::string displacementError(const StructArgs &A, bool Bottom) {
  for (size_t K = 0; K < size_t(A.Count) && K < A.Disp.size(); ++K) {
    const ArrayElem &X = A.Disp[K];
    if (X.K == ArrayElem::Unset)
      return llvm::formatv("displacement {0} is never set before the call", K);
    if (X.K == ArrayElem::Address && !Bottom)
      return llvm::formatv("displacement {0} is still the absolute address of {1} from MPI_Get_address, but the "
                           "datatype is used with a buffer rather than MPI_BOTTOM (subtract the struct's base address)",
                           K, X.Name);
  }
  return "";
}

/// The C type of block K's datatype, when it is a typed predefined one.
QualType blockType(CheckContext &C, const ArrayElem &T, const HandleModel *&H) {
  H = T.K == ArrayElem::Handle ? lookupHandle(T.Name) : nullptr;
  if (!H || H->CTypes.empty() || H->CTypes.find('+') != std::string::npos || isUntypedDatatype(T.Name))
    return QualType();
  return C.Ev.typeOfSpelling(H->CTypes);
}

/// The type map of the blocks against the struct's scalars: every element
/// of a block must start a scalar of the block's type. Covered collects the
/// scalars the blocks cover; "?" when a block is not followed.
std::string typeMapMismatch(CheckContext &C, const StructArgs &A, const std::vector<Leaf> &Leaves, llvm::StringRef S,
                            std::vector<bool> &Covered) {
  for (size_t K = 0; K < size_t(A.Count); ++K) {
    const HandleModel *H = nullptr;
    QualType T = blockType(C, A.Types[K], H);
    if (T.isNull() || A.Len[K].K != ArrayElem::Int)
      return "?";
    llvm::StringRef Name = A.Types[K].Name;
    int64_t Sz = C.Ctx.getTypeSizeInChars(T).getQuantity(), D = A.Disp[K].I;
    for (int64_t J = 0; J < A.Len[K].I; ++J) {
      int64_t P = D + J * Sz;
      auto It = llvm::find_if(Leaves, [&](const Leaf &L) {
        return L.Off <= P && P < L.Off + int64_t(C.Ctx.getTypeSizeInChars(L.T).getQuantity());
      });
      std::string Elt = A.Len[K].I == 1 ? "" : llvm::formatv(" (its element {0})", J).str();
      if (It == Leaves.end()) {
        auto Next = llvm::find_if(Leaves, [&](const Leaf &L) { return L.Off > P; });
        if (Next == Leaves.end())
          continue; // past the struct's last member: not judged
        return llvm::formatv(
            "block {0}{1} is {2} at displacement {3}, which is padding of {4} (the next member, '{5}', "
            "is at offset {6}; compute displacements with offsetof or MPI_Get_address: the compiler "
            "pads members)",
            K, Elt, Name, P, S, Next->Name, Next->Off);
      }
      if (It->Off != P)
        return llvm::formatv("block {0}{1} is {2} at displacement {3}, inside member '{4}' of {5}, which is at offset "
                             "{6} (compute displacements with offsetof or MPI_Get_address: the compiler pads members)",
                             K, Elt, Name, P, It->Name, S, It->Off);
      if (!sameType(It->T, T))
        return llvm::formatv("block {0}{1} is {2} ({3}) at displacement {4}, but member '{5}' of {6} there is {7}", K,
                             Elt, Name, H->CTypes, P, It->Name, S, spell(It->T));
      Covered[It - Leaves.begin()] = true;
    }
  }
  return "";
}

std::string compare(CheckContext &C, const RecordDecl *RD, const StructArgs &A, bool Bottom) {
  std::string Why = displacementError(A, Bottom);
  size_t N = size_t(A.Count);
  if (!Why.empty() || A.Disp.size() < N || A.Len.size() < N || A.Types.size() < N ||
      llvm::any_of(A.Disp.take_front(N), [](const ArrayElem &X) { return X.K != ArrayElem::Int; }))
    return Why;
  std::vector<Leaf> Leaves;
  if (!flatten(C.Ctx, RD, 0, "", 0, Leaves, 4096))
    return "";
  std::string S = RD->getName().empty() ? "the struct" : "struct " + RD->getName().str();
  std::vector<bool> Covered(Leaves.size());
  Why = typeMapMismatch(C, A, Leaves, S, Covered);
  if (Why == "?")
    return "";
  if (!Why.empty())
    return Why;
  // Members left out: reported only where the blocks describe a prefix of
  // the members and what is left out holds no pointer (a pointer means
  // nothing on another process, so leaving it out is deliberate).
  std::vector<const FieldDecl *> Fields(RD->field_begin(), RD->field_end());
  size_t First = Leaves.size();
  for (size_t I = 0; I < Leaves.size(); ++I)
    if (!Covered[I]) {
      First = I;
      break;
    }
  if (First == Leaves.size())
    return "";
  unsigned F = Leaves[First].Field;
  bool Suffix = true;
  for (size_t I = 0; I < Leaves.size(); ++I)
    Suffix &= Covered[I] == (Leaves[I].Field < F);
  bool Pointer = llvm::any_of(Leaves, [&](const Leaf &L) { return L.Field >= F && L.T->isPointerType(); });
  if (!Suffix || Pointer)
    return "";
  return llvm::formatv("it describes {0} of the {1} members of {2} (from '{3}' on they are not transferred)", F,
                       Fields.size(), S, Fields[F]->getName());
}

/// Whether the call's buffer argument of the struct datatype is MPI_BOTTOM.
bool usesBottom(CheckContext &C, const CallResult &U, const VarDecl *NV) {
  for (const BufferUse &B : buffers(U))
    if (B.Type && namedVar(U.expr(*B.Type)) == NV) {
      auto H = C.Ev.spelledHandle(U.expr(*B.Buf));
      return H && *H == mpi::MPI_BOTTOM;
    }
  return false;
}

/// The first mismatch along the paths to the constructor: each value the
/// count may have, each path of the arrays' stores.
std::string firstMismatch(CheckContext &C, const CallResult &CR, const RecordDecl *RD, bool Bottom) {
  const CallExpr *CE = CR.Call;
  const HandleCallModel &M = *lookupHandleCall(CR.Function);
  std::vector<const VarDecl *> Arrays;
  for (int I : {M.BlockLengths, M.Displs, M.Types})
    Arrays.push_back(namedVar(CE->getArg(unsigned(I))));
  auto Paths = arrayValuesAt(C.Ev, CR.Caller, CE, Arrays);
  if (!Paths)
    return "";
  for (const PathValue &Count : pathValues(C, CR, CE->getArg(unsigned(M.Count)))) {
    if (Count.Value.K != SymValue::Int || Count.Value.I <= 0)
      continue;
    for (const ArrayPath &P : *Paths) {
      StructArgs A{Count.Value.I, P.Arrays[0], P.Arrays[1], P.Arrays[2]};
      std::string Why = compare(C, RD, A, Bottom);
      if (Why.empty())
        continue;
      if (Paths->size() > 1)
        Why += " on the path where " + llvm::join(P.Conds, " and ");
      return Why + Count.Where;
    }
  }
  return "";
}

void checkConstructor(CheckContext &C, const CallResult &CR) {
  const CallExpr *CE = CR.Call;
  if (CE->getNumArgs() != 5)
    return;
  const Expr *Out = strip(CE->getArg(unsigned(lookupHandleCall(CR.Function)->Out)));
  const auto *U = dyn_cast<UnaryOperator>(Out);
  const VarDecl *NV = U && U->getOpcode() == UO_AddrOf ? namedVar(U->getSubExpr()) : nullptr;
  if (!NV)
    return;
  auto [Use, RD] = useWithStruct(C, NV);
  if (!Use || !RD->getDefinition())
    return;
  std::string Why = firstMismatch(C, CR, RD->getDefinition(), usesBottom(C, *Use, NV));
  if (Why.empty())
    return;
  if (Finding *F = C.report("struct-datatype", CE->getBeginLoc(),
                            llvm::formatv("datatype '{0}' does not match the struct it transfers: {1} (a struct "
                                          "datatype's type map must match the members it transfers)",
                                          NV->getName(), Why)
                                .str()))
    C.note(*F, Use->Call->getBeginLoc(), llvm::formatv("{0} sends or receives the struct with it", Use->Function));
}

} // namespace

void checkStructDatatypes(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls)
    if (const HandleCallModel *M = CR.Call && CR.Caller ? lookupHandleCall(CR.Function) : nullptr;
        M && M->Kind == HandleCallModel::Struct)
      checkConstructor(C, CR);
}

} // namespace ompi
