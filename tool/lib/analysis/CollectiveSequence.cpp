//===- CollectiveSequence.cpp - The collectives each rank issues -----------===//
#include "analysis/CollectiveSequence.h"
#include "analysis/ProcessCounts.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>
#include <map>
#include <set>

using namespace clang;

namespace ompi {

namespace {

enum class Flow { Normal, Returned, Exited, Aborted, Broke, Continued, Jumped };

/// OMPI_OPT_DEBUG_RUNS=1 prints why a function's runs are not followed
/// (for those who extend the interpreter).
void debugUndecided(const FunctionDecl *F, llvm::StringRef Kind, llvm::StringRef Why) {
  static const bool On = std::getenv("OMPI_OPT_DEBUG_RUNS") != nullptr;
  if (On)
    llvm::errs() << "ompi-opt: " << Kind << " runs of " << F->getName() << " not followed: " << Why << "\n";
}

struct Undecided {
  std::string Why;
};

/// A run met a branch whose condition every rank evaluates alike but the
/// analysis cannot decide, and whose arms differ: the caller runs the job
/// again once with the condition true and once with it false.
struct NeedChoice {
  std::string Cond; ///< the condition as written
};

/// The outcomes of such conditions a job's runs take (keyed by the
/// condition's spelling: conditions spelled alike are taken alike).
using Choices = std::map<std::string, bool>;
/// The conditions a run took from its Choices, with the expression of each.
using Taken = std::map<std::string, const Expr *>;

/// X Op Y for the integer operators the runs evaluate, or none.
std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t X, int64_t Y) {
  switch (Op) {
  case BO_Add:
    return X + Y;
  case BO_Sub:
    return X - Y;
  case BO_Mul:
    return X * Y;
  case BO_Div:
    return Y ? std::optional<int64_t>(X / Y) : std::nullopt;
  case BO_Rem:
    return Y ? std::optional<int64_t>(X % Y) : std::nullopt;
  case BO_LT:
    return X < Y;
  case BO_GT:
    return X > Y;
  case BO_LE:
    return X <= Y;
  case BO_GE:
    return X >= Y;
  case BO_EQ:
    return X == Y;
  case BO_NE:
    return X != Y;
  case BO_LAnd:
    return X && Y;
  case BO_LOr:
    return X || Y;
  case BO_And:
    return X & Y;
  case BO_Or:
    return X | Y;
  case BO_Xor:
    return X ^ Y;
  default:
    return std::nullopt;
  }
}

/// The function a call calls when the file defines it.
const FunctionDecl *definedCallee(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  return F && F->hasBody(Def) && Def ? Def : nullptr;
}

llvm::StringRef calleeName(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  return F && F->getIdentifier() ? F->getName() : "";
}

/// Whether two events may be the same collective: equal keys, where an
/// argument the evaluation could not decide ("root=?") matches any value.
bool sameKey(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 6> PA, PB;
  A.split(PA, ' ');
  B.split(PB, ' ');
  if (PA.size() != PB.size())
    return false;
  for (size_t I = 0; I < PA.size(); ++I)
    if (PA[I] != PB[I] && !PA[I].ends_with("=?") && !PB[I].ends_with("=?"))
      return false;
  return true;
}

/// The window calls every process of the window's group makes together:
/// its creation, MPI_Win_fence and MPI_Win_free.
bool isWindowCollective(llvm::StringRef Name) {
  return Name.starts_with("MPI_Win_create") || Name.starts_with("MPI_Win_allocate") || Name == "MPI_Win_fence" ||
         Name == "MPI_Win_free";
}

bool isCollectiveCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return (M && M->isCollective()) || calleeName(CE) == "MPI_Finalize" || isWindowCollective(calleeName(CE));
}

/// The window variable a window call names (by value, or by address for
/// the creating calls and MPI_Win_free).
const VarDecl *windowVar(const CallExpr *CE, const FunctionModel &M) {
  std::optional<unsigned> I = M.find(Role::Win);
  if (!I)
    I = M.find(Role::WinOut);
  if (!I && M.Name == "MPI_Win_free")
    I = 0;
  if (!I || *I >= CE->getNumArgs())
    return nullptr;
  const Expr *E = CE->getArg(*I)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(E);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// Point-to-point calls, probes and completions.
bool isMessageCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return M && (M->Cat == Category::PointToPoint || M->Cat == Category::Probe || M->Cat == Category::Completion);
}

/// One-sided calls: window creation, synchronisation, RMA, MPI_Win_free.
bool isOneSidedCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return M && M->Cat == Category::OneSided;
}

/// The local handle array (not of requests or windows, whose lives other
/// analyses follow) whose element's address E is: &a[k].
const VarDecl *handleArrayOf(const Expr *E, const Expr **Index = nullptr) {
  const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  const auto *AS =
      U && U->getOpcode() == UO_AddrOf ? dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()) : nullptr;
  const VarDecl *V = AS ? namedVar(AS->getBase()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getType()->isArrayType())
    return nullptr;
  auto C = handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  if (!C || *C == HandleClass::Request || *C == HandleClass::Win)
    return nullptr;
  if (Index)
    *Index = AS->getIdx();
  return V;
}

/// The argument of MPI call CE that is &a[k] of a local handle array, which
/// the call creates or frees; -1 if none.
int handleElementArg(const CallExpr *CE) {
  if (!isMPIFunctionName(calleeName(CE)))
    return -1;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (const VarDecl *V = handleArrayOf(CE->getArg(I))) {
      auto C = *handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
      HandleEvent::Kind K = handleAddressEvent(CE, I, C);
      if (K == HandleEvent::Create || K == HandleEvent::Free)
        return int(I);
    }
  return -1;
}

/// Whether S issues collectives, directly or through the file's functions.
class Relevance {
public:
  /// What one kind of run follows (one kind per run).
  enum Kind { Collectives, PointToPoint, OneSided, Splits, HandleArrays };
  explicit Relevance(Kind K = Collectives)
      : P2P(K == PointToPoint), Rma(K == OneSided), Split(K == Splits), Handles(K == HandleArrays) {}
  const bool P2P;     ///< point-to-point calls (and waits, probes) count too
  const bool Rma;     ///< only one-sided calls count (rmaTraces)
  const bool Split;   ///< only MPI_Comm_split and point-to-point calls count (splitTraces)
  const bool Handles; ///< only calls given &a[k] of a local handle array count (handleArrayTraces)
  bool longRuns() const { return Rma || Handles; } ///< cheap events: loops of up to 4,096 iterations

  bool collectives(const Stmt *S) {
    return S && anyNode(S, [&](const Stmt *N) {
             const auto *CE = dyn_cast<CallExpr>(N);
             if (!CE)
               return false;
             if (Handles ? handleElementArg(CE) >= 0
                 : Split ? calleeName(CE) == "MPI_Comm_split" || isMessageCall(CE)
                 : Rma   ? isOneSidedCall(CE)
                         : isCollectiveCall(CE) || (P2P && isMessageCall(CE)))
               return true;
             const FunctionDecl *F = definedCallee(CE);
             return F && calls(F);
           });
  }

private:
  std::map<const FunctionDecl *, bool> Memo;
  bool calls(const FunctionDecl *F) {
    auto [It, New] = Memo.try_emplace(F, false);
    if (New)
      It->second = collectives(F->getBody());
    return It->second;
  }
};

/// The argument of call CE in role R under its model M (null: none).
const Expr *argOf(const CallExpr *CE, const FunctionModel *M, Role R) {
  auto I = M ? M->find(R) : std::nullopt;
  return I && *I < CE->getNumArgs() ? CE->getArg(*I) : nullptr;
}

/// F and the functions of the file it calls, directly or through others.
std::set<const FunctionDecl *> reachable(const FunctionDecl *F) {
  std::set<const FunctionDecl *> Seen{F};
  std::vector<const FunctionDecl *> Work{F};
  while (!Work.empty()) {
    const FunctionDecl *G = Work.back();
    Work.pop_back();
    anyNode(G->getBody(), [&](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      const FunctionDecl *H = CE ? definedCallee(CE) : nullptr;
      if (H && Seen.insert(H).second)
        Work.push_back(H);
      return false;
    });
  }
  return Seen;
}

/// One rank's run through a function (and the functions it calls).
class RankRun {
public:
  RankRun(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel, int Rank, int Size)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Ev(Ev), Uni(Uni), Rel(Rel), Rank(Rank), Size(Size) {}

  std::vector<CollectiveEvent> Events;
  std::vector<P2PEvent> Messages; ///< with Rel.P2P: the point-to-point calls and collectives in order
  unsigned EndLine = 0;
  std::optional<CommId> TheComm;
  std::map<const VarDecl *, bool> WorldWindows; ///< window variables this run created, and whether on the world
  /// The communicators this run made (MPI_Comm_split, MPI_Comm_dup), in
  /// order: a variable holding "#comm<N>" holds the N-th.
  std::vector<MadeComm> Comms;
  /// With Fixed, uniform undecided conditions of the entry function (outside
  /// loops) whose arms differ take the outcome Fixed gives, or the run
  /// throws NeedChoice. Chosen and Decided collect the conditions this run
  /// took from Fixed and those it decided itself: a job in which one rank
  /// decides a condition another takes from Fixed is not a real one.
  const Choices *Fixed = nullptr;
  Taken Chosen;
  std::set<std::string> Decided;
  bool *WouldFork = nullptr; ///< without Fixed: set where a job with choices would take both ways
  /// At most N statements for the run (100,000 unless set).
  void limitSteps(unsigned N) { StepLimit = N; }

