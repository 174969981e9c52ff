//===- RmaConflict.cpp - Check: rma-conflict ---------------------------------===//
//
// two RMA calls that reach overlapping bytes of one rank's window in one
// epoch where one of them writes there: MPI_Put beside any other access, or
// an accumulate beside a get (two gets only read; accumulates are atomic
// with respect to each other). Judged along each rank's run (analysis/
// analysis/ranks' rmaTraces) on windows created once on
// MPI_COMM_WORLD: calls of the same fence epoch (fences are collective, so
// the k-th epoch is the same on every rank), or calls of shared lock
// epochs (MPI_LOCK_SHARED, MPI_Win_lock_all) in a file with no other
// synchronisation between ranks (no collective but the windows' own calls,
// no point-to-point call), which may then run at the same time, or one
// rank's calls to one target in one lock or access epoch with no unlock or
// flush between them (calls with a request left out). The
// standard makes such conflicting accesses erroneous: the bytes' value is
// undefined.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "checks/P2PText.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <climits>
#include <map>

using namespace clang;

namespace ompi {

namespace {

/// How a call or a load or store touches the bytes it reaches.
enum class Access { Read, Write, Atomic, AtomicRead };

Access accessOf(const P2PEvent &E) {
  if (E.K == P2PEvent::Local)
    return E.Exclusive ? Access::Write : Access::Read;
  llvm::StringRef Fn = E.WinEvent.Function;
  if (Fn == mpi::MPI_Put || Fn == mpi::MPI_Rput)
    return Access::Write;
  if (Fn == mpi::MPI_Get || Fn == mpi::MPI_Rget)
    return Access::Read;
  // MPI_Get_accumulate and MPI_Fetch_and_op with MPI_NO_OP only read, atomically.
  return E.Op == mpi::MPI_NO_OP ? Access::AtomicRead : Access::Atomic;
}

bool reads(Access A) { return A == Access::Read || A == Access::AtomicRead; }
bool atomic(Access A) { return A == Access::Atomic || A == Access::AtomicRead; }

/// The kind of epoch a call lies in.
enum class Epoch { Fence, Lock, Pscw, None };

/// One RMA call (or a load or store of the rank's own window memory) of
/// one rank: the bytes [From, To) of rank Target's window it reaches, and
/// its epoch: Fence, the fence epoch's number; Lock, Shared unless the lock
/// is exclusive; Pscw, an access (or, for a load or store, an exposure)
/// epoch of MPI_Win_start or MPI_Win_post. Fences counts the fences before
/// it; SelfLock is the lock the rank holds on its own window (0 none, 1
/// shared, 2 exclusive).
struct Op {
  int Rank = 0, Target = 0;
  const P2PEvent *E = nullptr;
  int64_t From = 0, To = 0;
  Epoch K = Epoch::None;
  bool Shared = false, Local = false;
  int Number = 0, Fences = 0, SelfLock = 0;
  /// The world barriers the rank passed before it, and for a call of a
  /// lock epoch before the unlock or flush that completes it (INT_MAX: none
  /// does in the run).
  int Barriers = 0, Done = INT_MAX;
  /// Its place in the rank's run, and the place of the first call after it
  /// that completes it at least at the origin (an unlock or flush of its
  /// target, flush_local included; INT_MAX: none does in the run).
  int Seq = 0, Flushed = INT_MAX;
};

/// Whether the file synchronises ranks other than through windows' calls
/// and barriers: a collective that is neither, or a point-to-point call.
bool otherSync(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model)
      continue;
    Category K = CR.Model->Cat;
    // The windows' own calls, and barriers, which the runs place.
    if ((K == Category::Collective && !llvm::StringRef(CR.Function).starts_with(mpi::WinPrefix) &&
         CR.Function != mpi::MPI_Barrier) ||
        K == Category::PointToPoint || K == Category::Probe || K == Category::Completion)
      return true;
  }
  return false;
}

/// What one rank's run does on window W: its epochs as they open and close.
struct EpochState {
  int Fences = 0, Locks = 0, Posts = 0, Starts = 0;
  bool LockAll = false, Exposed = false, Accessing = false;
  std::map<int64_t, bool> Locked; // target -> exclusive

