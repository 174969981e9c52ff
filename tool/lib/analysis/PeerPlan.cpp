//===- PeerPlan.cpp - Calls whose peer is MPI_PROC_NULL or the caller -----===//
#include "analysis/PeerPlan.h"
#include "analysis/RewriteSites.h"
#include "mpi/Names.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "peer-templates";

/// What a call's peers make of it.
/// MaybeSelf: an MPI_Sendrecv whose peers are known only at run time (the
/// template checks them: a copy where both are the caller).
enum class Case { None, NullSend, NullRecv, NullExchange, HalfExchange, Self, MaybeSelf };

/// The profile family of the template's check where an exchange's peers
/// are another rank (the cost of trying MaybeSelf's copy and missing).
constexpr const char *MissFamily = "self_sendrecv_miss";
/// The profile family of that check alone, in one process: its cost
/// without the exchange's run-to-run noise.
constexpr const char *CheckFamily = "self_sendrecv_check";

/// The template and profile family of a case.
struct Choice {
  Case K = Case::None;
  std::string To;
  llvm::StringRef Family;
};

bool isNull(const ArgResult *A) { return A && A->Sym.K == SymValue::Handle && A->Sym.Name == mpi::MPI_PROC_NULL; }

/// Whether A is the caller's rank in the call's communicator: the rank
/// (rank + k * size) % size with k >= 0, or 0 on MPI_COMM_SELF.
bool isSelf(Evaluator &Ev, const CallResult &C, const ArgResult *A) {
  if (!A)
    return false;
  const CommId &Id = C.Comm; // the call facts' identity of the call's communicator
  const SymValue &V = A->Sym;
  if (V.K == SymValue::Int)
    return V.I == 0 && Id.K == CommId::Predefined && Id.Key == mpi::MPI_COMM_SELF;
  if (V.K != SymValue::Affine || V.A.Rank != 1 || V.A.Const != 0)
    return false;
  bool Plain = V.A.Mod == AffineForm::NoMod && V.A.Size == 0;
  bool Wrapped = V.A.Mod == AffineForm::ModSize && V.A.Size >= 0;
  return (Plain || Wrapped) && Ev.sameRanks(V.Comm, Id);
}

/// Whether an exchange's destination D and source S, not proved the caller,
/// may both be the caller at run time: not a handle (MPI_ANY_SOURCE), not
/// two different numbers, not two different offsets from the rank (equal on
/// one process only).
bool mayBeSelf(const ArgResult *D, const ArgResult *S) {
  if (!D || !S || D->Sym.K == SymValue::Handle || S->Sym.K == SymValue::Handle)
    return false;
  const SymValue &X = D->Sym, &Y = S->Sym;
  if (X.K == SymValue::Int && Y.K == SymValue::Int)
    return X.I == Y.I;
  if (X.K == SymValue::Affine && Y.K == SymValue::Affine && X.A.Rank == 1 && Y.A.Rank == 1)
    return X.A.Const == Y.A.Const && X.A.Size == Y.A.Size;
  return true;
}

/// The case of C: its function and which of its peers are MPI_PROC_NULL
/// or the caller.
Choice choiceOf(Evaluator &Ev, const CallResult &C) {
  const ArgResult *D = C.arg(Role::Dest), *S = C.arg(Role::Source);
  bool DN = isNull(D), SN = isNull(S);
  llvm::StringRef F = C.Function;
  if (F == mpi::MPI_Send || F == mpi::MPI_Ssend || F == mpi::MPI_Rsend)
    return DN ? Choice{Case::NullSend, "mpiopt_" + F.substr(4).lower() + "_null", "null"} : Choice{};
  if (F == mpi::MPI_Recv)
    return SN ? Choice{Case::NullRecv, "mpiopt_recv_null", "null"} : Choice{};
  if (F != mpi::MPI_Sendrecv && F != mpi::MPI_Sendrecv_replace)
    return Choice{};
  std::string Base = F == mpi::MPI_Sendrecv ? "mpiopt_sendrecv" : "mpiopt_sendrecv_replace";
  if (DN && SN)
    return Choice{Case::NullExchange, Base + "_null", "null"};
  if (DN || SN)
    return Choice{Case::HalfExchange, Base + "_null", "null_sendrecv"};
  if (isSelf(Ev, C, D) && isSelf(Ev, C, S))
    return Choice{Case::Self, Base + "_self", F == mpi::MPI_Sendrecv ? "self_sendrecv" : "self_replace"};
  if (F == mpi::MPI_Sendrecv && mayBeSelf(D, S))
    return Choice{Case::MaybeSelf, Base + "_self", "self_sendrecv"};
  return Choice{};
}