  Flow function(const FunctionDecl *F, std::map<const VarDecl *, std::optional<int64_t>> Args) {
    if (Frames.size() > 6 || llvm::any_of(Frames, [&](const Frame &Fr) { return Fr.F == F; }))
      throw Undecided{llvm::formatv("{0} is called recursively or too deeply", F->getName()).str()};
    Frames.push_back({F, std::move(Args), {}, {}});
    Flow R = exec(F->getBody());
    if (R == Flow::Jumped)
      throw Undecided{llvm::formatv("the goto to {0} jumps into a block", JumpTo->getName()).str()};
    if (R == Flow::Normal && Frames.size() == 1)
      EndLine = line(F->getBody()->getEndLoc());
    Frames.pop_back();
    return R == Flow::Returned ? Flow::Normal : R;
  }

private:
  struct Frame {
    const FunctionDecl *F;
    std::map<const VarDecl *, std::optional<int64_t>> Env;         ///< absent: ask the evaluator; nullopt: unknown
    std::map<const VarDecl *, std::optional<std::string>> Handles; ///< predefined handles held, as Env
    /// Datatype variables set from another datatype variable (t = two_dbls):
    /// that variable (nullopt: set otherwise on some path).
    std::map<const VarDecl *, std::optional<const VarDecl *>> TypeOf;
    /// A helper run for its value (callValue): the caller's integer each
    /// pointer parameter points to (the caller frame's index), and the
    /// value returned.
    std::map<const VarDecl *, std::pair<size_t, const VarDecl *>> Refs = {};
    std::optional<int64_t> Ret = std::nullopt;
  };
  ASTContext &Ctx;
  const SourceManager &SM;
  Evaluator &Ev;
  Uniformity &Uni;
  Relevance &Rel;
  int Rank, Size;
  std::vector<Frame> Frames;
  const Stmt *Cur = nullptr;                  ///< the statement being run (the evaluator's anchor)
  const CallExpr *Site = nullptr;             ///< the entry function's call being run (in a called function)
  unsigned Steps = 0;                         ///< statements run: unrolled loops stop at a budget
  unsigned StepLimit = 100000;                ///< the budget (lower while a loop is tried iteration by iteration)
  unsigned LoopDepth = 0;                     ///< loops being run
  const LabelDecl *JumpTo = nullptr;          ///< with Flow::Jumped: the goto's label
  std::set<const Stmt *> Modelled;            ///< &v arguments of calls whose effect on v the run models
  std::set<const VarDecl *> MadeInto;         ///< variables a communicator constructor set
  std::map<std::string, P2PEvent> Persistent; ///< the persistent requests made (requestKey): what a start issues
  /// handleArrayTraces: what handle array elements hold ("#elem<N>": a
  /// handle the run made; MPI_COMM_NULL).
  std::map<std::pair<const VarDecl *, int64_t>, std::string> ElemHeld;
  unsigned Elems = 0;

  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }
  Frame &frame() { return Frames.back(); }

  std::optional<int64_t> concrete(const SymValue &V) const {
    if (V.K == SymValue::Int)
      return V.I;
    if (V.K != SymValue::Affine || (TheComm && V.Comm.known() && V.Comm != *TheComm))
      return std::nullopt;
    int64_t X = V.A.Rank * Rank + V.A.Size * Size + V.A.Const;
    int64_t M = V.A.Mod == AffineForm::ModSize ? Size : V.A.Mod == AffineForm::ModConst ? V.A.ModValue : 0;
    if (V.A.Mod != AffineForm::NoMod)
      X = M > 0 ? X % M : 0;
    return X;
  }

  std::optional<int64_t> leaf(const Expr *E) {
    SymValue V = Ev.evaluate(E, frame().F, E);
    if (V.K == SymValue::Dynamic && Cur)
      V = Ev.evaluate(E, frame().F, Cur);
    return concrete(V);
  }

  std::optional<int64_t> value(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        if (auto It = frame().Env.find(V); It != frame().Env.end())
          return It->second;
      return leaf(E);
    }
    if (const auto *Ref = deref(E))
      return Frames[Ref->first].Env.count(Ref->second) ? Frames[Ref->first].Env[Ref->second] : std::nullopt;
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (auto V = callValue(CE))
        return V;
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      auto X = value(U->getSubExpr());
      if (!X)
        return std::nullopt;
      switch (U->getOpcode()) {
      case UO_LNot:
        return !*X;
      case UO_Minus:
        return -*X;
      case UO_Plus:
        return *X;
      default:
        return leaf(E);
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return binary(B);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto X = value(C->getCond());
      return X ? value(*X ? C->getTrueExpr() : C->getFalseExpr()) : std::nullopt;
    }
    return leaf(E);
  }

  std::optional<int64_t> binary(const BinaryOperator *B) {
    BinaryOperatorKind Op = B->getOpcode();
    if (B->isEqualityOp()) // comm == MPI_COMM_NULL: by the handles held, under any MPI
      if (auto X = commValue(B->getLHS()), Y = commValue(B->getRHS()); X && Y)
        return (*X == *Y) == (Op == BO_EQ);
    auto L = value(B->getLHS());
    if (Op == BO_LAnd && L && !*L)
      return 0;
    if (Op == BO_LOr && L && *L)
      return 1;
    auto R = value(B->getRHS());
    if (Op == BO_LAnd && R && !*R)
      return 0;
    if (Op == BO_LOr && R && *R)
      return 1;
    if (!L || !R)
      return B->isAssignmentOp() || B->isCommaOp() ? std::nullopt : leaf(B);
    return apply(Op, *L, *R);
  }

  void assign(const Expr *LHS, std::optional<int64_t> V, std::optional<std::string> H = std::nullopt) {
    if (const auto *Ref = deref(LHS)) { // *p, p pointing to a caller's integer
      Frames[Ref->first].Env[Ref->second] = V;
      Frames[Ref->first].Handles.erase(Ref->second);
      return;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts());
    const auto *Var = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!Var || !Var->isLocalVarDecl() || Var->isStaticLocal())
      return;
    if (Var->getType()->isIntegralOrEnumerationType())
      frame().Env[Var] = V;
    frame().Handles[Var] = std::move(H); // MPICH's handles are integers
  }

  /// A datatype variable L (a local of this frame) set from From: the
  /// datatype variable From names, directly or through its own setting.
  void alias(const VarDecl *L, const Expr *From) {
    if (!L || !L->isLocalVarDecl() || L->isStaticLocal() ||
        handleClassOf(L->getType().getAsString()) != HandleClass::Datatype)
      return;
    const VarDecl *R = namedVar(From->IgnoreParenImpCasts());
    std::optional<const VarDecl *> To;
    if (R && handleClassOf(R->getType().getAsString()) == HandleClass::Datatype) {
      auto It = frame().TypeOf.find(R);
      To = It == frame().TypeOf.end() ? std::optional<const VarDecl *>(R) : It->second;
    }
    frame().TypeOf[L] = To;
  }
  void alias(const Expr *L, const Expr *From) { alias(namedVar(L->IgnoreParenImpCasts()), From); }

  /// *p where p is a pointer parameter of a helper run for its value that
  /// points to a caller's integer: that integer (its frame, the variable).
  const std::pair<size_t, const VarDecl *> *deref(const Expr *E) {
    const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
    const VarDecl *P = U && U->getOpcode() == UO_Deref ? namedVar(U->getSubExpr()) : nullptr;
    auto It = P ? frame().Refs.find(P) : frame().Refs.end();
    return It == frame().Refs.end() ? nullptr : &It->second;
  }

  /// The value a call of a function of the file returns, run like the
  /// rank's own code: a function returning an integer, with no MPI call in
  /// it and no variable that outlives a call (static, global) but constants,
  /// its integer parameters given their arguments' values and its
  /// pointer parameters given as &v pointing to the caller's integer v
  /// (whose writes through them the run keeps). nullopt where the run
  /// cannot follow it (then the integers it was given become unknown).
  std::optional<int64_t> callValue(const CallExpr *CE) {
    const FunctionDecl *F = definedCallee(CE);
    if (!F || !F->getReturnType()->isIntegralOrEnumerationType() || Frames.size() > 6 ||
        llvm::any_of(Frames, [&](const Frame &Fr) { return Fr.F == F; }) || callsMPI(F) || keepsState(F))
      return std::nullopt;
    Frame New{F, {}, {}, {}};
    for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
      const ParmVarDecl *P = F->getParamDecl(I);
      const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
      if (P->getType()->isIntegralOrEnumerationType()) {
        New.Env[P] = value(A);
        continue;
      }
      const VarDecl *V = addressedVar(A);
      if (P->getType()->isPointerType() && P->getType()->getPointeeType()->isIntegralOrEnumerationType() && V &&
          V->isLocalVarDecl() && !V->isStaticLocal() && V->getType()->isIntegralOrEnumerationType())
        New.Refs[P] = {Frames.size() - 1, V};
      else if (const VarDecl *Q = namedVar(A); Q && frame().Refs.count(Q) && P->getType()->isPointerType())
        New.Refs[P] = frame().Refs[Q];
    }
    std::vector<std::pair<size_t, const VarDecl *>> Bound;
    for (auto &[P, R] : New.Refs)
      Bound.push_back(R);
    size_t Depth = Frames.size();
    const Stmt *SavedCur = Cur;
    Frames.push_back(std::move(New));
    std::optional<int64_t> Out;
    try {
      if (exec(F->getBody()) == Flow::Returned)
        Out = Frames.back().Ret;
    } catch (const Undecided &) {
      Frames.resize(Depth);
      for (auto &[Fi, V] : Bound)
        Frames[Fi].Env[V] = std::nullopt;
    }
    Frames.resize(Depth);
    Cur = SavedCur;
    return Out;
  }

  /// Whether F names a variable that is not const and outlives a call of
  /// it (a static local, a global): its value depends on earlier calls.
  static bool keepsState(const FunctionDecl *F) {
    return anyNode(F->getBody(), [](const Stmt *N) {
      const auto *D = dyn_cast<DeclRefExpr>(N);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      return V && V->hasGlobalStorage() && !V->getType().isConstQualified();
    });
  }

  /// Whether F calls MPI, directly or through the file's functions.
  static bool callsMPI(const FunctionDecl *F) {
    return llvm::any_of(reachable(F), [](const FunctionDecl *G) {
      return anyNode(G->getBody(), [](const Stmt *N) {
        const auto *CE = dyn_cast<CallExpr>(N);
        const FunctionDecl *C = CE ? CE->getDirectCallee() : nullptr;
        return C && C->getIdentifier() && isMPIFunctionName(C->getName());
      });
    });
  }

  /// The predefined handle E names ("MPI_SUM"), through the variables
  /// this run assigned.
  std::optional<std::string> handle(const Expr *E) {
    if (const VarDecl *V = namedVar(E))
      if (auto It = frame().Handles.find(V); It != frame().Handles.end())
        return It->second;
    auto H = Ev.spelledHandle(E);
    return H && lookupHandle(*H) ? H : std::nullopt;
  }

  /// The communicator E holds, where the run knows it: a predefined one
  /// ("MPI_COMM_WORLD", "MPI_COMM_NULL") or "#comm<N>", the N-th this run
  /// made. A variable the run has no record of is not known.
  std::optional<std::string> commValue(const Expr *E) {
    if (isa<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
      return elemHeld(E);
    const VarDecl *V = namedVar(E);
    if (V && !frame().Handles.count(V))
      return std::nullopt;
    auto H = handle(E);
    llvm::StringRef X = H ? llvm::StringRef(*H) : "";
    if (!X.starts_with("MPI_COMM_") && !X.starts_with("#comm") && X != "MPI_REQUEST_NULL" && X != "#req" &&
        X != "#preq")
      return std::nullopt;
    return H;
  }

  /// What the handle array element a[k] that E names holds (ElemHeld),
  /// where the run knows it.
  std::optional<std::string> elemHeld(const Expr *E) {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    const VarDecl *A = AS ? namedVar(AS->getBase()) : nullptr;
    auto K = A ? value(AS->getIdx()) : std::nullopt;
    auto It = K ? ElemHeld.find({A, *K}) : ElemHeld.end();
    return It == ElemHeld.end() ? std::nullopt : std::optional<std::string>(It->second);
  }

  /// MPI_Wait(all), MPI_Start(all) of a persistent request the run made
  /// (the send or receive its _init call describes), MPI_Request_free of
  /// one: whether CE is one of them (then recorded, E its event so far).
  bool completion(const CallExpr *CE, P2PEvent E) {
    llvm::StringRef Name = calleeName(CE);
    unsigned N = CE->getNumArgs();
    const Expr *A0 = N ? CE->getArg(0) : nullptr;
    auto keys = [&](bool One) {
      return One ? std::vector<std::string>{requestKey(A0, E.Line)}
                 : requestKeys(N >= 2 ? A0 : nullptr, N >= 2 ? CE->getArg(1) : nullptr, E.Line);
    };
    if (Name == "MPI_Wait" || Name == "MPI_Waitall") {
      E.K = P2PEvent::Wait;
      E.Reqs = keys(Name == "MPI_Wait");
      if (Name == "MPI_Wait" && !Persistent.count(E.Reqs.front()))
        setRequest(A0, "MPI_REQUEST_NULL");
      Messages.push_back(E);
      return true;
    }
    if (Name == "MPI_Start" || Name == "MPI_Startall") {
      for (const std::string &K : keys(Name == "MPI_Start")) {
        auto It = Persistent.find(K);
        if (It == Persistent.end())
          throw Undecided{llvm::formatv("the request {0} starts at line {1} is not followed", Name, E.Line).str()};
        Messages.push_back(It->second);
      }
      return true;
    }
    if (Name == "MPI_Request_free") {
      if (!Persistent.erase(requestKey(A0, E.Line)))
        throw Undecided{llvm::formatv("the request MPI_Request_free frees at line {0} is not followed", E.Line).str()};
      setRequest(A0, "MPI_REQUEST_NULL");
      return true;
    }
    return false;
  }

  /// A request variable &r a nonblocking call starts ("#req"), a
  /// persistent one's _init call makes ("#preq") or a wait completes or
  /// MPI_Request_free frees (MPI_REQUEST_NULL), so that r != MPI_REQUEST_NULL
  /// is decided.
  void setRequest(const Expr *Arg, const char *Value) {
    const UnaryOperator *U = nullptr;
    const VarDecl *V = addressedVar(Arg, &U);
    if (!V || !V->isLocalVarDecl() || V->isStaticLocal())
      return;
    Modelled.insert(U);
    if (V->getType()->isIntegralOrEnumerationType())
      frame().Env[V] = std::nullopt;
    frame().Handles[V] = Value;
  }

  /// MPI_Comm_split's colour on this rank (nullopt: not known), and
  /// whether it is MPI_UNDEFINED (spelled, or its value: -32766 in MPICH and
  /// Open MPI).
  struct SplitColour {
    std::optional<int64_t> Value;
    bool Undefined = false;
  };
  SplitColour splitColour(const CallExpr *CE) {
    auto H = Ev.spelledHandle(CE->getArg(1));
    auto V = value(CE->getArg(1));
    return {V, (H && *H == "MPI_UNDEFINED") || (V && *V == -32766)};
  }

  /// MPI_Comm_split, MPI_Comm_dup and MPI_Comm_free on &v, v a local of
  /// this frame: the communicator v holds from here.
  void commCall(const CallExpr *CE) {
    llvm::StringRef Name = calleeName(CE);
    unsigned Out = Name == "MPI_Comm_split" ? 3 : Name == "MPI_Comm_dup" ? 1 : Name == "MPI_Comm_free" ? 0 : ~0u;
    if (Out >= CE->getNumArgs())
      return;
    const UnaryOperator *U = nullptr;
    const VarDecl *V = addressedVar(CE->getArg(Out), &U);
    if (!V || !V->isLocalVarDecl() || V->isStaticLocal() ||
        handleClassOf(V->getType().getAsString()) != HandleClass::Comm)
      return;
    Modelled.insert(U);
    MadeInto.insert(V);
    if (V->getType()->isIntegralOrEnumerationType()) // MPICH's handles are integers
      frame().Env[V] = std::nullopt;
    if (Name == "MPI_Comm_free") {
      frame().Handles[V] = "MPI_COMM_NULL";
      return;
    }
    MadeComm M;
    M.Call = CE;
    M.OfWorld =
        commValue(CE->getArg(0)).value_or(Ev.commId(CE->getArg(0), frame().F, CE).isWorld() ? "MPI_COMM_WORLD" : "") ==
        "MPI_COMM_WORLD";
    if (Name == "MPI_Comm_split") {
      SplitColour C = splitColour(CE);
      M.Colour = C.Undefined ? std::optional<int64_t>(-1) : C.Value;
      M.Key = value(CE->getArg(2));
    } else {
      M.Colour = 0;
      M.Key = Rank;
    }
    frame().Handles[V] =
        M.Colour && *M.Colour < 0 ? std::string("MPI_COMM_NULL") : llvm::formatv("#comm{0}", Comms.size()).str();
    Comms.push_back(M);
  }

  /// Writes of an expression statement: assignments of local integers, and
  /// variables whose address escapes (the evaluator decides those again).
  void effects(const Expr *E) {
    anyNode(E, [&](const Stmt *N) {
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp()) {
        std::optional<int64_t> V;
        std::optional<std::string> H;
        if (B->getOpcode() == BO_Assign)
          V = value(B->getRHS()), H = handle(B->getRHS()), alias(B->getLHS(), B->getRHS());
        else if (const auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
          auto X = value(B->getLHS()), Y = value(B->getRHS());
          V = X && Y ? apply(BinaryOperator::getOpForCompoundAssignment(CA->getOpcode()), *X, *Y) : std::nullopt;
        }
        assign(B->getLHS(), V, std::move(H));
      } else if (const auto *U = dyn_cast<UnaryOperator>(N)) {
        if (U->isIncrementDecrementOp()) {
          auto X = value(U->getSubExpr());
          assign(U->getSubExpr(), X ? std::optional<int64_t>(*X + (U->isIncrementOp() ? 1 : -1)) : std::nullopt);
        } else if (U->getOpcode() == UO_AddrOf) {
          if (const auto *V = namedVar(U->getSubExpr()); V && !Modelled.count(U))
            frame().Env.erase(V), frame().Handles.erase(V), frame().TypeOf.erase(V);
        }
      }
      return false;
    });
  }

  /// Every variable a statement assigns becomes unknown (a loop run an
  /// unknown number of times).
  void forget(const Stmt *S) {
    anyNode(S, [&](const Stmt *N) {
      if (const Expr *LHS = assignedLValue(N))
        assign(LHS, std::nullopt);
      return false;
    });
  }

  Flow calls(const Stmt *S) {
    std::vector<const CallExpr *> Cs;
    anyNode(S, [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N))
        Cs.push_back(CE);
      return false;
    });
    // Arguments run before the call: the innermost call first.
    for (auto It = Cs.rbegin(); It != Cs.rend(); ++It)
      if (Flow F = call(*It); F != Flow::Normal)
        return F;
    return Flow::Normal;
  }

  Flow call(const CallExpr *CE) {
    llvm::StringRef Name = calleeName(CE);
    if (endsProcess(Name) || Name == "abort")
      return Flow::Aborted;
    if (Name == "exit" || Name == "_Exit") {
      auto Code = CE->getNumArgs() ? value(CE->getArg(0)) : std::nullopt;
      EndLine = line(CE->getBeginLoc());
      return Code && *Code == 0 ? Flow::Exited : Flow::Aborted;
    }
    commCall(CE);
    if (Rel.Rma && (isOneSidedCall(CE) || isCollectiveCall(CE) || isMessageCall(CE))) {
      if (isOneSidedCall(CE))
        window(CE);
      return Flow::Normal; // the other calls are the other runs' business
    }
    if (Rel.Handles) {
      if (int I = handleElementArg(CE); I >= 0)
        handleElement(CE, unsigned(I));
      return Flow::Normal; // the other calls are the other runs' business
    }
    if (Rel.Split && isMPIFunctionName(Name)) {
      splitCall(CE);
      return Flow::Normal; // the other calls are the other runs' business
    }
    if (Rel.P2P && isMessageCall(CE)) {
      message(CE);
      return Flow::Normal;
    }
    if (isCollectiveCall(CE)) {
      size_t Before = Events.size();
      record(CE);
      if (Rel.P2P && Events.size() > Before) {
        P2PEvent E;
        E.K = P2PEvent::Collective;
        E.Call = cast<CallExpr>(Events.back().Call);
        E.Line = Events.back().Line;
        E.Via = Events.back().Via;
        Messages.push_back(E);
      }
      return Flow::Normal;
    }
    const FunctionDecl *F = definedCallee(CE);
    if (!F || !Rel.collectives(F->getBody()))
      return Flow::Normal;
    std::map<const VarDecl *, std::optional<int64_t>> Args;
    for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I)
      if (F->getParamDecl(I)->getType()->isIntegralOrEnumerationType())
        Args[F->getParamDecl(I)] = value(CE->getArg(I));
    const Stmt *Saved = Cur;
    Cur = nullptr;
    if (Frames.size() == 1)
      Site = CE;
    Flow R = function(F, std::move(Args));
    Cur = Saved;
    return R;
  }

  /// A point-to-point call of the world communicator with its peers and
  /// tags made concrete (-1: MPI_ANY_*, -2: MPI_PROC_NULL).
  std::optional<int64_t> rankArg(const Expr *E) {
    // Spelled, or held by a variable (int src = MPI_ANY_SOURCE): the
    // constants' values differ between MPIs (MPICH's MPI_ANY_SOURCE is -2).
    if (auto H = handle(E); H && (*H == "MPI_PROC_NULL" || *H == "MPI_ANY_SOURCE" || *H == "MPI_ANY_TAG"))
      return *H == "MPI_PROC_NULL" ? -2 : -1;
    if (auto H = Ev.spelledHandle(E))
      return *H == "MPI_PROC_NULL" ? -2 : *H == "MPI_ANY_SOURCE" || *H == "MPI_ANY_TAG" ? -1 : std::optional<int64_t>();
    return value(E);
  }

  void message(const CallExpr *CE) {
    llvm::StringRef Name = calleeName(CE);
    const FunctionModel *M = lookupFunction(Name);
    unsigned L = line(CE->getBeginLoc());
    auto arg = [&](Role R) { return argOf(CE, M, R); };
    P2PEvent E;
    E.Call = CE;
    E.Line = L;
    E.Via = Frames.size() > 1 ? line(Site->getBeginLoc()) : 0;
    if (completion(CE, E))
      return;
    bool Persist = M->M == Mode::Persistent && M->Cat == Category::PointToPoint && arg(Role::Request);
    bool Nonblocking = (M->M == Mode::Nonblocking || Persist) && M->Cat == Category::PointToPoint && arg(Role::Request);
    bool Probe = Name == "MPI_Probe";
    if ((M->Cat != Category::PointToPoint && !Probe) || (M->M != Mode::Blocking && !Nonblocking))
      throw Undecided{llvm::formatv("{0} at line {1} is not followed", Name, L).str()};
    if (Nonblocking) {
      E.Reqs = {requestKey(arg(Role::Request), L)};
      setRequest(arg(Role::Request), Persist ? "#preq" : "#req");
    }
    const Expr *Comm = arg(Role::Comm);
    std::optional<std::string> Held = Comm ? commValue(Comm) : std::nullopt;
    if (Held && llvm::StringRef(*Held).starts_with("#comm")) { // one this run made: its ranks are translated later
      E.CommIndex = std::stoi(Held->substr(5));
      E.Comm = namedVar(Comm);
    } else if (Held && *Held == "MPI_COMM_WORLD") {
      if (const VarDecl *V = namedVar(Comm); V && MadeInto.count(V))
        E.Comm = V; // a variable holding the world here, and one the run made elsewhere
    } else if (Held || !Comm || !Ev.commId(Comm, frame().F, CE).isWorld()) {
      throw Undecided{llvm::formatv("{0} at line {1} is not on MPI_COMM_WORLD", Name, L).str()};
    }
    auto side = [&](P2PEvent::Side &S, Role Peer, Role Tag, Role Count, Role Type) {
      const Expr *P = arg(Peer), *T = arg(Tag), *N = arg(Count), *Ty = arg(Type);
      S.Peer = P ? rankArg(P) : std::nullopt;
      S.Tag = T ? rankArg(T) : std::nullopt;
      S.Count = N ? value(N) : std::nullopt;
      S.Type = Ty ? handle(Ty).value_or("") : "";
      if (const VarDecl *TV = Ty ? namedVar(Ty->IgnoreParenImpCasts()) : nullptr)
        if (auto It = frame().TypeOf.find(TV); It != frame().TypeOf.end() && It->second)
          S.TypeVar = *It->second;
    };
    if (Name == "MPI_Sendrecv" || Name == "MPI_Sendrecv_replace") {
      E.K = P2PEvent::SendRecv;
      bool Replace = Name == "MPI_Sendrecv_replace";
      side(E.S, Role::Dest, Role::SendTag, Replace ? Role::Count : Role::SendCount,
           Replace ? Role::Type : Role::SendType);
      side(E.R, Role::Source, Role::RecvTag, Replace ? Role::Count : Role::RecvCount,
           Replace ? Role::Type : Role::RecvType);
    } else if (Probe) {
      E.K = P2PEvent::Probe;
      side(E.R, Role::Source, Role::Tag, Role::Count, Role::Type);
    } else if (arg(Role::Dest)) {
      E.K = Nonblocking ? P2PEvent::ISend : Name == "MPI_Ssend" ? P2PEvent::Ssend : P2PEvent::Send;
      E.Sync = Name == "MPI_Ssend" || Name == "MPI_Issend" || Name == "MPI_Ssend_init";
      side(E.S, Role::Dest, Role::Tag, Role::Count, Role::Type);
    } else {
      E.K = Nonblocking ? P2PEvent::IRecv : P2PEvent::Recv;
      side(E.R, Role::Source, Role::Tag, Role::Count, Role::Type);
    }
    if (Persist) { // its starts issue it
      Persistent[E.Reqs.front()] = E;
      return;
    }
    Messages.push_back(E);
  }

  /// splitTraces: MPI_Comm_split of the world into a local variable (its
  /// colour), and point-to-point calls on such a variable (their peers).
  void splitCall(const CallExpr *CE) {
    llvm::StringRef Name = calleeName(CE);
    const FunctionModel *M = lookupFunction(Name);
    auto arg = [&](Role R) { return argOf(CE, M, R); };
    P2PEvent E;
    E.Call = CE;
    E.Line = line(CE->getBeginLoc());
    E.Via = Frames.size() > 1 ? line(Site->getBeginLoc()) : 0;
    if (Name == "MPI_Comm_split") {
      E.Comm = CE->getNumArgs() == 4 ? addressedVar(CE->getArg(3)) : nullptr;
      if (!E.Comm)
        throw Undecided{llvm::formatv("the MPI_Comm_split at line {0} is not followed", E.Line).str()};
      E.K = P2PEvent::Split;
      if (Ev.commId(CE->getArg(0), frame().F, CE).isWorld()) { // else its colour is not the world's partition
        SplitColour C = splitColour(CE);
        E.S.Peer = C.Undefined ? std::optional<int64_t>(-1) : C.Value;
      }
      Messages.push_back(E);
      return;
    }
    // Any other call writing a communicator variable makes it unknown.
    for (const Expr *A : CE->arguments())
      if (const VarDecl *V = addressedVar(A); V && handleClassOf(V->getType().getAsString()) == HandleClass::Comm) {
        P2PEvent W = E;
        W.K = P2PEvent::Split;
        W.Comm = V;
        Messages.push_back(W);
      }
    const Expr *Comm = arg(Role::Comm);
    E.Comm = Comm ? namedVar(Comm->IgnoreParenImpCasts()) : nullptr;
    const Expr *Dest = arg(Role::Dest), *Source = arg(Role::Source);
    if (!E.Comm || !isMessageCall(CE) || (!Dest && !Source))
      return;
    E.K = Dest ? P2PEvent::Send : P2PEvent::Recv;
    if (Dest)
      E.S.Peer = rankArg(Dest);
    if (Source)
      E.R.Peer = rankArg(Source);
    Messages.push_back(E);
  }

  /// A creation or free of element k of a local handle array
  /// (handleArrayTraces), k made concrete.
  void handleElement(const CallExpr *CE, unsigned I) {
    const Expr *Index = nullptr;
    const VarDecl *V = handleArrayOf(CE->getArg(I), &Index);
    P2PEvent E;
    E.K = P2PEvent::Handle;
    E.Call = CE;
    E.Line = line(CE->getBeginLoc());
    E.Via = Frames.size() > 1 ? line(Site->getBeginLoc()) : 0;
    E.Win = V;
    E.S.Peer = value(Index);
    if (!E.S.Peer)
      throw Undecided{llvm::formatv("the element of '{0}' at line {1} is not known", V->getName(), E.Line).str()};
    auto C = *handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
    E.WinEvent = {handleAddressEvent(CE, I, C), 0, CE->getBeginLoc(), calleeName(CE).str(), CE};
    // A constructor that gives some ranks MPI_COMM_NULL makes the element
    // unknown (Other), unless this rank's colour is known to be defined.
    llvm::StringRef Name = calleeName(CE);
    bool Null = false; // the element is given MPI_COMM_NULL
    if (Name == "MPI_Comm_split" && CE->getNumArgs() == 4) {
      SplitColour Colour = splitColour(CE);
      Null = Colour.Undefined;
      if (Null || !Colour.Value || *Colour.Value < 0)
        E.WinEvent.K = HandleEvent::Other;
    } else if (Name == "MPI_Comm_create" && CE->getNumArgs() == 3 && worldGroup(CE->getArg(1)) &&
               Ev.commId(CE->getArg(0), frame().F, CE).isWorld()) {
      // the world's own group: every rank is in the new communicator
    } else if (Name == "MPI_Comm_create" || Name == "MPI_Comm_create_group" || Name == "MPI_Comm_split_type" ||
               Name == "MPI_Cart_create" || Name == "MPI_Graph_create" || Name == "MPI_Comm_accept" ||
               Name == "MPI_Comm_connect" || Name == "MPI_Comm_spawn") {
      E.WinEvent.K = HandleEvent::Other;
    }
    // What the element holds from here, for comparisons (com[j] != MPI_COMM_NULL).
    std::pair<const VarDecl *, int64_t> Key{V, *E.S.Peer};
    if (E.WinEvent.K == HandleEvent::Create && Name == "MPI_Comm_group" &&
        Ev.commId(CE->getArg(0), frame().F, CE).isWorld())
      ElemHeld[Key] = "#worldgroup";
    else if (E.WinEvent.K == HandleEvent::Create)
      ElemHeld[Key] = llvm::formatv("#elem{0}", ++Elems).str();
    else if ((E.WinEvent.K == HandleEvent::Free && C == HandleClass::Comm) || Null)
      ElemHeld[Key] = "MPI_COMM_NULL";
    else
      ElemHeld.erase(Key);
    Messages.push_back(E);
  }

  /// Whether E is an element of a handle array that holds the group of
  /// MPI_COMM_WORLD (MPI_Comm_group of the world, in this run).
  bool worldGroup(const Expr *E) { return elemHeld(E) == std::optional<std::string>("#worldgroup"); }

  /// A one-sided call on a local window variable (rmaTraces).
  void window(const CallExpr *CE) {
    unsigned L = line(CE->getBeginLoc());
    auto W = windowCall(CE, SM);
    if (!W)
      throw Undecided{llvm::formatv("the window of {0} at line {1} is not a local variable", calleeName(CE), L).str()};
    P2PEvent E;
    E.K = P2PEvent::Window;
    E.Call = CE;
    E.Line = L;
    E.Via = Frames.size() > 1 ? line(Site->getBeginLoc()) : 0;
    E.Win = W->first;
    E.WinEvent = W->second;
    if (E.WinEvent.K == HandleEvent::Create)
      if (auto I = lookupFunction(calleeName(CE))->find(Role::Comm); I && *I < CE->getNumArgs())
        E.WorldWindow = Ev.commId(CE->getArg(*I), frame().F, CE).isWorld();
    rmaDetails(CE, E);
    if (E.WinEvent.AssertUnknown)
      if (auto M = modes(CE->getArg(0))) {
        E.WinEvent.AssertUnknown = false;
        E.WinEvent.NoSucceed = M->count("MPI_MODE_NOSUCCEED");
        E.WinEvent.NoPrecede = M->count("MPI_MODE_NOPRECEDE");
      }
    Messages.push_back(E);
  }

  /// What rma-conflict needs of a window call: an RMA call's target rank,
  /// displacement, count and datatype, a creation's displacement unit, a
  /// lock's rank and type.
  void rmaDetails(const CallExpr *CE, P2PEvent &E) {
    const FunctionModel *M = lookupFunction(calleeName(CE));
    auto arg = [&](Role R) { return argOf(CE, M, R); };
    if (E.WinEvent.K == HandleEvent::Create) {
      if (const Expr *U = arg(Role::DispUnit))
        E.Disp = value(U);
    } else if (E.WinEvent.K == HandleEvent::RMA) {
      const Expr *Rk = arg(Role::Dest), *D = arg(Role::TargetDisp), *N = arg(Role::TargetCount),
                 *T = arg(Role::TargetType);
      if (!N) // MPI_Fetch_and_op, MPI_Compare_and_swap: one element of the origin's type
        T = arg(Role::Type);
      E.S.Peer = Rk ? value(Rk) : std::nullopt;
      E.Disp = D ? value(D) : std::nullopt;
      E.S.Count = N ? value(N) : std::optional<int64_t>(1);
      E.S.Type = T ? handle(T).value_or("") : "";
    } else if (E.WinEvent.K == HandleEvent::Lock) {
      E.S.Peer = arg(Role::Dest) ? value(arg(Role::Dest)) : std::nullopt;
      auto H = arg(Role::LockType) ? handle(arg(Role::LockType)) : std::nullopt;
      E.Exclusive = !H || *H != "MPI_LOCK_SHARED"; // unknown: as if exclusive (no conflict judged)
    }
  }

  /// The MPI_MODE_* names an assertion combines (0, the names, variables
  /// the run knows to hold one, joined by | or +); nullopt when not known.
  std::optional<std::set<std::string>> modes(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && (B->getOpcode() == BO_Or || B->getOpcode() == BO_Add)) {
      auto L = modes(B->getLHS()), R = modes(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      L->insert(R->begin(), R->end());
      return L;
    }
    if (auto H = handle(E); H && llvm::StringRef(*H).starts_with("MPI_MODE_"))
      return std::set<std::string>{*H};
    if (auto V = value(E); V && *V == 0)
      return std::set<std::string>{};
    return std::nullopt;
  }

  /// The request &r, &r[k], r + k names, as "variable#k" (k concrete).
  std::string requestKey(const Expr *E, unsigned L) {
    const Expr *X = E ? E->IgnoreParenImpCasts() : nullptr;
    const Expr *Idx = nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf) {
      X = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
        X = AS->getBase()->IgnoreParenImpCasts(), Idx = AS->getIdx();
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(X); B && B->getOpcode() == BO_Add) {
      X = B->getLHS()->IgnoreParenImpCasts(), Idx = B->getRHS();
    }
    const VarDecl *V = namedVar(X);
    std::optional<int64_t> K = Idx ? value(Idx) : std::optional<int64_t>(0);
    if (!V || !K || !V->hasLocalStorage() ||
        (!Idx && !isa<UnaryOperator>(E->IgnoreParenImpCasts()) && !V->getType()->isArrayType()))
      throw Undecided{llvm::formatv("the request at line {0} is not a local variable or element", L).str()};
    return llvm::formatv("{0}#{1}", static_cast<const void *>(V), *K).str();
  }

  /// MPI_Waitall(n, reqs, ...): reqs[0] .. reqs[n-1].
  std::vector<std::string> requestKeys(const Expr *Count, const Expr *Reqs, unsigned L) {
    std::optional<int64_t> N = Count ? value(Count) : std::nullopt;
    const VarDecl *V = Reqs ? namedVar(Reqs->IgnoreParenImpCasts()) : nullptr;
    if (!N || *N < 0 || *N > 1024 || !V || !V->hasLocalStorage() || !V->getType()->isArrayType())
      throw Undecided{llvm::formatv("the requests of the wait at line {0} are not followed", L).str()};
    std::vector<std::string> Out;
    for (int64_t K = 0; K < *N; ++K)
      Out.push_back(llvm::formatv("{0}#{1}", static_cast<const void *>(V), K).str());
    return Out;
  }

  void record(const CallExpr *CE) {
    llvm::StringRef Name = calleeName(CE);
    const FunctionModel *M = lookupFunction(Name);
    std::string Key = Name.str(), Held;
    CommId Comm{CommId::Predefined, "MPI_COMM_WORLD"};
    if (M && M->Cat == Category::OneSided) {
      // A window's collectives count where this run created the window on
      // MPI_COMM_WORLD; others (another communicator's, a window from
      // elsewhere) are left out.
      const VarDecl *W = windowVar(CE, *M);
      if (!W)
        return;
      if (auto I = M->find(Role::Comm); I && *I < CE->getNumArgs()) {
        CommId C = Ev.commId(CE->getArg(*I), frame().F, CE);
        WorldWindows[W] = C.isWorld();
      }
      auto It = WorldWindows.find(W);
      if (It == WorldWindows.end() || !It->second)
        return;
    } else if (M) {
      if (auto I = M->find(Role::Comm); I && *I < CE->getNumArgs()) {
        if (auto H = commValue(CE->getArg(*I))) { // the communicator this rank's variable holds
          Comm =
              llvm::StringRef(*H).starts_with("#comm") ? CommId{CommId::Created, *H} : CommId{CommId::Predefined, *H};
          if (const VarDecl *V = namedVar(CE->getArg(*I)); V && MadeInto.count(V))
            Held = llvm::formatv(", on {0}, which '{1}' holds there", *H, V->getName()).str();
        } else
          Comm = Ev.commId(CE->getArg(*I), frame().F, CE);
      }
      auto arg = [&](Role R) { return argOf(CE, M, R); };
      if (const Expr *Root = arg(Role::Root)) {
        auto V = value(Root);
        Key += " root=" + (V ? std::to_string(*V) : std::string("?"));
      }
      if (const Expr *Op = arg(Role::Op))
        Key += " op=" + handle(Op).value_or("?");
      const Expr *Count = arg(Role::Count), *Type = arg(Role::Type);
      if (auto T = Type ? handle(Type) : std::nullopt; Count && T) {
        auto V = value(Count);
        Key += " count=" + (V ? std::to_string(*V) : std::string("?")) + " type=" + *T;
      }
    }
    if (Comm.K == CommId::Predefined && Comm.Key == "MPI_COMM_SELF")
      return; // each rank alone: nothing to agree on
    if (Comm.K == CommId::Created)
      return; // its members are not known; the world's collectives are still compared
    if (Comm.known() && !Comm.isWorld())
      throw Undecided{llvm::formatv("{0} at line {1} runs on a communicator whose members the tool does not know", Name,
                                    line(CE->getBeginLoc()))
                          .str()};
    if (!Comm.known())
      throw Undecided{
          llvm::formatv("the communicator of {0} at line {1} is not known", Name, line(CE->getBeginLoc())).str()};
    if (!TheComm)
      TheComm = Comm;
    else if (*TheComm != Comm && Name != "MPI_Finalize")
      throw Undecided{"collectives on more than one communicator"};
    if (Frames.size() > 1)
      Events.push_back({Site, line(CE->getBeginLoc()), line(Site->getBeginLoc()), CE, Key, Held});
    else
      Events.push_back({CE, line(CE->getBeginLoc()), 0, CE, Key, Held});
  }

  Flow exec(const Stmt *S);
  Flow branch(const IfStmt *If);
  Flow choose(const SwitchStmt *Sw);
  Flow block(llvm::ArrayRef<const Stmt *> Body, size_t From);
  Flow loop(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc = nullptr);
  Flow unroll(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc);
};

