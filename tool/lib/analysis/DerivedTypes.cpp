//===- DerivedTypes.cpp - Datatype variables whose shape is known ----------===//
#include "analysis/DerivedTypes.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

bool ompi::isDatatypeType(QualType T) {
  for (const TypedefType *TT = T->getAs<TypedefType>(); TT;
       TT = TT->getDecl()->getUnderlyingType()->getAs<TypedefType>())
    if (TT->getDecl()->getName() == "MPI_Datatype")
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

llvm::StringRef calleeName(const CallExpr *CE) {
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() ? F->getName() : "";
}

} // namespace

DerivedTypes::DerivedTypes(ASTContext &Ctx, Evaluator &Ev) : Ctx(Ctx), Ev(Ev) { collect(); }

void DerivedTypes::taint(const VarDecl *V, std::string Why) {
  DatatypeVar &D = Vars[V];
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
    if (V->hasInit())
      taint(V, "it is initialised where it is declared");
    else if (isa<ParmVarDecl>(V))
      taint(V, "it is a parameter: the callers decide what it is");
    else if (V->hasGlobalStorage() && (V->hasExternalStorage() || V->isExternallyVisible()))
      taint(V, "it is a global other files can write");
    else if (!Ctx.getSourceManager().isInMainFile(V->getLocation()))
      taint(V, "it is declared in a header");
    use(R, FD);
  }
  for (auto &[V, D] : Vars)
    if (D.Why.empty() && !D.Shape)
      D.Why = "no construction of it in this file builds a datatype from static arguments";
}

/// One reference: read (fine), or its address given to a constructor,
/// MPI_Type_commit or MPI_Type_free (fine), or anything else (taints).
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
    taint(V, llvm::formatv("line {0} writes it or takes its address", Line).str());
    return;
  }
  if ((committsType(Callee) || freesType(Callee)) && Index == 0)
    return;
  const TypeConstructorModel *M = lookupTypeConstructor(Callee);
  if (!M || int(Index) != M->NewType) {
    taint(V, llvm::formatv("line {0} passes its address to {1}", Line, Callee.empty() ? "a call" : Callee).str());
    return;
  }
  DatatypeVar &D = Vars[V];
  std::string Why;
  std::optional<TypeShape> S = FD ? construction(CE, *M, FD, Why) : std::nullopt;
  if (!S)
    return taint(V, llvm::formatv("line {0} builds it {1}", Line, Why.empty() ? "outside a function" : Why).str());
  if (!D.Why.empty())
    return;
  if (D.Shape && !(*D.Shape == *S))
    return taint(
        V,
        llvm::formatv("line {0} builds it as {1}, line {2} as {3}", D.BuiltLine, D.Shape->Built, Line, S->Built).str());
  if (!D.Shape)
    D.BuiltLine = Line;
  D.Shape = S;
}

std::optional<TypeShape> DerivedTypes::construction(const CallExpr *CE, const TypeConstructorModel &M,
                                                    const FunctionDecl *FD, std::string &Why) {
  auto Int = [&](int Arg) -> std::optional<int64_t> {
    if (Arg < 0)
      return 1;
    SymValue S = Ev.evaluate(CE->getArg(unsigned(Arg)), FD, CE);
    if (S.K == SymValue::Int && S.I >= 0 && S.I <= (int64_t(1) << 31) - 1)
      return S.I;
    return std::nullopt;
  };
  std::optional<int64_t> Count = Int(M.Count), Block = Int(M.BlockLength), Stride = Int(M.Stride);
  std::optional<std::string> Old = Ev.spelledHandle(CE->getArg(unsigned(M.OldType)));
  const HandleModel *H = Old ? lookupHandle(*Old) : nullptr;
  int64_t ElemBytes = H ? Ev.datatypeSize(H->Name).value_or(0) : 0;
  if (!Count || !Block || !Stride || *Count < 1 || *Block < 1) {
    Why = "from a count, block length or stride that is not a static positive value";
    return std::nullopt;
  }
  if (!H || H->Kind != HandleKind::Datatype || ElemBytes <= 0 || H->CTypes.empty() ||
      H->CTypes.find('+') != std::string::npos || H->Name == "MPI_PACKED") {
    Why = "from a datatype that is not a predefined one of one C type";
    return std::nullopt;
  }
  TypeShape S;
  S.Base = H->Name;
  S.ElemBytes = ElemBytes;
  if (M.Kind == TypeConstructorModel::Contiguous) {
    S.NBlocks = 1;
    S.BlockLength = *Count;
    S.StrideBytes = S.ExtentBytes = *Count * S.ElemBytes;
    S.Built = llvm::formatv("{0}({1}, {2})", M.Name, *Count, S.Base).str();
    return S;
  }
  S.NBlocks = *Count;
  S.BlockLength = *Block;
  S.StrideBytes = M.Kind == TypeConstructorModel::Vector ? *Stride * S.ElemBytes : *Stride;
  if (S.StrideBytes < *Block * S.ElemBytes) {
    Why = "with blocks that overlap (a stride shorter than the block)";
    return std::nullopt;
  }
  S.ExtentBytes = (*Count - 1) * S.StrideBytes + *Block * S.ElemBytes;
  S.Built = llvm::formatv("{0}({1}, {2}, {3}, {4})", M.Name, *Count, *Block, *Stride, S.Base).str();
  return S;
}

const DatatypeVar *DerivedTypes::of(const Expr *Arg) const {
  const auto *R = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  auto It = V ? Vars.find(V) : Vars.end();
  return It == Vars.end() ? nullptr : &It->second;
}
