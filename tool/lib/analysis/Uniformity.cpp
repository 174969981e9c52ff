//===- Uniformity.cpp - Which points and values every rank shares ---------===//
#include "analysis/Uniformity.h"
#include "analysis/Effects.h"
#include "analysis/OwnedMemory.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RootBroadcast.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace ompi {
/// A write of a variable the CFG's definitions do not track: an element or
/// field of a local array or struct, or a global; or an MPI call that fills it.
struct Write {
  const VarDecl *Var;
  const Stmt *At;     ///< the assignment, increment, declaration or MPI call
  const Expr *Value;  ///< what is stored (null: an increment or an MPI output)
  const Expr *Target; ///< the written lvalue (its indices count), or null
  const FunctionDecl *Func;
  std::string Fixed; ///< a reason it varies whatever the point (address escapes, rank output)
};

} // namespace ompi

namespace {

/// C library functions whose result depends only on their arguments.
bool isPureFunction(llvm::StringRef N) {
  static const llvm::StringSet<> Pure = {
      "sqrt",    "sqrtf",    "cbrt",   "fabs",   "fabsf",  "exp",    "expf",    "log",    "logf",   "log2",
      "log10",   "pow",      "powf",   "sin",    "cos",    "tan",    "asin",    "acos",   "atan",   "atan2",
      "sinh",    "cosh",     "tanh",   "floor",  "ceil",   "trunc",  "round",   "lround", "fmin",   "fmax",
      "fmod",    "abs",      "labs",   "llabs",  "atoi",   "atol",   "atoll",   "atof",   "strtol", "strtoul",
      "strtoll", "strtoull", "strtod", "strtof", "strlen", "strcmp", "strncmp", "ldexp",  "frexp",  "hypot"};
  return Pure.contains(N);
}

/// Whether a call stops the job on every rank, so the path never continues.
bool stopsJob(const CallExpr *CE, const ASTContext &Ctx) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  llvm::StringRef N = F->getName();
  if (abortsJob(N) || N == "abort" || N == "__assert_fail" || N == "__assert_rtn" || N == "__builtin_trap" ||
      N == "__builtin_unreachable")
    return true;
  if ((N == "exit" || N == "_exit" || N == "_Exit") && CE->getNumArgs() == 1) {
    Expr::EvalResult R;
    // exit(0) ends a run normally; any other status reports an error.
    return !(CE->getArg(0)->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0);
  }
  return false;
}

/// main's argv, or an element of it (argv[i], *argv).
bool isArgv(const Expr *E, const FunctionDecl *F) {
  if (!F->isMain() || F->getNumParams() < 2)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == F->getParamDecl(1);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return isArgv(AS->getBase(), F);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return isArgv(U->getSubExpr(), F);
  return false;
}

/// An MPI call that passes the address of an object, and the role it passes it in.
struct AddressUse {
  const CallExpr *Call = nullptr;
  Role R = Role::Other;
  const FunctionModel *Model = nullptr;
};

/// What the address of an object, made by E, is used for when it goes
/// straight (through parentheses and casts) into an MPI call's argument.
std::optional<AddressUse> mpiAddressUse(const Expr *E, ASTContext &Ctx) {
  const Expr *Cur = E;
  const auto *CE = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, E, &Cur));
  std::optional<Role> R = roleOf(CE, Cur);
  return R ? std::optional<AddressUse>(AddressUse{CE, *R, modelOf(CE)}) : std::nullopt;
}

/// Every write of an untracked variable and every address of a variable
/// that does not go into an MPI call as a uniform output.
class WriteCollector : public FunctionVisitor<WriteCollector> {
public:
  WriteCollector(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  std::vector<Write> Writes;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      add(B->getLHS(), B, B->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      add(U->getSubExpr(), U, nullptr);
    else if (U->getOpcode() == UO_AddrOf)
      address(U->getSubExpr(), U);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (IC->getCastKind() == CK_ArrayToPointerDecay)
      address(IC->getSubExpr(), IC);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->getInit() && !tracked(V) && (Cur || V->hasGlobalStorage()))
      Writes.push_back({V, nullptr, V->getInit(), nullptr, Cur, ""});
    return true;
  }

private:
  ASTContext &Ctx;
  SourceManager &SM;

  static bool tracked(const VarDecl *V) { return V->hasLocalStorage() && V->getType()->isScalarType(); }

  void add(const Expr *LHS, const Stmt *At, const Expr *RHS) {
    const VarDecl *V = rootVar(LHS);
    if (!V || !Cur || (tracked(V) && isa<DeclRefExpr>(LHS->IgnoreParenImpCasts())))
      return; // the CFG's reaching definitions see plain writes of scalar locals
    Writes.push_back({V, At, RHS, LHS, Cur, ""});
  }

