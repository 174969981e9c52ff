//===- DerivedTypes.cpp - Datatype variables whose shape is known ----------===//
#include "analysis/DerivedTypes.h"
#include "analysis/ArrayValues.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstdlib>
#include <set>

using namespace clang;
using namespace ompi;

bool ompi::isDatatypeType(QualType T) {
  for (const TypedefType *TT = T->getAs<TypedefType>(); TT;
       TT = TT->getDecl()->getUnderlyingType()->getAs<TypedefType>())
    if (TT->getDecl()->getName() == mpi::MPI_Datatype)
      return true;
  return false;
}

namespace {

/// Every reference to a datatype variable of the main file, with the
/// function it is in.
class Refs : public FunctionVisitor<Refs> {
public:
  Refs(const SourceManager &SM, std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> &Out)
      : SM(SM), Out(Out) {}
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (V && isDatatypeType(V->getType()) && SM.isInMainFile(SM.getExpansionLoc(R->getBeginLoc())))
      Out.push_back({R, Cur});
    return true;
  }

private:
  const SourceManager &SM;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> &Out;
};

/// The call whose argument Arg is (through parentheses and casts), and its
/// index there.
const CallExpr *callOfArg(ASTContext &Ctx, const Expr *Arg, unsigned &Index) {
  const Expr *Child = nullptr;
  const auto *CE = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, Arg, &Child));
  for (unsigned I = 0; CE && I < CE->getNumArgs(); ++I)
    if (CE->getArg(I) == Child) {
      Index = I;
      return CE;
    }
  return nullptr;
}

} // namespace

bool TypeShape::mayOverlap(int64_t Count) const {
  int64_t Block = BlockLength * ElemBytes, S = std::abs(StrideBytes), OS = std::abs(OuterStrideBytes);
  if (runList()) { // its blocks never overlap (indexedBlock checks); its elements, where they span an extent
    int64_t Lo = *std::min_element(DisplsBytes.begin(), DisplsBytes.end());
    return Count > 1 && (ExtentBytes <= 0 || trueUpperBytes() - Lo > ExtentBytes);
  }
  if (NBlocks > 1 && S < Block)
    return true;
  int64_t Inner = (NBlocks > 0 ? NBlocks - 1 : 0) * S + Block;
  if (NOuter > 1 && OS < Inner)
    return true;
  if (Count <= 1)
    return false;
  int64_t Span = (NOuter > 0 ? NOuter - 1 : 0) * OS + Inner;
  if (ExtentBytes > 0 && Span <= ExtentBytes)
    return false;
  if (NOuter != 1 || ExtentBytes <= 0 || StrideBytes <= 0)
    return true;
  for (int64_t D = 1; D < Count && D * ExtentBytes < Span; ++D) {
    int64_t Q = D * ExtentBytes / StrideBytes;
    for (int64_t M = Q; M <= Q + 1; ++M)
      if (M < NBlocks && D * ExtentBytes - M * StrideBytes < Block && M * StrideBytes - D * ExtentBytes < Block)
        return true;
  }
  return false;
}

void TypeShape::normalise() {
  for (bool Changed = !runList(); Changed;) {
    Changed = false;
    if (NOuter > 1 && NBlocks == 1) { // one block per group: the groups are the blocks
      NBlocks = NOuter;
      StrideBytes = OuterStrideBytes;
      NOuter = 1;
      OuterStrideBytes = 0;
      Changed = true;
    }
    if (NOuter > 1 && OuterStrideBytes == NBlocks * StrideBytes) { // groups continue the blocks' stride
      NBlocks *= NOuter;
      NOuter = 1;
      OuterStrideBytes = 0;
      Changed = true;
    }
    if (NBlocks > 1 && StrideBytes == BlockLength * ElemBytes) { // blocks that abut are one
      BlockLength *= NBlocks;
      NBlocks = 1;
      Changed = true;
    }
  }
  if (NBlocks == 1 && !runList())
    StrideBytes = BlockLength * ElemBytes;
  if (NOuter == 1)
    OuterStrideBytes = 0;
}

