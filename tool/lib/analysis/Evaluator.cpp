//===- Evaluator.cpp - Partial evaluation of MPI call arguments ------------===//
#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace ompi;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

llvm::StringRef ompi::argClassName(ArgClass C) {
  switch (C) {
  case ArgClass::Static:
    return "static";
  case ArgClass::RankRelative:
    return "rank-relative";
  case ArgClass::Dynamic:
    return "dynamic";
  }
  return "dynamic";
}

ArgClass ompi::worst(ArgClass A, ArgClass B) { return static_cast<int>(A) > static_cast<int>(B) ? A : B; }

static std::string term(int64_t Coef, llvm::StringRef Name, bool First) {
  std::string S;
  if (Coef < 0)
    S += "-";
  else if (!First)
    S += "+";
  int64_t Abs = Coef < 0 ? -Coef : Coef;
  if (Abs != 1)
    S += std::to_string(Abs) + "*";
  S += Name.str();
  return S;
}

std::string AffineForm::str() const {
  std::string S;
  if (Rank)
    S += term(Rank, "rank", S.empty());
  if (Size)
    S += term(Size, "size", S.empty());
  if (Const || S.empty()) {
    if (Const >= 0 && !S.empty())
      S += "+";
    S += std::to_string(Const);
  }
  if (Mod == NoMod)
    return S;
  bool Simple = (Rank != 0) + (Size != 0) + (Const != 0) <= 1 && (Rank == 1 || Size == 1 || Rank + Size == 0);
  std::string Base = Simple ? S : "(" + S + ")";
  return Base + "%" + (Mod == ModSize ? std::string("size") : std::to_string(ModValue));
}

ArgClass SymValue::cls() const {
  switch (K) {
  case Dynamic:
    return ArgClass::Dynamic;
  case Affine:
    return ArgClass::RankRelative;
  default:
    return ArgClass::Static;
  }
}

std::string SymValue::str() const {
  switch (K) {
  case Dynamic:
    return "?";
  case Int:
    return std::to_string(I);
  case Handle:
    return Name;
  case Address:
    return Spelled;
  case Affine:
    return A.str();
  }
  return "?";
}

bool SymValue::same(const SymValue &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Dynamic:
    return false;
  case Int:
    return I == O.I;
  case Handle:
    return canonicalHandle(Name) == canonicalHandle(O.Name);
  case Address:
    return Obj == O.Obj && Name == O.Name && Offset == O.Offset;
  case Affine:
    return A == O.A && Comm == O.Comm;
  }
  return false;
}

/// sizeof(T) in bytes, when T has a size known at compile time.
static std::optional<int64_t> staticSize(ASTContext &Ctx, QualType T) {
  if (T.isNull() || T->isIncompleteType() || !T->isConstantSizeType() || T->isFunctionType())
    return std::nullopt;
  return static_cast<int64_t>(Ctx.getTypeSizeInChars(T).getQuantity());
}

/// Reduce an affine form with no rank or size term to a plain integer.
static SymValue simplify(SymValue V) {
  if (V.K != SymValue::Affine || V.A.Rank || V.A.Size)
    return V;
  int64_t C = V.A.Const;
  if (V.A.Mod == AffineForm::ModConst)
    C %= V.A.ModValue;
  else if (V.A.Mod == AffineForm::ModSize)
    return V; // c % size: still depends on the size
  return SymValue::integer(C);
}

//===----------------------------------------------------------------------===//
// Translation-unit index
//===----------------------------------------------------------------------===//

namespace {

const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The arguments a query call (MPI_Comm_rank, MPI_Cart_shift, MPI_Type_size,
/// ...) writes its results to before it returns, and never keeps: index and
/// role (RankOut, SizeOut or Out). A variable whose address goes only there
/// is defined by the call, not reachable through a pointer afterwards.
std::vector<std::pair<unsigned, Role>> queryOutArgs(const CallExpr *CE) {
  std::vector<std::pair<unsigned, Role>> Outs;
  const FunctionDecl *F = CE->getDirectCallee();
  const FunctionModel *M = F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
  if (!M || M->Cat != Category::Query)
    return Outs;
  for (unsigned I = 0; I < M->Args.size() && I < CE->getNumArgs(); ++I)
    if (Role R = M->Args[I].R; R == Role::RankOut || R == Role::SizeOut || R == Role::Out)
      Outs.push_back({I, R});
  return Outs;
}

/// The arguments of a blocking collective whose result every rank of its
/// communicator gets alike (MPI_Bcast's buffer, MPI_Allreduce's,
/// MPI_Allgather's result): the call writes them before it returns and
/// keeps no pointer to them.
std::vector<unsigned> collectiveOutArgs(const CallExpr *CE) {
  std::vector<unsigned> Outs;
  const FunctionDecl *F = CE->getDirectCallee();
  const FunctionModel *M = F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
  if (!M || M->Cat == Category::Query)
    return Outs;
  for (unsigned I = 0; I < M->Args.size() && I < CE->getNumArgs(); ++I)
    if (M->Args[I].R != Role::SizeOut && sameOnEveryRank(*M, M->Args[I].R))
      Outs.push_back(I);
  return Outs;
}

/// The arguments &h of an MPI call where h is a handle to an MPI object
/// (MPI_Comm, MPI_Datatype, ...) that the call creates, commits or frees
/// before it returns, through a parameter of that handle's pointer type
/// (MPI_Type_vector(..., &t), MPI_Type_commit(&t), MPI_Comm_split(...,
/// &c)). A handle whose address goes only there is defined by the call.
std::vector<unsigned> handleOutArgs(const CallExpr *CE) {
  std::vector<unsigned> Outs;
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() || !isMPIFunctionName(F->getName()) || writesHandleLater(F->getName()))
    return Outs;
  for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
    const auto *U = dyn_cast<UnaryOperator>(CE->getArg(I)->IgnoreParenImpCasts());
    const auto *DRE =
        U && U->getOpcode() == UO_AddrOf ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()) : nullptr;
    QualType PT = F->getParamDecl(I)->getType();
    std::optional<HandleClass> C = DRE ? handleClassOf(DRE->getType().getAsString()) : std::nullopt;
    if (C && *C != HandleClass::Request && PT->isPointerType() &&
        PT->getPointeeType().getUnqualifiedType().getAsString() == DRE->getType().getAsString())
      Outs.push_back(I);
  }
  return Outs;
}