/// Why a nonblocking or buffered call to or from MPI_PROC_NULL stays
/// generic, or "" (no such call).
std::string unhandledNull(const CallResult &C) {
  if (C.Model->Cat != Category::PointToPoint || (!isNull(C.arg(Role::Dest)) && !isNull(C.arg(Role::Source))))
    return "";
  if (C.Model && C.Model->M != Mode::Blocking)
    return "its request must be one MPI made (a wait or test on it, MPI_Request_get_status, a comparison with "
           "MPI_REQUEST_NULL)";
  if (C.Function == mpi::MPI_Bsend)
    return "the buffered mode checks the attached buffer";
  return "";
}

/// The datatype argument of role R names a predefined datatype: "" or why not.
std::string predefinedProblem(const CallResult &C, Role R) {
  const ArgResult *A = C.arg(R);
  if (!A)
    return "it has no datatype";
  const HandleModel *H = A->Sym.K == SymValue::Handle ? lookupHandle(A->Sym.Name) : nullptr;
  if (H && isNullHandle(H->Name))
    return "its datatype is " + H->Name +
           " (whether MPI accepts a null datatype with MPI_PROC_NULL differs between "
           "MPIs)";
  if (!H || H->Kind != HandleKind::Datatype)
    return "its datatype " + A->Text +
           " is not a predefined one (a derived datatype may be uncommitted or freed, errors MPI reports)";
  return "";
}

/// The datatypes of the sides the template drops (null) or copies (self)
/// are predefined, and a copy's the same without gaps: "" or why not.
std::string typeProblem(const CallResult &C, Case K) {
  bool Exchange = C.arg(Role::SendType) != nullptr;
  Role ST = Exchange ? Role::SendType : Role::Type, RT = Exchange ? Role::RecvType : Role::Type;
  std::vector<Role> Check;
  if (K == Case::NullSend || K == Case::NullRecv)
    Check = {Role::Type};
  else if (K == Case::HalfExchange)
    Check = {isNull(C.arg(Role::Dest)) ? ST : RT};
  else
    Check = {ST, RT};
  for (Role R : Check)
    if (std::string P = predefinedProblem(C, R); !P.empty())
      return P;
  if ((K != Case::Self && K != Case::MaybeSelf) || !Exchange)
    return "";
  const ArgResult *S = C.arg(ST), *R = C.arg(RT);
  if (canonicalHandle(S->Sym.Name) != canonicalHandle(R->Sym.Name))
    return "its send and receive datatypes differ (" + S->Text + ", " + R->Text + "): MPI matches their signatures";
  const HandleModel *H = lookupHandle(S->Sym.Name);
  llvm::StringRef CT = H->CTypes;
  if (CT.empty() || CT.contains('+') || CT.contains("long double"))
    return "its datatype " + S->Text +
           " may have gaps between or inside its elements: a copy of its bytes could "
           "differ from MPI's";
  return "";
}

/// The bytes that decide the profile's verdict: what the template still
/// moves (the side kept of a half exchange, the copy, the message of a
/// no-op). The call facts' communication size is the send side's (the
/// only side of the other calls); a half exchange that keeps its receive
/// takes the receive side's.
std::optional<int64_t> decidingBytes(Evaluator &Ev, const CallResult &C, Case K) {
  if (!C.arg(Role::SendType) || K != Case::HalfExchange || !isNull(C.arg(Role::Dest)))
    return C.CommSize.Bytes;
  const ArgResult *N = C.arg(Role::RecvCount), *T = C.arg(Role::RecvType);
  if (!N || !N->Int || !T || T->Sym.K != SymValue::Handle)
    return std::nullopt;
  std::optional<int64_t> Size = Ev.datatypeSize(T->Sym.Name);
  return Size ? std::optional<int64_t>(*N->Int * *Size) : std::nullopt;
}

/// "its destination MPI_PROC_NULL" with how the value was found.
std::string peerText(const ArgResult *A, llvm::StringRef What) {
  std::string S = ("its " + What + " " + A->Text).str();
  if (A->Text != A->Value && !A->Value.empty())
    S += " (" + A->Value + (A->Note.empty() ? "" : ": " + A->Note) + ")";
  return S;
}

