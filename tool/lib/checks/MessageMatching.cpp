//===- MessageMatching.cpp - Check: message-matching -----------------------===//
//
// main's point-to-point calls run per rank (analysis/CollectiveSequence's
// interpreter) and matched rank against rank (analysis/P2PMatch), at the
// smallest number of processes (2, 3 or 4) at which no rank aborts:
//   - ranks that wait for each other for ever: a blocking receive (or
//     synchronous send) whose peer is itself waiting, whatever the
//     buffering, since standard sends are taken as buffered;
//   - a receive whose peer ends without sending it a matching message;
//   - a receive matched with a send of another predefined type, or of more
//     data than it has room for.
// Programs whose calls the interpreter cannot follow (nonblocking calls,
// probes, communicators other than MPI_COMM_WORLD, values it cannot
// decide) are left alone.
//
//===----------------------------------------------------------------------===//
#include "analysis/P2PMatch.h"
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

std::string callName(const P2PEvent &E) {
  const FunctionDecl *F = E.Call->getDirectCallee();
  return F ? F->getName().str() : "the call";
}

std::string from(int64_t Peer) { return Peer < 0 ? "any rank" : "rank " + std::to_string(Peer); }

std::string waitsFor(const P2PEvent &E) {
  if (E.K == P2PEvent::Collective)
    return llvm::formatv("in {0} (line {1}) for every rank to join it", callName(E), E.Line);
  if (E.K == P2PEvent::Ssend)
    return llvm::formatv("in {0} (line {1}) until rank {2} receives", callName(E), E.Line, *E.S.Peer);
  return llvm::formatv("in {0} (line {1}) for a message from {2}", callName(E), E.Line, from(*E.R.Peer));
}

void reportStuck(CheckContext &C, const P2PTraces &T, const P2PWait &W) {
  std::string Msg;
  const P2PEvent::Side &S = W.At->K == P2PEvent::Ssend ? W.At->S : W.At->R;
  std::string Tag = !S.Tag ? "" : *S.Tag < 0 ? " with any tag" : " with tag " + std::to_string(*S.Tag);
  if (W.Peer == W.Rank)
    Msg = llvm::formatv("with {0} processes, rank {1} waits {2}{3}, which only it could send, and it has sent none: "
                        "the {4} never returns",
                        T.Size, W.Rank, waitsFor(*W.At), Tag, W.At->K == P2PEvent::Ssend ? "send" : "receive");
  else if (W.PeerAt && W.PeerAt->K == P2PEvent::Collective)
    Msg = llvm::formatv("with {0} processes, rank {1} waits {2}{3}, but rank {4} goes on to {5} (line {6}) without "
                        "sending it one: the {7} never returns, and {5} waits for it",
                        T.Size, W.Rank, waitsFor(*W.At), Tag, W.Peer, callName(*W.PeerAt), W.PeerAt->Line,
                        W.At->K == P2PEvent::Ssend ? "send" : "receive");
  else if (W.PeerAt)
    Msg = llvm::formatv("with {0} processes, rank {1} waits {2}, while rank {3} waits {4}: neither can go on, "
                        "whatever the buffering (a blocking receive returns only once a matching message is sent)",
                        T.Size, W.Rank, waitsFor(*W.At), W.Peer, waitsFor(*W.PeerAt));
  else if (W.Peer >= 0)
    Msg = llvm::formatv("with {0} processes, rank {1} waits {2}{3}, but rank {4} ends without sending it one: the {5} "
                        "never returns",
                        T.Size, W.Rank, waitsFor(*W.At), Tag, W.Peer, W.At->K == P2PEvent::Ssend ? "send" : "receive");
  else
    Msg = llvm::formatv("with {0} processes, rank {1} waits {2}, but no rank sends it a matching message: the "
                        "receive never returns",
                        T.Size, W.Rank, waitsFor(*W.At));
  Finding *F = C.report("message-matching", W.At->Call->getBeginLoc(), Msg);
  if (F && W.PeerAt && W.Peer != W.Rank)
    C.note(*F, W.PeerAt->Call->getBeginLoc(), llvm::formatv("rank {0} waits here", W.Peer));
}

/// The C type a predefined datatype describes ("" if untyped or unknown).
std::string cType(llvm::StringRef Name) {
  const HandleModel *H = Name.empty() || isUntypedDatatype(Name) ? nullptr : lookupHandle(Name);
  return H ? H->CTypes : "";
}

void reportPair(CheckContext &C, const P2PTraces &T, const P2PMatchPair &P) {
  const P2PEvent::Side &S = P.Send->S, &R = P.Recv->R;
  std::string Where = llvm::formatv("with {0} processes, the message rank {1} sends with {2} (line {3}) and rank {4} "
                                    "receives here",
                                    T.Size, P.Sender, callName(*P.Send), P.Send->Line, P.Receiver);
  std::string ST = cType(S.Type), RT = cType(R.Type);
  if (!ST.empty() && !RT.empty() && ST != RT) {
    if (Finding *F = C.report("message-matching", P.Recv->Call->getBeginLoc(),
                              llvm::formatv("{0} is sent as {1} ({2}) but received as {3} ({4}): the type signatures "
                                            "of a send and its receive must match",
                                            Where, S.Type, ST, R.Type, RT)))
      C.note(*F, P.Send->Call->getBeginLoc(), "the send");
    return;
  }
  auto SS = C.Ev.datatypeSize(S.Type), RS = C.Ev.datatypeSize(R.Type);
  if (SS && RS && S.Count && R.Count && *R.Count >= 0 && *S.Count * *SS > *R.Count * *RS)
    if (Finding *F = C.report("message-matching", P.Recv->Call->getBeginLoc(),
                              llvm::formatv("{0} holds {1} x {2} ({3} bytes) but the receive has room for {4} x {5} "
                                            "({6} bytes): a message longer than its receive buffer is an error "
                                            "(MPI_ERR_TRUNCATE)",
                                            Where, *S.Count, S.Type, *S.Count * *SS, *R.Count, R.Type, *R.Count * *RS)))
      C.note(*F, P.Send->Call->getBeginLoc(), "the send");
}

} // namespace

void checkMessageMatching(CheckContext &C) {
  std::vector<P2PTraces> All = p2pTraces(C.Ctx, C.Ev, C.Uni);
  const FunctionDecl *Done = nullptr;
  for (const P2PTraces &T : All) {
    if (T.F == Done)
      continue;
    P2PRunResult R = matchP2P(T);
    if (!R.Followed)
      continue; // a rank aborts at this size (or a value is unknown): try the next size
    Done = T.F; // the smallest size the program runs at
    for (const P2PMatchPair &P : R.Matches)
      reportPair(C, T, P);
    if (R.Stuck)
      reportStuck(C, T, *R.Stuck);
  }
}

} // namespace ompi