class IndexVisitor : public FunctionVisitor<IndexVisitor> {
public:
  IndexVisitor(TUIndex &I, ASTContext &Ctx) : I(I), Ctx(Ctx) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && FD->isMain())
      I.DefinesMain = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *F = CE->getDirectCallee()) {
      if (Cur)
        I.CallSites[F->getCanonicalDecl()].push_back({Cur, CE});
      if (const auto *DRE = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
        CalleeRefs.insert(DRE);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (isa<FunctionDecl>(DRE->getDecl()))
      FunctionRefs.push_back(DRE);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      written(U->getSubExpr(), U);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      written(B->getLHS(), B);
    return true;
  }
  void finish() {
    for (const DeclRefExpr *DRE : FunctionRefs)
      if (!CalleeRefs.count(DRE))
        I.AddressTaken.insert(cast<FunctionDecl>(DRE->getDecl())->getCanonicalDecl());
  }

private:
  TUIndex &I;
  ASTContext &Ctx;
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
  std::vector<const DeclRefExpr *> FunctionRefs;

  void written(const Expr *Target, const Stmt *At) {
    const Expr *E = Target->IgnoreParenImpCasts();
    // &g.f, &g[i], g.f = ... all write (or expose) g.
    while (true) {
      if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
        E = ME->getBase()->IgnoreParenImpCasts();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    const VarDecl *V = refVar(E);
    if (!V || V->hasLocalStorage())
      return;
    unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(At->getBeginLoc());
    I.WrittenGlobals.try_emplace(V->getCanonicalDecl(), Line);
  }
};

} // namespace

void TUIndex::build(ASTContext &Ctx) {
  IndexVisitor V(*this, Ctx);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  V.finish();
}

//===----------------------------------------------------------------------===//
// Function analysis: CFG, reaching definitions, address-taken locals
//===----------------------------------------------------------------------===//

static bool tracked(const VarDecl *V) { return V && V->hasLocalStorage() && V->getType()->isScalarType(); }

FunctionAnalysis::FunctionAnalysis(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {
  if (!FD->hasBody())
    return;
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  Cfg = CFG::buildCFG(FD, FD->getBody(), &Ctx, BO);
  if (!Cfg)
    return;
  // Parameters are defined on entry.
  unsigned EntryID = Cfg->getEntry().getBlockID();
  for (const ParmVarDecl *PV : FD->parameters())
    if (tracked(PV))
      Defs.push_back({Def::Entry,
                      PV,
                      nullptr,
                      nullptr,
                      nullptr,
                      {EntryID, 0},
                      Ctx.getSourceManager().getExpansionLineNumber(PV->getLocation())});
  for (const CFGBlock *B : *Cfg) {
    unsigned Index = 0;
    for (const CFGElement &El : *B) {
      if (auto CS = El.getAs<CFGStmt>()) {
        Point P{B->getBlockID(), Index};
        Pos.try_emplace(CS->getStmt(), P);
        collectDefs(CS->getStmt(), P);
      }
      ++Index;
    }
  }
  for (unsigned I = 0; I < Defs.size(); ++I) {
    auto &Bits = DefsOfVar[Defs[I].Var];
    Bits.resize(Defs.size());
    Bits.set(I);
    if (Defs[I].K != Def::Entry)
      DefsAt[{Defs[I].P.Block, Defs[I].P.Index}].push_back(I);
  }
  for (auto &KV : DefsOfVar)
    KV.second.resize(Defs.size());
  solve();
  findAddressTaken();
}

void FunctionAnalysis::collectDefs(const Stmt *S, Point P) {
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Line = SM.getExpansionLineNumber(S->getBeginLoc());
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); tracked(V))
        Defs.push_back({V->getInit() ? Def::Init : Def::NoInit, V, S, V->getInit(), nullptr, P, Line});
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return;
    if (const VarDecl *V = refVar(BO->getLHS()); tracked(V))
      Defs.push_back(
          {BO->isCompoundAssignmentOp() ? Def::Compound : Def::Assign, V, S, BO->getRHS(), nullptr, P, Line});
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (!UO->isIncrementDecrementOp())
      return;
    if (const VarDecl *V = refVar(UO->getSubExpr()); tracked(V))
      Defs.push_back({Def::IncDec, V, S, nullptr, nullptr, P, Line});
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    for (unsigned Idx : handleOutArgs(CE)) {
      const VarDecl *V = refVar(cast<UnaryOperator>(CE->getArg(Idx)->IgnoreParenImpCasts())->getSubExpr());
      if (tracked(V))
        Defs.push_back({Def::Output, V, S, nullptr, nullptr, P, Line});
    }
    for (auto [Idx, R] : queryOutArgs(CE)) {
      const auto *AddrOf = dyn_cast<UnaryOperator>(CE->getArg(Idx)->IgnoreParenImpCasts());
      const VarDecl *V = AddrOf && AddrOf->getOpcode() == UO_AddrOf ? refVar(AddrOf->getSubExpr()) : nullptr;
      if (!tracked(V))
        continue;
      if (R == Role::Out) {
        Defs.push_back({Def::Output, V, S, nullptr, nullptr, P, Line});
        continue;
      }
      unsigned CommIdx = *lookupFunction(CE->getDirectCallee()->getName())->find(Role::Comm);
      Defs.push_back({R == Role::RankOut ? Def::RankOut : Def::SizeOut, V, S, nullptr, CE->getArg(CommIdx), P, Line});
    }
    for (unsigned Idx : collectiveOutArgs(CE)) {
      const auto *AddrOf = dyn_cast<UnaryOperator>(CE->getArg(Idx)->IgnoreParenImpCasts());
      const VarDecl *V = AddrOf && AddrOf->getOpcode() == UO_AddrOf ? refVar(AddrOf->getSubExpr()) : nullptr;
      std::optional<unsigned> CommIdx = lookupFunction(CE->getDirectCallee()->getName())->find(Role::Comm);
      if (tracked(V) && CommIdx)
        Defs.push_back({Def::CollectiveOut, V, S, nullptr, CE->getArg(*CommIdx), P, Line});
    }
  }
}

void FunctionAnalysis::solve() {
  unsigned N = Cfg->getNumBlockIDs(), D = Defs.size();
  In.assign(N, llvm::BitVector(D));
  std::vector<llvm::BitVector> Gen(N, llvm::BitVector(D)), Kill(N, llvm::BitVector(D)), Out(N, llvm::BitVector(D));
  for (const CFGBlock *B : *Cfg) {
    unsigned ID = B->getBlockID();
    for (unsigned Index = 0; Index < B->size(); ++Index) {
      auto It = DefsAt.find({ID, Index});
      if (It == DefsAt.end())
        continue;
      for (unsigned DI : It->second) {
        const llvm::BitVector &All = DefsOfVar[Defs[DI].Var];
        Kill[ID] |= All;
        Gen[ID].reset(All);
        Gen[ID].set(DI);
      }
    }
  }
  unsigned EntryID = Cfg->getEntry().getBlockID();
  llvm::BitVector EntryDefs(D);
  for (unsigned I = 0; I < D; ++I)
    if (Defs[I].K == Def::Entry)
      EntryDefs.set(I);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *B : *Cfg) {
      unsigned ID = B->getBlockID();
      llvm::BitVector NewIn = ID == EntryID ? EntryDefs : llvm::BitVector(D);
      for (const CFGBlock *Pred : B->preds())
        if (Pred)
          NewIn |= Out[Pred->getBlockID()];
      llvm::BitVector NewOut = NewIn;
      NewOut.reset(Kill[ID]);
      NewOut |= Gen[ID];
      if (NewIn != In[ID] || NewOut != Out[ID]) {
        In[ID] = std::move(NewIn);
        Out[ID] = std::move(NewOut);
        Changed = true;
      }
    }
  }
}