/// What the template does and why that is what MPI does.
std::pair<std::string, std::string> describe(const CallResult &C, const Choice &Ch) {
  const ArgResult *D = C.arg(Role::Dest), *S = C.arg(Role::Source);
  const ArgResult *Comm = C.arg(Role::Comm);
  std::string Checks = "the datatype of what is dropped is predefined, and the template runs the generic call where "
                       "a count, tag, buffer or communicator is one MPI would report";
  switch (Ch.K) {
  case Case::NullSend:
    return {C.Function + " to MPI_PROC_NULL as the no-op MPI defines (" + Ch.To + ")",
            peerText(D, "destination") + ": a send to MPI_PROC_NULL returns at once; " + Checks};
  case Case::NullRecv:
    return {C.Function + " from MPI_PROC_NULL as the no-op MPI defines (" + Ch.To + ")",
            peerText(S, "source") +
                ": a receive from MPI_PROC_NULL returns at once with the status MPI gives it "
                "(source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0; copied from the MPI's own); " +
                Checks};
  case Case::NullExchange:
    return {C.Function + " with MPI_PROC_NULL on both sides as the no-op MPI defines (" + Ch.To + ")",
            peerText(D, "destination") + " and " + peerText(S, "source") +
                ": both sides return at once, the status the MPI's own for MPI_PROC_NULL; " + Checks};
  case Case::HalfExchange: {
    bool DN = isNull(D);
    return {C.Function + " with MPI_PROC_NULL as its " +
                (DN ? "destination: the receive alone" : "source: the send alone") + " (" + Ch.To + ")",
            peerText(DN ? D : S, DN ? "destination" : "source") +
                (DN ? ": the exchange is its receive, run as MPI_Recv (the status's MPI_ERROR field as the MPI's "
                      "exchange leaves it)"
                    : ": the exchange is its send, run as MPI_Send (a standard-mode send, as the exchange's), the "
                      "status the MPI's own for a receive from MPI_PROC_NULL") +
                "; " + Checks};
  }
  default:
    break;
  }
  bool Replace = C.Function == mpi::MPI_Sendrecv_replace;
  std::string CommText = Comm ? Comm->Text : std::string("its communicator");
  std::string Peers = Ch.K == Case::MaybeSelf
                          ? peerText(D, "destination") + " and " + peerText(S, "source") +
                                " are known only at run time: the template compares them with the caller's rank in " +
                                CommText + " (MPI_Comm_rank) and runs the generic call unless both are the caller; then"
                          : peerText(D, "destination") + " and " + peerText(S, "source") +
                                " are the caller's rank in " + CommText + ":";
  std::string Did =
      Ch.K == Case::MaybeSelf
          ? C.Function + " with peers known only at run time as a copy where both are the caller (" + Ch.To + ")"
          : C.Function + " with the caller itself as " + (Replace ? "nothing to move" : "a copy") + " (" + Ch.To + ")";
  return {Did, Peers +
                   " the receive takes the exchange's own message unless an earlier message from the caller to itself "
                   "waits (MPI_Iprobe at run time: the generic call then), the tags match and the receive is large "
                   "enough (checked at run time too); " +
                   (Replace ? std::string("the buffer keeps its contents")
                            : "both sides are " + C.arg(Role::SendType)->Text + ", moved as bytes") +
                   "; the status is the source and tag of the message and its count, as MPI gives it"};
}

