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
// no point-to-point call), which may then run at the same time. The
// standard makes such conflicting accesses erroneous: the bytes' value is
// undefined.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "checks/P2PText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;

namespace ompi {

namespace {

enum class Access { Read, Write, Atomic };

Access accessOf(llvm::StringRef Fn) {
  if (Fn == "MPI_Put" || Fn == "MPI_Rput")
    return Access::Write;
  if (Fn == "MPI_Get" || Fn == "MPI_Rget")
    return Access::Read;
  return Access::Atomic; // accumulates, fetch-and-op, compare-and-swap
}

bool conflicts(Access A, Access B) {
  return !(A == Access::Read && B == Access::Read) && !(A == Access::Atomic && B == Access::Atomic);
}

/// One RMA call of one rank: the bytes [From, To) of rank Target's window
/// it reaches, and its epoch (Fence: the fence epoch's number; else a
/// lock epoch, Shared unless a lock is exclusive).
struct Op {
  int Rank = 0, Target = 0;
  const P2PEvent *E = nullptr;
  int64_t From = 0, To = 0;
  bool Fence = false, Shared = false;
  int Epoch = 0;
};

/// Whether the file synchronises ranks other than through windows'
/// calls: a collective that is not a window's, or a point-to-point call.
bool otherSync(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model)
      continue;
    Category K = CR.Model->Cat;
    if ((K == Category::Collective && !llvm::StringRef(CR.Function).starts_with("MPI_Win_")) ||
        K == Category::PointToPoint || K == Category::Probe || K == Category::Completion)
      return true;
  }
  return false;
}

/// Window W's RMA calls in one rank's run, with their bytes and epochs;
/// Units: each rank's displacement unit for W (from its creation).
void opsOf(CheckContext &C, const std::vector<P2PEvent> &Run, int Rank, const VarDecl *W,
           const std::vector<std::optional<int64_t>> &Units, std::vector<Op> &Out) {
  int Fences = 0, Locks = 0;
  bool LockAll = false;
  std::map<int64_t, bool> Locked; // target -> exclusive
  for (const P2PEvent &E : Run) {
    if (E.K != P2PEvent::Window || E.Win != W)
      continue;
    switch (E.WinEvent.K) {
    case HandleEvent::Fence:
      ++Fences;
      continue;
    case HandleEvent::Lock:
      if (E.S.Peer)
        Locked[*E.S.Peer] = E.Exclusive;
      ++Locks;
      continue;
    case HandleEvent::Unlock:
      Locked.clear();
      continue;
    case HandleEvent::LockAll:
      LockAll = true;
      ++Locks;
      continue;
    case HandleEvent::UnlockAll:
      LockAll = false;
      continue;
    case HandleEvent::RMA:
      break;
    default:
      continue;
    }
    auto Size = E.S.Type.empty() ? std::nullopt : C.Ev.datatypeSize(E.S.Type);
    if (!E.S.Peer || *E.S.Peer < 0 || *E.S.Peer >= int64_t(Units.size()) || !Units[*E.S.Peer] || !E.Disp ||
        !E.S.Count || !Size)
      continue;
    Op O;
    O.Rank = Rank;
    O.Target = int(*E.S.Peer);
    O.E = &E;
    O.From = *E.Disp * *Units[O.Target];
    O.To = O.From + *E.S.Count * *Size;
    auto L = Locked.find(O.Target);
    if (LockAll || L != Locked.end()) {
      O.Shared = LockAll || !L->second;
      O.Epoch = Locks;
    } else if (Fences > 0) {
      O.Fence = true;
      O.Epoch = Fences;
    } else {
      continue; // outside any epoch: rma-epoch's finding
    }
    Out.push_back(O);
  }
}

/// Whether A and B may run at the same time: the same fence epoch, or
/// shared lock epochs of two ranks where nothing else orders them.
bool together(const Op &A, const Op &B, bool Synced) {
  if (A.Fence != B.Fence)
    return false;
  if (A.Fence)
    return A.Epoch == B.Epoch;
  // One rank's calls of one lock epoch: a flush or a request's wait may
  // order them (MPICH's rma/req_example.c): not judged.
  return A.Rank != B.Rank && A.Shared && B.Shared && !Synced;
}

bool reportPair(CheckContext &C, const P2PTraces &T, const VarDecl *W, const Op &A, const Op &B) {
  std::string Epoch = A.Fence ? llvm::formatv("in the same fence epoch (number {0})", A.Epoch).str()
                              : "in shared lock epochs that nothing orders";
  Finding *F = C.report(
      "rma-conflict", B.E->Call->getBeginLoc(),
      llvm::formatv("{0}, rank {1}'s {2} (line {3}) and rank {4}'s {5} (line {6}) reach bytes {7} to {8} of rank "
                    "{9}'s window '{10}' {11}, and {12}: conflicting accesses to a window location in one "
                    "epoch are erroneous (the value there is undefined)",
                    withProcesses(T), A.Rank, A.E->WinEvent.Function, A.E->Line, B.Rank, B.E->WinEvent.Function,
                    B.E->Line, std::max(A.From, B.From), std::min(A.To, B.To), A.Target, W->getName(), Epoch,
                    accessOf(A.E->WinEvent.Function) == Access::Write &&
                            accessOf(B.E->WinEvent.Function) == Access::Write
                        ? "both write them"
                        : "one writes them")
          .str());
  if (F && A.E->Call != B.E->Call)
    C.note(*F, A.E->Call->getBeginLoc(), llvm::formatv("rank {0}'s {1}", A.Rank, A.E->WinEvent.Function).str());
  return true;
}

/// The windows every rank of T creates once, on MPI_COMM_WORLD, with each
/// rank's displacement unit.
std::map<const VarDecl *, std::vector<std::optional<int64_t>>> worldWindows(const P2PTraces &T) {
  std::map<const VarDecl *, std::vector<std::optional<int64_t>>> Units;
  std::map<const VarDecl *, std::vector<int>> Made;
  for (int R = 0; R < T.Size; ++R)
    for (const P2PEvent &E : T.Ranks[R])
      if (E.K == P2PEvent::Window && E.WinEvent.K == HandleEvent::Create) {
        Units[E.Win].resize(T.Size);
        Made[E.Win].resize(T.Size);
        Units[E.Win][R] = E.Disp;
        Made[E.Win][R] += E.WorldWindow ? 1 : 2;
      }
  for (auto &[W, N] : Made)
    if (llvm::any_of(N, [](int X) { return X != 1; }))
      Units.erase(W);
  return Units;
}

bool checkTraces(CheckContext &C, const P2PTraces &T, bool Synced) {
  for (auto &[W, Units] : worldWindows(T)) {
    std::vector<Op> Ops;
    for (int R = 0; R < T.Size; ++R)
      opsOf(C, T.Ranks[R], R, W, Units, Ops);
    for (size_t J = 0; J < Ops.size(); ++J)
      for (size_t I = 0; I < J; ++I) {
        const Op &A = Ops[I], &B = Ops[J];
        if (A.Target == B.Target && A.From < B.To && B.From < A.To && A.From < A.To && B.From < B.To &&
            conflicts(accessOf(A.E->WinEvent.Function), accessOf(B.E->WinEvent.Function)) && together(A, B, Synced))
          return reportPair(C, T, W, A, B);
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