void FunctionAnalysis::findAddressTaken() {
  struct Finder : RecursiveASTVisitor<Finder> {
    FunctionAnalysis &FA;
    llvm::DenseSet<const Expr *> Exempt;
    explicit Finder(FunctionAnalysis &FA) : FA(FA) {}
    bool VisitCallExpr(CallExpr *CE) {
      for (auto Out : queryOutArgs(CE))
        Exempt.insert(CE->getArg(Out.first)->IgnoreParenImpCasts());
      for (unsigned I : handleOutArgs(CE))
        Exempt.insert(CE->getArg(I)->IgnoreParenImpCasts());
      for (unsigned I : collectiveOutArgs(CE))
        Exempt.insert(CE->getArg(I)->IgnoreParenImpCasts());
      // &x as the send buffer of an MPI call (a const parameter): read, not
      // written, so x keeps its value (MPI_Send(&rank, ...)).
      const FunctionDecl *F = CE->getDirectCallee();
      const FunctionModel *M = F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
      for (unsigned I = 0; M && I < M->Args.size() && I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
        QualType T = F->getParamDecl(I)->getType();
        if (M->Args[I].R == Role::SendBuf && T->isPointerType() && T->getPointeeType().isConstQualified())
          Exempt.insert(CE->getArg(I)->IgnoreParenImpCasts());
      }
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->getOpcode() != UO_AddrOf || Exempt.count(U))
        return true;
      if (const VarDecl *V = refVar(U->getSubExpr()); tracked(V)) {
        FA.AddrTaken.try_emplace(V, FA.Ctx.getSourceManager().getExpansionLineNumber(U->getBeginLoc()));
        FA.AddrSites[V].push_back(U);
      }
      return true;
    }
  } F(*this);
  // Calls are visited before their arguments, so exemptions are known first.
  F.TraverseStmt(FD->getBody());
}

std::optional<Point> FunctionAnalysis::pointOf(const Stmt *S) const {
  auto It = Pos.find(S);
  if (It == Pos.end())
    return std::nullopt;
  return It->second;
}

std::vector<const Def *> FunctionAnalysis::reaching(const VarDecl *V, Point P) const {
  std::vector<const Def *> Result;
  if (!Cfg || P.Block >= In.size())
    return Result;
  llvm::BitVector S = In[P.Block];
  for (unsigned Index = 0; Index < P.Index; ++Index) {
    auto It = DefsAt.find({P.Block, Index});
    if (It == DefsAt.end())
      continue;
    for (unsigned DI : It->second) {
      S.reset(DefsOfVar.find(Defs[DI].Var)->second);
      S.set(DI);
    }
  }
  for (unsigned DI : S.set_bits())
    if (Defs[DI].Var == V)
      Result.push_back(&Defs[DI]);
  return Result;
}

std::string Def::setBy() const {
  const auto *CE = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier())
    return "";
  return llvm::formatv("{0} is set by {1} at line {2}", Var->getName(), F->getName(), Line).str();
}

bool FunctionAnalysis::addressReaches(const VarDecl *V, Point P) const {
  auto Sites = AddrSites.find(V);
  if (Sites == AddrSites.end())
    return false;
  std::vector<char> Seen(Cfg->getNumBlockIDs());
  std::vector<const CFGBlock *> Work;
  for (const Expr *E : Sites->second) {
    std::optional<Point> A = pointOf(E);
    if (!A)
      return true; // not placed on the CFG: it may be anywhere
    if (A->Block == P.Block && A->Index < P.Index)
      return true;
    for (const CFGBlock *B : *Cfg)
      if (B->getBlockID() == A->Block)
        Work.push_back(B);
  }
  // The blocks reachable from an address's block by at least one edge (a
  // loop brings the address back before it).
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = 1;
        Work.push_back(S);
      }
  }
  return Seen[P.Block];
}

std::optional<unsigned> FunctionAnalysis::addressTaken(const VarDecl *V) const {
  auto It = AddrTaken.find(V);
  if (It == AddrTaken.end())
    return std::nullopt;
  return It->second;
}

//===----------------------------------------------------------------------===//
// Evaluator
//===----------------------------------------------------------------------===//

Evaluator::Evaluator(ASTContext &Ctx, EvalOptions Opts) : Ctx(Ctx), Opts(Opts) {
  Index.build(Ctx);
  if (!this->Opts.UnseenCallers.empty())
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (const auto *F = dyn_cast<FunctionDecl>(D);
          F && F->getIdentifier() && llvm::is_contained(this->Opts.UnseenCallers, F->getName().str()))
        Index.AddressTaken.insert(F->getCanonicalDecl());
}

FunctionAnalysis &Evaluator::analysis(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD;
  FD->hasBody(Def);
  auto &Slot = Analyses[Def];
  if (!Slot)
    Slot = std::make_unique<FunctionAnalysis>(Def, Ctx);
  return *Slot;
}