  void address(const Expr *Sub, const Expr *Addr) {
    const VarDecl *V = rootVar(Sub);
    if (!V)
      return;
    if (auto Parents = Ctx.getParents(*Addr); !Parents.empty())
      if (const auto *AS = Parents[0].get<ArraySubscriptExpr>(); AS && AS->getBase() == Addr)
        return; // a[i]: the decay only indexes the array
    if (auto Parents = Ctx.getParents(*Addr); !Parents.empty() && Parents[0].get<UnaryExprOrTypeTraitExpr>())
      return;
    unsigned Line = SM.getExpansionLineNumber(Addr->getBeginLoc());
    if (!Cur) {
      // An initializer at file scope keeps the address: whoever reads it
      // may write the variable.
      if (V->hasGlobalStorage())
        Writes.push_back({V, Addr, nullptr, nullptr, nullptr,
                          llvm::formatv("the address of {0} is stored at line {1}", V->getName(), Line).str()});
      return;
    }
    std::optional<AddressUse> U = mpiAddressUse(Addr, Ctx);
    if (U && (U->R == Role::SendBuf || isCountRole(U->R) || U->R == Role::Other))
      return; // read by the call, never stored
    bool OnCFG = tracked(V) && isa<DeclRefExpr>(Sub->IgnoreParenImpCasts());
    if (U && OnCFG && U->R == Role::RankOut && U->Model->Cat == Category::Query)
      return; // Def::RankOut: a definition on the CFG
    if (U && sameOnEveryRank(*U->Model, U->R)) {
      if (OnCFG)
        return; // a definition on the CFG (Def::SizeOut, Def::CollectiveOut)
      Writes.push_back({V, U->Call, nullptr, nullptr, Cur, ""});
      return;
    }
    std::string Why;
    if (U && U->R == Role::RankOut)
      Why = llvm::formatv("{0} receives the rank from {1} at line {2}", V->getName(), U->Model->Name, Line).str();
    else if (U)
      Why = llvm::formatv("{0} is written by {1} at line {2}, whose result differs between ranks", V->getName(),
                          U->Model->Name, Line)
                .str();
    else
      Why = llvm::formatv("the address of {0} is taken at line {1}", V->getName(), Line).str();
    Writes.push_back({V, Addr, nullptr, nullptr, Cur, Why});
  }
};

} // namespace

struct Uniformity::Func {
  const FunctionDecl *F = nullptr;
  FunctionAnalysis *FA = nullptr;
  unsigned N = 0;
  std::vector<char> Live;                         ///< can reach the exit without stopping the job
  std::vector<std::vector<unsigned>> CD;          ///< the branch blocks each block is control dependent on
  std::vector<const CFGBlock *> ByID;             ///< the CFG's blocks by ID
  std::map<const VarDecl *, std::string> Varying; ///< variables that vary whatever the point, and why
  std::map<const Def *, std::string> VaryingDefs; ///< definitions of tracked locals that vary, and why
  std::map<unsigned, std::optional<Divergence>> BlockMemo;
  bool Solving = false, Solved = false;
};

Uniformity::Uniformity(ASTContext &Ctx, Evaluator &Ev) : Ctx(Ctx), Ev(Ev) {}
Uniformity::~Uniformity() = default;

unsigned Uniformity::line(const Stmt *S) const {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

/// Control dependence on the CFG without the paths that stop the job.
static void controlDependence(const CFG &G, const ASTContext &Ctx, std::vector<char> &Live,
                              std::vector<std::vector<unsigned>> &CD) {
  unsigned N = G.getNumBlockIDs(), Exit = G.getExit().getBlockID();
  std::vector<char> Stop(N);
  for (const CFGBlock *B : G)
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *CE = dyn_cast<CallExpr>(CS->getStmt()); CE && stopsJob(CE, Ctx))
          Stop[B->getBlockID()] = 1;
  Live.assign(N, 0);
  std::vector<const CFGBlock *> Work{&G.getExit()};
  Live[Exit] = 1;
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    for (const CFGBlock *P : B->preds())
      if (P && !Live[P->getBlockID()] && !Stop[P->getBlockID()]) {
        Live[P->getBlockID()] = 1;
        Work.push_back(P);
      }
  }
  auto LiveSuccs = [&](const CFGBlock *B) {
    std::vector<unsigned> S;
    for (const CFGBlock *X : B->succs())
      if (X && Live[X->getBlockID()] && !llvm::is_contained(S, X->getBlockID()))
        S.push_back(X->getBlockID());
    return S;
  };
  std::vector<llvm::BitVector> PD(N, llvm::BitVector(N, true));
  PD[Exit] = llvm::BitVector(N);
  PD[Exit].set(Exit);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : G) {
      unsigned ID = B->getBlockID();
      if (ID == Exit || !Live[ID])
        continue;
      llvm::BitVector New(N, true);
      for (unsigned S : LiveSuccs(B))
        New &= PD[S];
      New.set(ID);
      if (New != PD[ID]) {
        PD[ID] = std::move(New);
        Changed = true;
      }
    }
  }
  // The immediate post-dominator is the strict one with the most post-dominators.
  std::vector<int> IPD(N, -1);
  for (unsigned ID = 0; ID < N; ++ID)
    if (Live[ID] && ID != Exit)
      for (unsigned D : PD[ID].set_bits())
        if (D != ID && (IPD[ID] < 0 || PD[D].count() > PD[IPD[ID]].count()))
          IPD[ID] = D;
  CD.assign(N, {});
  for (const CFGBlock *X : G) {
    unsigned XI = X->getBlockID();
    std::vector<unsigned> Succs = Live[XI] ? LiveSuccs(X) : std::vector<unsigned>();
    if (Succs.size() < 2)
      continue;
    for (unsigned S : Succs)
      for (int Y = S; Y >= 0 && Y != IPD[XI]; Y = IPD[Y])
        if (!llvm::is_contained(CD[Y], XI))
          CD[Y].push_back(XI);
  }
}

