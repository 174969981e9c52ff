//===- P2PText.h - How the point-to-point checks describe a waiting rank ---===//
//
// Shared by message-matching and portability-unsafe-buffering.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_P2PTEXT_H
#define OMPI_TOOL_CHECKS_P2PTEXT_H

#include "analysis/P2PMatch.h"
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"
#include <string>

namespace ompi {

/// "with 2 processes" and the outcomes the runs assume.
inline std::string withProcesses(const P2PTraces &T) {
  return llvm::formatv("with {0} processes", T.Size).str() + (T.Assumed.empty() ? "" : ", where " + T.Assumed);
}

/// Calls Fn(T, R) with the matching R of each function's first followed
/// run (the smallest size at which no rank aborts), then of the runs of
/// each further set of assumed outcomes (P2PTraces::Assumed) until Fn
/// returns true (it reported a finding for that function).
template <typename Fn> void forEachFollowed(CheckContext &C, bool Buffered, Fn F) {
  const clang::FunctionDecl *Found = nullptr, *DoneF = nullptr;
  const std::string *DoneAssumed = nullptr;
  for (const P2PTraces &T : C.p2p()) {
    if (T.F == Found || (T.F == DoneF && DoneAssumed && *DoneAssumed == T.Assumed))
      continue;
    P2PRunResult R = matchP2P(T, Buffered);
    if (!R.Followed)
      continue; // a rank aborts at this size (or a value is unknown): try the next size
    DoneF = T.F;
    DoneAssumed = &T.Assumed;
    if (F(T, R))
      Found = T.F;
  }
}

inline std::string callName(const P2PEvent &E) {
  if (E.K == P2PEvent::Collective && !E.Coll.empty())
    return E.Coll;
  const clang::FunctionDecl *F = E.Call->getDirectCallee();
  std::string Name = F ? F->getName().str() : "the call";
  // A send or receive another file's function makes (SequenceCall).
  return E.Coll.empty() || E.Coll == Name ? Name : E.Coll + " in " + Name;
}

inline std::string fromRank(int64_t Peer) { return Peer < 0 ? "any rank" : "rank " + std::to_string(Peer); }

/// "in MPI_Recv (line 12) for a message from rank 1": where a rank waits,
/// for what. Origin is the call whose completion it needs (At itself for a
/// blocking call, the MPI_Irecv or MPI_Issend for a wait).
inline std::string waitsFor(const P2PEvent &At, const P2PEvent *Origin, bool Sending) {
  if (At.K == P2PEvent::Collective || !Origin)
    return llvm::formatv("in {0} (line {1}) for every rank to join it", callName(At), At.Line);
  std::string In = llvm::formatv("in {0} (line {1})", callName(At), At.Line);
  if (Origin != &At)
    In += llvm::formatv(" for the {0} of line {1}", callName(*Origin), Origin->Line).str();
  if (Sending)
    return llvm::formatv("{0} until rank {1} receives", In, *Origin->S.Peer);
  return llvm::formatv("{0}{1} a message from {2}", In, Origin != &At ? "," : " for", fromRank(*Origin->R.Peer));
}

/// "rank 0 waits in MPI_Send (line 7) until rank 1 receives, rank 1 waits
/// ..., and rank 2 waits ... until rank 0 receives": the links of a cycle
/// of waits (P2PRunResult::Chain from CycleStart).
inline std::string cycleText(llvm::ArrayRef<P2PWait> Links) {
  std::string S;
  for (size_t I = 0; I < Links.size(); ++I) {
    if (I)
      S += I + 1 == Links.size() ? ", and " : ", ";
    S += llvm::formatv("rank {0} waits {1}", Links[I].Rank, waitsFor(*Links[I].At, Links[I].Origin, Links[I].Sending))
             .str();
  }
  return S;
}

/// The cycle of waits R's chain closes into when it holds three ranks or
/// more (two ranks waiting for each other are described as a pair); empty
/// otherwise.
inline llvm::ArrayRef<P2PWait> longCycle(const P2PRunResult &R) {
  if (R.CycleStart < 0 || R.Chain.size() - size_t(R.CycleStart) < 3)
    return {};
  return llvm::ArrayRef(R.Chain).drop_front(R.CycleStart);
}

/// The stuck wait to describe as a pair: R.Stuck, or where the chain closes
/// into a cycle of two ranks further on, the first of those two, with the
/// other as its peer.
inline P2PWait pairWait(const P2PRunResult &R) {
  P2PWait W = *R.Stuck;
  if (R.CycleStart > 0 && R.Chain.size() - size_t(R.CycleStart) == 2) {
    const P2PWait &A = R.Chain[R.CycleStart], &B = R.Chain[R.CycleStart + 1];
    W = A;
    W.PeerAt = B.At;
    W.PeerOrigin = B.Origin;
    W.PeerSending = B.Sending;
  }
  return W;
}

/// Notes "rank N waits here" at every link of a cycle but the first.
inline void noteCycle(CheckContext &C, Finding &F, llvm::ArrayRef<P2PWait> Links) {
  for (const P2PWait &L : Links.drop_front())
    C.note(F, L.At->Call->getBeginLoc(), llvm::formatv("rank {0} waits here", L.Rank));
}

} // namespace ompi

#endif
