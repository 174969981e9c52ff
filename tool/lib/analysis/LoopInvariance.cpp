//===- LoopInvariance.cpp - What stays the same in every iteration --------===//
#include "analysis/LoopInvariance.h"
#include "analysis/Effects.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

/// The expression of an argument without conversions.
const Expr *bare(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

/// Whether the argument E gives a callee the address of V or of a part of
/// it (&v, &v[i], &s.f, or an array v): a callee can write V only so.
bool names(const Expr *E, const VarDecl *V) {
  E = bare(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return rootVar(bare(U->getSubExpr())) == V;
  return E->getType()->isArrayType() && rootVar(E) == V;
}

} // namespace

unsigned LoopInvariance::line(const Stmt *S) const {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

bool LoopInvariance::inside(SourceLocation L, const Stmt *Loop) const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Off = [&](SourceLocation X) { return SM.getFileOffset(SM.getExpansionLoc(X)); };
  return Off(Loop->getBeginLoc()) <= Off(L) && Off(L) <= Off(Loop->getEndLoc());
}

std::optional<std::string> LoopInvariance::varies(const Expr *E, const Stmt *Loop, const FunctionDecl *F) {
  if (!E)
    return std::string("no expression");
  if (Ev.spelledHandle(E))
    return std::nullopt; // a predefined handle or constant
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return varies(CE->getSubExpr(), Loop, F);
  if (isa<IntegerLiteral, CharacterLiteral, FloatingLiteral, UnaryExprOrTypeTraitExpr, OffsetOfExpr>(E))
    return std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl, FunctionDecl>(DRE->getDecl()))
      return std::nullopt;
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return variesVar(V, DRE, Loop, F);
    return "'" + Ev.text(E) + "' is not a variable";
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf) {
      // &x, &a[i], &s.f: the address of a named object moves with its indices.
      const Expr *Sub = bare(U->getSubExpr());
      if (const VarDecl *V = rootVar(Sub); V && inside(V->getLocation(), Loop))
        return llvm::formatv("{0} is declared inside the loop", V->getName()).str();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
        return varies(AS->getIdx(), Loop, F);
      if (rootVar(Sub))
        return std::nullopt;
      return "the address " + Ev.text(E) + " is computed through a pointer";
    }
    if (U->isIncrementDecrementOp())
      return "'" + Ev.text(E) + "' changes a variable";
    if (U->getOpcode() == UO_Deref)
      return "'" + Ev.text(E) + "' reads through a pointer";
    return varies(U->getSubExpr(), Loop, F);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return "'" + Ev.text(E) + "' assigns";
    if (auto W = varies(B->getLHS(), Loop, F))
      return W;
    return varies(B->getRHS(), Loop, F);
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    for (const Expr *Part : {C->getCond(), C->getTrueExpr(), C->getFalseExpr()})
      if (auto W = varies(Part, Loop, F))
        return W;
    return std::nullopt;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const VarDecl *V = rootVar(AS);
    if (!V)
      return "'" + Ev.text(E) + "' reads through a pointer";
    if (auto W = varies(AS->getIdx(), Loop, F))
      return W;
    return written(V, Loop, F);
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const VarDecl *V = rootVar(M);
    if (!V)
      return "'" + Ev.text(E) + "' reads through a pointer";
    return written(V, Loop, F);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *G = CE->getDirectCallee();
    return llvm::formatv("'{0}' calls {1}", Ev.text(E), G ? G->getName() : "through a pointer").str();
  }
  return "'" + Ev.text(E) + "' is not analysed";
}

std::optional<std::string> LoopInvariance::variesVar(const VarDecl *V, const Expr *Ref, const Stmt *Loop,
                                                     const FunctionDecl *F) {
  if (V->getType()->isArrayType())
    // An array names its first element's address.
    return inside(V->getLocation(), Loop)
               ? std::optional<std::string>(V->getName().str() + " is declared inside the loop")
               : std::nullopt;
  if (V->getType().isVolatileQualified())
    return V->getName().str() + " is volatile";
  FunctionAnalysis &FA = Ev.analysis(F);
  if (V->hasLocalStorage() && FA.valid() && !FA.addressTaken(V)) {
    for (const Def &D : FA.defs()) {
      if (D.Var != V || !D.S || !inside(D.S->getBeginLoc(), Loop))
        continue;
      if (std::string By = D.setBy(); !By.empty())
        return By + ", inside the loop";
      return llvm::formatv("{0} is assigned at line {1}, inside the loop", V->getName(), D.Line).str();
    }
    return std::nullopt;
  }
  return written(V, Loop, F);
}