DerivedTypes::DerivedTypes(ASTContext &Ctx, Evaluator &Ev) : Ctx(Ctx), Ev(Ev) { collect(); }

void DerivedTypes::taint(const VarDecl *V, std::string Why, bool AlsoRuntime) {
  DatatypeVar &D = Vars[V];
  if (AlsoRuntime && D.RuntimeWhy.empty())
    D.RuntimeWhy = Why;
  if (D.Why.empty())
    D.Why = std::move(Why);
  D.Shape.reset();
}

void DerivedTypes::collect() {
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> All;
  Refs(Ctx.getSourceManager(), All).TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto &[R, FD] : All) {
    const auto *V = cast<VarDecl>(R->getDecl());
    Vars[V].Name = V->getName().str();
    Vars[V].Decl = V;
    if (V->hasInit())
      written(V, "it is initialised where it is declared");
    else if (isa<ParmVarDecl>(V))
      written(V, "it is a parameter: the callers decide what it is");
    else if (V->hasGlobalStorage() && (V->hasExternalStorage() || V->isExternallyVisible()))
      written(V, "it is a global other files can write");
    else if (!Ctx.getSourceManager().isInMainFile(V->getLocation()))
      written(V, "it is declared in a header");
    use(R, FD);
  }
  resolve();
  for (auto &[V, D] : Vars)
    if (D.Why.empty() && !D.Shape)
      D.Why = "no construction of it in this file builds a datatype from static arguments";
}

/// One reference: read (fine), or its address given to a constructor,
/// MPI_Type_commit or MPI_Type_free (fine), or anything else (taints).
/// Constructions are kept for resolve().
void DerivedTypes::use(const DeclRefExpr *R, const FunctionDecl *FD) {
  const auto *V = cast<VarDecl>(R->getDecl());
  unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(R->getBeginLoc());
  const Stmt *P = parentStmt(Ctx, R);
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P); IC && IC->getCastKind() == CK_LValueToRValue)
    return; // read
  const auto *U = dyn_cast_or_null<UnaryOperator>(P);
  unsigned Index = 0;
  const CallExpr *CE = U && U->getOpcode() == UO_AddrOf ? callOfArg(Ctx, U, Index) : nullptr;
  llvm::StringRef Callee = calleeName(CE);
  if (!CE) {
    written(V, llvm::formatv("line {0} writes it or takes its address", Line).str());
    return;
  }
  if ((committsType(Callee) || freesType(Callee)) && Index == 0)
    return;
  const TypeConstructorModel *M = lookupTypeConstructor(Callee);
  if (!M || int(Index) != M->NewType) {
    written(V, llvm::formatv("line {0} passes its address to {1}", Line, Callee.empty() ? "a call" : Callee).str());
    return;
  }
  if (!FD)
    return written(V, llvm::formatv("line {0} builds it outside a function", Line).str());
  Pending.push_back({V, CE, M, FD, Line});
}

const VarDecl *DerivedTypes::oldVar(const Construction &C) const {
  const auto *R = dyn_cast<DeclRefExpr>(C.CE->getArg(unsigned(C.M->OldType))->IgnoreParenImpCasts());
  const auto *W = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  return W && Vars.count(W) ? W : nullptr;
}

/// Each variable's constructions once the variables they build from are
/// resolved (a variable built from itself, directly or not, is not).
void DerivedTypes::resolve() {
  std::set<const VarDecl *> Open;
  for (const Construction &C : Pending)
    Open.insert(C.V);
  for (bool Progress = true; Progress && !Open.empty();) {
    Progress = false;
    for (const VarDecl *V : std::vector<const VarDecl *>(Open.begin(), Open.end())) {
      bool Ready = true;
      for (const Construction &C : Pending)
        if (C.V == V && oldVar(C) && Open.count(oldVar(C)))
          Ready = false;
      if (!Ready)
        continue;
      for (const Construction &C : Pending)
        if (C.V == V)
          apply(C);
      Open.erase(V);
      Progress = true;
    }
  }
  for (const VarDecl *V : Open)
    taint(V, "it is built from a datatype that is built from it");
}

