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
  const clang::FunctionDecl *F = E.Call->getDirectCallee();
  return F ? F->getName().str() : "the call";
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

} // namespace ompi

#endif