  /// Steps over a synchronisation call; false for an RMA call.
  bool step(const P2PEvent &E) {
    llvm::StringRef Fn = E.WinEvent.Function;
    switch (E.WinEvent.K) {
    case HandleEvent::Fence:
      ++Fences;
      return true;
    case HandleEvent::Lock:
      if (E.S.Peer)
        Locked[*E.S.Peer] = E.Exclusive;
      ++Locks;
      return true;
    case HandleEvent::Unlock:
      if (E.S.Peer)
        Locked.erase(*E.S.Peer);
      else
        Locked.clear();
      return true;
    case HandleEvent::LockAll:
      LockAll = true;
      ++Locks;
      return true;
    case HandleEvent::UnlockAll:
      LockAll = false;
      return true;
    case HandleEvent::AccessStart:
      ++Starts;
      Accessing = true;
      return true;
    case HandleEvent::AccessEnd:
      Accessing = false;
      return true;
    case HandleEvent::RMA:
      return false;
    default:
      if (Fn == mpi::MPI_Win_post)
        ++Posts, Exposed = true;
      else if (Fn == mpi::MPI_Win_wait)
        Exposed = false;
      return true;
    }
  }
};

/// An unlock or flush (E) completes the rank's lock-epoch calls to its
/// target (all targets for MPI_Win_unlock_all and MPI_Win_flush_all) that
/// no earlier one completed: their Done is the barriers passed so far.
/// MPI_Win_flush_local completes them at the origin only.
void completeLocks(const P2PEvent &E, int Barriers, int Seq, std::vector<Op> &Out, size_t First) {
  llvm::StringRef Fn = E.WinEvent.Function;
  bool Local = Fn == mpi::MPI_Win_flush_local || Fn == mpi::MPI_Win_flush_local_all;
  bool All =
      E.WinEvent.K == HandleEvent::UnlockAll || Fn == mpi::MPI_Win_flush_all || Fn == mpi::MPI_Win_flush_local_all;
  if (!All && !Local && E.WinEvent.K != HandleEvent::Unlock && Fn != mpi::MPI_Win_flush)
    return;
  std::optional<int64_t> Target = E.S.Peer; // not known: taken as every target (fewer calls judged concurrent)
  for (size_t I = First; I < Out.size(); ++I)
    if (Out[I].K == Epoch::Lock && (All || !Target || Out[I].Target == *Target)) {
      if (Out[I].Done == INT_MAX && !Local)
        Out[I].Done = Barriers;
      Out[I].Flushed = std::min(Out[I].Flushed, Seq);
    }
}

/// Window W's RMA calls and loads and stores of its memory in one rank's
/// run, with their bytes and epochs; Units: each rank's displacement unit
/// for W (from its creation).
void opsOf(CheckContext &C, const std::vector<P2PEvent> &Run, int Rank, const VarDecl *W,
           const std::vector<std::optional<int64_t>> &Units, std::vector<Op> &Out) {
  EpochState S;
  int Barriers = 0, Seq = 0;
  size_t First = Out.size();
  for (const P2PEvent &E : Run) {
    ++Seq;
    if (E.K == P2PEvent::Collective)
      ++Barriers;
    if (E.Win != W || (E.K != P2PEvent::Window && E.K != P2PEvent::Local))
      continue;
    if (E.K == P2PEvent::Window && S.step(E)) {
      completeLocks(E, Barriers, Seq, Out, First);
      continue;
    }
    Op O;
    O.Rank = Rank;
    O.Seq = Seq;
    O.E = &E;
    O.Fences = S.Fences;
    O.Barriers = Barriers;
    auto Self = S.Locked.find(Rank);
    O.SelfLock = Self != S.Locked.end() ? (Self->second ? 2 : 1) : S.LockAll ? 1 : 0;
    if (E.K == P2PEvent::Local) {
      if (!E.Disp || !E.S.Count)
        continue;
      O.Local = true;
      O.Target = Rank;
      O.From = *E.Disp;
      if (llvm::AddOverflow(O.From, *E.S.Count, O.To))
        continue;
      O.K = S.Exposed ? Epoch::Pscw : Epoch::None;
      O.Number = S.Exposed ? S.Posts : 0;
      Out.push_back(O);
      continue;
    }
    auto Size = E.S.Type.empty() ? std::nullopt : C.Ev.datatypeSize(E.S.Type);
    if (!E.S.Peer || *E.S.Peer < 0 || *E.S.Peer >= int64_t(Units.size()) || !Units[*E.S.Peer] || !E.Disp ||
        !E.S.Count || !Size)
      continue;
    O.Target = int(*E.S.Peer);
    int64_t Bytes = 0;
    if (llvm::MulOverflow(*E.Disp, *Units[O.Target], O.From) || llvm::MulOverflow(*E.S.Count, *Size, Bytes) ||
        llvm::AddOverflow(O.From, Bytes, O.To))
      continue; // bytes beyond 64 bits: not judged
    auto L = S.Locked.find(O.Target);
    if (S.LockAll || L != S.Locked.end()) {
      O.K = Epoch::Lock;
      O.Shared = S.LockAll || !L->second;
      O.Number = S.Locks;
    } else if (S.Accessing) {
      O.K = Epoch::Pscw;
      O.Number = S.Starts;
    } else if (S.Fences > 0) {
      O.K = Epoch::Fence;
      O.Number = S.Fences;
    } else {
      continue; // outside any epoch: rma-epoch's finding
    }
    Out.push_back(O);
  }
}

