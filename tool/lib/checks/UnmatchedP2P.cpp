//===- UnmatchedP2P.cpp - Check: unmatched-p2p ------------------------------===//
//
// in a file that defines main, a send whose tag is static and which no
// receive or probe of the program (every file of the run: the driver drops
// a finding that another file's receive may answer) on the same
// communicator can accept (same
// tag, MPI_ANY_TAG, or a tag not known statically); and a send to rank + k
// (modulo the size) when every receive that accepts its tag names its source
// as rank + j with j != -k (MPI_ANY_SOURCE, other forms and sources not known
// statically may match).
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>

using namespace clang;

namespace ompi {

namespace {

/// One end of a point-to-point message: a send or a receive (or probe).
struct End {
  const CallResult *CR;
  std::optional<int64_t> Tag;   ///< null: any tag, or not static
  CommId Comm;                  ///< the communicator's identity
  std::string CommText;         ///< as written, for messages
  std::optional<int64_t> Shift; ///< the peer is rank + Shift (modulo the size): set for that form only
};

/// rank + k, (rank + k) % size, (rank + k + size) % size: k (the size term
/// vanishes modulo the size).
std::optional<int64_t> shiftOf(CheckContext &C, const CallResult &CR, Role R) {
  const ArgResult *A = CR.arg(R);
  if (!A || !CR.Caller || !CR.expr(*A))
    return std::nullopt;
  SymValue V = C.Ev.evaluate(CR.expr(*A), CR.Caller, CR.Call);
  if (V.K != SymValue::Affine || V.A.Rank != 1 || (V.A.Size != 0 && V.A.Mod != AffineForm::ModSize) ||
      V.A.Mod == AffineForm::ModConst)
    return std::nullopt;
  return V.A.Const;
}

/// The sending and receiving ends of every point-to-point call.
void collectEnds(CheckContext &C, std::vector<End> &Sends, std::vector<End> &Recvs) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || (CR.Model->Cat != Category::PointToPoint && CR.Model->Cat != Category::Probe))
      continue;
    const ArgResult *Comm = CR.arg(Role::Comm);
    std::string CommText = Comm ? Comm->Text : "";
    CommId Key = Comm && CR.Caller ? C.Ev.commId(CR.expr(*Comm), CR.Caller, CR.Call) : CommId();
    auto tagOf = [&](Role R) -> std::optional<std::optional<int64_t>> {
      const ArgResult *T = CR.arg(R);
      if (!T)
        return std::nullopt;
      if (T->Class == ArgClass::Static && T->Int)
        return std::optional<int64_t>(*T->Int);
      return std::optional<int64_t>(); // MPI_ANY_TAG or not static: matches anything
    };
    bool SendSide = CR.arg(Role::SendBuf) || CR.arg(Role::SendTag);
    bool RecvSide = CR.arg(Role::RecvBuf) || CR.arg(Role::RecvTag) || CR.Model->Cat == Category::Probe;
    if (auto T = tagOf(Role::SendTag))
      Sends.push_back({&CR, *T, Key, CommText, shiftOf(C, CR, Role::Dest)});
    else if (auto T = tagOf(Role::Tag); T && SendSide && !RecvSide)
      Sends.push_back({&CR, *T, Key, CommText, shiftOf(C, CR, Role::Dest)});
    if (auto T = tagOf(Role::RecvTag))
      Recvs.push_back({&CR, *T, Key, CommText, shiftOf(C, CR, Role::Source)});
    else if (auto T = tagOf(Role::Tag); T && RecvSide)
      Recvs.push_back({&CR, *T, Key, CommText, shiftOf(C, CR, Role::Source)});
  }
}

/// Notes at the receives on S's communicator that Pick selects (at most 3):
/// Fmt has {0} the receive's tag, {1} the send's, {2} its source argument.
template <typename P>
void noteReceives(CheckContext &C, Finding *D, const std::vector<End> &Recvs, const End &S, P Pick, const char *Fmt) {
  unsigned N = 0;
  for (const End &R : Recvs) {
    if (!D || N == 3 || !CommId::maySame(R.Comm, S.Comm) || !Pick(R))
      continue;
    const ArgResult *Src = R.CR->arg(Role::Source);
    std::string Tag = R.Tag ? std::to_string(*R.Tag) : "any";
    C.note(*D, R.CR->Call->getBeginLoc(),
           "this " + R.CR->Function + " " +
               llvm::formatv(Fmt, Tag, S.Tag ? std::to_string(*S.Tag) : "any", Src ? Src->Text : "?").str());
    ++N;
  }
}

} // namespace

/// A send to rank + k whose tag every receive accepts from another rank.
std::string shiftMessage(const End &S) {
  const ArgResult *Dest = S.CR->arg(Role::Dest);
  return llvm::formatv(
             "this {0} sends to '{1}' (rank {2} {3}), but every receive of this program on {4} that "
             "accepts its tag expects a message from another rank (rank {5} {6} would be needed; they match only when "
             "2 x {6} is a multiple of the number of ranks)",
             S.CR->Function, Dest ? Dest->Text : "?", *S.Shift < 0 ? "-" : "+", std::abs(*S.Shift), S.CommText,
             *S.Shift < 0 ? "+" : "-", std::abs(*S.Shift))
      .str();
}

/// E as other files' findings see it.
P2PEnd exported(const End &E) { return P2PEnd{E.Comm.K == CommId::Predefined ? E.Comm.Key : "", E.Tag, E.Shift}; }

void checkUnmatchedP2P(CheckContext &C) {
  std::vector<End> Sends, Recvs;
  collectEnds(C, Sends, Recvs);
  if (C.Receives)
    for (const End &R : Recvs)
      C.Receives->push_back(exported(R));
  if (!C.Ev.index().DefinesMain)
    return; // the receives may be in another file
  for (const End &S : Sends) {
    // A tag match on the same communicator: two predefined or created
    // communicators are the same only when they are the same one; any other
    // (a variable that may hold either, one the tool cannot identify) may be.
    std::vector<const End *> Tagged;
    for (const End &R : Recvs)
      if (CommId::maySame(R.Comm, S.Comm) && (!R.Tag || !S.Tag || *R.Tag == *S.Tag))
        Tagged.push_back(&R);
    if (S.Tag && Tagged.empty()) {
      Finding *D = C.report("unmatched-p2p", S.CR->Call->getBeginLoc(),
                            llvm::formatv("no receive or probe of this program on {0} accepts tag {1} of this {2}: "
                                          "the message can never be received",
                                          S.CommText, *S.Tag, S.CR->Function)
                                .str());
      if (D) {
        D->UnmatchedSend = exported(S);
        if (S.Shift)
          D->ShiftMessage = shiftMessage(S);
      }
      noteReceives(C, D, Recvs, S, [](const End &) { return true; }, "accepts tag {0}, not {1}");
      continue;
    }
    // ... from this sender: rank + k sends reach a receive from rank - k.
    if (!S.Shift || Tagged.empty())
      continue;
    bool FromUs = llvm::any_of(Tagged, [&](const End *R) { return !R->Shift || *R->Shift == -*S.Shift; });
    if (FromUs)
      continue;
    Finding *D = C.report("unmatched-p2p", S.CR->Call->getBeginLoc(), shiftMessage(S));
    if (D) {
      D->UnmatchedSend = exported(S);
      D->ByShift = true;
    }
    noteReceives(
        C, D, Recvs, S, [&](const End &R) { return llvm::is_contained(Tagged, &R); },
        "accepts the tag but expects a message from '{2}'");
  }
}

} // namespace ompi
