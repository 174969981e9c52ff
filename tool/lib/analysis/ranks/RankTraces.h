//===- RankTraces.h - What each rank does, run by run ---------------------===//
//
// Every rank of a communicator must issue the same collectives in the same
// order, with the same root, op, and (where the standard asks for equal
// counts) count. This analysis runs a function once per rank for a few
// communicator sizes (2, 3, 4 and 8 processes): conditions and arguments are
// evaluated with the rank and size made concrete (values derived from
// MPI_Comm_rank / MPI_Comm_size, and local integer variables the path
// assigns), and the collectives met along the path are recorded, through
// calls to functions the file defines. A helper of the file called for its
// integer value (no MPI in it, no static or global state) is run the same
// way, its pointer parameters given as &v updating the caller's v. Runs that end in MPI_Abort, abort()
// or a failing exit are left out; the others must record equal sequences.
//
// A condition every rank evaluates alike (argc, a broadcast value, per the
// uniformity analysis) that the runs cannot decide, in the entry function
// outside loops, whose arms issue different calls or set variables to
// different values, is then (when the first run met one) taken each way in
// turn: every rank of one job
// takes it the same way (conditions spelled alike are taken alike), at
// most 16 jobs, and a job in which one rank decides a condition another
// takes as given is dropped. A divergence found so names the outcomes it
// assumes. Local variables holding predefined handles (MPI_Op op =
// MPI_SUM) are followed like integers. A loop the run decides on every
// iteration is run iteration by iteration (at most 64 iterations and 2,000
// statements; longer loops count as one block of collectives).
//
// The function is left undecided (and the older, per-condition
// rank-dependent-collective check speaks for it) when a branch the
// evaluation cannot decide leads to different collectives on its two arms,
// a loop with collectives has a condition that varies between ranks, a
// collective runs on a communicator other than MPI_COMM_WORLD (whose
// members are every rank) that is not one the function created once
// (MPI_COMM_SELF's collectives, and those of a communicator a single call
// of MPI_Comm_split, MPI_Comm_dup, ... made, are left out: the world's are
// still compared), or the code jumps where the runs cannot follow (a goto
// into a block, a switch on a value the run does not know around
// collectives, a label inside a loop of a switch's body).
//
// The runs are analysis/ranks' per-rank interpreter (Interpreter.h: one
// rank's run, and which file of the folder holds which part of it).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_RANKS_RANKTRACES_H
#define OMPI_TOOL_ANALYSIS_RANKS_RANKTRACES_H

#include "analysis/Evaluator.h"
#include "analysis/HandleFlow.h"
#include "analysis/Uniformity.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompi {

/// One collective a rank issues: the call, and what must agree across
/// ranks ("MPI_Reduce root=0 op=MPI_SUM count=1 type=MPI_INT").
struct CollectiveEvent {
  const clang::Stmt *At = nullptr;   ///< the call (or the loop), or the entry function's call that leads to it
  unsigned Line = 0;                 ///< the collective's own line
  unsigned Via = 0;                  ///< the line of At when the collective is in a called function
  const clang::Stmt *Call = nullptr; ///< the collective (or the loop) itself
  std::string Key;
  /// ", on MPI_COMM_WORLD, which 'c' holds there": the communicator a
  /// variable that also held one the run made holds at the call.
  std::string Held;
};

/// Where two groups of ranks part: the I-th collective of group A differs
/// from group B's (or one group has none there: its path ended at EndLine).
struct SequenceDivergence {
  int Size = 0;                    ///< the number of processes it was found with
  std::vector<int> RanksA, RanksB; ///< the two groups
  std::optional<CollectiveEvent> A, B;
  unsigned Index = 0;
  unsigned EndLineA = 0, EndLineB = 0;
  /// "" or the outcomes of undecided conditions that every rank evaluates
  /// alike under which the ranks part ("'argc == 1' holds").
  std::string Assumed;
};

struct SequenceResult {
  const clang::FunctionDecl *F = nullptr;
  bool Decided = false; ///< every rank's run was followed to its end
  std::string Why;      ///< why not
  std::optional<SequenceDivergence> Divergence;
  std::set<const clang::FunctionDecl *> Reaches; ///< F and the file's functions it calls, directly or not
};