unsigned Evaluator::line(const Stmt *S) const {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

std::optional<std::string> Evaluator::spelledHandle(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation B = E->getBeginLoc(), En = E->getEndLoc();
  // Walk out through the macro expansions that E exactly covers, innermost
  // first: MPICH's MPI_INT is one level, Open MPI's is
  // OMPI_PREDEFINED_GLOBAL(...) inside MPI_INT, a user's macro adds more.
  // The outermost handle name is the one the user wrote (MPICH defines
  // MPI_LONG_LONG as MPI_LONG_LONG_INT; Open MPI does not).
  std::optional<std::string> Found;
  // SimGrid's SMPI declares MPI_COMM_WORLD as a variable, not a macro: a
  // reference to a variable of that spelling that the MPI's header declares
  // (not the file being analysed) is the handle.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasExternalStorage() && lookupHandle(VD->getName()) && !SM.isInMainFile(VD->getLocation()))
        Found = VD->getName().str();
  for (int Level = 0; Level < 32; ++Level) {
    if (!B.isValid() || !En.isValid() || !B.isMacroID() || !En.isMacroID())
      return Found;
    // Written as an argument of another macro (CHECK(MPI_Allreduce(...,
    // MPI_INT, ...))): look at the argument's own tokens.
    if (SM.isMacroArgExpansion(B) && SM.isMacroArgExpansion(En)) {
      B = SM.getImmediateSpellingLoc(B);
      En = SM.getImmediateSpellingLoc(En);
      continue;
    }
    SourceLocation OuterB, OuterE;
    // The end test wants the location just past E's last token.
    unsigned Len = Lexer::MeasureTokenLength(SM.getSpellingLoc(En), SM, LO);
    if (Len == 0 || !SM.isAtStartOfImmediateMacroExpansion(B, &OuterB) ||
        !SM.isAtEndOfImmediateMacroExpansion(En.getLocWithOffset(Len), &OuterE))
      return Found;
    CharSourceRange RB = SM.getImmediateExpansionRange(B), RE = SM.getImmediateExpansionRange(En);
    if (RB.getBegin() != RE.getBegin() || RB.getEnd() != RE.getEnd())
      return Found; // begins and ends in different expansions
    llvm::StringRef Name = Lexer::getImmediateMacroName(B, SM, LO);
    if (lookupHandle(Name))
      Found = Name.str();
    B = OuterB;
    En = OuterE;
  }
  return Found;
}

std::string Evaluator::text(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (R.isInvalid()) {
    // Inside one macro's body (#define SYNC() MPI_Barrier(MPI_COMM_WORLD)):
    // the expression as the body spells it, not the macro's use.
    // Up the expansions to where this file spells it (MPI_COMM_WORLD is
    // itself a macro of mpi.h).
    auto Spelling = [&](SourceLocation L, bool End) {
      while (L.isMacroID() && !SM.isWrittenInMainFile(SM.getSpellingLoc(L))) {
        CharSourceRange X = SM.getImmediateExpansionRange(L);
        L = End ? X.getEnd() : X.getBegin();
      }
      return SM.getSpellingLoc(L);
    };
    SourceLocation B = Spelling(E->getBeginLoc(), false), En = Spelling(E->getEndLoc(), true);
    CharSourceRange Spelled = CharSourceRange::getTokenRange(B, En);
    llvm::StringRef T = SM.getFileID(B) == SM.getFileID(En) && !SM.isBeforeInTranslationUnit(En, B)
                            ? Lexer::getSourceText(Spelled, SM, LO)
                            : "";
    R = !T.empty() && !T.contains('#') && !T.contains('\n') ? Spelled : SM.getExpansionRange(E->getSourceRange());
  }
  bool Invalid = false;
  llvm::StringRef T = Lexer::getSourceText(R, SM, LO, &Invalid);
  if (Invalid)
    return "<expr>";
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (llvm::isSpace(C)) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

QualType Evaluator::typeOfSpelling(llvm::StringRef CType) const {
  static const std::pair<const char *, unsigned> Fixed[] = {{"int8_t", 8},    {"int16_t", 16}, {"int32_t", 32},
                                                            {"int64_t", 64},  {"uint8_t", 8},  {"uint16_t", 16},
                                                            {"uint32_t", 32}, {"uint64_t", 64}};
  for (auto &[Name, Bits] : Fixed)
    if (CType == Name)
      return Ctx.getIntTypeForBitwidth(Bits, /*Signed=*/Name[0] == 'i').getCanonicalType();
  QualType T = llvm::StringSwitch<QualType>(CType)
                   .Case("char", Ctx.CharTy)
                   .Case("signed char", Ctx.SignedCharTy)
                   .Case("unsigned char", Ctx.UnsignedCharTy)
                   .Case("short", Ctx.ShortTy)
                   .Case("unsigned short", Ctx.UnsignedShortTy)
                   .Case("int", Ctx.IntTy)
                   .Case("unsigned int", Ctx.UnsignedIntTy)
                   .Case("long", Ctx.LongTy)
                   .Case("unsigned long", Ctx.UnsignedLongTy)
                   .Case("long long", Ctx.LongLongTy)
                   .Case("unsigned long long", Ctx.UnsignedLongLongTy)
                   .Case("float", Ctx.FloatTy)
                   .Case("double", Ctx.DoubleTy)
                   .Case("long double", Ctx.LongDoubleTy)
                   .Case("_Bool", Ctx.BoolTy)
                   .Case("wchar_t", Ctx.getWideCharType())
                   .Default(QualType());
  if (!T.isNull())
    return T.getCanonicalType();
  // MPI_Aint, MPI_Offset, MPI_Count: typedefs of the MPI header in use.
  for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(CType)))
    if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
      return TD->getUnderlyingType().getCanonicalType();
  return QualType();
}

std::optional<int64_t> Evaluator::typeSize(llvm::StringRef CType) const {
  QualType T = typeOfSpelling(CType);
  if (T.isNull())
    return std::nullopt;
  return static_cast<int64_t>(Ctx.getTypeSizeInChars(T).getQuantity());
}

std::optional<int64_t> Evaluator::datatypeSize(llvm::StringRef Name) const {
  const HandleModel *H = lookupHandle(Name);
  if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty())
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 2> Parts;
  llvm::StringRef(H->CTypes).split(Parts, '+');
  int64_t Total = 0;
  for (llvm::StringRef P : Parts) {
    auto S = typeSize(P);
    if (!S)
      return std::nullopt;
    Total += *S;
  }
  return Total;
}

SymValue Evaluator::normalise(SymValue V, QualType T) const {
  if (V.K != SymValue::Int || T.isNull() || !T->isIntegralOrEnumerationType())
    return V;
  unsigned Width = Ctx.getIntWidth(T);
  if (T->isBooleanType()) {
    V.I = V.I != 0;
  } else if (Width < 64) {
    uint64_t Mask = (uint64_t(1) << Width) - 1;
    uint64_t U = static_cast<uint64_t>(V.I) & Mask;
    if (T->isSignedIntegerOrEnumerationType() && (U >> (Width - 1)))
      U |= ~Mask;
    V.I = static_cast<int64_t>(U);
  }
  return V;
}

SymValue Evaluator::evaluate(const Expr *E, const FunctionDecl *FD, const Stmt *Anchor) {
  FunctionAnalysis &FA = analysis(FD);
  if (!FA.valid())
    return SymValue::dyn("the function's control flow could not be analysed");
  auto P = FA.pointOf(Anchor);
  if (!P)
    return SymValue::dyn("the call is not on the function's control-flow graph");
  Depth = 0;
  return eval(E, &FA, *P);
}

std::vector<Evaluator::Alternative> Evaluator::alternatives(const Expr *E, const FunctionDecl *FD, const Stmt *Anchor) {
  std::vector<Alternative> Out;
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal())
    return Out;
  FunctionAnalysis &FA = analysis(FD);
  auto P = FA.valid() ? FA.pointOf(Anchor) : std::nullopt;
  if (!P || FA.addressTaken(V))
    return Out;
  std::vector<const Def *> Ds = FA.reaching(V, *P);
  if (Ds.size() < 2)
    return Out;
  Depth = 0;
  for (const Def *D : Ds)
    Out.push_back({normalise(evalDef(*D, FA), V->getType()), D->Line});
  return Out;
}

CommId Evaluator::commId(const Expr *E, const FunctionDecl *FD, const Stmt *Anchor) {
  FunctionAnalysis &FA = analysis(FD);
  auto P = FA.valid() ? FA.pointOf(Anchor) : std::nullopt;
  if (!P)
    return {};
  return commIdAt(E, &FA, *P);
}

/// What identifies a local communicator variable in a CommId's key (a
/// Created id's whole key; a Local id's key begins with it).
static std::string localKey(const VarDecl *V) {
  return llvm::formatv("{0}@{1}", V->getName(), static_cast<const void *>(V)).str();
}