/// The profile's measurement of the check that misses for a message of
/// Bytes: the figure, or "!" and why the template must not be used. The
/// check costs the same at every size: measured alone (CheckFamily), or
/// else by the small messages' points of MissFamily (the median of the
/// differences up to 4 KiB: beyond, the run-to-run noise of the exchange
/// is larger than the check). It may cost at most 2% of the generic call
/// with another rank (MissFamily's) at the message's size (unknown until
/// run time: the smallest measured).
std::string missProblem(const MachineProfile *Profile, std::optional<int64_t> Bytes) {
  std::string Size = Bytes ? llvm::formatv("{0} bytes", *Bytes).str() : "a size known only at run time";
  std::vector<double> Diffs;
  const TemplatePoint *At = nullptr, *Largest = nullptr, *Alone = nullptr;
  for (const TemplatePoint &P : Profile->Templates) {
    if (P.Family == CheckFamily)
      Alone = &P;
    if (P.Family != MissFamily)
      continue;
    if (P.Bytes <= 4096)
      Diffs.push_back(P.TemplateUs - P.GenericUs);
    if ((!Bytes || P.Bytes >= *Bytes) && (!At || P.Bytes < At->Bytes))
      At = &P;
    if (!Largest || P.Bytes > Largest->Bytes)
      Largest = &P;
  }
  if (Diffs.empty())
    return llvm::formatv("!the machine profile {0} has no measurement of templates.{1} (the template's check where "
                         "the peers are another rank) for {2}",
                         Profile->Path, MissFamily, Size);
  if (!At)
    At = Largest;
  llvm::sort(Diffs);
  double Cost = std::max(0.0, Alone ? Alone->TemplateUs - Alone->GenericUs : Diffs[Diffs.size() / 2]);
  std::string How = Alone ? llvm::formatv("templates.{0}: the check alone", CheckFamily).str()
                          : llvm::formatv("templates.{0}: the median difference up to 4096 bytes", MissFamily).str();
  std::string Figure = llvm::formatv("where the peers are another rank, the template's check costs {0} us ({1}) "
                                     "against {2} us for the generic call at {3} bytes",
                                     llvm::format("%.3f", Cost), How, llvm::format("%.3f", At->GenericUs), At->Bytes);
  if (Cost > 0.02 * At->GenericUs)
    return "!the machine profile " + Profile->Path + ": " + Figure + " (the message: " + Size +
           "); the check may cost at most 2% of the call where it misses";
  return Figure;
}

std::string savesOf(const Choice &Ch) {
  switch (Ch.K) {
  case Case::HalfExchange:
    return "the request of the side MPI_PROC_NULL and the completion of two";
  case Case::Self:
    return Ch.Family == "self_replace" ? "the pack buffer and both copies of the exchange"
                                       : "the self-message's queueing, matching and copies through the MPI";
  case Case::MaybeSelf:
    return "the self-message's queueing, matching and copies through the MPI on the calls whose peers are the caller";
  default:
    return "MPI's argument checks and request work on each call";
  }
}

} // namespace

PeerPlan ompi::planPeers(ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls, const MachineProfile *Profile,
                         llvm::function_ref<bool(const CallExpr *)> Taken) {
  PeerPlan Plan;
  for (const CallResult &C : Calls.Calls) {
    if (!C.Model || !C.Call || !C.Caller || Taken(C.Call))
      continue;
    auto Decline = [&](const std::string &What, const std::string &Why) {
      Plan.Declined.push_back(ChangeNote::at(Transform, false, C.File, C.Line, C.Column, C.Function + " " + What, Why));
    };
    if (std::string Why = unhandledNull(C); !Why.empty()) {
      Decline("with MPI_PROC_NULL stays generic", Why);
      continue;
    }
    Choice Ch = choiceOf(Ev, C);
    if (Ch.K == Case::None)
      continue;
    std::string What = Ch.K == Case::Self        ? "with the caller itself stays generic"
                       : Ch.K == Case::MaybeSelf ? "with peers known only at run time stays generic"
                                                 : "with MPI_PROC_NULL stays generic";
    std::string Why = macroProblem(Ctx, C.Call, Calls);
    if (Why.empty())
      Why = typeProblem(C, Ch.K);
    if (!Why.empty()) {
      Decline(What, Why);
      continue;
    }
    auto [Wins, Figure] = profileVerdict(Profile, Ch.Family, decidingBytes(Ev, C, Ch.K),
                                         {"the template", "the generic call", "a template", "a template", 3});
    if (!Wins) {
      Decline(What, Figure);
      continue;
    }
    if (Ch.K == Case::MaybeSelf) {
      std::string Miss = missProblem(Profile, decidingBytes(Ev, C, Ch.K));
      if (!Miss.empty() && Miss[0] == '!') {
        Decline(What, Miss.substr(1));
        continue;
      }
      Figure += "; " + Miss;
    }
    auto [Did, Proof] = describe(C, Ch);
    PeerCall P;
    P.Call = C.Call;
    P.To = Ch.To;
    P.Note = ChangeNote::at(Transform, true, C.File, C.Line, C.Column, Did, Proof + "; " + Figure);
    P.Note.Kind = NoteKind::Template;
    P.Note.Saves = savesOf(Ch);
    Plan.Calls.push_back(std::move(P));
  }
  return Plan;
}