Uniformity::Func &Uniformity::func(const FunctionDecl *F) {
  const FunctionDecl *Def = F;
  F->hasBody(Def);
  std::unique_ptr<Func> &Slot = Funcs[Def];
  if (!Slot) {
    Slot = std::make_unique<Func>();
    Slot->F = Def;
    Slot->FA = &Ev.analysis(Def);
    if (Slot->FA->valid()) {
      Slot->N = Slot->FA->cfg().getNumBlockIDs();
      Slot->ByID.resize(Slot->N);
      for (const CFGBlock *B : Slot->FA->cfg())
        Slot->ByID[B->getBlockID()] = B;
      controlDependence(Slot->FA->cfg(), Ctx, Slot->Live, Slot->CD);
    }
  }
  if (!Slot->Solved && !Slot->Solving)
    solveLocals(*Slot);
  return *Slot;
}

//===----------------------------------------------------------------------===//
// Globals: one monotone fixpoint over the file (every cache is rebuilt after
// a global turns out to vary, so nothing keeps an assumption that failed).
//===----------------------------------------------------------------------===//

struct Uniformity::Writes {
  std::vector<Write> All;
  std::map<const FunctionDecl *, std::vector<const Write *>> LocalByFunc;
  std::vector<const Write *> Globals;
};

void Uniformity::ensureGlobals() {
  if (W)
    return;
  W = std::make_unique<Writes>();
  WriteCollector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  W->All = std::move(C.Writes);
  for (const Write &X : W->All) {
    if (X.Var->hasGlobalStorage())
      W->Globals.push_back(&X);
    else if (X.Func)
      W->LocalByFunc[X.Func].push_back(&X);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    clearCaches();
    for (const Write *X : W->Globals) {
      if (VaryingGlobals.count(X->Var->getCanonicalDecl()))
        continue;
      std::optional<std::string> R;
      if (!X->Fixed.empty()) {
        R = X->Fixed;
      } else if (!X->Func) {
        if (X->Value && !X->Value->isConstantInitializer(Ctx, false))
          R = X->Var->getName().str() + " has an initializer that is not constant";
      } else if (std::optional<Divergence> E = entryImpl(X->Func); E && !entriesReconciled(X->Var, X->Func, 0)) {
        R = llvm::formatv("{0} is written in {1}, which only some ranks may run ({2})", X->Var->getName(),
                          X->Func->getName(), E->Why)
                .str();
      } else {
        R = writeVaries(*X, func(X->Func));
      }
      if (R) {
        VaryingGlobals[X->Var->getCanonicalDecl()] = *R;
        Changed = true;
      }
    }
    for (const OwnedPointer *P : owned().all())
      if (!VaryingPointees.count(P->Var))
        if (std::optional<std::string> R = ownedVaries(*P)) {
          VaryingPointees[P->Var] = *R;
          Changed = true;
        }
  }
}

void Uniformity::clearCaches() {
  for (auto &KV : Funcs) {
    KV.second->Solved = false;
    KV.second->Varying.clear();
    KV.second->VaryingDefs.clear();
    KV.second->BlockMemo.clear();
  }
  EntryMemo.clear();
  ReturnMemo.clear();
}

//===----------------------------------------------------------------------===//
// Locals and parameters of one function
//===----------------------------------------------------------------------===//

void Uniformity::solveLocals(Func &Fn) {
  if (!Fn.FA->valid()) {
    Fn.Solved = true;
    return;
  }
  Fn.Solving = true;
  // Parameters the CFG tracks from a definition on entry are judged with
  // the other definitions (Def::Entry); the rest as variables.
  std::vector<const ParmVarDecl *> Untracked;
  for (const ParmVarDecl *PV : Fn.F->parameters())
    if (llvm::none_of(Fn.FA->defs(), [&](const Def &D) { return D.K == Def::Entry && D.Var == PV; }))
      Untracked.push_back(PV);
  for (bool Changed = true; Changed;) {
    Changed = false;
    Fn.BlockMemo.clear();
    auto Mark = [&](const VarDecl *V, std::optional<std::string> Why) {
      if (Why && Fn.Varying.emplace(V, *Why).second)
        Changed = true;
    };
    for (const ParmVarDecl *PV : Untracked)
      if (!Fn.Varying.count(PV))
        Mark(PV, variesParam(PV));
    // Tracked locals vary per definition: a read sees only the definitions
    // that reach it (a value set on the root and then broadcast is the same
    // on every rank after the broadcast).
    for (const Def &D : Fn.FA->defs())
      if (!Fn.VaryingDefs.count(&D))
        if (std::optional<std::string> Why = defVaries(D, Fn)) {
          Fn.VaryingDefs.emplace(&D, *Why);
          Changed = true;
        }
    for (const Write *X : W->LocalByFunc[Fn.F])
      if (!Fn.Varying.count(X->Var))
        Mark(X->Var, writeVaries(*X, Fn));
  }
  Fn.Solving = false;
  Fn.Solved = true;
}

