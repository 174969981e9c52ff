//===- P2PMatch.cpp - Point-to-point calls matched rank against rank -------===//
#include "analysis/P2PMatch.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace ompi {

namespace {

constexpr int64_t Any = -1, ProcNull = -2;

struct Msg {
  int Src, Dst;
  int64_t Tag;
  const P2PEvent *E;
  bool Matched = false;
};

class Sim {
public:
  explicit Sim(const P2PTraces &T) : T(T), N(T.Size), Pc(N), Posted(N), Sent(N, -1) {}

  P2PRunResult run();

private:
  const P2PTraces &T;
  int N;
  std::vector<size_t> Pc;
  std::vector<bool> Posted; ///< the send side of the rank's current call is posted
  std::vector<long> Sent;   ///< the message the current call posted
  std::vector<Msg> Q;
  P2PRunResult R;
  bool Unknown = false;

  bool done(int Rk) const { return Pc[Rk] >= T.Ranks[Rk].size(); }
  const P2PEvent &at(int Rk) const { return T.Ranks[Rk][Pc[Rk]]; }
  bool valid(const std::optional<int64_t> &Peer) const {
    return Peer && (*Peer == ProcNull || *Peer == Any || (*Peer >= 0 && *Peer < N));
  }
  void post(int Rk, const P2PEvent::Side &S, const P2PEvent &E);
  bool receive(int Rk, const P2PEvent::Side &S, const P2PEvent &E);
  bool step(int Rk);
  bool collectives();
  void stuck();
};

void Sim::post(int Rk, const P2PEvent::Side &S, const P2PEvent &E) {
  Posted[Rk] = true;
  if (!valid(S.Peer) || !S.Tag || *S.Peer == Any) {
    Unknown = true;
    return;
  }
  if (*S.Peer == ProcNull) {
    Sent[Rk] = -1;
    return;
  }
  Sent[Rk] = long(Q.size());
  Q.push_back({Rk, int(*S.Peer), *S.Tag, &E});
}

/// The first matching message, taken; false when none has come.
bool Sim::receive(int Rk, const P2PEvent::Side &S, const P2PEvent &E) {
  if (!valid(S.Peer) || !S.Tag) {
    Unknown = true;
    return false;
  }
  if (*S.Peer == ProcNull)
    return true;
  for (Msg &M : Q)
    if (!M.Matched && M.Dst == Rk && (*S.Peer == Any || M.Src == *S.Peer) && (*S.Tag == Any || *S.Tag == M.Tag)) {
      M.Matched = true;
      R.Matches.push_back({M.Src, Rk, M.E, &E});
      return true;
    }
  return false;
}

/// One rank's current call, if it can complete now.
bool Sim::step(int Rk) {
  const P2PEvent &E = at(Rk);
  switch (E.K) {
  case P2PEvent::Send:
    post(Rk, E.S, E);
    break;
  case P2PEvent::Ssend:
    if (!Posted[Rk]) {
      post(Rk, E.S, E);
      if (Sent[Rk] >= 0)
        return true; // posted: progress, completes once received
    } else if (Sent[Rk] >= 0 && !Q[Sent[Rk]].Matched) {
      return false;
    }
    break;
  case P2PEvent::SendRecv:
    if (!Posted[Rk])
      post(Rk, E.S, E);
    if (!receive(Rk, E.R, E))
      return false;
    break;
  case P2PEvent::Recv:
    if (!receive(Rk, E.R, E))
      return false;
    break;
  case P2PEvent::Collective:
    return false;
  }
  ++Pc[Rk];
  Posted[Rk] = false;
  Sent[Rk] = -1;
  return true;
}

/// Every rank still running at a collective: they all pass it.
bool Sim::collectives() {
  bool Any = false;
  for (int Rk = 0; Rk < N; ++Rk) {
    if (done(Rk))
      continue;
    if (at(Rk).K != P2PEvent::Collective)
      return false;
    Any = true;
  }
  if (Any)
    for (int Rk = 0; Rk < N; ++Rk)
      if (!done(Rk))
        ++Pc[Rk];
  return Any;
}

void Sim::stuck() {
  const CallExpr *Coll = nullptr;
  for (int Rk = 0; Rk < N; ++Rk)
    if (!done(Rk) && at(Rk).K == P2PEvent::Collective) {
      if (Coll && Coll != at(Rk).Call)
        return; // ranks at different collectives: collective-sequence's finding
      Coll = at(Rk).Call;
    }
  for (int Rk = 0; Rk < N; ++Rk) {
    if (done(Rk))
      continue;
    const P2PEvent &E = at(Rk);
    if (E.K == P2PEvent::Collective)
      continue;
    P2PWait W{Rk, &E, -1, nullptr};
    const P2PEvent::Side &S = E.K == P2PEvent::Ssend ? E.S : E.R;
    if (!S.Peer)
      continue;
    W.Peer = int(*S.Peer);
    if (W.Peer >= 0 && !done(W.Peer))
      W.PeerAt = &at(W.Peer);
    R.Stuck = W;
    return;
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
  if (Unknown)
    return R;
  R.Followed = true;
  stuck();
  return R;
}

} // namespace

P2PRunResult matchP2P(const P2PTraces &T) { return Sim(T).run(); }

} // namespace ompi