std::optional<std::string> LoopInvariance::written(const VarDecl *V, const Stmt *Loop, const FunctionDecl *F) {
  if (V->getType().isConstQualified() && !V->getType().isVolatileQualified())
    return std::nullopt;
  FunctionAnalysis &FA = Ev.analysis(F);
  bool AddressTaken = !V->hasLocalStorage() || !FA.valid() || FA.addressTaken(V).has_value();
  return writesIn(Loop, V, AddressTaken);
}

/// The first statement of Body that may write V: an assignment or increment
/// of V (or an element or member), a call that may, or (when V's address
/// is taken) a write through a pointer.
std::optional<std::string> LoopInvariance::writesIn(const Stmt *Body, const VarDecl *V, bool AddressTaken) {
  std::optional<std::string> Why;
  anyNode(Body, [&](const Stmt *N) {
    if (const Expr *Target = assignedLValue(N)) {
      const Expr *L = bare(Target);
      if (rootVar(L) == V || (AddressTaken && !rootVar(L) && !isa<DeclRefExpr>(L)))
        Why = llvm::formatv("{0} is written at line {1}, inside the loop", V->getName(), line(N)).str();
    } else if (const auto *CE = dyn_cast<CallExpr>(N)) {
      Why = callWrites(CE, V, AddressTaken);
    }
    return Why.has_value();
  });
  return Why;
}

/// Whether the call CE may write V: an MPI call through an output argument
/// naming V; another call given V's address, or (for a global, or when V's
/// address is taken) one whose body may write it or that this file cannot see.
std::optional<std::string> LoopInvariance::callWrites(const CallExpr *CE, const VarDecl *V, bool AddressTaken) {
  const FunctionDecl *G = CE->getDirectCallee();
  llvm::StringRef Name = G && G->getIdentifier() ? G->getName() : "";
  auto Says = [&](llvm::StringRef How) {
    return llvm::formatv("{0} at line {1} {2}", Name.empty() ? "a call through a pointer" : Name, line(CE), How).str();
  };
  if (const FunctionModel *M = lookupFunction(Name)) {
    for (unsigned I = 0; I < CE->getNumArgs() && I < M->Args.size(); ++I) {
      Role R = M->Args[I].R;
      bool Reads = R == Role::SendBuf || isCountRole(R) || R == Role::SendCounts || R == Role::RecvCounts ||
                   R == Role::SendDispls || R == Role::RecvDispls || isDatatypeRole(R) || isPeerRole(R) ||
                   isTagRole(R) || R == Role::Comm || R == Role::Op || R == Role::Info;
      if (!Reads && names(CE->getArg(I), V))
        return Says("may write " + V->getName().str());
    }
    return std::nullopt;
  }
  // Unmodelled MPI functions, builtins and the C library write only what
  // their arguments point to.
  if (isMPIFunctionName(Name) || (G && (G->getBuiltinID() || Eff.isLibrary(G)))) {
    bool Passed = false;
    for (const Expr *A : CE->arguments())
      Passed = Passed || names(A, V);
    return Passed ? std::optional<std::string>(Says("is given " + V->getName().str())) : std::nullopt;
  }
  for (const Expr *A : CE->arguments())
    if (names(A, V))
      return Says("is given " + V->getName().str());
  if (!AddressTaken)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!G || !G->hasBody(Def))
    return Says("may write " + V->getName().str() + " (its body is not in this file)");
  if (!Busy.insert(Def).second)
    return std::nullopt; // already being searched
  std::optional<std::string> Inner = writesIn(Def->getBody(), V, true);
  Busy.erase(Def);
  return Inner ? std::optional<std::string>(Says("writes " + V->getName().str() + ": " + *Inner)) : std::nullopt;
}

