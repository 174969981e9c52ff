//===- MessageMatching.cpp - Check: message-matching -----------------------===//
//
// main's point-to-point calls run per rank (analysis/ranks'
// interpreter) and matched rank against rank (analysis/P2PMatch), at the
// smallest number of processes (2, 3 or 4) at which no rank aborts:
//   - ranks that wait for each other for ever: a blocking receive (or
//     synchronous send) whose peer is itself waiting, whatever the
//     buffering, since standard sends are taken as buffered;
//   - a receive whose peer ends without sending it a matching message;
//   - a receive matched with a send of another predefined type, or of more
//     data than it has room for (a datatype variable of known shape counts
//     as the elements of the predefined type it is built from);
//   - a send or receive whose peer is the number of processes or beyond
//     (rank 10 where one outcome of argc gives it, with 2 processes), or
//     beyond the part of a communicator MPI_Comm_split made of the world
//     (splitTraces: every rank's colour known);
//   - a rank waiting for a message on one communicator while the message
//     its peer sent it went on another (a variable holding the world on
//     one rank and a communicator split of it on another);
//   - a message no rank receives before the end, where the program has a
//     receive that could take it (else unmatched-p2p speaks) and sets no
//     error handler (with MPI_ERRORS_RETURN a send may fail and send
//     nothing).
// The runs follow MPI_Probe (it waits for a matching message and leaves
// it), persistent requests (each MPI_Start issues what the _init call
// describes) and communicators made of the world by MPI_Comm_split and
// MPI_Comm_dup (their ranks translated to the world's). Programs whose
// calls the interpreter cannot follow (tests, MPI_Iprobe, communicators
// it cannot identify, values it cannot decide) are left alone.
//
//===----------------------------------------------------------------------===//
#include "checks/P2PText.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool reportStuck(CheckContext &C, const P2PTraces &T, const P2PRunResult &R) {
  if (llvm::ArrayRef<P2PWait> Links = longCycle(R); !Links.empty()) {
    Finding *F = C.report("message-matching", Links[0].At->Call->getBeginLoc(),
                          llvm::formatv("{0}, {1}: none of them can go on, whatever the buffering (a blocking receive "
                                        "returns only once a matching message is sent)",
                                        withProcesses(T), cycleText(Links))
                              .str());
    if (F)
      noteCycle(C, *F, Links);
    return true;
  }
  const P2PWait W = pairWait(R);
  std::string Msg;
  const P2PEvent::Side &S = W.Sending ? W.Origin->S : W.Origin->R;
  std::string Tag = !S.Tag ? "" : *S.Tag < 0 ? " with any tag" : " with tag " + std::to_string(*S.Tag);
  std::string Mine = waitsFor(*W.At, W.Origin, W.Sending);
  const char *What = W.Sending ? "send" : "receive";
  if (W.Peer == W.Rank)
    Msg = llvm::formatv("{0}, rank {1} waits {2}{3}, which only it could send, and it has sent none: "
                        "the {4} never completes",
                        withProcesses(T), W.Rank, Mine, Tag, What);
  else if (W.PeerAt && W.PeerAt->K == P2PEvent::Collective)
    Msg = llvm::formatv("{0}, rank {1} waits {2}{3}, but rank {4} goes on to {5} (line {6}) without "
                        "{7} it: the {8} never completes, and {5} waits for it",
                        withProcesses(T), W.Rank, Mine, Tag, W.Peer, callName(*W.PeerAt), W.PeerAt->Line,
                        W.Sending ? "receiving" : "sending", What);
  else if (W.PeerAt && W.PeerOrigin)
    Msg = llvm::formatv("{0}, rank {1} waits {2}, while rank {3} waits {4}: neither can go on, "
                        "whatever the buffering (a blocking receive returns only once a matching message is sent)",
                        withProcesses(T), W.Rank, Mine, W.Peer, waitsFor(*W.PeerAt, W.PeerOrigin, W.PeerSending));
  else if (W.Peer >= 0 && !W.PeerAt)
    Msg = llvm::formatv("{0}, rank {1} waits {2}{3}, but rank {4} ends without {5} it: the {6} never "
                        "completes",
                        withProcesses(T), W.Rank, Mine, Tag, W.Peer, W.Sending ? "receiving" : "sending", What);
  else if (W.Peer < 0)
    Msg = llvm::formatv("{0}, rank {1} waits {2}{3}, but no rank sends it a matching message: the "
                        "receive never completes",
                        withProcesses(T), W.Rank, Mine, Tag);
  else
    return false; // the peer is busy elsewhere: not judged
  Finding *F = C.report("message-matching", W.At->Call->getBeginLoc(), Msg);
  if (F && W.PeerAt && W.Peer != W.Rank)
    C.note(*F, W.PeerAt->Call->getBeginLoc(), llvm::formatv("rank {0} waits here", W.Peer));
  return true;
}