/// The ranks' post and start epochs of a window pair up unambiguously when
/// no rank posts or starts more than once (MPI_Win_post's and
/// MPI_Win_start's groups are not followed).
bool onePscwEpoch(const std::vector<P2PEvent> &Run, const VarDecl *W) {
  EpochState S;
  for (const P2PEvent &E : Run)
    if (E.K == P2PEvent::Window && E.Win == W)
      S.step(E);
  return S.Posts <= 1 && S.Starts <= 1;
}

/// Whether a world barrier lies between two lock-epoch calls: one is
/// completed (by its unlock or flush) before a barrier the other's rank
/// passed before issuing it.
bool orderedByBarrier(const Op &A, const Op &B) { return A.Done < B.Barriers || B.Done < A.Barriers; }

/// Whether a load or store L of a rank's own window memory may happen at
/// the time another rank's RMA call R reaches it.
bool togetherLocal(const Op &L, const Op &R, bool Synced, bool Pscw) {
  if (L.Rank == R.Rank)
    return false; // a rank's own calls on its own window: ordered as it issues them, not judged
  switch (R.K) {
  case Epoch::Fence:
    return L.Fences == R.Number && L.K == Epoch::None;
  case Epoch::Lock:
    // Nothing else orders them, and the rank holds no lock on its own
    // memory that excludes R's (an exclusive one; a shared one excludes an
    // exclusive lock).
    // (A barrier orders them when R completes before one L's rank passed
    // first, or L's rank passes one before R is issued.)
    return !Synced && L.Fences == R.Fences && L.SelfLock != 2 && !(L.SelfLock == 1 && !R.Shared) &&
           !(R.Done < L.Barriers || L.Barriers < R.Barriers);
  case Epoch::Pscw:
    return Pscw && L.K == Epoch::Pscw;
  case Epoch::None:
    return false;
  }
  return false;
}

/// Whether a call of a request (MPI_Rput, MPI_Rget, ...): its wait, which
/// the runs do not record, may complete it.
bool requestBased(const Op &O) {
  const FunctionModel *M = O.E->Call ? modelOf(O.E->Call) : nullptr;
  return !M || M->find(Role::Request);
}

/// Whether one rank's calls A and then B (by Seq) lie in one lock or
/// access epoch with nothing between them that completes A: the standard
/// does not order them (only accumulates are ordered among themselves, so
/// two atomic accesses do not conflict here), and until A completes at the
/// target, another access of the bytes A updates has an undefined outcome.
bool oneEpoch(const Op &A, const Op &B) {
  const Op &First = A.Seq < B.Seq ? A : B, &Second = A.Seq < B.Seq ? B : A;
  if (A.Number != B.Number || First.Flushed < Second.Seq || requestBased(A) || requestBased(B))
    return false;
  Access X = accessOf(*A.E), Y = accessOf(*B.E);
  return !(atomic(X) && atomic(Y));
}

