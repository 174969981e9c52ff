//===- P2PMatch.cpp - Point-to-point calls matched rank against rank -------===//
#include "analysis/P2PMatch.h"
#include "mpi/Names.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace clang;

namespace ompi {

namespace {

constexpr int64_t Any = -1, ProcNull = -2;

struct Msg {
  int Src, Dst;
  int64_t Tag;
  const P2PEvent *E;
  bool Matched = false;
  int Comm = -1; ///< P2PEvent::CommIndex
};

/// A receive posted (MPI_Irecv, or the receive of a blocking call), matched
/// in posting order.
struct PostedRecv {
  int Rank;
  const P2PEvent *E;
  long Msg = -1; ///< the message it took
};

/// What a request of a rank stands for.
struct Req {
  bool Send;
  long Index; ///< into Q (a send; -1 for MPI_PROC_NULL) or Posted (a receive)
  const P2PEvent *E;
};

class Sim {
public:
  Sim(const P2PTraces &T, bool Buffered)
      : T(T), N(T.Size), Buffered(Buffered), Pc(N), CurSend(N, -2), CurRecv(N, -2), Reqs(N) {}

  P2PRunResult run();

private:
  const P2PTraces &T;
  int N;
  bool Buffered; ///< standard sends complete at once (else only once received)
  std::vector<size_t> Pc;
  std::vector<long> CurSend, CurRecv; ///< what the current blocking call posted (-2: nothing yet)
  std::vector<std::map<std::string, Req>> Reqs;
  std::vector<Msg> Q;
  std::vector<PostedRecv> Posted;
  P2PRunResult R;
  bool Unknown = false;