/// The C type a predefined datatype describes ("" if untyped or unknown).
std::string cType(llvm::StringRef Name) {
  const HandleModel *H = Name.empty() || isUntypedDatatype(Name) ? nullptr : lookupHandle(Name);
  return H ? H->CTypes : "";
}

/// A side's type signature: Count elements of the predefined type Base. A
/// datatype variable of known shape (analysis/DerivedTypes) counts as the
/// elements of the predefined type it is built from.
struct Signature {
  std::string Base, Shown; ///< "MPI_INT"; as written, "two_ints (built from MPI_INT)"
  std::optional<int64_t> Count, Written;
};

Signature signature(CheckContext &C, const P2PEvent &E, const P2PEvent::Side &S, bool Sending) {
  Signature Sig{S.Type, S.Type, S.Count, S.Count};
  const FunctionDecl *FD = E.Call->getDirectCallee();
  const FunctionModel *M = S.Type.empty() && FD ? lookupFunction(FD->getName()) : nullptr;
  if (!M)
    return Sig;
  std::optional<unsigned> I = M->find(E.K != P2PEvent::SendRecv ? Role::Type
                                      : Sending                 ? Role::SendType
                                                                : Role::RecvType);
  if (!I && E.K == P2PEvent::SendRecv)
    I = M->find(Role::Type); // MPI_Sendrecv_replace
  const Expr *Arg = I && *I < E.Call->getNumArgs() ? E.Call->getArg(*I) : nullptr;
  auto Info = Arg ? C.datatype(Arg) : std::nullopt;
  std::string Shown = Info ? Info->shown() : "";
  // A variable the path set from a datatype variable of known shape.
  if (const DatatypeVar *V = S.TypeVar && (!Info || !Info->Shape) ? C.derived().var(S.TypeVar) : nullptr;
      V && V->Shape) {
    Info = CheckContext::DatatypeInfo{V->Name, V->Shape->Base, &*V->Shape};
    Shown = llvm::formatv("{0} ({1} on this path, built from {2})", C.Ev.text(Arg), V->Name, V->Shape->Base).str();
  }
  if (!Info || !Info->Shape)
    return Sig;
  Sig.Base = Info->Base;
  Sig.Shown = Shown;
  if (S.Count)
    Sig.Count = *S.Count * Info->Shape->elements();
  return Sig;
}

bool reportPair(CheckContext &C, const P2PTraces &T, const P2PMatchPair &P) {
  Signature S = signature(C, *P.Send, P.Send->S, true), R = signature(C, *P.Recv, P.Recv->R, false);
  std::string Where = llvm::formatv("{0}, the message rank {1} sends with {2} (line {3}) and rank {4} "
                                    "receives here",
                                    withProcesses(T), P.Sender, callName(*P.Send), P.Send->Line, P.Receiver);
  std::string ST = cType(S.Base), RT = cType(R.Base);
  if (!ST.empty() && !RT.empty() && ST != RT) {
    if (Finding *F = C.report("message-matching", P.Recv->Call->getBeginLoc(),
                              llvm::formatv("{0} is sent as {1} ({2}) but received as {3} ({4}): the type signatures "
                                            "of a send and its receive must match",
                                            Where, S.Shown, ST, R.Shown, RT)))
      C.note(*F, P.Send->Call->getBeginLoc(), "the send");
    return true;
  }
  auto SS = C.Ev.datatypeSize(S.Base), RS = C.Ev.datatypeSize(R.Base);
  if (!SS || !RS || !S.Count || !R.Count || *R.Count < 0 || *S.Count * *SS <= *R.Count * *RS)
    return false;
  if (Finding *F =
          C.report("message-matching", P.Recv->Call->getBeginLoc(),
                   llvm::formatv("{0} holds {1} x {2} ({3} bytes) but the receive has room for {4} x {5} "
                                 "({6} bytes): a message longer than its receive buffer is an error "
                                 "(MPI_ERR_TRUNCATE)",
                                 Where, *S.Written, S.Shown, *S.Count * *SS, *R.Written, R.Shown, *R.Count * *RS)))
    C.note(*F, P.Send->Call->getBeginLoc(), "the send");
  return true;
}

/// The communicator of a call: "MPI_COMM_WORLD" (", which 'c' holds
/// there"), or "'c' (the communicator MPI_Comm_split made at line 5)".
std::string commText(CheckContext &C, const P2PEvent &E) {
  if (E.CommIndex < 0 || !E.Comm || !E.CommMadeBy)
    return E.Comm ? llvm::formatv("MPI_COMM_WORLD, which '{0}' holds there", E.Comm->getName()).str()
                  : mpi::MPI_COMM_WORLD.str();
  const FunctionDecl *F = E.CommMadeBy->getDirectCallee();
  return llvm::formatv("'{0}' (the communicator {1} made at line {2})", E.Comm->getName(), F ? F->getName() : "a call",
                       C.Ctx.getSourceManager().getExpansionLineNumber(E.CommMadeBy->getBeginLoc()))
      .str();
}