std::optional<std::string> LoopInvariance::contentsWritten(const Expr *E, const Stmt *Loop, const FunctionDecl *F) {
  const Expr *B = bare(E);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(B); U && U->getOpcode() == UO_AddrOf)
    B = bare(U->getSubExpr()); // &a[k]: the array a
  while (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(B))
    B = bare(AS->getBase());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(B); BO && BO->isAdditiveOp())
    B = bare(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS()); // p + k
  const VarDecl *V = namedVar(B);
  if (!V)
    return "the array is reached through an expression the analysis cannot follow";
  if (V->getType()->isArrayType())
    return written(V, Loop, F);
  if (V->getType()->isPointerType())
    return pointeeWritten(V, Loop, F);
  return V->getName().str() + " is not an array";
}

namespace {

/// Whether CE is a call of malloc, calloc or realloc (fresh memory).
bool allocates(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
  return G && G->getIdentifier() && llvm::is_contained({"malloc", "calloc", "realloc"}, G->getName());
}

/// The call an argument expression A belongs to, with A's index, through
/// parentheses and casts.
std::pair<const CallExpr *, unsigned> callOfArg(ASTContext &Ctx, const Expr *A) {
  const Expr *Child = nullptr;
  const auto *CE = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, A, &Child));
  if (!CE)
    return {nullptr, 0};
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (CE->getArg(I) == Child)
      return {CE, I};
  return {nullptr, 0};
}

/// Whether role R lets an MPI call write its buffer argument.
bool writesRole(Role R) {
  return R == Role::RecvBuf || R == Role::Buf || R == Role::Out || R == Role::Status || R == Role::Statuses ||
         R == Role::Request || R == Role::Requests || R == Role::RankOut || R == Role::SizeOut || R == Role::Message ||
         R == Role::WinOut || R == Role::WinBase;
}

} // namespace

/// Why P (a pointer variable of F) may share its memory with other names:
/// nullopt when every definition allocates fresh memory and every use
/// keeps the pointer to itself.
std::optional<std::string> LoopInvariance::uniquePointer(const VarDecl *P, const FunctionDecl *F) {
  if (!P->hasLocalStorage() || isa<ParmVarDecl>(P))
    return P->getName().str() + " may point to memory other names reach (it is not a local variable)";
  FunctionAnalysis &FA = Ev.analysis(F);
  if (!FA.valid() || FA.addressTaken(P))
    return P->getName().str() + "'s address is taken";
  for (const Def &D : FA.defs())
    if (D.Var == P && D.K != Def::NoInit && !allocates(D.Value))
      return llvm::formatv("{0} is assigned at line {1} something else than fresh memory", P->getName(), D.Line).str();
  std::optional<std::string> Why;
  anyNode(F->getBody(), [&](const Stmt *N) {
    const auto *DRE = dyn_cast<DeclRefExpr>(N);
    if (!DRE || DRE->getDecl() != P)
      return false;
    const Expr *Use = DRE;
    const Stmt *Par = parentThroughCasts(Ctx, DRE, &Use);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Par); BO && BO->isAdditiveOp())
      Par = parentThroughCasts(Ctx, BO, &Use); // p + k, then used as below
    if (isa_and_nonnull<ArraySubscriptExpr, UnaryOperator>(Par))
      return false; // p[i], *p, !p
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Par);
        BO && (BO->isComparisonOp() || BO->isLogicalOp() || (BO->isAssignmentOp() && BO->getLHS() == Use)))
      return false; // p == NULL, p && ..., p = malloc(...)
    if (isa_and_nonnull<IfStmt, WhileStmt, ConditionalOperator>(Par))
      return false;
    auto [CE, Index] = callOfArg(Ctx, Use);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    llvm::StringRef Name = G && G->getIdentifier() ? G->getName() : "";
    if (const FunctionModel *M = lookupFunction(Name); M && M->M != Mode::Nonblocking && M->M != Mode::Persistent)
      return false; // a blocking MPI call does not keep it
    if (Name == "free" || (G && Eff.isLibrary(G) && Name != "realloc"))
      return false; // the C library does not keep it (a write is counted in the loop)
    Why = llvm::formatv("{0} is shared at line {1}", P->getName(), line(DRE)).str();
    return true;
  });
  return Why;
}