void DerivedTypes::apply(const Construction &C) {
  DatatypeVar &D = Vars[C.V];
  D.Constructions.push_back(C.CE);
  D.RuntimeOlds.push_back(oldVar(C));
  std::string Why;
  bool NotStatic = false;
  std::optional<TypeShape> S = construction(C, Why, NotStatic);
  if (!S && !NotStatic) // a static construction that has no shape has none at run time either
    return taint(C.V, llvm::formatv("line {0} builds it {1}", C.Line, Why).str());
  std::string Runtime = runtimeWhy(C);
  if (!Runtime.empty() && D.RuntimeWhy.empty())
    D.RuntimeWhy = llvm::formatv("line {0} builds it {1}", C.Line, Runtime).str();
  if (!S)
    return taint(C.V, llvm::formatv("line {0} builds it {1}", C.Line, Why).str(), false);
  if (!D.Why.empty())
    return;
  if (D.Shape && !(*D.Shape == *S))
    return taint(
        C.V,
        llvm::formatv("line {0} builds it as {1}, line {2} as {3}", D.BuiltLine, D.Shape->Built, C.Line, S->Built)
            .str(),
        false);
  if (!D.Shape)
    D.BuiltLine = C.Line;
  D.Shape = S;
}

namespace {

/// The old type of a construction: a predefined type of one C type, or a
/// variable's shape.
struct OldType {
  TypeShape Shape; ///< a predefined type: one block of one element
  std::string Name;
};

/// A subarray's dimensions, fastest first.
struct Dims {
  std::vector<int64_t> Sizes, Subsizes, Starts;
};

} // namespace

/// Strided blocks of Old: Count items Stride apart (StrideInOld: in Old's
/// extents, else bytes), each BlockLen consecutive Old elements.
static std::optional<TypeShape> strided(const OldType &Old, int64_t Count, int64_t BlockLen, int64_t Stride,
                                        bool StrideInOld, std::string &Why) {
  TypeShape S = Old.Shape;
  const TypeShape &O = Old.Shape;
  int64_t StrideBytes = StrideInOld ? Stride * O.ExtentBytes : Stride;
  if (O.dense()) { // Old is a run of base elements: the blocks are runs too
    S.NBlocks = Count;
    S.BlockLength = BlockLen * O.BlockLength;
    S.StrideBytes = StrideBytes;
    S.ExtentBytes = (Count - 1) * StrideBytes + BlockLen * O.ExtentBytes;
  } else if (O.NOuter == 1 && (BlockLen == 1 || Count == 1)) { // one level of Old's blocks per group
    int64_t N = BlockLen == 1 ? Count : BlockLen;
    int64_t Step = BlockLen == 1 ? StrideBytes : O.ExtentBytes;
    S.NOuter = N;
    S.OuterStrideBytes = Step;
    S.ExtentBytes = (N - 1) * Step + O.ExtentBytes;
  } else {
    Why = "over a datatype of more than one level of blocks (" + Old.Name + ")";
    return std::nullopt;
  }
  // Groups may interleave (two columns of a resized column type): packing
  // follows the typemap's order whatever the addresses.
  return S;
}