/// Whether A and B may run at the same time: the same fence epoch, shared
/// lock epochs of two ranks where nothing else orders them, the access
/// epochs of two ranks to one exposure epoch, or a load or store of the
/// target's own memory beside another rank's call.
bool together(const Op &A, const Op &B, bool Synced, bool Pscw) {
  if (A.Local && B.Local)
    return false;
  if (A.Local || B.Local)
    return A.Local ? togetherLocal(A, B, Synced, Pscw) : togetherLocal(B, A, Synced, Pscw);
  if (A.K != B.K)
    return false;
  if (A.K == Epoch::Fence)
    return A.Number == B.Number;
  if (A.Rank == B.Rank)
    return A.K == Epoch::Lock || A.K == Epoch::Pscw ? oneEpoch(A, B) : false;
  if (A.K == Epoch::Pscw)
    return Pscw;
  return A.Shared && B.Shared && !Synced && !orderedByBarrier(A, B);
}

/// Why two accesses of the same bytes conflict, or "" when they do not:
/// one writes (two accumulates are atomic with respect to each other only
/// with the same predefined datatype, and only with the same op or
/// MPI_NO_OP, the window's accumulate_ops default, same_op_no_op, or the
/// same op where its info says same_op).
std::string conflict(const Op &A, const Op &B, bool SameOp) {
  Access X = accessOf(*A.E), Y = accessOf(*B.E);
  if (reads(X) && reads(Y))
    return "";
  if (!atomic(X) || !atomic(Y))
    return X == Access::Write && Y == Access::Write ? "both write them" : "one writes them";
  const P2PEvent &P = *A.E, &Q = *B.E;
  if (!P.S.Type.empty() && !Q.S.Type.empty() && P.S.Type != Q.S.Type)
    return llvm::formatv("one updates them as {0} and the other as {1} (accumulates are atomic with respect to "
                         "each other only with the same predefined datatype)",
                         P.S.Type, Q.S.Type)
        .str();
  bool Differ = !P.Op.empty() && !Q.Op.empty() && P.Op != Q.Op;
  if (Differ && (SameOp || (P.Op != mpi::MPI_NO_OP && Q.Op != mpi::MPI_NO_OP)))
    return llvm::formatv("they use different ops, {0} and {1} (the window's accumulate_ops, {2}, lets concurrent "
                         "accumulates to one location use only the same op{3})",
                         P.Op, Q.Op, SameOp ? "same_op by its info" : "same_op_no_op by default",
                         SameOp ? "" : " or MPI_NO_OP")
        .str();
  return "";
}

clang::SourceLocation locOf(const P2PEvent &E) { return E.Call ? E.Call->getBeginLoc() : E.Access->getBeginLoc(); }

std::string nameOf(const Op &O) {
  if (O.Local) {
    const clang::Expr *At = O.E->Access;
    bool Update = clang::isa<clang::UnaryOperator>(At) || clang::isa<clang::CompoundAssignOperator>(At);
    return llvm::formatv("{0} of its own window memory", Update ? "load and store" : O.E->Exclusive ? "store" : "load");
  }
  return O.E->WinEvent.Function;
}

std::string epochText(const Op &A, const Op &B) {
  const Op &R = A.Local ? B : A;
  if (R.K == Epoch::Fence)
    return llvm::formatv("in the same fence epoch (number {0})", R.Number).str();
  if (A.Rank == B.Rank && !A.Local && !B.Local)
    return llvm::formatv("in one {0} with nothing between them that completes the first",
                         R.K == Epoch::Lock ? "lock epoch" : "access epoch (MPI_Win_start to MPI_Win_complete)")
        .str();
  if (R.K == Epoch::Pscw)
    return A.Local || B.Local ? llvm::formatv("during rank {0}'s exposure epoch (MPI_Win_post to MPI_Win_wait) "
                                              "that the access epoch reaches",
                                              R.Target)
                                    .str()
                              : "in access epochs (MPI_Win_start to MPI_Win_complete) of the same exposure epoch";
  if (A.Local || B.Local)
    return llvm::formatv("while rank {0} holds no lock on its own window that excludes the other's and nothing "
                         "orders them",
                         R.Target)
        .str();
  return "in shared lock epochs that nothing orders";
}