CommId Evaluator::commIdAt(const Expr *E, FunctionAnalysis *FA, Point P) {
  SymValue V = eval(E, FA, P);
  if (V.K == SymValue::Handle)
    return {CommId::Predefined, V.Name};
  const VarDecl *Var = refVar(E);
  if (!Var)
    return {};
  if (!Var->hasLocalStorage())
    return Index.WrittenGlobals.count(Var->getCanonicalDecl()) ? CommId{}
                                                               : CommId{CommId::Global, Var->getName().str()};
  std::string Id = localKey(Var);
  if (FA && createdOnce(Var, FA->function()))
    return {CommId::Created, Id};
  if (!FA || FA->addressTaken(Var))
    return {};
  for (const Def *D : FA->reaching(Var, P))
    Id += llvm::formatv(":{0}", static_cast<const void *>(D)).str();
  return {CommId::Local, Id};
}

/// A local communicator variable that one call of a communicator
/// constructor (MPI_Comm_dup, MPI_Comm_split, ...), outside any loop,
/// defines; its address goes otherwise only to MPI_Comm_free and it is
/// otherwise only read: one communicator of its own wherever it is used.
bool Evaluator::createdOnce(const VarDecl *V, const FunctionDecl *F) {
  if (!V || !F || !F->hasBody() || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->hasInit())
    return false;
  auto [It, New] = CreatedOnce.try_emplace(V, false);
  if (!New)
    return It->second;
  bool Ok = true;
  unsigned Creations = 0;
  anyNode(F->getBody(), [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE || DRE->getDecl() != V)
      return false;
    auto Ps = Ctx.getParents(*DRE);
    const Stmt *P = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P); IC && IC->getCastKind() == CK_LValueToRValue)
      return false; // read
    const auto *U = dyn_cast_or_null<UnaryOperator>(P);
    auto UPs = U && U->getOpcode() == UO_AddrOf ? Ctx.getParents(*U) : DynTypedNodeList(DynTypedNode());
    const auto *CE = UPs.empty() ? nullptr : UPs[0].get<CallExpr>();
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    llvm::StringRef N = G && G->getIdentifier() ? G->getName() : "";
    if (createsCommunicator(N) && enclosingLoops(Ctx, CE).empty()) {
      ++Creations;
      CreatedBy[V] = {CE, F};
    } else if (!endsCommunicator(N))
      Ok = false;
    return !Ok;
  });
  return It->second = Ok && Creations == 1;
}

std::optional<CommId> Evaluator::dupParent(const CommId &Id) {
  if (Id.K != CommId::Created)
    return std::nullopt;
  for (const auto &[V, By] : CreatedBy) {
    const auto &[CE, F] = By;
    // A duplicate's ranks are its parent's.
    std::optional<unsigned> Parent = duplicatedCommArg(calleeName(CE));
    if (!Parent || CE->getNumArgs() < 2 || *Parent >= CE->getNumArgs() || localKey(V) != Id.Key)
      continue;
    return commId(CE->getArg(*Parent), F, CE);
  }
  return std::nullopt;
}

bool Evaluator::sameRanks(const CommId &A, const CommId &B) {
  if (!A.known() || !B.known())
    return false;
  if (A == B)
    return true;
  // Up the chains of duplicates of each (a few links at most).
  std::vector<CommId> Up{A};
  for (unsigned I = 0; I < 8; ++I) {
    std::optional<CommId> P = dupParent(Up.back());
    if (!P || !P->known())
      break;
    Up.push_back(*P);
  }
  CommId X = B;
  for (unsigned I = 0; I < 8; ++I) {
    if (std::find(Up.begin(), Up.end(), X) != Up.end())
      return true;
    std::optional<CommId> P = dupParent(X);
    if (!P || !P->known())
      return false;
    X = *P;
  }
  return false;
}

SymValue Evaluator::eval(const Expr *E, FunctionAnalysis *FA, Point P) {
  if (!E)
    return SymValue::dyn("no expression");
  if (Depth > 256)
    return SymValue::dyn("expression too deep to evaluate");
  if (auto H = spelledHandle(E))
    return SymValue::handle(*H);
  ++Depth;
  SymValue V = evalNode(E, FA, P);
  --Depth;
  return simplify(normalise(std::move(V), E->getType()));
}

/// The value of one expression node, by its kind; subexpressions go back
/// through Evaluator::eval (depth limit, handles, normalisation).
class Evaluator::NodeEval : public ConstStmtVisitor<NodeEval, SymValue> {
public:
  NodeEval(Evaluator &Ev, FunctionAnalysis *FA, Point P) : Ev(Ev), FA(FA), P(P) {}

  SymValue VisitParenExpr(const ParenExpr *E) { return eval(E->getSubExpr()); }
  SymValue VisitCastExpr(const CastExpr *CE);
  SymValue VisitIntegerLiteral(const IntegerLiteral *IL) {
    const llvm::APInt &V = IL->getValue();
    if (V.getActiveBits() > 63)
      return SymValue::dyn("integer too large");
    return SymValue::integer(static_cast<int64_t>(V.getZExtValue()));
  }
  SymValue VisitCharacterLiteral(const CharacterLiteral *CL) { return SymValue::integer(CL->getValue()); }
  SymValue VisitUnaryExprOrTypeTraitExpr(const UnaryExprOrTypeTraitExpr *E) { return constant(E); }
  SymValue VisitOffsetOfExpr(const OffsetOfExpr *E) { return constant(E); }
  SymValue VisitDeclRefExpr(const DeclRefExpr *DRE) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return SymValue::integer(EC->getInitVal().getExtValue());
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return Ev.evalVar(V, DRE, FA, P);
    return SymValue::dyn(DRE->getDecl()->getNameAsString() + " is not a variable");
  }
  SymValue VisitUnaryOperator(const UnaryOperator *UO);
  SymValue VisitBinaryOperator(const BinaryOperator *BO);
  SymValue VisitConditionalOperator(const ConditionalOperator *CO);
  SymValue VisitCallExpr(const CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    return SymValue::dyn(F ? "result of a call to " + F->getNameAsString() : "result of an indirect call");
  }
  SymValue VisitArraySubscriptExpr(const ArraySubscriptExpr *E) { return SymValue::dyn("array element " + Ev.text(E)); }
  SymValue VisitMemberExpr(const MemberExpr *E) { return SymValue::dyn("structure member " + Ev.text(E)); }
  SymValue VisitExpr(const Expr *E) { return SymValue::dyn("expression " + Ev.text(E) + " is not evaluated"); }
  SymValue VisitStmt(const Stmt *) { return SymValue::dyn("not an expression"); }

private:
  Evaluator &Ev;
  FunctionAnalysis *FA;
  Point P;

  SymValue eval(const Expr *E) { return Ev.eval(E, FA, P); }
  /// sizeof, _Alignof, offsetof: constants unless of a variable-length type.
  SymValue constant(const Expr *E) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ev.Ctx))
      return SymValue::integer(R.Val.getInt().getExtValue());
    return SymValue::dyn("size of a variable-length type");
  }
};