std::optional<std::string> Uniformity::defVaries(const Def &D, Func &Fn) {
  // Set in an arm of the root's pack-broadcast-unpack (RootBroadcast.h):
  // the root's value on every rank once the if ends.
  if (D.K != Def::Entry && D.S && reconciled(D.Var, D.S, Fn.F))
    return std::nullopt;
  auto Diverges = [&]() -> std::optional<std::string> {
    if (std::optional<Divergence> Dv = divergentBlock(Fn, D.P.Block, nullptr))
      return llvm::formatv("{0} is set at line {1} only on some ranks: {2}", D.Var->getName(), D.Line, Dv->Why).str();
    return std::nullopt;
  };
  switch (D.K) {
  case Def::Entry:
    return variesParam(cast<ParmVarDecl>(D.Var));
  case Def::NoInit:
    return std::nullopt;
  case Def::RankOut:
    return llvm::formatv("{0} holds the rank (MPI_Comm_rank at line {1})", D.Var->getName(), D.Line).str();
  case Def::Output:
    return D.setBy();
  case Def::SizeOut:
  case Def::CollectiveOut:
    if (std::optional<std::string> R = collectiveOutVaries(cast<CallExpr>(D.S), D.Var, Fn))
      return R;
    return Diverges();
  case Def::IncDec:
    return Diverges();
  case Def::Init:
  case Def::Assign:
  case Def::Compound:
    if (std::optional<std::string> R = D.Value ? variesNode(D.Value, Fn) : std::nullopt)
      return R;
    return Diverges();
  }
  return std::nullopt;
}

std::optional<std::string> Uniformity::writeVaries(const Write &X, Func &Fn) {
  if (!X.Fixed.empty())
    return X.Fixed;
  if (X.At && reconciled(X.Var, X.At, Fn.F))
    return std::nullopt;
  if (X.At && broadcastOverwrites(X.Var, X.At, Fn.F, Fn))
    return std::nullopt;
  if (X.Value)
    if (std::optional<std::string> R = variesNode(X.Value, Fn))
      return R;
  if (X.Target)
    if (std::optional<std::string> R = variesNode(X.Target, Fn))
      return R;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(X.At); CE && !X.Value)
    if (std::optional<std::string> R = collectiveOutVaries(CE, nullptr, Fn))
      return R;
  const Stmt *At = X.At ? X.At : X.Value;
  std::optional<unsigned> B = At ? firstBlock(At, Fn) : std::nullopt;
  if (!B)
    return X.Var->getName().str() + " is written where the tool cannot follow the control flow";
  if (std::optional<Divergence> Dv = divergentBlock(Fn, *B, nullptr))
    return llvm::formatv("{0} is written at line {1} only on some ranks: {2}", X.Var->getName(), line(At), Dv->Why)
        .str();
  return std::nullopt;
}

std::optional<std::string> Uniformity::variesParam(const ParmVarDecl *PV) {
  const auto *F = dyn_cast<FunctionDecl>(PV->getDeclContext());
  if (!F)
    return "a parameter of an unknown function";
  if (F->isMain())
    return std::nullopt; // argc and argv: every process gets the same command line
  if (outside(F)) {
    const ProgramFacts *P = program();
    if (!P)
      return llvm::formatv("{0} is a parameter of {1}, which other files may call with any value", PV->getName(),
                           F->getName())
          .str();
    if (std::optional<std::string> R = otherFilesPass(PV, *P))
      return R;
  }
  if (Ev.index().AddressTaken.count(F->getCanonicalDecl()))
    return llvm::formatv("{0} is a parameter of {1}, which is called through a pointer", PV->getName(), F->getName())
        .str();
  if (!Busy.insert(PV).second)
    return llvm::formatv("{0} is a parameter of the recursive function {1}", PV->getName(), F->getName()).str();
  std::optional<std::string> R;
  auto It = Ev.index().CallSites.find(F->getCanonicalDecl());
  if (It != Ev.index().CallSites.end())
    for (auto [Caller, CE] : It->second) {
      unsigned Idx = PV->getFunctionScopeIndex();
      Func &C = func(Caller);
      // A caller whose own values are being solved (the call's result feeds
      // them) can still be asked about an argument that names no variable
      // at all: a constant is the same on every rank whatever the fixpoint.
      bool Constant = Idx < CE->getNumArgs() && !anyNode(
                                                    CE->getArg(Idx),
                                                    [](const Stmt *N) {
                                                      const auto *DRE = dyn_cast<DeclRefExpr>(N);
                                                      return (DRE && isa<VarDecl>(DRE->getDecl())) || isa<CallExpr>(N);
                                                    });
      if (Idx >= CE->getNumArgs() || (C.Solving && !Constant)) {
        R = llvm::formatv("{0} is a parameter of the recursive function {1}", PV->getName(), F->getName()).str();
        break;
      }
      if (std::optional<std::string> A = variesNode(CE->getArg(Idx), C)) {
        R = llvm::formatv("{0} is called at line {1} with a value that may differ between ranks: {2}", F->getName(),
                          line(CE), *A)
                .str();
        break;
      }
    }
  Busy.erase(PV);
  return R;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

namespace {
/// Walks an expression for the first thing in it whose value may differ
/// between ranks.
class ValueWalker : public ConstStmtVisitor<ValueWalker, std::optional<std::string>> {
public:
  using Lookup = std::function<std::optional<std::string>(const VarDecl *, const DeclRefExpr *)>;
  using CallLookup = std::function<std::optional<std::string>(const CallExpr *)>;
  /// Why memory read through a pointer (Base, in Whole) may differ.
  using MemoryLookup = std::function<std::optional<std::string>(const Expr *, const Expr *)>;
  ValueWalker(const FunctionDecl *F, const SourceManager &SM, Lookup Var, CallLookup Call, MemoryLookup Memory)
      : F(F), SM(SM), Var(std::move(Var)), Call(std::move(Call)), Memory(std::move(Memory)) {}

  std::optional<std::string> walk(const Stmt *S) { return S ? Visit(S) : std::nullopt; }

  std::optional<std::string> VisitStmt(const Stmt *S) {
    for (const Stmt *C : subStmts(S))
      if (std::optional<std::string> R = walk(C))
        return R;
    return std::nullopt;
  }
  std::optional<std::string> VisitDeclRefExpr(const DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      return Var(V, E);
    return std::nullopt;
  }
  std::optional<std::string> VisitUnaryExprOrTypeTraitExpr(const UnaryExprOrTypeTraitExpr *) {
    return std::nullopt; // sizeof and alignof read nothing
  }
  std::optional<std::string> VisitCallExpr(const CallExpr *E) { return Call(E); }
  std::optional<std::string> VisitUnaryOperator(const UnaryOperator *U) {
    if (U->getOpcode() != UO_Deref || isArgv(U->getSubExpr(), F))
      return VisitStmt(U);
    // *p, or *(p + i): an element of what p points to.
    const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(Sub);
        B && B->getOpcode() == BO_Add && B->getLHS()->getType()->isPointerType()) {
      if (std::optional<std::string> R = Memory(B->getLHS(), U))
        return R;
      return walk(B->getRHS());
    }
    return Memory(Sub, U);
  }
  std::optional<std::string> VisitArraySubscriptExpr(const ArraySubscriptExpr *E) {
    if (!E->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() && !isArgv(E->getBase(), F)) {
      if (std::optional<std::string> R = Memory(E->getBase(), E))
        return R;
      return walk(E->getIdx());
    }
    return VisitStmt(E);
  }
  std::optional<std::string> VisitMemberExpr(const MemberExpr *E) {
    return E->isArrow() ? Memory(E->getBase(), E) : VisitStmt(E); // p->f: a field of p's memory
  }
  std::optional<std::string> VisitStmtExpr(const StmtExpr *E) {
    return llvm::formatv("the statement expression at line {0}", SM.getExpansionLineNumber(E->getBeginLoc())).str();
  }

private:
  const FunctionDecl *F;
  const SourceManager &SM;
  Lookup Var;
  CallLookup Call;
  MemoryLookup Memory;
};
} // namespace