Flow RankRun::exec(const Stmt *S) {
  if (!S)
    return Flow::Normal;
  if (++Steps > StepLimit)
    throw Undecided{"the run is too long to follow statement by statement"};
  Cur = S;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return block(llvm::ArrayRef<const Stmt *>(C->body_begin(), C->body_end()), 0);
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    for (const Decl *X : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(X); V && V->getType()->isIntegralOrEnumerationType()) {
        if (const Expr *Init = V->getInit())
          if (Flow F = calls(Init); F != Flow::Normal)
            return F;
        frame().Env[V] = V->getInit() ? value(V->getInit()) : std::nullopt;
        frame().Handles[V] = V->getInit() ? handle(V->getInit()) : std::nullopt;
        if (V->getInit()) // MPICH's handles are integers
          alias(V, V->getInit());
      } else if (V && V->getInit()) {
        if (Flow F = calls(V->getInit()); F != Flow::Normal)
          return F;
        frame().Handles[V] = handle(V->getInit());
        alias(V, V->getInit());
      }
    return Flow::Normal;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    Flow F = calls(E);
    effects(E);
    return F;
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return branch(If);
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return choose(Sw);
  if (const auto *SC = dyn_cast<SwitchCase>(S)) // a label reached by falling through
    return exec(SC->getSubStmt());
  if (const auto *Fo = dyn_cast<ForStmt>(S)) {
    if (Flow F = exec(Fo->getInit()); F != Flow::Normal)
      return F;
    return loop(Fo, Fo->getCond(), Fo->getBody(), Fo->getInc());
  }
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return loop(W, W->getCond(), W->getBody());
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    if (auto C = value(D->getCond()); C && !*C) { // do { ... } while (0): a block (macros)
      Flow F = exec(D->getBody());
      return F == Flow::Broke || F == Flow::Continued ? Flow::Normal : F;
    }
    return loop(D, D->getCond(), D->getBody());
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Flow F = R->getRetValue() ? calls(R->getRetValue()) : Flow::Normal;
    if (R->getRetValue() && Frames.size() > 1)
      frame().Ret = value(R->getRetValue());
    if (Frames.size() == 1)
      EndLine = line(R->getBeginLoc());
    return F == Flow::Normal ? Flow::Returned : F;
  }
  if (isa<BreakStmt>(S))
    return Flow::Broke;
  if (const auto *G = dyn_cast<GotoStmt>(S)) {
    JumpTo = G->getLabel();
    return Flow::Jumped;
  }
  if (isa<ContinueStmt>(S))
    return Flow::Continued;
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return exec(L->getSubStmt());
  if (isa<NullStmt>(S))
    return Flow::Normal;
  if (Rel.collectives(S) || anyNode(S, [](const Stmt *N) { return isa<ReturnStmt>(N) || isa<GotoStmt>(N); }))
    throw Undecided{
        llvm::formatv("the {0} at line {1} is not followed", S->getStmtClassName(), line(S->getBeginLoc())).str()};
  forget(S);
  return Flow::Normal;
}