SymValue Evaluator::NodeEval::VisitCastExpr(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_NullToPointer:
    return SymValue::handle("NULL");
  case CK_ArrayToPointerDecay: {
    const Expr *S = Sub->IgnoreParens();
    if (const VarDecl *V = refVar(S)) {
      SymValue A;
      A.K = SymValue::Address;
      A.Name = V->getName().str();
      A.Obj = V;
      A.Spelled = A.Name;
      return A;
    }
    if (isa<MemberExpr>(S))
      return Ev.evalAddressOf(S, FA, P);
    return SymValue::dyn("address of " + Ev.text(S));
  }
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
    return SymValue::dyn("floating-point value");
  case CK_FunctionToPointerDecay:
    return SymValue::dyn("function pointer");
  default:
    return eval(Sub);
  }
}

SymValue Evaluator::NodeEval::VisitUnaryOperator(const UnaryOperator *UO) {
  switch (UO->getOpcode()) {
  case UO_AddrOf:
    return Ev.evalAddressOf(UO->getSubExpr(), FA, P);
  case UO_Plus:
    return eval(UO->getSubExpr());
  case UO_Minus:
  case UO_Not:
  case UO_LNot:
    break;
  case UO_Deref:
    return SymValue::dyn("value read through a pointer");
  default:
    return SymValue::dyn("side effect in the argument");
  }
  SymValue S = eval(UO->getSubExpr());
  if (S.K == SymValue::Dynamic)
    return S;
  if (S.K == SymValue::Affine && UO->getOpcode() == UO_Minus && S.A.Mod == AffineForm::NoMod) {
    S.A.Rank = -S.A.Rank;
    S.A.Size = -S.A.Size;
    S.A.Const = -S.A.Const;
    return S;
  }
  if (S.K != SymValue::Int)
    return SymValue::dyn("operator applied to " + Ev.text(UO->getSubExpr()));
  if (UO->getOpcode() == UO_Minus)
    return S.I == INT64_MIN ? SymValue::dyn("integer overflow") : SymValue::integer(-S.I);
  if (UO->getOpcode() == UO_Not)
    return SymValue::integer(~S.I);
  return SymValue::integer(!S.I);
}

SymValue Evaluator::NodeEval::VisitBinaryOperator(const BinaryOperator *BO) {
  if (BO->isAssignmentOp())
    return SymValue::dyn("assignment inside the argument");
  if (BO->getOpcode() == BO_Comma)
    return eval(BO->getRHS());
  SymValue L = eval(BO->getLHS());
  if (L.K == SymValue::Dynamic)
    return L;
  // Short-circuit operators with a static left operand.
  if (L.K == SymValue::Int && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    if ((BO->getOpcode() == BO_LAnd) == (L.I == 0))
      return SymValue::integer(BO->getOpcode() == BO_LOr);
  }
  SymValue R = eval(BO->getRHS());
  if (R.K == SymValue::Dynamic)
    return R;
  return Ev.evalBinary(BO->getOpcode(), L, R, BO);
}

SymValue Evaluator::NodeEval::VisitConditionalOperator(const ConditionalOperator *CO) {
  SymValue C = eval(CO->getCond());
  if (C.K == SymValue::Int)
    return eval(C.I ? CO->getTrueExpr() : CO->getFalseExpr());
  SymValue T = eval(CO->getTrueExpr()), F = eval(CO->getFalseExpr());
  if (T.K != SymValue::Dynamic && T.same(F))
    return T;
  if (C.K == SymValue::Dynamic)
    return SymValue::dyn("depends on the condition " + Ev.text(CO->getCond()) + ", which is not static");
  return SymValue::dyn("depends on the rank: " + Ev.text(CO->getCond()));
}

SymValue Evaluator::evalNode(const Expr *E, FunctionAnalysis *FA, Point P) { return NodeEval(*this, FA, P).Visit(E); }

SymValue Evaluator::evalAddressOf(const Expr *Sub, FunctionAnalysis *FA, Point P) {
  Sub = Sub->IgnoreParens();
  if (const VarDecl *V = refVar(Sub)) {
    SymValue A;
    A.K = SymValue::Address;
    A.Name = V->getName().str();
    A.Obj = V;
    A.Spelled = "&" + A.Name;
    return A;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
    SymValue Base = eval(AS->getBase(), FA, P);
    SymValue Idx = eval(AS->getIdx(), FA, P);
    if (Base.K != SymValue::Address)
      return Base.K == SymValue::Dynamic ? Base : SymValue::dyn("address of " + text(Sub));
    if (Idx.K != SymValue::Int)
      return Idx.K == SymValue::Dynamic ? Idx : SymValue::dyn("index " + text(AS->getIdx()) + " depends on the rank");
    auto ElemSize = staticSize(Ctx, AS->getType());
    if (!ElemSize || *ElemSize == 0)
      return SymValue::dyn("element of a variable-length array in " + text(Sub));
    int64_t Elem = *ElemSize, Step = 0;
    if (llvm::MulOverflow(Idx.I, Elem, Step) || llvm::AddOverflow(Base.Offset, Step, Base.Offset))
      return SymValue::dyn("the offset of " + text(Sub) + " does not fit 64 bits");
    Base.Spelled = Base.Offset == 0 ? Base.Name : "&" + Base.Name + "[" + std::to_string(Base.Offset / Elem) + "]";
    if (Base.Offset % Elem)
      Base.Spelled = "&" + text(Sub);
    return Base;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Sub); ME && !ME->isArrow()) {
    SymValue Base = evalAddressOf(ME->getBase(), FA, P);
    if (Base.K != SymValue::Address)
      return Base;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField())
      return SymValue::dyn("address of " + text(Sub));
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
    Base.Offset += static_cast<int64_t>(L.getFieldOffset(FD->getFieldIndex()) / Ctx.getCharWidth());
    Base.Spelled = "&" + text(Sub);
    return Base;
  }
  return SymValue::dyn("address of " + text(Sub));
}

SymValue Evaluator::evalVar(const VarDecl *V, const Expr *Ref, FunctionAnalysis *FA, Point P) {
  std::string Name = V->getName().str();
  if (V->getType().isVolatileQualified())
    return SymValue::dyn(Name + " is volatile");
  if (V->hasLocalStorage()) {
    if (!FA || !tracked(V))
      return SymValue::dyn(Name + " is not a scalar variable");
    return evalLocal(V, *FA, P);
  }
  return evalGlobal(V);
}

SymValue Evaluator::evalLocal(const VarDecl *V, FunctionAnalysis &FA, Point P) {
  std::string Name = V->getName().str();
  // Before any point where its address is taken, nothing can write V
  // through a pointer: its definitions decide.
  if (auto L = FA.addressTaken(V); L && FA.addressReaches(V, P))
    return SymValue::dyn(llvm::formatv("address of {0} is taken at line {1}", Name, *L).str());
  std::vector<const Def *> Ds = FA.reaching(V, P);
  if (Ds.empty())
    return SymValue::dyn(Name + " has no definition here");
  std::vector<SymValue> Vals;
  for (const Def *D : Ds)
    Vals.push_back(evalDef(*D, FA));
  if (Vals.size() == 1)
    return Vals.front();
  bool AllSame = Vals.front().K != SymValue::Dynamic;
  for (const SymValue &X : Vals)
    AllSame = AllSame && X.same(Vals.front());
  if (AllSame)
    return Vals.front();
  std::set<unsigned> Lines;
  for (const Def *D : Ds)
    Lines.insert(D->Line);
  std::vector<std::string> LS;
  for (unsigned L : Lines)
    LS.push_back(std::to_string(L));
  return SymValue::dyn(llvm::formatv("{0} has {1} reaching definitions ({2} {3})", Name, Ds.size(),
                                     LS.size() == 1 ? "line" : "lines", llvm::join(LS, ", "))
                           .str());
}