std::optional<std::string> Uniformity::variesNode(const Stmt *S, Func &Fn) {
  ValueWalker VW(
      Fn.F, Ctx.getSourceManager(), [&](const VarDecl *V, const DeclRefExpr *Ref) { return variesVar(V, Ref, Fn); },
      [&](const CallExpr *CE) { return variesCall(CE, Fn); },
      [&](const Expr *Base, const Expr *Whole) { return readThrough(Base, Whole); });
  return VW.walk(S);
}

std::optional<std::string> Uniformity::variesVar(const VarDecl *V, const DeclRefExpr *Ref, Func &Fn) {
  QualType T = V->getType();
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  if (T.isVolatileQualified())
    return V->getName().str() + " is volatile";
  if (V->hasGlobalStorage())
    return Ref && collectiveJustSet(V, Ref, Fn) ? std::nullopt : variesGlobal(V);
  auto It = Fn.Varying.find(V);
  if (It != Fn.Varying.end())
    return It->second;
  if (Fn.VaryingDefs.empty())
    return std::nullopt;
  // The definitions that reach this read; every definition of V where the
  // read is not on the CFG.
  std::optional<Point> P = Ref && Fn.FA->valid() ? Fn.FA->pointOf(Ref) : std::nullopt;
  if (P) {
    for (const Def *D : Fn.FA->reaching(V, *P))
      if (auto DI = Fn.VaryingDefs.find(D); DI != Fn.VaryingDefs.end())
        return DI->second;
    return std::nullopt;
  }
  for (const auto &[D, Why] : Fn.VaryingDefs)
    if (D->Var == V)
      return Why;
  return std::nullopt;
}