/// Env's entries that differ from (or are missing in) Arm become unknown;
/// whether any did.
template <typename Map> bool mergeInto(Map &Env, const Map &Arm) {
  bool Differ = false;
  for (auto &[V, X] : Arm)
    if (auto It = Env.find(V); It == Env.end() || It->second != X) {
      Differ = true;
      Env[V] = std::nullopt;
    }
  for (auto &[V, X] : Env)
    if (!Arm.count(V) && X) {
      Differ = true;
      X = std::nullopt;
    }
  return Differ;
}

Flow RankRun::branch(const IfStmt *If) {
  if (If->getInit() || If->getConditionVariable())
    throw Undecided{llvm::formatv("the if at line {0} declares a variable", line(If->getBeginLoc())).str()};
  if (Flow F = calls(If->getCond()); F != Flow::Normal)
    return F;
  bool MayFork = Frames.size() == 1 && LoopDepth == 0;
  if (auto C = value(If->getCond())) {
    if (Fixed && MayFork && !Uni.varies(If->getCond(), frame().F))
      Decided.insert(Ev.text(If->getCond()));
    return exec(*C ? If->getThen() : If->getElse());
  }
  bool Forkable = MayFork && !Uni.varies(If->getCond(), frame().F);
  std::string Text = Forkable ? Ev.text(If->getCond()) : "";
  // Without Fixed the run only notes that a job with choices would differ.
  auto fork = [&] {
    if (Fixed)
      throw NeedChoice{Text};
    if (WouldFork)
      *WouldFork = true;
  };
  if (Forkable && Fixed)
    if (auto It = Fixed->find(Text); It != Fixed->end()) {
      Chosen.emplace(Text, If->getCond());
      return exec(It->second ? If->getThen() : If->getElse());
    }
  // Undecided condition: both arms must issue the same collectives and end alike.
  auto SavedEvents = Events;
  auto SavedMessages = Messages;
  auto SavedFrames = Frames;
  Flow A = exec(If->getThen());
  const LabelDecl *JumpA = JumpTo;
  auto EventsA = Events;
  auto MessagesA = Messages;
  Events = SavedEvents;
  Messages = SavedMessages;
  auto FramesA = Frames;
  Frames = SavedFrames;
  Flow B = exec(If->getElse());
  bool Same = A == B && (A != Flow::Jumped || JumpA == JumpTo) && EventsA.size() == Events.size() &&
              MessagesA.size() == Messages.size();
  for (size_t I = 0; Same && I < Events.size(); ++I)
    Same = sameKey(EventsA[I].Key, Events[I].Key);
  for (size_t I = 0; Same && I < Messages.size(); ++I)
    Same = MessagesA[I].Call == Messages[I].Call;
  if (!Same && !(A == Flow::Aborted && B == Flow::Aborted)) {
    if (A == Flow::Aborted) // the ranks that take the aborting arm stop the job: follow the other
      return B;
    if (B == Flow::Aborted) {
      Events = EventsA;
      Messages = MessagesA;
      Frames = FramesA;
      JumpTo = JumpA;
      return A;
    }
    if (Forkable)
      fork();
    throw Undecided{llvm::formatv("the branch at line {0} is not decided by the rank and size, and its arms differ",
                                  line(If->getBeginLoc()))
                        .str()};
  }
  // Variables the arms set differently become unknown.
  bool Differ = mergeInto(frame().Env, FramesA.back().Env) | mergeInto(frame().Handles, FramesA.back().Handles) |
                mergeInto(frame().TypeOf, FramesA.back().TypeOf);
  if (Differ && Forkable && A != Flow::Aborted)
    fork();
  return A;
}