SymValue Evaluator::evalDef(const Def &D, FunctionAnalysis &FA) {
  auto Memo = DefMemo.find(&D);
  if (Memo != DefMemo.end())
    return Memo->second;
  std::string Name = D.Var->getName().str();
  if (!DefBusy.insert(&D).second) {
    if (D.K == Def::Entry)
      return SymValue::dyn(llvm::formatv("{0} is called recursively", FA.function()->getName()).str());
    return SymValue::dyn(llvm::formatv("{0} depends on its own earlier value (line {1})", Name, D.Line).str());
  }
  SymValue R;
  switch (D.K) {
  case Def::Init:
  case Def::Assign:
    R = eval(D.Value, &FA, D.P);
    break;
  case Def::NoInit:
    R = SymValue::dyn(llvm::formatv("{0} is declared without a value (line {1})", Name, D.Line).str());
    break;
  case Def::Compound: {
    const auto *BO = cast<CompoundAssignOperator>(D.S);
    SymValue Old = evalLocal(D.Var, FA, D.P);
    SymValue Rhs = eval(D.Value, &FA, D.P);
    if (Old.K == SymValue::Dynamic)
      R = Old;
    else if (Rhs.K == SymValue::Dynamic)
      R = Rhs;
    else
      R = evalBinary(BinaryOperator::getOpForCompoundAssignment(BO->getOpcode()), Old, Rhs, BO);
    break;
  }
  case Def::IncDec: {
    const auto *UO = cast<UnaryOperator>(D.S);
    SymValue Old = evalLocal(D.Var, FA, D.P);
    R = Old.K == SymValue::Dynamic
            ? Old
            : evalBinary(UO->isIncrementOp() ? BO_Add : BO_Sub, Old, SymValue::integer(1), UO->getSubExpr());
    break;
  }
  case Def::RankOut:
  case Def::SizeOut: {
    CommId Key = commIdAt(D.Comm, &FA, D.P);
    if (!Key.known()) {
      R = SymValue::dyn(llvm::formatv("{0} of a communicator that cannot be identified (line {1})",
                                      D.K == Def::RankOut ? "rank" : "size", D.Line)
                            .str());
      break;
    }
    R.K = SymValue::Affine;
    (D.K == Def::RankOut ? R.A.Rank : R.A.Size) = 1;
    R.Comm = Key;
    break;
  }
  case Def::Output:
  case Def::CollectiveOut:
    R = SymValue::dyn(D.setBy());
    break;
  case Def::Entry:
    R = evalParam(cast<ParmVarDecl>(D.Var));
    break;
  }
  R = normalise(std::move(R), D.Var->getType());
  DefBusy.erase(&D);
  DefMemo[&D] = R;
  return R;
}

SymValue Evaluator::evalParam(const ParmVarDecl *PV) {
  const auto *FD = dyn_cast<FunctionDecl>(PV->getDeclContext());
  std::string Name = PV->getName().str();
  if (!FD)
    return SymValue::dyn(Name + " is a parameter");
  std::string Fn = FD->getNameAsString();
  if (FD->isMain())
    return SymValue::dyn(Name + " is a parameter of main");
  if (FD->isExternallyVisible() && !(Opts.ClosedWorld && Index.DefinesMain))
    return SymValue::dyn(llvm::formatv("{0} is a parameter of {1}, which other files may call", Name, Fn).str());
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  if (Index.AddressTaken.count(Canon))
    return SymValue::dyn(llvm::formatv("{0} is a parameter of {1}, whose address is taken", Name, Fn).str());
  auto It = Index.CallSites.find(Canon);
  if (It == Index.CallSites.end() || It->second.empty())
    return SymValue::dyn(llvm::formatv("{0} has no call site in this file", Fn).str());
  if (!ParamBusy.insert(PV).second)
    return SymValue::dyn(llvm::formatv("{0} is called recursively", Fn).str());
  unsigned Idx = PV->getFunctionScopeIndex();
  SymValue First;
  unsigned FirstLine = 0;
  bool Ok = true;
  for (auto [Caller, CE] : It->second) {
    unsigned L = line(CE);
    SymValue V;
    FunctionAnalysis &CFA = analysis(Caller);
    auto P = CFA.valid() ? CFA.pointOf(CE) : std::nullopt;
    if (Idx >= CE->getNumArgs() || !P)
      V = SymValue::dyn("call not analysed");
    else
      V = eval(CE->getArg(Idx), &CFA, *P);
    if (V.K == SymValue::Affine && (V.Comm.K == CommId::Local || V.Comm.K == CommId::Created))
      V = SymValue::dyn("rank of a caller's local communicator");
    if (V.K == SymValue::Dynamic) {
      First = SymValue::dyn(llvm::formatv("{0} at line {1} passes a dynamic value: {2}", Fn, L, V.Reason).str());
      Ok = false;
      break;
    }
    if (!FirstLine) {
      First = V;
      FirstLine = L;
    } else if (!V.same(First)) {
      First = SymValue::dyn(
          llvm::formatv("calls of {0} pass different values (lines {1} and {2})", Fn, FirstLine, L).str());
      Ok = false;
      break;
    }
  }
  ParamBusy.erase(PV);
  if (Ok) {
    size_t N = It->second.size();
    First.Note = llvm::formatv("same value at {0} call site{1} of {2}", N, N == 1 ? "" : "s", Fn).str();
  }
  return First;
}

SymValue Evaluator::evalGlobal(const VarDecl *V) {
  std::string Name = V->getName().str();
  const VarDecl *Def = V->getDefinition() ? V->getDefinition() : V;
  const Expr *Init = Def->getAnyInitializer();
  if (V->getType().isConstQualified() && Init)
    return eval(Init, nullptr, {});
  auto W = Index.WrittenGlobals.find(V->getCanonicalDecl());
  if (W != Index.WrittenGlobals.end())
    return SymValue::dyn(llvm::formatv("{0} is modified at line {1}", Name, W->second).str());
  if (V->isExternallyVisible() && !(Opts.ClosedWorld && Index.DefinesMain))
    return SymValue::dyn(Name + " is a global variable that other files may modify");
  if (!V->getType()->isScalarType())
    return SymValue::dyn(Name + " is not a scalar variable");
  if (Init)
    return eval(Init, nullptr, {});
  if (!V->hasExternalStorage() && V->getType()->isIntegerType())
    return SymValue::integer(0);
  return SymValue::dyn(Name + " is defined in another file");
}

