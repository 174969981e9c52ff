//===- P2PMatch.h - Point-to-point calls matched rank against rank ---------===//
//
// Runs the point-to-point traces of one program size (P2PTraces, from the
// per-rank interpreter of analysis/ranks) against each other as an MPI
// library would: a standard, buffered or ready send is buffered (the most
// permissive MPI: whatever is reported happens with any buffering), a
// synchronous send waits for its receive, a receive waits for the first
// matching message (same source or MPI_ANY_SOURCE, same tag or
// MPI_ANY_TAG, messages of one sender in order, receives matched in the
// order they are posted), MPI_Sendrecv sends then receives, MPI_Isend and
// MPI_Irecv post and MPI_Wait(all) waits for what they started, a
// collective waits for every rank. The result pairs each
// receive with its send, and where the run stops with ranks still
// waiting, says who waits for whom.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_P2PMATCH_H
#define OMPI_TOOL_ANALYSIS_P2PMATCH_H

#include "analysis/ranks/RankTraces.h"
#include <optional>
#include <vector>

namespace ompi {

struct P2PMatchPair {
  int Sender = 0, Receiver = 0;
  const P2PEvent *Send = nullptr, *Recv = nullptr; ///< for MPI_Sendrecv, its S or R side
};

/// A rank that waits for ever, and what its peer does meanwhile.
struct P2PWait {
  int Rank = 0;
  const P2PEvent *At = nullptr;         ///< the call it waits in
  const P2PEvent *Origin = nullptr;     ///< the call whose completion it needs (At, or a wait's MPI_Irecv/Issend)
  bool Sending = false;                 ///< it waits for its send to be received (else for a message)
  int Peer = -1;                        ///< the rank it waits for (-1: any)
  const P2PEvent *PeerAt = nullptr;     ///< where the peer is; null when the peer has ended
  const P2PEvent *PeerOrigin = nullptr; ///< what the peer waits for, if it waits in turn
  bool PeerSending = false;
};

/// A call whose peer is a rank the run does not have (the size or beyond).
struct P2PBadPeer {
  int Rank = 0;
  const P2PEvent *E = nullptr;
  bool Sending = true;
  int64_t Peer = 0;
};

struct P2PRunResult {
  bool Followed = false;             ///< every value was known and no rank aborted (or a peer does not exist)
  std::optional<P2PBadPeer> BadPeer; ///< the first such call; the run stops there
  std::vector<P2PMatchPair> Matches;
  std::optional<P2PWait> Stuck; ///< the first rank left waiting, unless a collective is what it waits at
  /// The waits that follow from Stuck: its rank's, its peer's, that rank's
  /// peer's, ... while each peer waits in a point-to-point call or a
  /// completion, up to the first rank met twice. Chain[0] is Stuck.
  std::vector<P2PWait> Chain;
  /// Where the chain closes into a cycle of waits (the index of the link
  /// whose rank the last link waits for), or -1 when it ends at a rank that
  /// has ended or waits in a collective.
  int CycleStart = -1;
  std::vector<P2PMatchPair> Unmatched; ///< messages sent and never received (Recv null), in sending order
};

/// Buffered: standard sends complete at once, as with the most permissive
/// MPI (what is found then happens whatever the buffering); false: they
/// complete only once received, as MPI allows (MPI_Bsend stays buffered).
P2PRunResult matchP2P(const P2PTraces &T, bool Buffered = true);

} // namespace ompi

#endif