/// The index of the statement of Body that is Target, a label or a case
/// label, or holds it behind other labels (`a: case 1: ...`).
static std::optional<size_t> holding(llvm::ArrayRef<const Stmt *> Body, const Stmt *Target) {
  auto Inner = [](const Stmt *X) -> const Stmt * {
    if (const auto *L = dyn_cast<LabelStmt>(X))
      return L->getSubStmt();
    if (const auto *C = dyn_cast<SwitchCase>(X))
      return C->getSubStmt();
    return nullptr;
  };
  for (size_t J = 0; J < Body.size(); ++J)
    for (const Stmt *X = Body[J]; X; X = Inner(X))
      if (X == Target)
        return J;
  return std::nullopt;
}

/// Where the goto being run (JumpTo) lands in Body, if it does.
static std::optional<size_t> labelIn(llvm::ArrayRef<const Stmt *> Body, const LabelDecl *L) {
  return holding(Body, L->getStmt());
}

/// A switch on a value the run knows (the rank, the size, what follows
/// from them): from the case label that matches (or default) on, falling
/// through labels as C does, to the first break. Not followed: a label
/// nested inside another statement of the body (Duff's device), and a
/// switch on a value the run does not know whose body communicates.
Flow RankRun::choose(const SwitchStmt *Sw) {
  unsigned L = line(Sw->getBeginLoc());
  if (Sw->getInit() || Sw->getConditionVariable())
    throw Undecided{llvm::formatv("the switch at line {0} declares a variable", L).str()};
  if (Flow F = calls(Sw->getCond()); F != Flow::Normal)
    return F;
  std::optional<int64_t> C = value(Sw->getCond());
  if (!C) {
    if (Rel.collectives(Sw) || anyNode(Sw, [](const Stmt *N) { return isa<ReturnStmt, GotoStmt>(N); }))
      throw Undecided{llvm::formatv("the switch at line {0} is not decided by the rank and size", L).str()};
    forget(Sw);
    return Flow::Normal;
  }
  const SwitchCase *Target = nullptr, *Default = nullptr;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    const auto *CS = dyn_cast<CaseStmt>(SC);
    if (!CS) {
      Default = SC;
      continue;
    }
    int64_t Lo = CS->getLHS()->EvaluateKnownConstInt(Ctx).getExtValue();
    int64_t Hi = CS->getRHS() ? CS->getRHS()->EvaluateKnownConstInt(Ctx).getExtValue() : Lo; // case 1 ... 3:
    if (Lo <= *C && *C <= Hi)
      Target = CS;
  }
  if (!Target)
    Target = Default;
  if (!Target)
    return Flow::Normal;
  std::vector<const Stmt *> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(Sw->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Sw->getBody());
  std::optional<size_t> Start = holding(Body, Target);
  if (!Start)
    throw Undecided{llvm::formatv("the switch at line {0} jumps into a statement of its body", L).str()};
  Flow F = exec(Target);
  size_t Next = *Start + 1;
  if (std::optional<size_t> To = F == Flow::Jumped ? labelIn(Body, JumpTo) : std::nullopt) {
    JumpTo = nullptr; // a goto to a label of the body
    F = Flow::Normal;
    Next = *To;
  }
  if (F == Flow::Normal)
    F = block(Body, Next);
  return F == Flow::Broke ? Flow::Normal : F;
}