SymValue Evaluator::evalBinary(BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const Expr *E) {
  if (L.K == SymValue::Handle || R.K == SymValue::Handle)
    return SymValue::dyn("arithmetic or comparison on an MPI handle in " + text(E));
  if (L.K == SymValue::Address || R.K == SymValue::Address)
    return evalPointerArithmetic(Op, L, R, E);
  if (L.K == SymValue::Int && R.K == SymValue::Int)
    return evalIntegers(Op, L, R, E);
  return evalAffine(Op, L, R, E);
}

/// Pointer arithmetic on a known address.
SymValue Evaluator::evalPointerArithmetic(BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const Expr *E) {
  const SymValue &A = L.K == SymValue::Address ? L : R;
  const SymValue &N = L.K == SymValue::Address ? R : L;
  QualType PT = E->getType();
  if (N.K != SymValue::Int || !PT->isPointerType() || (Op != BO_Add && !(Op == BO_Sub && &A == &L)))
    return SymValue::dyn("pointer arithmetic in " + text(E));
  QualType Pointee = PT->getPointeeType();
  auto ElemSize = Pointee->isVoidType() ? std::optional<int64_t>(1) : staticSize(Ctx, Pointee);
  if (!ElemSize || *ElemSize == 0)
    return SymValue::dyn("pointer arithmetic on a type of unknown size in " + text(E));
  int64_t Elem = *ElemSize;
  SymValue Out = A;
  Out.Offset += (Op == BO_Add ? N.I : -N.I) * Elem;
  Out.Spelled = Out.Offset == 0 ? A.Name : "&" + text(E);
  if (Out.Offset != 0 && Out.Offset % Elem == 0)
    Out.Spelled = "&" + A.Name + "[" + std::to_string(Out.Offset / Elem) + "]";
  return Out;
}

/// Both operands static: C's arithmetic, every overflow and undefined case
/// dynamic.
SymValue Evaluator::evalIntegers(BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const Expr *E) {
  int64_t A = L.I, B = R.I, Out = 0;
  bool Unsigned = E->getType()->isUnsignedIntegerType();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    Unsigned = Unsigned || BO->getLHS()->getType()->isUnsignedIntegerType();
  if (Unsigned && (A < 0 || B < 0))
    return SymValue::dyn("unsigned value out of range in " + text(E));
  switch (Op) {
  case BO_Add:
    if (__builtin_add_overflow(A, B, &Out))
      return SymValue::dyn("integer overflow in " + text(E));
    return SymValue::integer(Out);
  case BO_Sub:
    if (__builtin_sub_overflow(A, B, &Out))
      return SymValue::dyn("integer overflow in " + text(E));
    return SymValue::integer(Out);
  case BO_Mul:
    if (__builtin_mul_overflow(A, B, &Out))
      return SymValue::dyn("integer overflow in " + text(E));
    return SymValue::integer(Out);
  case BO_Div:
  case BO_Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return SymValue::dyn("division by zero in " + text(E));
    return SymValue::integer(Op == BO_Div ? A / B : A % B);
  case BO_Shl:
  case BO_Shr:
    if (B < 0 || B >= 63 || (Op == BO_Shl && A < 0))
      return SymValue::dyn("shift out of range in " + text(E));
    return SymValue::integer(Op == BO_Shl ? A << B : A >> B);
  case BO_And:
    return SymValue::integer(A & B);
  case BO_Or:
    return SymValue::integer(A | B);
  case BO_Xor:
    return SymValue::integer(A ^ B);
  case BO_LT:
    return SymValue::integer(A < B);
  case BO_GT:
    return SymValue::integer(A > B);
  case BO_LE:
    return SymValue::integer(A <= B);
  case BO_GE:
    return SymValue::integer(A >= B);
  case BO_EQ:
    return SymValue::integer(A == B);
  case BO_NE:
    return SymValue::integer(A != B);
  case BO_LAnd:
    return SymValue::integer(A && B);
  case BO_LOr:
    return SymValue::integer(A || B);
  default:
    return SymValue::dyn("operator in " + text(E));
  }
}

/// Affine forms in the rank and size of one communicator.
SymValue Evaluator::evalAffine(BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const Expr *E) {
  auto AsAffine = [](const SymValue &V) {
    SymValue A = V;
    if (V.K == SymValue::Int) {
      A.K = SymValue::Affine;
      A.A = AffineForm{};
      A.A.Const = V.I;
    }
    return A;
  };
  SymValue A = AsAffine(L), B = AsAffine(R);
  if (A.K != SymValue::Affine || B.K != SymValue::Affine)
    return SymValue::dyn("expression " + text(E) + " is not evaluated");
  bool LInt = L.K == SymValue::Int, RInt = R.K == SymValue::Int;
  if (!LInt && !RInt && A.Comm != B.Comm)
    return SymValue::dyn("mixes ranks or sizes of different communicators in " + text(E));
  SymValue Out;
  Out.K = SymValue::Affine;
  Out.Comm = LInt ? B.Comm : A.Comm;
  bool NoMod = A.A.Mod == AffineForm::NoMod && B.A.Mod == AffineForm::NoMod;
  // a*rank + s*size + c forms: every coefficient is checked for overflow.
  auto Overflow = [&] { return SymValue::dyn("integer overflow in " + text(E)); };
  auto Scaled = [](const AffineForm &F, int64_t K, AffineForm &To) {
    To = F;
    return __builtin_mul_overflow(F.Rank, K, &To.Rank) || __builtin_mul_overflow(F.Size, K, &To.Size) ||
           __builtin_mul_overflow(F.Const, K, &To.Const);
  };
  auto Combine = [&](int64_t Sign) -> SymValue {
    AffineForm NB;
    if (Scaled(B.A, Sign, NB) || __builtin_add_overflow(A.A.Rank, NB.Rank, &Out.A.Rank) ||
        __builtin_add_overflow(A.A.Size, NB.Size, &Out.A.Size) ||
        __builtin_add_overflow(A.A.Const, NB.Const, &Out.A.Const))
      return Overflow();
    return simplify(Out);
  };
  switch (Op) {
  case BO_Add:
    if (NoMod)
      return Combine(1);
    break;
  case BO_Sub:
    if (NoMod)
      return Combine(-1);
    break;
  case BO_Mul:
    if (NoMod && (LInt || RInt)) {
      if (Scaled(LInt ? B.A : A.A, LInt ? L.I : R.I, Out.A))
        return Overflow();
      return simplify(Out);
    }
    break;
  case BO_Rem:
    if (A.A.Mod != AffineForm::NoMod)
      break;
    if (RInt && R.I > 0) {
      Out.A = A.A;
      Out.A.Mod = AffineForm::ModConst;
      Out.A.ModValue = R.I;
      return simplify(Out);
    }
    if (!RInt && B.A.Rank == 0 && B.A.Size == 1 && B.A.Const == 0 && B.A.Mod == AffineForm::NoMod) {
      Out.A = A.A;
      Out.A.Mod = AffineForm::ModSize;
      return Out;
    }
    break;
  default:
    break;
  }
  return SymValue::dyn("not an affine function of the rank and size");
}