/// Why a value MPI call CE gives (V's, or a write's when V is null) may
/// differ between ranks although the call gives every rank of its
/// communicator the same: the communicator may not hold every rank, or the
/// call writes only part of V.
std::optional<std::string> Uniformity::collectiveOutVaries(const CallExpr *CE, const VarDecl *V, Func &Fn) {
  const FunctionModel *M = modelOf(CE);
  std::optional<unsigned> CommIdx = M ? M->find(Role::Comm) : std::nullopt;
  if (!M || !CommIdx || *CommIdx >= CE->getNumArgs())
    return std::nullopt;
  unsigned L = line(CE);
  std::string Name = V ? V->getName().str() : "the buffer";
  CommId Id = Ev.commId(CE->getArg(*CommIdx), Fn.F, CE);
  CommId World{CommId::Predefined, mpi::MPI_COMM_WORLD.str()};
  if (!Id.isWorld() && !Ev.sameRanks(Id, World))
    return llvm::formatv("{0} is set by {1} at line {2} on a communicator that may not hold every rank", Name, M->Name,
                         L)
        .str();
  if (!V || M->find(Role::SizeOut))
    return std::nullopt;
  std::optional<unsigned> CountIdx = M->find(Role::Count), TypeIdx = M->find(Role::Type);
  if (!CountIdx)
    CountIdx = M->find(Role::RecvCount), TypeIdx = M->find(Role::RecvType);
  std::optional<int64_t> Bytes;
  if (CountIdx && TypeIdx && *CountIdx < CE->getNumArgs() && *TypeIdx < CE->getNumArgs()) {
    SymValue C = Ev.evaluate(CE->getArg(*CountIdx), Fn.F, CE);
    std::optional<std::string> T = Ev.spelledHandle(CE->getArg(*TypeIdx));
    std::optional<int64_t> Size = T ? Ev.datatypeSize(*T) : std::nullopt;
    if (C.K == SymValue::Int && Size)
      Bytes = C.I * *Size;
  }
  if (!Bytes || V->getType()->isIncompleteType() ||
      *Bytes < static_cast<int64_t>(Ctx.getTypeSizeInChars(V->getType()).getQuantity()))
    return llvm::formatv("{0} may be only partly set by {1} at line {2}", Name, M->Name, L).str();
  return std::nullopt;
}

std::optional<std::string> Uniformity::variesGlobal(const VarDecl *V) {
  if (V->getType().isConstQualified() && V->hasInit())
    return std::nullopt;
  if (outside(V)) {
    const ProgramFacts *P = program();
    if (!P)
      return V->getName().str() + " has external linkage: other files may write it";
    auto G = P->Globals.find(V->getName().str());
    if (!P->Seed && (G == P->Globals.end() || !G->second.Defined))
      return V->getName().str() + " is defined in no file of the program (a library may write it)";
    if (G != P->Globals.end() && G->second.Varies)
      return *G->second.Varies;
  }
  auto It = VaryingGlobals.find(V->getCanonicalDecl());
  if (It != VaryingGlobals.end())
    return It->second;
  return std::nullopt;
}

std::optional<std::string> Uniformity::variesCall(const CallExpr *CE, Func &Fn) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  unsigned L = line(CE);
  if (!Callee || !Callee->getIdentifier())
    return llvm::formatv("the call through a pointer at line {0}", L).str();
  llvm::StringRef N = Callee->getName();
  if (returnsLocalValue(N))
    return llvm::formatv("{0} at line {1} reads each process's clock", N, L).str();
  if (isMPIFunctionName(N))
    return std::nullopt; // an error code: errors abort the job by default
  if (isPureFunction(N) || Callee->getBuiltinID()) {
    for (const Expr *A : CE->arguments())
      if (std::optional<std::string> R = variesNode(A, Fn))
        return R;
    return std::nullopt;
  }
  if (Callee->hasBody())
    return variesReturn(Callee);
  if (const ProgramFacts *P = program(); P && outside(Callee)) {
    auto G = P->Functions.find(N.str());
    if (G != P->Functions.end() && G->second.Defined)
      return G->second.Result; // judged, with every call of it, where it is defined
    if (P->Seed && !isMPIFunctionName(N) && !N.starts_with("__") && !Callee->getBuiltinID() &&
        !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
      return std::nullopt; // the first round: another file may define it
  }
  if (N == "getenv" || N == "secure_getenv") {
    // MPI does not promise every process the same environment (most
    // launchers pass the same one, which the user may assert).
    if (!Ev.options().UniformEnv)
      return llvm::formatv("{0} at line {1} reads each process's environment (--uniform-env: the same on every rank)",
                           N, L)
          .str();
    for (const Expr *A : CE->arguments())
      if (std::optional<std::string> R = variesNode(A, Fn))
        return R;
    return std::nullopt;
  }
  return llvm::formatv("the result of {0} at line {1}, whose code is not in this file", N, L).str();
}

std::optional<std::string> Uniformity::variesReturn(const FunctionDecl *F) {
  const FunctionDecl *Def = F;
  F->hasBody(Def);
  if (Def->getReturnType()->isVoidType())
    return std::nullopt;
  auto Memo = ReturnMemo.find(Def);
  if (Memo != ReturnMemo.end())
    return Memo->second;
  if (!Busy.insert(Def).second)
    return "the result of the recursive function " + Def->getName().str();
  std::optional<std::string> R;
  Func &Fn = func(Def);
  std::vector<const ReturnStmt *> Returns;
  anyNode(Def->getBody(), [&](const Stmt *S) {
    if (const auto *RS = dyn_cast<ReturnStmt>(S))
      Returns.push_back(RS);
    return false;
  });
  for (const ReturnStmt *RS : Returns) {
    if ((R = variesNode(RS->getRetValue(), Fn)))
      break;
    std::optional<unsigned> B = firstBlock(RS, Fn);
    std::optional<Divergence> Dv = B ? divergentBlock(Fn, *B, nullptr) : Divergence{line(RS), "no CFG"};
    if (Dv) {
      R = llvm::formatv("{0} returns at line {1} only on some ranks: {2}", Def->getName(), line(RS), Dv->Why).str();
      break;
    }
  }
  Busy.erase(Def);
  ReturnMemo[Def] = R;
  return R;
}