/// The statements of a block from From on. A goto to a label among them
/// (forward, or back: the step budget bounds a loop made of gotos) goes on
/// from the label; one to a label elsewhere leaves the block.
Flow RankRun::block(llvm::ArrayRef<const Stmt *> Body, size_t From) {
  for (size_t I = From; I < Body.size();) {
    Flow F = exec(Body[I]);
    if (F == Flow::Normal) {
      ++I;
      continue;
    }
    std::optional<size_t> To = F == Flow::Jumped ? labelIn(Body, JumpTo) : std::nullopt;
    if (!To)
      return F;
    JumpTo = nullptr;
    I = *To;
  }
  return Flow::Normal;
}

/// A loop run iteration by iteration (point-to-point runs: each message
/// counts), at most 64 times (4,096 in one-sided runs, whose events are
/// cheap to follow), its condition decided in each.
Flow RankRun::unroll(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  unsigned L = line(Loop->getBeginLoc());
  ++LoopDepth;
  auto Leave = llvm::make_scope_exit([&] { --LoopDepth; });
  for (int It = 0;; ++It) {
    // A do loop's condition is first tested after its body.
    std::optional<int64_t> C = !Cond || (isa<DoStmt>(Loop) && It == 0) ? std::optional<int64_t>(1) : value(Cond);
    if (It > (Rel.longRuns() ? 4096 : 64) || !C)
      throw Undecided{llvm::formatv("the loop at line {0} is not followed message by message", L).str()};
    if (!*C)
      return Flow::Normal;
    Flow F = exec(Body);
    if (F == Flow::Broke)
      return Flow::Normal;
    if (F != Flow::Normal && F != Flow::Continued)
      return F;
    if (Inc) {
      Cur = Inc;
      if (Flow G = calls(Inc); G != Flow::Normal)
        return G;
      effects(Inc);
    }
  }
}