std::optional<std::string> LoopInvariance::pointeeWritten(const VarDecl *P, const Stmt *Loop, const FunctionDecl *F) {
  if (auto Why = uniquePointer(P, F))
    return Why;
  auto Through = [&](const Expr *L) { // an lvalue reached through P: p[i], *p, *(p + k)
    L = bare(L);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
      L = bare(AS->getBase());
    else if (const auto *U = dyn_cast<UnaryOperator>(L); U && U->getOpcode() == UO_Deref)
      L = bare(U->getSubExpr());
    else
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(L); BO && BO->isAdditiveOp())
      L = bare(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
    return namedVar(L) == P;
  };
  std::optional<std::string> Why;
  anyNode(Loop, [&](const Stmt *N) {
    if (const Expr *Target = assignedLValue(N); Target && Through(Target)) {
      Why = llvm::formatv("{0} is written at line {1}, inside the loop", P->getName(), line(N)).str();
      return true;
    }
    const auto *CE = dyn_cast<CallExpr>(N);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    if (!CE || (G && G->getIdentifier() && G->getName() == "free"))
      return false;
    const FunctionModel *M = G && G->getIdentifier() ? lookupFunction(G->getName()) : nullptr;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *A = bare(CE->getArg(I));
      if (const auto *BO = dyn_cast<BinaryOperator>(A); BO && BO->isAdditiveOp())
        A = bare(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
      if (namedVar(A) != P)
        continue;
      if (M && I < M->Args.size() && !writesRole(M->Args[I].R))
        continue; // an MPI call reads it
      Why = llvm::formatv("{0} at line {1} may write {2}", G ? G->getName() : "a call", line(CE), P->getName()).str();
      return true;
    }
    return false;
  });
  return Why;
}

namespace {

/// The calls of the main file, by their callee (canonical declaration).
class CallSites : public RecursiveASTVisitor<CallSites> {
public:
  explicit CallSites(const SourceManager &SM) : SM(SM) {}
  std::map<const FunctionDecl *, std::vector<std::pair<const CallExpr *, const FunctionDecl *>>> By;

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Cur;
    Cur = FD->doesThisDeclarationHaveABody() ? FD : Cur;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Cur = Saved;
    return R;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *Callee = CE->getDirectCallee();
        Callee && Cur && SM.isInMainFile(SM.getExpansionLoc(CE->getBeginLoc())))
      By[Callee->getCanonicalDecl()].push_back({CE, Cur});
    return true;
  }

private:
  const SourceManager &SM;
  const FunctionDecl *Cur = nullptr;
};

void callersIn(ASTContext &Ctx, const CallSites &Sites, const FunctionDecl *F, unsigned Depth,
               std::vector<std::string> &Through, std::set<const FunctionDecl *> &Seen, std::vector<CallerLoop> &Out) {
  if (!Seen.insert(F->getCanonicalDecl()).second)
    return;
  auto It = Sites.By.find(F->getCanonicalDecl());
  if (It == Sites.By.end())
    return;
  for (auto [CE, Caller] : It->second) {
    std::vector<const Stmt *> Loops = enclosingLoops(Ctx, CE);
    if (!Loops.empty()) {
      Out.push_back({Loops.front(), Caller, CE, Through});
      continue;
    }
    if (Depth > 1) {
      Through.insert(Through.begin(), Caller->getNameAsString());
      callersIn(Ctx, Sites, Caller, Depth - 1, Through, Seen, Out);
      Through.erase(Through.begin());
    }
  }
}

} // namespace

struct CallerLoops::Index : CallSites {
  using CallSites::CallSites;
};

CallerLoops::CallerLoops(ASTContext &Ctx) : Ctx(Ctx), Sites(std::make_unique<Index>(Ctx.getSourceManager())) {
  Sites->TraverseDecl(Ctx.getTranslationUnitDecl());
}

CallerLoops::~CallerLoops() = default;

std::vector<CallerLoop> CallerLoops::of(const FunctionDecl *F, unsigned Depth) {
  std::vector<CallerLoop> Out;
  std::vector<std::string> Through;
  std::set<const FunctionDecl *> Seen;
  callersIn(Ctx, *Sites, F, Depth, Through, Seen, Out);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Out, [&](const CallerLoop &A, const CallerLoop &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(), B.Call->getBeginLoc());
  });
  return Out;
}