/// A point-to-point call one rank makes (or a collective, which every rank
/// must reach before any leaves it), with its peers and tags concrete for
/// that rank: -1 is MPI_ANY_SOURCE / MPI_ANY_TAG, -2 MPI_PROC_NULL, none
/// when not known.
struct P2PEvent {
  enum Kind {
    Send,       ///< MPI_Send, MPI_Bsend, MPI_Rsend
    Ssend,      ///< MPI_Ssend
    Recv,       ///< MPI_Recv
    SendRecv,   ///< MPI_Sendrecv(_replace)
    ISend,      ///< MPI_Isend and its forms (Sync for MPI_Issend)
    IRecv,      ///< MPI_Irecv
    Wait,       ///< MPI_Wait, MPI_Waitall: completes Reqs
    Probe,      ///< MPI_Probe: waits for a matching message (R), which it leaves
    Collective, ///< in rmaTraces: MPI_Barrier on the world, or with no Call a barrier the run cannot place
    Window,     ///< rmaTraces: a one-sided call on the local window Win (WinEvent)
    Split,      ///< splitTraces: MPI_Comm_split of MPI_COMM_WORLD into Comm (S.Peer the colour, -1 undefined)
    Handle,     ///< handleArrayTraces: WinEvent (Create, Free) on element S.Peer of the handle array Win
    Local       ///< rmaTraces: a load or store of the rank's own memory of window Win (Access)
  } K = Send;
  bool Sync = false;             ///< the send completes only once received (MPI_Ssend, MPI_Issend)
  std::vector<std::string> Reqs; ///< ISend/IRecv: the request it starts; Wait: those it completes
  const clang::CallExpr *Call = nullptr;
  /// Collective: the MPI function ("MPI_Barrier"); Call calls it, or calls
  /// another file's function whose call sequence holds it
  /// (FunctionFact::Sequence). Send, Ssend, Recv: the MPI function ("MPI_Send")
  /// where Call calls such a function, else empty.
  std::string Coll;
  unsigned Line = 0;
  unsigned Via = 0; ///< the line of the entry function's call that leads to it, if in a called function
  struct Side {
    std::optional<int64_t> Peer, Tag, Count;
    std::string Type; ///< the predefined datatype, "" if not one
    /// A datatype variable given as the type where the path set it from
    /// another (t = two_dbls): that other variable.
    const clang::VarDecl *TypeVar = nullptr;
    /// The buffer when it is one integer variable (&x, count 1): the
    /// variable, and on the send side the value it holds when known.
    const clang::VarDecl *Buf = nullptr;
    std::optional<int64_t> Value;
  } S, R;                              ///< the send side, the receive side
  const clang::VarDecl *Win = nullptr; ///< Window: the window variable
  HandleEvent WinEvent{};              ///< Window: what the call does to it (analysis/HandleFlow)
  bool WorldWindow = false;            ///< Window, a creation: on MPI_COMM_WORLD
  /// Window, in rmaTraces: for RMA, S.Peer the target rank, Disp the target
  /// displacement, S.Count and S.Type the target count and datatype; for a
  /// creation, Disp the displacement unit; for MPI_Win_lock, S.Peer the
  /// rank locked and Exclusive its type.
  /// Local: Disp the first byte of the window it reaches, S.Count the
  /// bytes, Exclusive a store (else a load).
  std::optional<int64_t> Disp;
  bool Exclusive = false;
  /// Window: an accumulate's predefined op ("MPI_SUM"; "" when not one);
  /// for a creation, whether its info says accumulate_ops is same_op.
  std::string Op;
  bool SameOp = false;
  const clang::Expr *Access = nullptr; ///< Local: the load or store
  /// Split: the communicator variable it sets; in splitTraces, a
  /// point-to-point call's communicator variable; in p2pTraces, the
  /// variable naming a communicator the run made.
  const clang::VarDecl *Comm = nullptr;
  /// p2pTraces: -1 for MPI_COMM_WORLD, else the communicator is the
  /// CommIndex-th the rank made of the world (MPI_Comm_split, MPI_Comm_dup);
  /// S.Peer and R.Peer are then world ranks, translated from the ranks of
  /// that communicator the call names (CommPeer).
  int CommIndex = -1;
  std::optional<int64_t> CommPeer;
  const clang::CallExpr *CommMadeBy = nullptr; ///< the call that made that communicator
};

