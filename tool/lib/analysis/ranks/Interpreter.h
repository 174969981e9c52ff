//===- Interpreter.h - One rank's run through a function ------------------===//
//
// The per-rank interpreter the lint's runs share (analysis/ranks): RankRun
// runs a function once for one rank of a communicator of a given size, with
// the rank and size concrete, and records the collectives, point-to-point,
// one-sided and handle calls it meets (RankTraces.h says what each kind of
// run records and when a function is left undecided). Internal to
// analysis/ranks and its unit tests:
//   Calls.cpp          which calls a run looks at (Relevance), the file's entry functions
//   Values.cpp         the value domain: integers and handles a frame holds, helpers run for their value
//   Interpreter.cpp    statements: blocks, branches, switch, goto, loops, calls into the file's functions
//   Events.cpp         what a run records of MPI calls (collectives, messages, windows, handle elements)
//   Communicators.cpp  communicators a run makes, and world ranks from the ranks of a split
//   Choices.cpp        jobs over conditions every rank evaluates alike but the runs cannot decide
//   Sequences.cpp      collectiveSequences; Traces.cpp: p2pTraces, rmaTraces, splitTraces, handleArrayTraces
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_RANKS_INTERPRETER_H
#define OMPI_TOOL_ANALYSIS_RANKS_INTERPRETER_H

#include "analysis/ProgramFacts.h"
#include "analysis/ranks/RankTraces.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompi::ranks {

using clang::ASTContext;
using clang::BinaryOperator;
using clang::BinaryOperatorKind;
using clang::CallExpr;
using clang::Expr;
using clang::FunctionDecl;
using clang::IfStmt;
using clang::LabelDecl;
using clang::SourceLocation;
using clang::SourceManager;
using clang::Stmt;
using clang::SwitchStmt;
using clang::VarDecl;

/// How a statement's run ends.
enum class Flow { Normal, Returned, Exited, Aborted, Broke, Continued, Jumped };

/// A run that cannot be followed (and why): the function is left undecided.
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

/// OMPI_OPT_DEBUG_RUNS=1 prints why a function's runs are not followed
/// (for those who extend the interpreter).
void debugUndecided(const FunctionDecl *F, llvm::StringRef Kind, llvm::StringRef Why);

/// X Op Y for the integer operators the runs evaluate, or none (Values.cpp).
std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t X, int64_t Y);

// Calls.cpp: which calls a run looks at.

/// The function a call calls when the file defines it.
const FunctionDecl *definedCallee(const CallExpr *CE);
/// Whether two events may be the same collective: equal keys, where an
/// argument the evaluation could not decide ("root=?") matches any value.
bool sameKey(llvm::StringRef A, llvm::StringRef B);
/// Collectives, MPI_Finalize and the window calls every process of the
/// window's group makes together (creation, MPI_Win_fence, MPI_Win_free).
bool isCollectiveCall(const CallExpr *CE);
/// The window variable a window call names (by value, or by address for
/// the creating calls and MPI_Win_free).
const VarDecl *windowVar(const CallExpr *CE, const FunctionModel &M);
/// Point-to-point calls, probes and completions.
bool isMessageCall(const CallExpr *CE);
/// One-sided calls: window creation, synchronisation, RMA, MPI_Win_free.
bool isOneSidedCall(const CallExpr *CE);
/// The local handle array (not of requests or windows, whose lives other
/// analyses follow) whose element's address E is: &a[k].
const VarDecl *handleArrayOf(const Expr *E, const Expr **Index = nullptr);
/// The argument of MPI call CE that is &a[k] of a local handle array, which
/// the call creates or frees; -1 if none.
int handleElementArg(const CallExpr *CE);
/// The argument of call CE in role R under its model M (null: none).
const Expr *argOf(const CallExpr *CE, const FunctionModel *M, Role R);
/// F and the functions of the file it calls, directly or through others.
std::set<const FunctionDecl *> reachable(const FunctionDecl *F);