Flow RankRun::loop(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  if (!Rel.collectives(Loop)) {
    forget(Loop);
    return Flow::Normal;
  }
  if (Rel.P2P || Rel.Rma || Rel.Split || Rel.Handles)
    return unroll(Loop, Cond, Body, Inc);
  // A loop whose condition the run decides on every iteration (at most 64)
  // is run iteration by iteration: ranks that run it a different number of
  // times issue different sequences.
  {
    auto SavedEvents = Events;
    auto SavedFrames = Frames;
    unsigned SavedSteps = Steps, SavedLimit = StepLimit;
    StepLimit = std::min(StepLimit, Steps + 2000); // a short try: long loops stay one block
    try {
      Flow F = unroll(Loop, Cond, Body, Inc);
      StepLimit = SavedLimit;
      return F;
    } catch (const Undecided &) {
      Events = std::move(SavedEvents);
      Frames = std::move(SavedFrames);
      Steps = SavedSteps;
      StepLimit = SavedLimit;
    }
  }
  if (Cond && Uni.varies(Cond, frame().F))
    throw Undecided{
        llvm::formatv("the condition of the loop at line {0} may differ between ranks", line(Loop->getBeginLoc()))
            .str()};
  forget(Loop);
  auto Saved = Events;
  Events.clear();
  ++LoopDepth;
  Flow F = exec(Body);
  --LoopDepth;
  if (F != Flow::Normal && F != Flow::Continued)
    throw Undecided{
        llvm::formatv("the loop at line {0} leaves early around collectives", line(Loop->getBeginLoc())).str()};
  std::string Key = "loop {";
  for (const CollectiveEvent &E : Events)
    Key += E.Key + "; ";
  Key += "}";
  Events = Saved;
  if (Frames.size() > 1)
    Events.push_back({Site, line(Loop->getBeginLoc()), line(Site->getBeginLoc()), Loop, Key, ""});
  else
    Events.push_back({Loop, line(Loop->getBeginLoc()), 0, Loop, Key, ""});
  forget(Loop);
  return Flow::Normal;
}

std::string ranks(const std::vector<int> &R) {
  std::string S;
  for (size_t I = 0; I < R.size(); ++I) {
    size_t J = I;
    while (J + 1 < R.size() && R[J + 1] == R[J] + 1)
      ++J;
    S += (S.empty() ? "" : ", ") + std::to_string(R[I]) + (J > I ? "-" + std::to_string(R[J]) : "");
    I = J;
  }
  return S;
}

/// A condition that compares a variable with a constant ("n > 1", "!n",
/// "n"), as the variable, the comparison and the constant.
struct Bound {
  const VarDecl *V = nullptr;
  BinaryOperatorKind Op = BO_NE;
  int64_t C = 0;
};

std::optional<Bound> boundOf(ASTContext &Ctx, const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const VarDecl *V = namedVar(E))
    return Bound{V, BO_NE, 0};
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    if (const VarDecl *V = namedVar(U->getSubExpr()))
      return Bound{V, BO_EQ, 0};
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  Expr::EvalResult R;
  if (const VarDecl *V = namedVar(B->getLHS()); V && B->getRHS()->EvaluateAsInt(R, Ctx))
    return Bound{V, B->getOpcode(), R.Val.getInt().getExtValue()};
  if (const VarDecl *V = namedVar(B->getRHS()); V && B->getLHS()->EvaluateAsInt(R, Ctx))
    return Bound{V, BinaryOperator::reverseComparisonOp(B->getOpcode()), R.Val.getInt().getExtValue()};
  return std::nullopt;
}

/// Whether the outcomes Fixed gives the conditions Chosen took can hold
/// together, as far as comparisons of one variable with constants tell
/// ("argc == 1" and "argc > 2" cannot both hold).
bool feasible(ASTContext &Ctx, const Choices &Fixed, const Taken &Chosen) {
  std::map<const VarDecl *, std::vector<std::pair<Bound, bool>>> ByVar;
  for (const auto &[Text, E] : Chosen)
    if (std::optional<Bound> B = boundOf(Ctx, E))
      ByVar[B->V].push_back({*B, Fixed.at(Text)});
  for (const auto &[V, Bs] : ByVar) {
    bool Any = false;
    for (const auto &[B, _] : Bs)
      for (int64_t X : {B.C - 1, B.C, B.C + 1})
        Any |= llvm::all_of(Bs, [&, X = X](const std::pair<Bound, bool> &P) {
          return (apply(P.first.Op, X, P.first.C).value_or(0) != 0) == P.second;
        });
    if (!Any)
      return false;
  }
  return true;
}

/// The conditions a job took from its choices, in words ("'argc == 1'
/// holds"), or "" when the runs were not real (a rank decided a condition
/// another took as given) or took none.
std::string assumed(ASTContext &Ctx, const Choices &Fixed, const Taken &Chosen, const std::set<std::string> &Decided) {
  if (!feasible(Ctx, Fixed, Chosen))
    return "";
  std::vector<std::string> Out;
  for (const auto &[C, E] : Chosen) {
    if (Decided.count(C))
      return "";
    Out.push_back("'" + C + "' " + (Fixed.at(C) ? "holds" : "does not hold"));
  }
  return llvm::join(Out, " and ");
}

/// Runs Job once for each outcome of the conditions that every rank
/// evaluates alike but the runs cannot decide (argc, input), as the runs ask
/// for them, until Job returns true or 16 jobs have run.
template <typename JobFn> void explore(JobFn Job) {
  std::vector<Choices> Work{{}};
  for (unsigned N = 0; !Work.empty() && N < 16; ++N) {
    Choices C = std::move(Work.back());
    Work.pop_back();
    try {
      if (Job(C))
        return;
    } catch (const NeedChoice &W) {
      for (bool B : {false, true}) {
        Work.push_back(C);
        Work.back()[W.Cond] = B;
      }
    } catch (const Undecided &) {
    }
  }
}

struct SequenceJob {
  ASTContext &Ctx;
  Evaluator &Ev;
  Uniformity &Uni;
  Relevance &Rel;
  const FunctionDecl *F;
  const Choices *Fixed = nullptr;
  Taken Chosen;
  std::set<std::string> Decided;
  bool WouldFork = false; ///< without Fixed: some run met a condition a job with choices would take both ways

  /// Where the ranks' collectives part with Size processes.
  std::optional<SequenceDivergence> at(int Size) {
    struct Group {
      std::vector<int> Ranks;
      std::vector<CollectiveEvent> Events;
      unsigned End;
    };
    std::vector<Group> Groups;
    for (int Rank = 0; Rank < Size; ++Rank) {
      RankRun Run(Ctx, Ev, Uni, Rel, Rank, Size);
      Run.Fixed = Fixed;
      Run.WouldFork = &WouldFork;
      Flow R = Run.function(F, {});
      Chosen.insert(Run.Chosen.begin(), Run.Chosen.end());
      Decided.insert(Run.Decided.begin(), Run.Decided.end());
      if (R == Flow::Aborted)
        continue;
      auto Same = [&](const Group &G) {
        if (G.Events.size() != Run.Events.size())
          return false;
        for (size_t I = 0; I < G.Events.size(); ++I)
          if (!sameKey(G.Events[I].Key, Run.Events[I].Key))
            return false;
        return true;
      };
      auto It = llvm::find_if(Groups, Same);
      if (It == Groups.end())
        Groups.push_back({{}, Run.Events, Run.EndLine}), It = std::prev(Groups.end());
      It->Ranks.push_back(Rank);
    }
    if (Groups.size() < 2)
      return std::nullopt;
    SequenceDivergence D;
    D.Size = Size;
    const Group &A = Groups[0], &B = Groups[1];
    D.RanksA = A.Ranks;
    D.RanksB = B.Ranks;
    while (D.Index < A.Events.size() && D.Index < B.Events.size() &&
           sameKey(A.Events[D.Index].Key, B.Events[D.Index].Key))
      ++D.Index;
    if (D.Index < A.Events.size())
      D.A = A.Events[D.Index];
    if (D.Index < B.Events.size())
      D.B = B.Events[D.Index];
    D.EndLineA = A.End;
    D.EndLineB = B.End;
    return D;
  }

