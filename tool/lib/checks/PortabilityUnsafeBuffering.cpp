//===- PortabilityUnsafeBuffering.cpp - Check: portability-unsafe-buffering ===//
//
// main's point-to-point calls that complete only because the MPI library
// buffers standard sends: matched again (analysis/P2PMatch) with every
// MPI_Send and MPI_Isend completing only once received, as the standard
// allows, at the smallest number of processes at which the buffered run
// completes with every message received, the run stops: two ranks that
// both send first, a cycle of three or more ranks each waiting for the
// next, or a rank whose send waits for a peer that waits in a collective
// for it (a collective may wait for every rank). The standard calls such a
// program unsafe: it works while messages fit the library's eager limit
// and hangs when they grow. A remark, like the other portability checks;
// what hangs whatever the buffering is message-matching's.
//
//===----------------------------------------------------------------------===//
#include "checks/P2PText.h"

namespace ompi {

namespace {

constexpr const char *Why = "the exchange completes only because the library buffers a send (a standard send may "
                            "wait for its receive; order the calls, or use MPI_Sendrecv or nonblocking calls)";

} // namespace

void checkUnsafeBuffering(CheckContext &C) {
  forEachFollowed(C, /*Buffered=*/true, [&](const P2PTraces &T, const P2PRunResult &Buffered) {
    if (Buffered.Stuck || !Buffered.Unmatched.empty() || Buffered.BadPeer)
      return true; // message-matching's or unmatched-p2p's finding
    P2PRunResult Sync = matchP2P(T, /*Buffered=*/false);
    if (!Sync.Stuck)
      return false;
    // Who waits for whom: a cycle of three or more, or a pair (the peer in
    // a call of its own, or in a collective).
    llvm::ArrayRef<P2PWait> Links = longCycle(Sync);
    P2PWait W = Links.empty() ? pairWait(Sync) : Links[0];
    if (Links.empty() && (!W.PeerAt || (!W.PeerOrigin && W.PeerAt->K != P2PEvent::Collective)))
      return false;
    std::string Who = !Links.empty() ? cycleText(Links)
                                     : llvm::formatv("rank {0} waits {1}, while rank {2} waits {3}", W.Rank,
                                                     waitsFor(*W.At, W.Origin, W.Sending), W.Peer,
                                                     waitsFor(*W.PeerAt, W.PeerOrigin, W.PeerSending))
                                           .str();
    if (Finding *F = C.report(
            "portability-unsafe-buffering", W.At->Call->getBeginLoc(),
            llvm::formatv("{0}, if MPI does not buffer the messages, {1}: {2}", withProcesses(T), Who, Why).str())) {
      if (!Links.empty())
        noteCycle(C, *F, Links);
      else
        C.note(*F, W.PeerAt->Call->getBeginLoc(), llvm::formatv("rank {0} waits here", W.Peer));
    }
    return true;
  });
}

} // namespace ompi