/// A communicator a rank's run made: MPI_Comm_split (its colour, -1 for
/// MPI_UNDEFINED, and key) or MPI_Comm_dup (colour 0, the rank as key).
struct MadeComm {
  const clang::CallExpr *Call = nullptr;
  bool OfWorld = false; ///< made of MPI_COMM_WORLD
  std::optional<int64_t> Colour, Key;
};

/// The point-to-point calls every rank of one run makes, in order.
struct P2PTraces {
  const clang::FunctionDecl *F = nullptr;
  int Size = 0;
  std::vector<std::vector<P2PEvent>> Ranks;
  std::vector<bool> Aborted; ///< the rank's run ends in MPI_Abort or a failing exit
  /// "" for the runs with every such condition merged, else the outcomes of
  /// the undecided conditions every rank evaluates alike that these runs
  /// take ("'argc == 1' holds").
  std::string Assumed;
};

/// The entry functions (as for collectiveSequences) with point-to-point
/// calls, each run per rank with 2, 3 and 4 processes, loops iteration by
/// iteration. MPI_Probe is recorded (K == Probe); a persistent request's
/// _init call is issued by each MPI_Start(all) of it; a communicator the
/// rank made of the world (MPI_Comm_split, MPI_Comm_dup into a local
/// variable) gives its calls a CommIndex and world ranks as peers. The runs
/// know what a local communicator or request variable holds (the world,
/// one the run made, MPI_COMM_NULL, MPI_REQUEST_NULL after a wait), so that
/// comparisons of handles are decided under either MPI. A function whose
/// runs cannot all be followed (a nonblocking call other than a send or
/// receive, a test, MPI_Iprobe, a request that is not a local variable or
/// element, a communicator the run cannot identify, a loop whose condition
/// is not decided, a branch whose arms differ) gives nothing. After those runs come the runs for each outcome of the
/// undecided conditions (see the file comment), each set with its Assumed.
/// Why a call of code this file does not define may make MPI calls that a
/// run cannot see (a function of another file, a call through a pointer):
/// the runs of a function that makes such a call are not followed. Nullopt
/// for MPI itself, the C library (system headers), builtins, and a function
/// the program's facts say makes none (ProgramFacts::mayCommunicate).
std::optional<std::string> unseenCallee(const clang::CallExpr *CE, const Evaluator &Ev);

std::vector<P2PTraces> p2pTraces(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni);

/// The same runs for one-sided communication: each rank's calls on the
/// local window variables of the functions it runs (K == Window), with 2,
/// 3 and 4 processes, loops iteration by iteration (at most 4,096 times,
/// 30,000 statements per run),
/// for every entry
/// function with such calls. A function whose runs cannot all be followed
/// (a window that is a parameter or global, a window call in a loop or
/// branch the run cannot decide, a window copied, assigned or given to a
/// function that is not MPI's) gives nothing.
std::vector<P2PTraces> rmaTraces(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni);

/// The same runs for communicators split from MPI_COMM_WORLD: each rank's
/// MPI_Comm_split calls of the world into a local communicator variable
/// (K == Split, with the colour) and its point-to-point calls on such a
/// variable (their peers relative to it), with 2, 3 and 4 processes, for
/// every entry function; nothing for a function that copies, assigns or
/// hands on a communicator variable.
std::vector<P2PTraces> splitTraces(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni);

/// The same runs for the handles kept in local arrays (MPI_Comm com[3];
/// MPI_Comm_dup(MPI_COMM_WORLD, &com[j])): each rank's creations and frees
/// of an element (K == Handle, the index concrete), with 2 processes, loops
/// iteration by iteration (at most 4,096 times, 30,000 statements), for
/// every entry function; nothing for a function in which such an array is
/// used other than as &a[k] or a[k] in MPI calls and comparisons.
std::vector<P2PTraces> handleArrayTraces(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni);

/// "0, 2-3": a list of ranks for messages.
std::string describeRanks(const std::vector<int> &R);

/// The functions of the file that no other function of it calls and that
/// issue collectives (main, or library entry points), each run per rank.
std::vector<SequenceResult> collectiveSequences(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni);

} // namespace ompi

#endif