  std::optional<SequenceDivergence> run() {
    for (int Size : processCounts(Ev, F, {2, 3, 4, 8}))
      if (auto D = at(Size))
        return D;
    return std::nullopt;
  }
};

SequenceResult analyse(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel, const FunctionDecl *F) {
  SequenceResult Out;
  Out.F = F;
  SequenceJob Base{Ctx, Ev, Uni, Rel, F, nullptr, {}, {}, false};
  try {
    Out.Divergence = Base.run();
    Out.Decided = true;
  } catch (const Undecided &U) {
    Out.Why = U.Why;
    debugUndecided(F, "collective", U.Why);
  }
  if (Out.Divergence || !Base.WouldFork)
    return Out;
  // Follow each outcome of the conditions the runs could not decide.
  explore([&](const Choices &C) {
    SequenceJob J{Ctx, Ev, Uni, Rel, F, &C, {}, {}, false};
    std::optional<SequenceDivergence> D = J.run();
    std::string Assumed = assumed(Ctx, C, J.Chosen, J.Decided);
    if (!D || Assumed.empty())
      return false;
    Out.Divergence = D;
    Out.Divergence->Assumed = Assumed;
    Out.Decided = true;
    return true;
  });
  return Out;
}

} // namespace

std::string describeRanks(const std::vector<int> &R) { return ranks(R); }

/// The functions of the main file no other function of it calls and that
/// issue what Rel looks for.
static std::vector<const FunctionDecl *> entries(ASTContext &Ctx, Relevance &Rel) {
  std::set<const FunctionDecl *> Called;
  std::vector<const FunctionDecl *> Fs;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *F = dyn_cast<FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody() ||
        !Ctx.getSourceManager().isInMainFile(Ctx.getSourceManager().getExpansionLoc(F->getBeginLoc())))
      continue;
    Fs.push_back(F);
    anyNode(F->getBody(), [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N))
        if (const FunctionDecl *G = definedCallee(CE))
          Called.insert(G);
      return false;
    });
  }
  std::vector<const FunctionDecl *> Out;
  for (const FunctionDecl *F : Fs)
    if (!Called.count(F) && Rel.collectives(F->getBody()))
      Out.push_back(F);
  return Out;
}

std::vector<SequenceResult> collectiveSequences(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel;
  std::vector<SequenceResult> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel)) {
    Out.push_back(analyse(Ctx, Ev, Uni, Rel, F));
    Out.back().Reaches = reachable(F);
  }
  return Out;
}

/// The calls of T on communicators its ranks made of the world (CommIndex
/// >= 0) given world ranks as peers: the members of a rank's part are the
/// ranks that gave the same colour to that split, in the order of their
/// keys (then of their world ranks). False when that is not known for
/// every rank (a communicator made of another, a colour or key not known,
/// ranks that made different ones) or a peer lies beyond the part.
static bool translatePeers(P2PTraces &T, const std::vector<std::vector<MadeComm>> &Comms) {
  for (int R = 0; R < T.Size; ++R)
    for (P2PEvent &E : T.Ranks[R]) {
      if (E.CommIndex < 0)
        continue;
      size_t N = size_t(E.CommIndex);
      std::vector<std::pair<int64_t, int>> Part;
      for (int Q = 0; Q < T.Size; ++Q) {
        if (N >= Comms[Q].size() || N >= Comms[R].size())
          return false;
        const MadeComm &M = Comms[Q][N];
        if (!M.OfWorld || !M.Colour || !M.Key || M.Call != Comms[R][N].Call)
          return false;
        if (*M.Colour == *Comms[R][N].Colour)
          Part.push_back({*M.Key, Q});
      }
      llvm::sort(Part);
      E.CommMadeBy = Comms[R][N].Call;
      E.CommPeer = E.K == P2PEvent::Send || E.K == P2PEvent::Ssend || E.K == P2PEvent::ISend ? E.S.Peer : E.R.Peer;
      for (std::optional<int64_t> *P : {&E.S.Peer, &E.R.Peer}) {
        if (!*P || **P < 0)
          continue; // MPI_ANY_SOURCE, MPI_PROC_NULL
        if (**P >= int64_t(Part.size()))
          return false;
        *P = Part[size_t(**P)].second;
      }
    }
  return true;
}

/// Every rank's point-to-point calls with 2, 3 and 4 processes.
static std::vector<P2PTraces> p2pJob(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel,
                                     const FunctionDecl *F, const Choices *Fixed, Taken &Chosen,
                                     std::set<std::string> &Decided, bool *WouldFork = nullptr) {
  std::vector<P2PTraces> Out;
  for (int Size : processCounts(Ev, F, {2, 3, 4})) {
    P2PTraces T{F, Size, {}, {}, ""};
    std::vector<std::vector<MadeComm>> Comms;
    for (int Rank = 0; Rank < Size; ++Rank) {
      RankRun Run(Ctx, Ev, Uni, Rel, Rank, Size);
      Run.Fixed = Fixed;
      Run.WouldFork = WouldFork;
      if (Rel.Rma || Rel.Split || Rel.Handles) { // no collective names the communicator of the ranks: the world's
        Run.TheComm = CommId{CommId::Predefined, "MPI_COMM_WORLD"};
        Run.limitSteps(30000); // a long loop of few statements, in every job of every size
      }
      T.Aborted.push_back(Run.function(F, {}) == Flow::Aborted);
      T.Ranks.push_back(std::move(Run.Messages));
      Comms.push_back(std::move(Run.Comms));
      Chosen.insert(Run.Chosen.begin(), Run.Chosen.end());
      Decided.insert(Run.Decided.begin(), Run.Decided.end());
    }
    if (Rel.P2P && !translatePeers(T, Comms))
      continue; // splitTraces judges a peer beyond its part
    Out.push_back(std::move(T));
  }
  return Out;
}

/// Every run of F's ranks (p2pJob), then each outcome of the conditions
/// the runs could not decide, appended to Out.
static void traceRuns(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel, const FunctionDecl *F,
                      std::vector<P2PTraces> &Out) {
  Taken Chosen;
  std::set<std::string> Decided;
  bool WouldFork = false;
  try {
    std::vector<P2PTraces> Mine = p2pJob(Ctx, Ev, Uni, Rel, F, nullptr, Chosen, Decided, &WouldFork);
    Out.insert(Out.end(), Mine.begin(), Mine.end());
  } catch (const Undecided &U) {
    debugUndecided(F, Rel.Rma ? "one-sided" : Rel.Split ? "split" : Rel.Handles ? "handle" : "point-to-point", U.Why);
  }
  if (!WouldFork)
    return;
  // Then each outcome of the conditions the runs could not decide.
  explore([&](const Choices &C) {
    Taken Chosen;
    std::set<std::string> Decided;
    std::vector<P2PTraces> Mine = p2pJob(Ctx, Ev, Uni, Rel, F, &C, Chosen, Decided);
    std::string Assumed = assumed(Ctx, C, Chosen, Decided);
    for (P2PTraces &T : Mine)
      T.Assumed = Assumed;
    if (!Assumed.empty())
      Out.insert(Out.end(), Mine.begin(), Mine.end());
    return false;
  });
}

std::vector<P2PTraces> p2pTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::PointToPoint);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (F->isMain()) // a whole program only: a library's callers may send what it receives
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

/// Whether a variable of the functions Fs that Tracked selects is used
/// other than as an argument of an MPI call (its value or address, or for
/// an array the array, &a[k] or a[k]) or in a comparison: copied, assigned
/// from another, given to a function that is not MPI's.
template <typename Pred> static bool escapes(const std::set<const FunctionDecl *> &Fs, Pred Tracked) {
  for (const FunctionDecl *F : Fs) {
    std::set<const Stmt *> Allowed;
    auto allow = [&](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      Allowed.insert(E);
    };
    bool Escapes = false;
    anyNode(F->getBody(), [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N); CE && isMPIFunctionName(calleeName(CE)))
        for (const Expr *A : CE->arguments())
          allow(A);
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isEqualityOp())
        allow(B->getLHS()), allow(B->getRHS());
      const auto *D = dyn_cast<DeclRefExpr>(N);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      Escapes = V && Tracked(V) && !Allowed.count(D);
      return Escapes;
    });
    if (Escapes)
      return true;
  }
  return false;
}

/// Whether a handle of class K (a window, a communicator) of Fs escapes.
static bool handlesEscape(const std::set<const FunctionDecl *> &Fs, HandleClass K) {
  return escapes(Fs, [K](const VarDecl *V) { return handleClassOf(V->getType().getAsString()) == K; });
}

std::vector<P2PTraces> rmaTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::OneSided);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (!handlesEscape(reachable(F), HandleClass::Win))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

/// Whether a local handle array of Fs escapes (used other than as &a[k]
/// or a[k] in MPI calls and comparisons).
static bool handleArraysEscape(const std::set<const FunctionDecl *> &Fs) {
  return escapes(Fs, [](const VarDecl *V) {
    return V->getType()->isArrayType() &&
           handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  });
}

std::vector<P2PTraces> handleArrayTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::HandleArrays);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (!handleArraysEscape(reachable(F)))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

std::vector<P2PTraces> splitTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::Splits);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel)) {
    bool Splits = anyNode(F->getBody(), [](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      return CE && calleeName(CE) == "MPI_Comm_split";
    });
    if (Splits && !handlesEscape(reachable(F), HandleClass::Comm))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  }
  return Out;
}

} // namespace ompi