/// A subarray (fastest dimension first, at most 3) of Old elements, which
/// must be a run of base elements.
static std::optional<TypeShape> subarray(const OldType &Old, const Dims &D, std::string &Why) {
  const TypeShape &O = Old.Shape;
  if (!O.dense()) {
    Why = "over a datatype with holes (" + Old.Name + ")";
    return std::nullopt;
  }
  TypeShape S = O;
  int64_t Elem = O.ExtentBytes, Step = Elem, Offset = 0;
  std::vector<int64_t> Strides;
  for (size_t I = 0; I < D.Sizes.size(); ++I) {
    if (D.Sizes[I] < 1 || D.Subsizes[I] < 1 || D.Starts[I] < 0 || D.Starts[I] + D.Subsizes[I] > D.Sizes[I]) {
      Why = "with sizes, subsizes and starts that are not 1 <= subsize, 0 <= start, start + subsize <= size";
      return std::nullopt;
    }
    Offset += D.Starts[I] * Step;
    Strides.push_back(Step);
    Step *= D.Sizes[I];
  }
  Strides.resize(3, 0);
  std::vector<int64_t> Sub = D.Subsizes;
  Sub.resize(3, 1);
  S.OffsetBytes = Offset;
  S.BlockLength = Sub[0] * O.BlockLength;
  S.NBlocks = Sub[1];
  S.StrideBytes = Sub[1] > 1 ? Strides[1] : S.BlockLength * S.ElemBytes;
  S.NOuter = Sub[2];
  S.OuterStrideBytes = Sub[2] > 1 ? Strides[2] : 0;
  S.ExtentBytes = Step;
  return S;
}

/// The first N integers of each array argument Args at the call, when every
/// path gives the same (a subarray's sizes, subsizes and starts; an
/// (h)indexed_block's displacements). Noun names them in Why.
static std::optional<std::vector<std::vector<int64_t>>> constArrays(Evaluator &Ev, const DerivedTypes::Construction &C,
                                                                    std::initializer_list<int> Args, int64_t N,
                                                                    llvm::StringRef Noun, std::string &Why) {
  std::vector<const VarDecl *> Arrays;
  for (int I : Args) {
    const auto *R = dyn_cast<DeclRefExpr>(C.CE->getArg(unsigned(I))->IgnoreParenImpCasts());
    Arrays.push_back(R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr);
    if (!Arrays.back()) {
      Why = ("from " + Noun + " that are not local arrays").str();
      return std::nullopt;
    }
  }
  auto Paths = arrayValuesAt(Ev, C.FD, C.CE, Arrays);
  std::optional<std::vector<std::vector<int64_t>>> Out;
  for (const ArrayPath &P : Paths ? *Paths : std::vector<ArrayPath>()) {
    std::vector<std::vector<int64_t>> Ints(Arrays.size());
    for (size_t A = 0; A < Arrays.size(); ++A)
      for (int64_t I = 0; I < N; ++I) {
        if (size_t(I) >= P.Arrays[A].size() || P.Arrays[A][size_t(I)].K != ArrayElem::Int) {
          Why = ("from " + Noun + " whose values are not static here").str();
          return std::nullopt;
        }
        Ints[A].push_back(P.Arrays[A][size_t(I)].I);
      }
    if (Out && *Out != Ints) {
      Why = ("from " + Noun + " that differ between the paths to it").str();
      return std::nullopt;
    }
    Out = Ints;
  }
  if (!Out)
    Why = ("from " + Noun + " whose values are not followed here").str();
  return Out;
}

std::string ompi::bracedInts(const std::vector<int64_t> &V) {
  std::string S;
  for (int64_t X : V)
    S += (S.empty() ? "" : ", ") + std::to_string(X);
  return "{" + S + "}";
}

/// The old type of a construction: the variable W's shape (when the
/// argument names one), or a predefined type of one C type.
static std::optional<OldType> oldTypeOf(Evaluator &Ev, int Arg, const CallExpr *CE, const DatatypeVar *W,
                                        std::string &Why) {
  OldType Old;
  if (W) {
    if (!W->Shape) {
      Why = "from " + W->Name + ", whose shape is not known: " + W->Why;
      return std::nullopt;
    }
    Old.Shape = *W->Shape;
    Old.Name = W->Name;
    return Old;
  }
  std::optional<std::string> Spelled = Ev.spelledHandle(CE->getArg(unsigned(Arg)));
  const HandleModel *H = Spelled ? lookupHandle(*Spelled) : nullptr;
  int64_t ElemBytes = H ? Ev.datatypeSize(H->Name).value_or(0) : 0;
  if (!H || H->Kind != HandleKind::Datatype || ElemBytes <= 0 || H->CTypes.empty() ||
      H->CTypes.find('+') != std::string::npos || H->Name == mpi::MPI_PACKED) {
    Why = "from a datatype that is not a predefined one of one C type";
    return std::nullopt;
  }
  Old.Name = H->Name;
  Old.Shape.Base = H->Name;
  Old.Shape.ElemBytes = Old.Shape.ExtentBytes = Old.Shape.StrideBytes = ElemBytes;
  Old.Shape.NBlocks = Old.Shape.BlockLength = 1;
  return Old;
}