/// A rank waiting for a message on one communicator while the message its
/// peer sent it with that tag went on another.
bool reportCommMismatch(CheckContext &C, const P2PTraces &T, const P2PRunResult &R) {
  if (!R.Stuck || R.Stuck->Sending)
    return false;
  const P2PWait &W = *R.Stuck;
  const P2PEvent &Recv = *W.Origin;
  for (const P2PMatchPair &U : R.Unmatched) {
    const P2PEvent &Send = *U.Send;
    if (U.Receiver != W.Rank || Send.CommIndex == Recv.CommIndex ||
        (Recv.R.Tag && *Recv.R.Tag >= 0 && Send.S.Tag && *Send.S.Tag != *Recv.R.Tag))
      continue;
    std::string In = llvm::formatv("in {0} (line {1})", callName(*W.At), W.At->Line).str();
    if (W.At != W.Origin)
      In += llvm::formatv(" for the {0} of line {1},", callName(Recv), Recv.Line).str();
    Finding *F = C.report("message-matching", W.At->Call->getBeginLoc(),
                          llvm::formatv("{0}, rank {1} waits {2} for a message on {3}, but the message rank {4} "
                                        "sends it with {5} (line {6}) goes on {7}: a message is received only on "
                                        "the communicator it was sent on",
                                        withProcesses(T), W.Rank, In, commText(C, Recv), U.Sender, callName(Send),
                                        Send.Line, commText(C, Send))
                              .str());
    if (F)
      C.note(*F, Send.Call->getBeginLoc(), llvm::formatv("rank {0} sends here", U.Sender).str());
    return true;
  }
  return false;
}

/// Whether a receive (or probe) of the file may take a message with tag
/// Tag: where none may, unmatched-p2p speaks of the send.
bool someReceiveAccepts(CheckContext &C, const std::optional<int64_t> &Tag) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || (CR.Model->Cat != Category::PointToPoint && CR.Model->Cat != Category::Probe) ||
        !CR.arg(Role::Source))
      continue;
    const ArgResult *T = CR.arg(Role::RecvTag) ? CR.arg(Role::RecvTag) : CR.arg(Role::Tag);
    if (!T || !Tag || T->Class != ArgClass::Static || !T->Int || *T->Int < 0 || *T->Int == *Tag)
      return true;
  }
  return false;
}

/// Whether the file sets an error handler (MPI_Comm_set_errhandler, ...):
/// then a call may fail, return, and send nothing.
bool setsErrhandler(CheckContext &C) {
  return llvm::any_of(C.Analysis.Calls, [](const CallResult &CR) {
    return llvm::StringRef(CR.Function).contains("set_errhandler") || CR.Function == mpi::MPI_Errhandler_set;
  });
}

/// A message no rank receives, every rank having ended (where a receive
/// that would take it is in the program, on another rank or path, and no
/// error handler lets a send fail and return).
bool reportUnreceived(CheckContext &C, const P2PTraces &T, const P2PRunResult &R) {
  if (R.Stuck || R.Unmatched.empty() || setsErrhandler(C))
    return false;
  auto It = llvm::find_if(R.Unmatched, [&](const P2PMatchPair &U) { return someReceiveAccepts(C, U.Send->S.Tag); });
  if (It == R.Unmatched.end())
    return false;
  const P2PMatchPair &U = *It;
  const P2PEvent &Send = *U.Send;
  std::string Tag = Send.S.Tag ? " with tag " + std::to_string(*Send.S.Tag) : "";
  std::string On = Send.CommIndex >= 0 || Send.Comm ? " on " + commText(C, Send) : "";
  C.report("message-matching", Send.Call->getBeginLoc(),
           llvm::formatv("{0}, rank {1} sends to rank {2}{3} in {4} (line {5}){6}, but rank {2} ends without "
                         "receiving it: every message must be received before MPI_Finalize (a communication "
                         "left pending makes the program erroneous)",
                         withProcesses(T), U.Sender, U.Receiver, Tag, callName(Send), Send.Line, On)
               .str());
  return true;
}

} // namespace

/// A send or receive whose peer is the number of processes or beyond.
bool reportBadPeer(CheckContext &C, const P2PTraces &T, const P2PBadPeer &B) {
  C.report("message-matching", B.E->Call->getBeginLoc(),
           llvm::formatv("{0}, rank {1} {2} rank {3} in {4} (line {5}), which does not exist (the ranks are 0 to {6}): "
                         "a peer must be a rank of the communicator, MPI_PROC_NULL{7}",
                         withProcesses(T), B.Rank, B.Sending ? "sends to" : "receives from", B.Peer, callName(*B.E),
                         B.E->Line, T.Size - 1, B.Sending ? "" : " or MPI_ANY_SOURCE")
               .str());
  return true;
}