/// Whether S issues what a kind of run follows, directly or through the
/// file's functions.
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
  bool collectives(const Stmt *S);
  /// Collective runs: the program's facts, whose collective sequences
  /// (FunctionFact::Sequence) stand for calls of other files' functions.
  const ProgramFacts *Program = nullptr;
  /// The collectives a call of another file's function makes, by Program.
  const std::vector<SequenceCall> *sequenceOf(const CallExpr *CE) const;

private:
  std::map<const FunctionDecl *, bool> Memo;
  bool calls(const FunctionDecl *F);
};

/// The functions of the main file no other function of it calls and that
/// issue what Rel looks for.
std::vector<const FunctionDecl *> entries(ASTContext &Ctx, Relevance &Rel);

// Communicators.cpp.

/// The calls of T on communicators its ranks made of the world (CommIndex
/// >= 0) given world ranks as peers: the members of a rank's part are the
/// ranks that gave the same colour to that split, in the order of their
/// keys (then of their world ranks). False when that is not known for
/// every rank (a communicator made of another, a colour or key not known,
/// ranks that made different ones) or a peer lies beyond the part.
bool translatePeers(P2PTraces &T, const std::vector<std::vector<MadeComm>> &Comms);

// Choices.cpp.

/// The conditions a job took from its choices, in words ("'argc == 1'
/// holds"), or "" when the runs were not real (a rank decided a condition
/// another took as given, or the outcomes cannot hold together) or took none.
std::string assumed(ASTContext &Ctx, const Choices &Fixed, const Taken &Chosen, const std::set<std::string> &Decided);
/// Runs Job once for each outcome of the conditions that every rank
/// evaluates alike but the runs cannot decide (argc, input), as the runs ask
/// for them, until Job returns true or 16 jobs have run.
void explore(llvm::function_ref<bool(const Choices &)> Job);

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

  /// Runs F (the entry function, or one it calls) with its integer
  /// parameters given Args; throws Undecided where the run cannot be
  /// followed. Returned is reported as Normal.
  Flow function(const FunctionDecl *F, std::map<const VarDecl *, std::optional<int64_t>> Args);

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
  /// The threads that may run the statement being run: 1 outside OpenMP
  /// parallel regions and in master, single and a section; a parallel
  /// region's team size inside it (0: not known).
  unsigned Threads = 1;

  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }
  Frame &frame() { return Frames.back(); }
  unsigned viaLine() const { return Frames.size() > 1 ? line(Site->getBeginLoc()) : 0; }

  // Values.cpp: the value domain.
  std::optional<int64_t> concrete(const SymValue &V) const;
  std::optional<int64_t> leaf(const Expr *E);
  std::optional<int64_t> value(const Expr *E);
  std::optional<int64_t> binary(const BinaryOperator *B);
  void assign(const Expr *LHS, std::optional<int64_t> V, std::optional<std::string> H = std::nullopt);
  /// A datatype variable L (a local of this frame) set from From: the
  /// datatype variable From names, directly or through its own setting.
  void alias(const VarDecl *L, const Expr *From);
  /// *p where p is a pointer parameter of a helper run for its value that
  /// points to a caller's integer: that integer (its frame, the variable).
  const std::pair<size_t, const VarDecl *> *deref(const Expr *E);
  /// The value a call of a function of the file returns, run like the
  /// rank's own code: a function returning an integer, with no MPI call in
  /// it and no variable that outlives a call (static, global) but constants,
  /// its integer parameters given their arguments' values and its
  /// pointer parameters given as &v pointing to the caller's integer v
  /// (whose writes through them the run keeps). nullopt where the run
  /// cannot follow it (then the integers it was given become unknown).
  std::optional<int64_t> callValue(const CallExpr *CE);
  /// Whether F names a variable that is not const and outlives a call of
  /// it (a static local, a global): its value depends on earlier calls.
  static bool keepsState(const FunctionDecl *F);
  /// Whether F calls MPI, directly or through the file's functions.
  static bool callsMPI(const FunctionDecl *F);
  /// The predefined handle E names ("MPI_SUM"), through the variables
  /// this run assigned.
  std::optional<std::string> handle(const Expr *E);
  /// The communicator E holds, where the run knows it: a predefined one
  /// ("MPI_COMM_WORLD", "MPI_COMM_NULL") or "#comm<N>", the N-th this run
  /// made. A variable the run has no record of is not known.
  std::optional<std::string> commValue(const Expr *E);
  /// What the handle array element a[k] that E names holds (ElemHeld),
  /// where the run knows it.
  std::optional<std::string> elemHeld(const Expr *E);
  /// Writes of an expression statement: assignments of local integers, and
  /// variables whose address escapes (the evaluator decides those again).
  void effects(const Expr *E);
  /// Every variable a statement assigns becomes unknown (a loop run an
  /// unknown number of times).
  void forget(const Stmt *S);
  void alias(const Expr *L, const Expr *From) { alias(namedVar(L->IgnoreParenImpCasts()), From); }

  // Interpreter.cpp: statements.
  Flow calls(const Stmt *S);
  Flow call(const CallExpr *CE);
  Flow exec(const Stmt *S);
  Flow branch(const IfStmt *If);
  Flow choose(const SwitchStmt *Sw);
  Flow block(llvm::ArrayRef<const Stmt *> Body, size_t From);
  Flow loop(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc = nullptr);
  Flow unroll(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc);
  Flow omp(const clang::OMPExecutableDirective *D);

  // Events.cpp: what the run records of MPI calls.
  /// MPI_Wait(all), MPI_Start(all) of a persistent request the run made
  /// (the send or receive its _init call describes), MPI_Request_free of
  /// one: whether CE is one of them (then recorded, E its event so far).
  bool completion(const CallExpr *CE, P2PEvent E);
  /// A request variable &r a nonblocking call starts ("#req"), a
  /// persistent one's _init call makes ("#preq") or a wait completes or
  /// MPI_Request_free frees (MPI_REQUEST_NULL), so that r != MPI_REQUEST_NULL
  /// is decided.
  void setRequest(const Expr *Arg, const char *Value);
  /// A point-to-point call of the world communicator with its peers and
  /// tags made concrete (-1: MPI_ANY_*, -2: MPI_PROC_NULL).
  std::optional<int64_t> rankArg(const Expr *E);
  void message(const CallExpr *CE);
  /// splitTraces: MPI_Comm_split of the world into a local variable (its
  /// colour), and point-to-point calls on such a variable (their peers).
  void splitCall(const CallExpr *CE);
  /// A creation or free of element k of a local handle array
  /// (handleArrayTraces), k made concrete.
  void handleElement(const CallExpr *CE, unsigned I);
  /// A one-sided call on a local window variable (rmaTraces).
  void window(const CallExpr *CE);
  /// rmaTraces: MPI_Barrier on the world (K == Collective), which orders
  /// the ranks' one-sided calls; one on another communicator is recorded as
  /// unplacedBarrier.
  void barrier(const CallExpr *CE);
  /// rmaTraces: a barrier the run cannot place (in a loop or function it
  /// does not follow, an arm of an undecided branch): a Collective event
  /// with no call, after which the ranks' order is not known.
  void unplacedBarrier();
  /// Whether S calls MPI_Barrier, directly or through the file's functions.
  static bool mentionsBarrier(const Stmt *S, unsigned Depth = 0);
  /// In the one-sided runs, the mark of unplacedBarrier where S, which the
  /// run does not follow, calls MPI_Barrier.
  void unplacedBarriersIn(const Stmt *S) {
    if (Rel.Rma && mentionsBarrier(S))
      unplacedBarrier();
  }
  /// What rma-conflict needs of a window call: an RMA call's target rank,
  /// displacement, count, datatype and op, a creation's displacement unit
  /// and accumulate_ops info, a lock's (and an unlock's) rank and type.
  void rmaDetails(const CallExpr *CE, P2PEvent &E);
  /// Whether the info a window creation is given says accumulate_ops is
  /// same_op (MPI_Info_set(info, "accumulate_ops", "same_op") in the
  /// function).
  bool sameOpInfo(const Expr *Info) const;
  /// A window's memory a variable of this run names: the variable whose
  /// address or value the creation was given (&x, a, &a[k], p) or the
  /// pointer MPI_Win_allocate set, and the window's byte where the variable
  /// (its first element, for an array or pointer) lies.
  struct WinMemory {
    const VarDecl *Win = nullptr;
    int64_t Base = 0;
  };
  std::map<const VarDecl *, WinMemory> WinMem;
  void windowMemory(const CallExpr *CE, const VarDecl *Win, HandleEvent::Kind K);
  /// The window bytes [From, To) the lvalue L names (x, a[k], p[k], *p
  /// with k concrete), and its window.
  struct LocalBytes {
    const VarDecl *Win = nullptr;
    int64_t From = 0, To = 0;
  };
  std::optional<LocalBytes> windowBytes(const Expr *L);
  /// rmaTraces: the loads and stores statement S makes of window memory
  /// (K == Local), in the order they happen as far as it matters: a
  /// compound assignment loads and stores.
  void localAccesses(const Stmt *S);
  void localAccess(const Expr *L, const Expr *At, bool Store);
  /// The MPI_MODE_* names an assertion combines (0, the names, variables
  /// the run knows to hold one, joined by | or +); nullopt when not known.
  std::optional<std::set<std::string>> modes(const Expr *E);
  /// The request &r, &r[k], r + k names, as "variable#k" (k concrete).
  std::string requestKey(const Expr *E, unsigned L);
  /// MPI_Waitall(n, reqs, ...): reqs[0] .. reqs[n-1].
  std::vector<std::string> requestKeys(const Expr *Count, const Expr *Reqs, unsigned L);
  void record(const CallExpr *CE);
  /// Record one collective of the sequence a call CE of another file's
  /// function makes (Relevance::sequenceOf), its arguments taken from CE's.
  void recordSequence(const CallExpr *CE, const SequenceCall &S);
  /// The same for a send or receive of such a sequence (SequenceCall::
  /// message): a message event of the point-to-point runs.
  void recordSequenceMessage(const CallExpr *CE, const SequenceCall &S);
  /// Set E's communicator from the argument Comm of CE (Name, for the
  /// message when the runs cannot follow it: not the world, nor one the
  /// run made).
  void messageComm(const Expr *Comm, const CallExpr *CE, llvm::StringRef Name, P2PEvent &E);
  /// The communicator E names at CE: the one this rank's variable holds
  /// (Held: whether it was that), else the evaluator's identity of it.
  CommId commOf(const Expr *E, const CallExpr *CE, bool *Held = nullptr);
  static std::string collectiveKey(llvm::StringRef Name, std::optional<std::string> Root, std::optional<std::string> Op,
                                   std::optional<std::string> Count, std::optional<std::string> Type);
  /// Add the collective Name on Comm to the run's events (record), and with
  /// Rel.P2P to its messages.
  void pushCollective(const CallExpr *CE, llvm::StringRef Name, const CommId &Comm, std::string Key, std::string Held);
  /// Whether E is an element of a handle array that holds the group of
  /// MPI_COMM_WORLD (MPI_Comm_group of the world, in this run).
  bool worldGroup(const Expr *E) { return elemHeld(E) == std::optional<std::string>("#worldgroup"); }

  // Communicators.cpp.
  /// MPI_Comm_split's colour on this rank (nullopt: not known), and
  /// whether it is MPI_UNDEFINED (spelled, or its value: -32766 in MPICH and
  /// Open MPI).
  struct SplitColour {
    std::optional<int64_t> Value;
    bool Undefined = false;
  };
  SplitColour splitColour(const CallExpr *CE);
  /// MPI_Comm_split, MPI_Comm_dup and MPI_Comm_free on &v, v a local of
  /// this frame: the communicator v holds from here.
  void commCall(const CallExpr *CE);
};

} // namespace ompi::ranks

#endif