/// The blocks of an (h)indexed_block of a run of base elements Old at
/// displacements D (in Unit bytes) that no stride describes: a run list,
/// whose blocks must not overlap; its extent runs from the lowest block's
/// start to the highest block's end, as MPI's does.
static std::optional<TypeShape> runList(const OldType &Old, int64_t Block, const std::vector<int64_t> &D, int64_t Unit,
                                        std::string &Why) {
  if (!Old.Shape.dense()) {
    Why = "with displacements that are not evenly spaced (" + bracedInts(D) + "), over a datatype with holes (" +
          Old.Name + ")";
    return std::nullopt;
  }
  TypeShape S = Old.Shape;
  int64_t BlockBytes = Block * Old.Shape.ExtentBytes;
  for (int64_t X : D)
    S.DisplsBytes.push_back(X * Unit);
  std::vector<int64_t> Sorted = S.DisplsBytes;
  std::sort(Sorted.begin(), Sorted.end());
  for (size_t I = 1; I < Sorted.size(); ++I)
    if (Sorted[I] - Sorted[I - 1] < BlockBytes) {
      Why = "with blocks that overlap (" + bracedInts(D) + ")";
      return std::nullopt;
    }
  S.NBlocks = int64_t(D.size());
  S.BlockLength = Block * Old.Shape.BlockLength;
  S.StrideBytes = 0;
  S.ExtentBytes = Sorted.back() + BlockBytes - Sorted.front();
  return S;
}

/// An (h)indexed_block whose displacements are evenly spaced in increasing
/// order, not overlapping, from the buffer or after it: a vector from an
/// offset (the type's lower bound is the first displacement). Other
/// displacements make a run list.
/// Displacements not known here (NotStatic) may still be recorded at run
/// time, where the wrapper sees whether they are evenly spaced or a run
/// list.
static std::optional<TypeShape> indexedBlock(Evaluator &Ev, const DerivedTypes::Construction &C, const OldType &Old,
                                             std::optional<int64_t> Count, std::optional<int64_t> Block,
                                             std::string &Args, std::string &Why, bool &NotStatic) {
  bool Bytes = C.M->Kind == TypeConstructorModel::HIndexedBlock;
  if (!Count || !Block || *Count > 4096) {
    Why = "from a count or block length that is not a static positive value (at most 4096 blocks)";
    NotStatic |= Count && Block; // more blocks than a table here: the wrapper reads them
    return std::nullopt;
  }
  auto A = constArrays(Ev, C, {C.M->Displs}, *Count, "displacements", Why);
  NotStatic |= !A; // the wrapper reads the displacements it is given
  if (!A)
    return std::nullopt;
  const std::vector<int64_t> &D = (*A)[0];
  Args = llvm::formatv("{0}, {1}, {2}, {3}", *Count, *Block, bracedInts(D), Old.Name).str();
  int64_t Unit = Bytes ? 1 : Old.Shape.ExtentBytes;
  int64_t Step = *Count > 1 ? D[1] - D[0] : *Block * Old.Shape.ExtentBytes / Unit;
  bool Even = D[0] >= 0 && Step * Unit >= *Block * Old.Shape.ExtentBytes;
  for (size_t I = 1; I < D.size(); ++I)
    Even &= D[I] - D[I - 1] == Step;
  if (!Even)
    return runList(Old, *Block, D, Unit, Why);
  std::optional<TypeShape> S = strided(Old, *Count, *Block, Step, !Bytes, Why);
  if (S)
    S->OffsetBytes += D[0] * Unit;
  return S;
}