//===----------------------------------------------------------------------===//
// Other files of the program (ProgramFacts)
//===----------------------------------------------------------------------===//

bool Uniformity::outside(const NamedDecl *D) const {
  return D->isExternallyVisible() && !(Ev.options().ClosedWorld && Ev.index().DefinesMain);
}

const ProgramFacts *Uniformity::program() const {
  const ProgramFacts *P = Ev.options().Program.get();
  return P && P->program() ? P : nullptr;
}

std::optional<std::string> Uniformity::otherFilesPass(const ParmVarDecl *PV, const ProgramFacts &P) {
  const auto *F = cast<FunctionDecl>(PV->getDeclContext());
  auto G = P.Functions.find(F->getName().str());
  if (G != P.Functions.end() && G->second.AddressTaken)
    return llvm::formatv("{0} is a parameter of {1}, whose address is taken ({2})", PV->getName(), F->getName(),
                         *G->second.AddressTaken)
        .str();
  unsigned Idx = PV->getFunctionScopeIndex();
  for (const CallFact *C : P.callsOf(F->getName())) {
    if (Idx >= C->Args.size())
      return llvm::formatv("{0} is called at {1}:{2} without argument {3}", F->getName(), C->File, C->Line, Idx + 1)
          .str();
    if (C->Args[Idx])
      return llvm::formatv("{0} is called at {1}:{2} with a value that may differ between ranks: {3}", F->getName(),
                           C->File, C->Line, *C->Args[Idx])
          .str();
  }
  return std::nullopt;
}

std::optional<Divergence> Uniformity::enteredFromOtherFiles(const FunctionDecl *F, const ProgramFacts &P) {
  auto G = P.Functions.find(F->getName().str());
  if (G != P.Functions.end() && G->second.AddressTaken)
    return Divergence{0, llvm::formatv("{0}'s address is taken ({1})", F->getName(), *G->second.AddressTaken)};
  for (const CallFact *C : P.callsOf(F->getName()))
    if (C->Divergent)
      return Divergence{0, llvm::formatv("{0} is called at {1}:{2} on some ranks only: {3}", F->getName(), C->File,
                                         C->Line, *C->Divergent)};
  return std::nullopt;
}

std::optional<std::string> Uniformity::writesVary(const VarDecl *V) {
  ensureGlobals();
  auto It = VaryingGlobals.find(V->getCanonicalDecl());
  if (It != VaryingGlobals.end())
    return It->second;
  return std::nullopt;
}

std::vector<const VarDecl *> Uniformity::writtenGlobals() {
  ensureGlobals();
  std::vector<const VarDecl *> Out;
  for (const Write *X : W->Globals)
    if (!llvm::is_contained(Out, X->Var->getCanonicalDecl()))
      Out.push_back(X->Var->getCanonicalDecl());
  return Out;
}

std::vector<std::pair<const FunctionDecl *, const VarDecl *>> Uniformity::globalWrites() {
  ensureGlobals();
  std::vector<std::pair<const FunctionDecl *, const VarDecl *>> Out;
  for (const Write *X : W->Globals) {
    std::pair<const FunctionDecl *, const VarDecl *> P{X->Func ? X->Func->getCanonicalDecl() : nullptr,
                                                       X->Var->getCanonicalDecl()};
    if (!llvm::is_contained(Out, P))
      Out.push_back(P);
  }
  return Out;
}

bool Uniformity::alwaysCollective(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  return F->hasBody(Def) && runsCollective(Def->getBody(), 0);
}

std::optional<std::string> Uniformity::resultVaries(const FunctionDecl *F) {
  ensureGlobals();
  return variesReturn(F);
}

//===----------------------------------------------------------------------===//
// Points
//===----------------------------------------------------------------------===//

std::optional<unsigned> Uniformity::firstBlock(const Stmt *S, Func &Fn) {
  if (!S || !Fn.FA->valid())
    return std::nullopt;
  if (std::optional<Point> P = Fn.FA->pointOf(S))
    return P->Block;
  for (const Stmt *C : subStmts(S))
    if (std::optional<unsigned> B = firstBlock(C, Fn))
      return B;
  return std::nullopt;
}

static const char *branchKind(const Stmt *T) {
  if (isa<IfStmt>(T))
    return "branch";
  if (isa<ForStmt, WhileStmt, DoStmt>(T))
    return "loop condition";
  if (isa<SwitchStmt>(T))
    return "switch";
  return "condition";
}

std::optional<Divergence> Uniformity::divergentBlock(Func &Fn, unsigned Block, const Stmt *Inside) {
  if (Block >= Fn.N || !Fn.Live[Block])
    return Divergence{0, "it runs only on a path that stops the job"};
  if (!Inside)
    if (auto Memo = Fn.BlockMemo.find(Block); Memo != Fn.BlockMemo.end())
      return Memo->second;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<unsigned> Work = Fn.CD[Block];
  std::set<unsigned> Seen(Work.begin(), Work.end());
  std::optional<Divergence> Result;
  while (!Work.empty() && !Result) {
    const CFGBlock *X = Fn.ByID[Work.back()];
    Work.pop_back();
    const Stmt *T = X->getTerminatorStmt();
    bool In = Inside && T &&
              SM.isPointWithin(SM.getExpansionLoc(T->getBeginLoc()), SM.getExpansionLoc(Inside->getBeginLoc()),
                               SM.getExpansionLoc(Inside->getEndLoc()));
    if (!In && !(isa_and_nonnull<ForStmt, WhileStmt, DoStmt>(T) && collectiveEveryIteration(T))) {
      const Stmt *Cond = X->getTerminatorCondition();
      unsigned L = T ? line(T) : 0;
      if (!Cond)
        Result = Divergence{L, llvm::formatv("the jump at line {0} may go different ways on different ranks", L)};
      else if (std::optional<std::string> R = variesNode(Cond, Fn))
        Result = Divergence{L, llvm::formatv("the {0} at line {1} may go different ways on different ranks: {2}",
                                             branchKind(T), L, *R)};
    }
    for (unsigned Y : Fn.CD[X->getBlockID()])
      if (Seen.insert(Y).second)
        Work.push_back(Y);
  }
  if (!Inside)
    Fn.BlockMemo[Block] = Result;
  return Result;
}