bool reportPair(CheckContext &C, const P2PTraces &T, const VarDecl *W, const Op &A, const Op &B,
                const std::string &Why) {
  Finding *F = C.report(
      "rma-conflict", locOf(*B.E),
      llvm::formatv("{0}, rank {1}'s {2} (line {3}) and rank {4}'s {5} (line {6}) reach bytes {7} to {8} of rank "
                    "{9}'s window '{10}' {11}, and {12}: conflicting accesses to a window location in one "
                    "epoch are erroneous (the value there is undefined)",
                    withProcesses(T), A.Rank, nameOf(A), A.E->Line, B.Rank, nameOf(B), B.E->Line,
                    std::max(A.From, B.From), std::min(A.To, B.To), A.Target, W->getName(), epochText(A, B), Why)
          .str());
  if (F && locOf(*A.E) != locOf(*B.E))
    C.note(*F, locOf(*A.E), llvm::formatv("rank {0}'s {1}", A.Rank, nameOf(A)).str());
  return true;
}

/// The windows every rank of T creates once, on MPI_COMM_WORLD, with each
/// rank's displacement unit, and whether a creation's info says same_op.
struct WorldWindow {
  std::vector<std::optional<int64_t>> Units;
  bool SameOp = false;
};
std::map<const VarDecl *, WorldWindow> worldWindows(const P2PTraces &T) {
  std::map<const VarDecl *, WorldWindow> Out;
  std::map<const VarDecl *, std::vector<int>> Made;
  for (int R = 0; R < T.Size; ++R)
    for (const P2PEvent &E : T.Ranks[R])
      if (E.K == P2PEvent::Window && E.WinEvent.K == HandleEvent::Create) {
        Out[E.Win].Units.resize(T.Size);
        Made[E.Win].resize(T.Size);
        Out[E.Win].Units[R] = E.Disp;
        Out[E.Win].SameOp |= E.SameOp;
        Made[E.Win][R] += E.WorldWindow ? 1 : 2;
      }
  for (auto &[W, N] : Made)
    if (llvm::any_of(N, [](int X) { return X != 1; }))
      Out.erase(W);
  return Out;
}

bool checkTraces(CheckContext &C, const P2PTraces &T, bool Synced) {
  // A barrier a run could not place: the ranks' order is not known.
  for (const std::vector<P2PEvent> &Run : T.Ranks)
    Synced |= llvm::any_of(Run, [](const P2PEvent &E) { return E.K == P2PEvent::Collective && !E.Call; });
  for (auto &[W, Window] : worldWindows(T)) {
    std::vector<Op> Ops;
    bool Pscw = true;
    for (int R = 0; R < T.Size; ++R) {
      opsOf(C, T.Ranks[R], R, W, Window.Units, Ops);
      Pscw = Pscw && onePscwEpoch(T.Ranks[R], W);
    }
    for (size_t J = 0; J < Ops.size(); ++J)
      for (size_t I = 0; I < J; ++I) {
        const Op &A = Ops[I], &B = Ops[J];
        if (A.Target != B.Target || !(A.From < B.To && B.From < A.To && A.From < A.To && B.From < B.To) ||
            !together(A, B, Synced, Pscw))
          continue;
        if (std::string Why = conflict(A, B, Window.SameOp); !Why.empty())
          return reportPair(C, T, W, A, B, Why);
      }
  }
  return false;
}

} // namespace

void checkRmaConflicts(CheckContext &C) {
  bool Synced = otherSync(C);
  std::set<const FunctionDecl *> Found; // each size in turn (ranks 0 and 2 conflict only with 3 processes)
  for (const P2PTraces &T : rmaTraces(C.Ctx, C.Ev, C.Uni))
    if (!Found.count(T.F) && !llvm::is_contained(T.Aborted, true) && checkTraces(C, T, Synced))
      Found.insert(T.F);
}

} // namespace ompi