std::optional<TypeShape> DerivedTypes::construction(const Construction &C, std::string &Why, bool &NotStatic) {
  const TypeConstructorModel &M = *C.M;
  auto Int = [&](int Arg, int64_t Min) -> std::optional<int64_t> {
    if (Arg < 0)
      return 1;
    SymValue S = Ev.evaluate(C.CE->getArg(unsigned(Arg)), C.FD, C.CE);
    if (S.K == SymValue::Int && S.I >= Min && S.I <= (int64_t(1) << 31) - 1)
      return S.I;
    NotStatic |= S.K != SymValue::Int;
    return std::nullopt;
  };
  const DatatypeVar *W = oldVar(C) ? &Vars[oldVar(C)] : nullptr;
  NotStatic |= W && !W->Shape && W->runtime(); // built from a shape recorded at run time
  std::optional<OldType> Old = oldTypeOf(Ev, C.M->OldType, C.CE, W, Why);
  if (!Old)
    return std::nullopt;
  if (Old->Shape.runList()) {
    Why = "from " + Old->Name + ", a run list (" + Old->Shape.Built + "), which the templates take only as it is";
    return std::nullopt;
  }
  std::optional<TypeShape> S;
  std::string Args;
  switch (M.Kind) {
  case TypeConstructorModel::Resized: {
    std::optional<int64_t> Lb = Int(M.Lb, -(int64_t(1) << 31)), Extent = Int(M.Extent, 1);
    if (!Lb || !Extent) {
      Why = "with a lower bound or extent that is not a static value (extent above 0)";
      return std::nullopt;
    }
    S = Old->Shape;
    S->ExtentBytes = *Extent;
    Args = llvm::formatv("{0}, {1}, {2}", Old->Name, *Lb, *Extent).str();
    break;
  }
  case TypeConstructorModel::Subarray: {
    std::optional<int64_t> NDims = Int(M.Count, 1);
    std::string Order = Ev.text(C.CE->getArg(unsigned(M.Order)));
    if (!NDims || *NDims > 3 || (Order != mpi::MPI_ORDER_C && Order != mpi::MPI_ORDER_FORTRAN)) {
      Why = "with other than 1 to 3 static dimensions in MPI_ORDER_C or MPI_ORDER_FORTRAN as written";
      NotStatic |= NDims && *NDims <= 3; // an order not spelled: the wrapper checks the one it is given
      return std::nullopt;
    }
    auto A = constArrays(Ev, C, {M.Sizes, M.Subsizes, M.Starts}, *NDims, "sizes, subsizes or starts", Why);
    NotStatic |= !A; // the wrapper reads the arrays it is given
    if (!A)
      return std::nullopt;
    Args = llvm::formatv("{0}, {1}, {2}, {3}, {4}, {5}", *NDims, bracedInts((*A)[0]), bracedInts((*A)[1]),
                         bracedInts((*A)[2]), Order, Old->Name)
               .str();
    Dims D{(*A)[0], (*A)[1], (*A)[2]};
    if (Order == mpi::MPI_ORDER_C)
      for (auto *V : {&D.Sizes, &D.Subsizes, &D.Starts})
        std::reverse(V->begin(), V->end());
    S = subarray(*Old, D, Why);
    break;
  }
  case TypeConstructorModel::IndexedBlock:
  case TypeConstructorModel::HIndexedBlock: {
    S = indexedBlock(Ev, C, *Old, Int(M.Count, 1), Int(M.BlockLength, 1), Args, Why, NotStatic);
    break;
  }
  default: {
    std::optional<int64_t> Count = Int(M.Count, 1), Block = Int(M.BlockLength, 1), Stride = Int(M.Stride, 0);
    if (!Count || !Block || !Stride) {
      Why = "from a count, block length or stride that is not a static positive value";
      return std::nullopt;
    }
    if (M.Kind == TypeConstructorModel::Contiguous) {
      S = strided(*Old, 1, *Count, 0, false, Why);
      Args = llvm::formatv("{0}, {1}", *Count, Old->Name).str();
    } else {
      S = strided(*Old, *Count, *Block, *Stride, M.Kind == TypeConstructorModel::Vector, Why);
      Args = llvm::formatv("{0}, {1}, {2}, {3}", *Count, *Block, *Stride, Old->Name).str();
    }
  }
  }
  if (!S)
    return std::nullopt;
  if (!S->runList() && S->NBlocks > 1 && S->StrideBytes < S->BlockLength * S->ElemBytes) {
    Why = "with blocks that overlap (a stride shorter than the block)";
    return std::nullopt;
  }
  // MPI places element i at i x extent. An extent computed from the blocks
  // that is not a multiple of the elements' size may be rounded up to their
  // alignment (Open MPI does: two doubles 12 bytes apart span 20 bytes, and
  // its extent is 24; MPICH's is 20). A resized type's extent is explicit.
  if (M.Kind != TypeConstructorModel::Resized && S->ElemBytes > 0 && S->ExtentBytes % S->ElemBytes != 0) {
    Why = llvm::formatv("with blocks that span {0} bytes, not a multiple of its elements' {1} bytes: an MPI may "
                        "round its extent up to their alignment (Open MPI does), so where its next element starts "
                        "is the MPI's",
                        S->ExtentBytes, S->ElemBytes)
              .str();
    return std::nullopt;
  }
  S->normalise();
  S->Built = (M.Name + "(" + Args + ")").str();
  return S;
}