bool Uniformity::collectiveEveryIteration(const Stmt *Loop) {
  auto It = EveryIteration.find(Loop);
  if (It != EveryIteration.end())
    return It->second;
  bool R = runsCollective(loopBody(Loop), 0);
  EveryIteration[Loop] = R;
  return R;
}

bool Uniformity::runsCollective(const Stmt *Body, unsigned Depth) {
  if (!Body || Depth > 4)
    return false;
  llvm::ArrayRef<Stmt *> Stmts;
  Stmt *Single[1] = {const_cast<Stmt *>(Body)};
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Stmts = llvm::ArrayRef<Stmt *>(CS->body_begin(), CS->body_end());
  else
    Stmts = Single;
  for (const Stmt *S : Stmts) {
    // A statement reached on every iteration: nothing before it jumps.
    if (const CallExpr *CE = statementCall(S)) {
      const FunctionDecl *G = CE->getDirectCallee();
      const FunctionModel *M = modelOf(CE);
      if (M && M->isCollective())
        return true;
      const FunctionDecl *Def = nullptr;
      if (G && !M && G->hasBody(Def) && runsCollective(Def->getBody(), Depth + 1))
        return true;
      // Code of another file that makes a collective on every call.
      if (const ProgramFacts *P = program(); P && G && !M && !G->hasBody() && G->getIdentifier() && outside(G))
        if (auto It = P->Functions.find(G->getName().str()); It != P->Functions.end() && It->second.Collective)
          return true;
    }
    if (anyNode(S, [](const Stmt *X) {
          return isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt>(X);
        }))
      return false;
  }
  return false;
}

std::optional<Divergence> Uniformity::withinImpl(const Stmt *S, const FunctionDecl *F) {
  Func &Fn = func(F);
  std::optional<unsigned> B = firstBlock(S, Fn);
  if (!B)
    return Divergence{
        line(S), llvm::formatv("the tool cannot place line {0} in {1}'s control flow", line(S), F->getName()), true};
  return divergentBlock(Fn, *B, S);
}

std::optional<Divergence> Uniformity::entryImpl(const FunctionDecl *F) {
  const FunctionDecl *Canon = F->getCanonicalDecl();
  if (F->isMain())
    return std::nullopt;
  if (auto Memo = EntryMemo.find(Canon); Memo != EntryMemo.end())
    return Memo->second;
  if (EntryBusy.count(Canon))
    return std::nullopt; // a cycle of calls: the callers outside it decide
  if (Ev.index().AddressTaken.count(Canon))
    return Divergence{0, llvm::formatv("{0} is called through a pointer", F->getName())};
  if (const ProgramFacts *P = program(); P && outside(F))
    if (std::optional<Divergence> D = enteredFromOtherFiles(F, *P)) {
      EntryMemo[Canon] = D;
      return D;
    }
  EntryBusy.insert(Canon);
  std::optional<Divergence> R;
  auto It = Ev.index().CallSites.find(Canon);
  if (It != Ev.index().CallSites.end())
    for (auto [Caller, CE] : It->second) {
      if (std::optional<Divergence> D = withinImpl(CE, Caller)) {
        R = Divergence{line(CE), llvm::formatv("{0} is called at line {1}, and {2}", F->getName(), line(CE), D->Why)};
        break;
      }
      if (std::optional<Divergence> D = entryImpl(Caller)) {
        R = Divergence{line(CE), llvm::formatv("{0} is called from {1}: {2}", F->getName(), Caller->getName(), D->Why)};
        break;
      }
    }
  EntryBusy.erase(Canon);
  if (EntryBusy.empty() || R)
    EntryMemo[Canon] = R; // a result that assumed a caller in the cycle is not kept
  return R;
}

std::optional<Divergence> Uniformity::within(const Stmt *S, const FunctionDecl *F) {
  ensureGlobals();
  return withinImpl(S, F);
}

std::optional<Divergence> Uniformity::entry(const FunctionDecl *F) {
  ensureGlobals();
  return entryImpl(F);
}

std::optional<Divergence> Uniformity::at(const Stmt *S, const FunctionDecl *F) {
  ensureGlobals();
  if (std::optional<Divergence> D = withinImpl(S, F))
    return D;
  return entryImpl(F);
}

std::optional<std::string> Uniformity::varies(const Expr *E, const FunctionDecl *F) {
  ensureGlobals();
  return variesNode(E, func(F));
}