  bool done(int Rk) const { return Pc[Rk] >= T.Ranks[Rk].size(); }
  const P2PEvent &at(int Rk) const { return T.Ranks[Rk][Pc[Rk]]; }
  bool valid(const std::optional<int64_t> &Peer) const {
    return Peer && (*Peer == ProcNull || *Peer == Any || (*Peer >= 0 && *Peer < N));
  }
  long send(int Rk, const P2PEvent &E);
  long post(int Rk, const P2PEvent &E);
  void match();
  bool matches(const Msg &M, int Rk, const P2PEvent &E) const;
  bool received(long P) const { return P == -1 || (P >= 0 && Posted[P].Msg >= 0); }
  /// Whether E's send completes only once received: a synchronous send,
  /// or a standard one when sends are not buffered (MPI_Bsend always is).
  bool sync(const P2PEvent &E) const {
    const FunctionDecl *F = E.Call ? E.Call->getDirectCallee() : nullptr;
    llvm::StringRef Name = F && F->getIdentifier() ? F->getName() : "";
    return E.Sync || (!Buffered && E.K != P2PEvent::SendRecv && Name != mpi::MPI_Bsend && Name != mpi::MPI_Ibsend &&
                      Name != mpi::MPI_Bsend_init);
  }
  bool delivered(long M, const P2PEvent &E) const { return M < 0 || !sync(E) || Q[M].Matched; }
  bool complete(int Rk, const std::string &Key) const;
  bool step(int Rk);
  bool collectives();
  std::optional<P2PWait> waiting(int Rk) const;
  void stuck();
  void chain(const P2PWait &W);
};

/// Queues the send side of E: the message's index, -1 for MPI_PROC_NULL.
long Sim::send(int Rk, const P2PEvent &E) {
  if (E.S.Peer && *E.S.Peer >= N && !R.BadPeer)
    R.BadPeer = P2PBadPeer{Rk, &E, true, *E.S.Peer};
  if (!valid(E.S.Peer) || !E.S.Tag || *E.S.Peer == Any) {
    Unknown = true;
    return -1;
  }
  if (*E.S.Peer == ProcNull)
    return -1;
  Q.push_back({Rk, int(*E.S.Peer), *E.S.Tag, &E, false, E.CommIndex});
  return long(Q.size()) - 1;
}

/// Posts the receive side of E: its index, -1 for MPI_PROC_NULL.
long Sim::post(int Rk, const P2PEvent &E) {
  if (E.R.Peer && *E.R.Peer >= N && !R.BadPeer)
    R.BadPeer = P2PBadPeer{Rk, &E, false, *E.R.Peer};
  if (!valid(E.R.Peer) || !E.R.Tag) {
    Unknown = true;
    return -1;
  }
  if (*E.R.Peer == ProcNull)
    return -1;
  Posted.push_back({Rk, &E});
  return long(Posted.size()) - 1;
}

/// Whether message M may be received (or probed) by rank Rk's call E.
bool Sim::matches(const Msg &M, int Rk, const P2PEvent &E) const {
  const P2PEvent::Side &S = E.R;
  return !M.Matched && M.Dst == Rk && M.Comm == E.CommIndex && (*S.Peer == Any || M.Src == *S.Peer) &&
         (*S.Tag == Any || *S.Tag == M.Tag);
}

/// Each posted receive, in posting order, takes the first message that
/// matches it (one sender's messages stay in order).
void Sim::match() {
  for (PostedRecv &P : Posted) {
    if (P.Msg >= 0)
      continue;
    for (size_t I = 0; I < Q.size(); ++I) {
      Msg &M = Q[I];
      if (!matches(M, P.Rank, *P.E))
        continue;
      M.Matched = true;
      P.Msg = long(I);
      R.Matches.push_back({M.Src, P.Rank, M.E, P.E});
      break;
    }
  }
}

bool Sim::complete(int Rk, const std::string &Key) const {
  auto It = Reqs[Rk].find(Key);
  if (It == Reqs[Rk].end())
    return true; // never started here (MPI_REQUEST_NULL, or another check's finding)
  const Req &Q0 = It->second;
  return Q0.Send ? delivered(Q0.Index, *Q0.E) : received(Q0.Index);
}

/// One rank's current call, if it can complete now (or posts something).
bool Sim::step(int Rk) {
  const P2PEvent &E = at(Rk);
  bool Progress = false;
  switch (E.K) {
  case P2PEvent::Send:
    if (!sync(E)) {
      send(Rk, E);
      break;
    }
    [[fallthrough]];
  case P2PEvent::ISend:
    if (E.K == P2PEvent::ISend) {
      Reqs[Rk][E.Reqs.front()] = {true, send(Rk, E), &E};
      break;
    }
    [[fallthrough]];
  case P2PEvent::Ssend:
  case P2PEvent::Recv:
  case P2PEvent::SendRecv: {
    bool HasSend = E.K != P2PEvent::Recv, HasRecv = E.K == P2PEvent::Recv || E.K == P2PEvent::SendRecv;
    if (CurSend[Rk] == -2 && HasSend)
      CurSend[Rk] = send(Rk, E), Progress = true;
    if (CurRecv[Rk] == -2 && HasRecv)
      CurRecv[Rk] = post(Rk, E), Progress = true;
    match();
    if (Unknown || (HasSend && !delivered(CurSend[Rk], E)) || (HasRecv && !received(CurRecv[Rk])))
      return Progress;
    break;
  }
  case P2PEvent::IRecv:
    Reqs[Rk][E.Reqs.front()] = {false, post(Rk, E), &E};
    break;
  case P2PEvent::Probe: // returns once a message it matches is there, and leaves it
    if (!valid(E.R.Peer) || !E.R.Tag) {
      Unknown = true;
      return false;
    }
    match();
    if (*E.R.Peer != ProcNull && llvm::none_of(Q, [&](const Msg &M) { return matches(M, Rk, E); }))
      return false;
    break;
  case P2PEvent::Wait:
    match();
    if (!llvm::all_of(E.Reqs, [&](const std::string &K) { return complete(Rk, K); }))
      return false;
    for (const std::string &K : E.Reqs)
      Reqs[Rk].erase(K);
    break;
  case P2PEvent::Collective:
    return false;
  case P2PEvent::Window: // only in rmaTraces, splitTraces, handleArrayTraces: nothing to match
  case P2PEvent::Split:
  case P2PEvent::Handle:
  case P2PEvent::Local:
    break;
  }
  ++Pc[Rk];
  CurSend[Rk] = CurRecv[Rk] = -2;
  match();
  return true;
}

/// Every rank still running at the same collective: they all pass it.
bool Sim::collectives() {
  bool AnyRank = false;
  const std::string *Coll = nullptr;
  for (int Rk = 0; Rk < N; ++Rk) {
    if (done(Rk))
      continue;
    if (at(Rk).K != P2PEvent::Collective || (Coll && *Coll != at(Rk).Coll))
      return false; // not all there, or at different collectives (collective-sequence's finding)
    Coll = &at(Rk).Coll;
    AnyRank = true;
  }
  if (AnyRank)
    for (int Rk = 0; Rk < N; ++Rk)
      if (!done(Rk))
        ++Pc[Rk];
  return AnyRank;
}

/// What a rank that cannot go on waits for: the call it is in, and the
/// call whose completion it needs (the same for a blocking call; the
/// MPI_Irecv or MPI_Issend of a wait).
std::optional<P2PWait> Sim::waiting(int Rk) const {
  const P2PEvent &E = at(Rk);
  const P2PEvent *Origin = &E;
  if (E.K == P2PEvent::Wait) {
    Origin = nullptr;
    for (const std::string &K : E.Reqs)
      if (!complete(Rk, K)) {
        Origin = Reqs[Rk].at(K).E;
        break;
      }
  } else if (E.K != P2PEvent::Recv && E.K != P2PEvent::Ssend && E.K != P2PEvent::SendRecv && E.K != P2PEvent::Send &&
             E.K != P2PEvent::Probe) {
    return std::nullopt;
  }
  if (!Origin)
    return std::nullopt;
  bool Sending = Origin->K == P2PEvent::Ssend || Origin->K == P2PEvent::ISend || Origin->K == P2PEvent::Send ||
                 (Origin->K == P2PEvent::SendRecv && !delivered(CurSend[Rk], *Origin));
  const P2PEvent::Side &S = Sending ? Origin->S : Origin->R;
  if (!S.Peer)
    return std::nullopt;
  P2PWait W;
  W.Rank = Rk;
  W.At = &E;
  W.Origin = Origin;
  W.Sending = Sending;
  W.Peer = int(*S.Peer);
  return W;
}

void Sim::stuck() {
  const std::string *Coll = nullptr;
  for (int Rk = 0; Rk < N; ++Rk)
    if (!done(Rk) && at(Rk).K == P2PEvent::Collective) {
      if (Coll && *Coll != at(Rk).Coll)
        return; // ranks at different collectives: collective-sequence's finding
      Coll = &at(Rk).Coll;
    }
  for (int Rk = 0; Rk < N; ++Rk) {
    if (done(Rk) || at(Rk).K == P2PEvent::Collective)
      continue;
    std::optional<P2PWait> W = waiting(Rk);
    if (!W)
      continue;
    if (W->Peer >= 0 && W->Peer != Rk && !done(W->Peer)) {
      W->PeerAt = &at(W->Peer);
      if (auto P = waiting(W->Peer)) {
        W->PeerOrigin = P->Origin;
        W->PeerSending = P->Sending;
      }
    }
    R.Stuck = W;
    chain(*W);
    return;
  }
}

/// R.Chain and R.CycleStart from W: follow who waits for whom.
void Sim::chain(const P2PWait &W) {
  R.Chain = {W};
  for (int Next = W.Peer; Next >= 0 && !done(Next);) {
    auto Seen = llvm::find_if(R.Chain, [&](const P2PWait &L) { return L.Rank == Next; });
    if (Seen != R.Chain.end()) {
      R.CycleStart = int(Seen - R.Chain.begin());
      return;
    }
    if (at(Next).K == P2PEvent::Collective)
      return;
    std::optional<P2PWait> P = waiting(Next);
    if (!P)
      return;
    R.Chain.push_back(*P);
    Next = P->Peer;
  }
}

P2PRunResult Sim::run() {
  if (llvm::is_contained(T.Aborted, true))
    return R;
  for (bool Progress = true; Progress && !Unknown;) {
    Progress = false;
    for (int Rk = 0; Rk < N && !Unknown; ++Rk)
      while (!done(Rk) && !Unknown && step(Rk))
        Progress = true;
    Progress |= !Unknown && collectives();
  }
  if (Unknown) {
    R.Followed = R.BadPeer.has_value(); // a peer that does not exist is what stopped the run
    return R;
  }
  R.Followed = true;
  for (const Msg &M : Q)
    if (!M.Matched)
      R.Unmatched.push_back({M.Src, M.Dst, M.E, nullptr});
  stuck();
  return R;
}

} // namespace

P2PRunResult matchP2P(const P2PTraces &T, bool Buffered) { return Sim(T, Buffered).run(); }

} // namespace ompi