/// Why a construction cannot be recorded at run time ("" when it can).
std::string DerivedTypes::runtimeWhy(const Construction &C) {
  const TypeConstructorModel &M = *C.M;
  bool Indexed = M.Kind == TypeConstructorModel::IndexedBlock || M.Kind == TypeConstructorModel::HIndexedBlock;
  std::string Why;
  if (const VarDecl *W = oldVar(C)) {
    const DatatypeVar &D = Vars[W];
    if (M.Kind == TypeConstructorModel::Subarray || Indexed)
      return "over a datatype that is not a predefined one of one C type (" +
             std::string(Indexed ? "indexed blocks are" : "a subarray is") + " recorded over those only)";
    if (!D.runtime())
      return "from " + D.Name + ", whose shape is not recorded at run time either: " + D.RuntimeWhy;
  } else if (!oldTypeOf(Ev, M.OldType, C.CE, nullptr, Why))
    return "over a datatype that is not a predefined one of one C type";
  if (C.CE->getBeginLoc().isMacroID() || C.CE->getRParenLoc().isMacroID() || C.M->Name == mpi::MPI_Type_hvector)
    return "through a macro or the MPI-1 name";
  if (C.V->getBeginLoc().isMacroID() || C.V->getEndLoc().isMacroID())
    return "into a variable declared through a macro";
  // The shadow is declared after the variable's declaration: that must be
  // a statement of a block (not a for loop's first clause) or file scope.
  if (C.V->isLocalVarDecl()) {
    const Stmt *DS = parentStmt(Ctx, DynTypedNode::create(*C.V));
    if (!isa_and_nonnull<DeclStmt>(DS) || !isa_and_nonnull<CompoundStmt>(parentStmt(Ctx, DS)))
      return "into a variable declared where no declaration can follow it (a for loop's first clause)";
  }
  return "";
}

const DatatypeVar *DerivedTypes::var(const VarDecl *V) const {
  auto It = Vars.find(V);
  return It == Vars.end() ? nullptr : &It->second;
}

const DatatypeVar *DerivedTypes::of(const Expr *Arg) const {
  const auto *R = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  auto It = V ? Vars.find(V) : Vars.end();
  return It == Vars.end() ? nullptr : &It->second;
}