/// The colour each rank gave each split of the world (splitTraces), by the
/// communicator variable and the split's occurrence on it; none where a
/// rank's is not known.
using Colours = std::map<std::pair<const VarDecl *, unsigned>, std::vector<std::optional<int64_t>>>;

Colours coloursOf(const P2PTraces &T) {
  Colours Out;
  for (int R = 0; R < T.Size; ++R) {
    std::map<const VarDecl *, unsigned> N;
    for (const P2PEvent &E : T.Ranks[R])
      if (E.K == P2PEvent::Split) {
        std::vector<std::optional<int64_t>> &V = Out[{E.Comm, N[E.Comm]++}];
        V.resize(T.Size);
        V[R] = E.S.Peer;
      }
  }
  return Out;
}

/// A point-to-point call on a communicator MPI_Comm_split made of the
/// world, whose peer is the size of the caller's part or beyond: every
/// rank's colour is known, so the part is.
bool reportSplitPeers(CheckContext &C, const P2PTraces &T) {
  Colours Cs = coloursOf(T);
  for (int R = 0; R < T.Size; ++R) {
    std::map<const VarDecl *, std::pair<unsigned, const P2PEvent *>> Made;
    for (const P2PEvent &E : T.Ranks[R]) {
      if (E.K == P2PEvent::Split) {
        auto &M = Made[E.Comm];
        M = {M.first + 1, &E};
        continue;
      }
      auto It = Made.find(E.Comm);
      const auto &Colour =
          It == Made.end() ? std::vector<std::optional<int64_t>>() : Cs[{E.Comm, It->second.first - 1}];
      if (Colour.size() != static_cast<size_t>(T.Size) || llvm::is_contained(Colour, std::nullopt) || *Colour[R] < 0)
        continue;
      std::vector<int> Part;
      for (int Q = 0; Q < T.Size; ++Q)
        if (*Colour[Q] == *Colour[R])
          Part.push_back(Q);
      // The destination, then the source (MPI_Sendrecv has both).
      auto Beyond = [&](const std::optional<int64_t> &P) { return P && *P >= static_cast<int64_t>(Part.size()); };
      bool Sending = E.K == P2PEvent::Send && Beyond(E.S.Peer);
      std::optional<int64_t> Peer = Sending ? E.S.Peer : E.R.Peer;
      if (!Beyond(Peer))
        continue;
      const P2PEvent &Split = *It->second.second;
      Finding *F = C.report(
          "message-matching", E.Call->getBeginLoc(),
          llvm::formatv("{0}, rank {1} {2} rank {3} of '{4}' in {5} (line {6}), but MPI_Comm_split (line {7}) made "
                        "'{4}' of {8} process{9} there (colour {10}: world rank{13} {11}): a peer must be a rank of "
                        "the communicator, MPI_PROC_NULL{12}",
                        withProcesses(T), R, Sending ? "sends to" : "receives from", *Peer, E.Comm->getName(),
                        callName(E), E.Line, Split.Line, Part.size(), Part.size() > 1 ? "es" : "", *Colour[R],
                        describeRanks(Part), Sending ? "" : " or MPI_ANY_SOURCE", Part.size() > 1 ? "s" : "")
              .str());
      if (F)
        C.note(*F, Split.Call->getBeginLoc(), llvm::formatv("rank {0} joins colour {1} here", R, *Colour[R]));
      return true;
    }
  }
  return false;
}

/// Each function's first run at which no rank aborts, for each set of
/// assumed outcomes, until one reports.
void checkSplitPeers(CheckContext &C) {
  std::set<std::pair<const FunctionDecl *, std::string>> Done;
  std::set<const FunctionDecl *> Found;
  for (const P2PTraces &T : splitTraces(C.Ctx, C.Ev, C.Uni))
    if (!Found.count(T.F) && !llvm::is_contained(T.Aborted, true) && Done.insert({T.F, T.Assumed}).second &&
        reportSplitPeers(C, T))
      Found.insert(T.F);
}

void checkMessageMatching(CheckContext &C) {
  checkSplitPeers(C);
  forEachFollowed(C, /*Buffered=*/true, [&](const P2PTraces &T, const P2PRunResult &R) {
    if (R.BadPeer)
      return reportBadPeer(C, T, *R.BadPeer);
    bool Found = false;
    for (const P2PMatchPair &P : R.Matches)
      Found |= reportPair(C, T, P);
    if (R.Stuck)
      Found |= reportCommMismatch(C, T, R) || reportStuck(C, T, R);
    else
      Found |= reportUnreceived(C, T, R);
    return Found;
  });
}

} // namespace ompi
