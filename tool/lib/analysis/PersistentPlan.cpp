//===- PersistentPlan.cpp - Which calls run through persistent requests ---===//
#include "analysis/PersistentPlan.h"
#include "analysis/DerivedTypes.h"
#include "analysis/RewriteSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "persistent-requests";

/// A call's template and the profile family that decides it.
struct Form {
  llvm::StringRef To, Family;
  bool Collective = false;
};

std::optional<Form> formOf(llvm::StringRef Function) {
  return llvm::StringSwitch<std::optional<Form>>(Function)
      .Case("MPI_Send", Form{"mpiopt_send_persistent", "persistent"})
      .Case("MPI_Ssend", Form{"mpiopt_ssend_persistent", "persistent_ssend"})
      .Case("MPI_Recv", Form{"mpiopt_recv_persistent", "persistent"})
      .Case("MPI_Sendrecv", Form{"mpiopt_sendrecv_persistent", "persistent_sendrecv"})
      .Case("MPI_Allreduce", Form{"mpiopt_allreduce_persistent", "persistent_allreduce", true})
      .Case("MPI_Reduce", Form{"mpiopt_reduce_persistent", "persistent_reduce", true})
      .Case("MPI_Bcast", Form{"mpiopt_bcast_persistent", "persistent_bcast", true})
      .Case("MPI_Allgather", Form{"mpiopt_allgather_persistent", "persistent_allgather", true})
      .Case("MPI_Alltoall", Form{"mpiopt_alltoall_persistent", "persistent_alltoall", true})
      .Case("MPI_Barrier", Form{"mpiopt_barrier_persistent", "persistent_barrier", true})
      .Default(std::nullopt);
}

bool messageRole(Role R) {
  switch (R) {
  case Role::SendBuf:
  case Role::RecvBuf:
  case Role::SendCount:
  case Role::RecvCount:
  case Role::Count:
  case Role::SendType:
  case Role::RecvType:
  case Role::Type:
  case Role::Dest:
  case Role::Source:
  case Role::SendTag:
  case Role::RecvTag:
  case Role::Tag:
  case Role::Comm:
  case Role::Buf:
  case Role::Op:
  case Role::Root:
    return true;
  default:
    return false;
  }
}

/// Why some message argument of C may change between iterations of L
/// (nullopt: none can).
std::optional<std::string> messageChanges(const CallResult &C, const LoopFact &L) {
  for (const ArgResult &A : C.Args)
    if (messageRole(A.R) && !L.invariant(A.Index))
      return A.Name + " (" + A.Text + ") may change: " + L.Varies[A.Index];
  return std::nullopt;
}

/// The wildcard C receives with, as written ("": none).
std::string wildcard(const CallResult &C) {
  for (Role R : {Role::Source, Role::Tag, Role::RecvTag})
    if (const ArgResult *A = C.arg(R);
        A && A->Sym.K == SymValue::Handle && (A->Sym.Name == "MPI_ANY_SOURCE" || A->Sym.Name == "MPI_ANY_TAG"))
      return A->Sym.Name;
  return "";
}

/// Why a reduction's persistent form could change its result, or "": the
/// persistent algorithm may reduce in another order than the blocking call.
std::string orderProblem(const CallResult &C, bool Reassociate) {
  const ArgResult *Op = C.arg(Role::Op), *Type = C.arg(Role::Type);
  if (!Op)
    return "";
  if (Op->Sym.K != SymValue::Handle || !isReductionOp(Op->Sym.Name))
    return "its op (" + Op->Text +
           ") is not a predefined one: the persistent collective may apply it in another "
           "order than the blocking call";
  std::optional<bool> Float =
      Type && Type->Sym.K == SymValue::Handle ? floatingArithmetic(Type->Sym.Name) : std::nullopt;
  if (!Float && reassociates(Op->Sym.Name))
    return "its datatype (" + (Type ? Type->Text : std::string("?")) +
           ") is not a predefined arithmetic type: the persistent collective may reduce in another order";
  if (Float && *Float && reassociates(Op->Sym.Name) && !Reassociate)
    return "a floating-point " + Op->Sym.Name.substr(4) +
           " may be reduced in another order by the persistent collective (the last bits may change); "
           "--reassociate allows it";
  return "";
}

/// The bytes of one side's message, when static: a predefined datatype's
/// size, or the data of a derived datatype of known shape.
std::optional<int64_t> sideBytes(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT, Role Count, Role Type) {
  const ArgResult *N = C.arg(Count), *T = C.arg(Type);
  if (!N || !N->Int || !T)
    return std::nullopt;
  std::optional<int64_t> Size;
  if (T->Sym.K == SymValue::Handle)
    Size = Ev.datatypeSize(T->Sym.Name);
  else if (const DatatypeVar *V = DT.of(C.expr(*T)); V && V->Shape)
    Size = V->Shape->sizeBytes();
  return Size ? std::optional<int64_t>(*N->Int * *Size) : std::nullopt;
}

/// The message's bytes (a sendrecv's larger side; a barrier's 0), when
/// static.
std::optional<int64_t> messageBytes(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT) {
  if (C.Function == "MPI_Barrier")
    return 0;
  if (!C.arg(Role::SendCount))
    return sideBytes(C, Ev, DT, Role::Count, Role::Type);
  std::optional<int64_t> S = sideBytes(C, Ev, DT, Role::SendCount, Role::SendType);
  std::optional<int64_t> R = sideBytes(C, Ev, DT, Role::RecvCount, Role::RecvType);
  return S && R ? std::optional<int64_t>(std::max(*S, *R)) : std::nullopt;
}

/// The profile's verdict: the figure that chose the template, or why not.
std::pair<bool, std::string> profileSays(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT,
                                         llvm::StringRef Family, const MachineProfile *Profile) {
  if (!Profile)
    return {false, "no machine profile is loaded (a persistent request is used only where a measurement shows it "
                   "faster)"};
  std::optional<int64_t> Bytes = messageBytes(C, Ev, DT);
  std::string Size = Bytes ? llvm::formatv("{0} bytes", *Bytes).str() : "a size known only at run time";
  std::optional<TemplatePoint> P = Profile->messageFor(Family, Bytes);
  if (!P)
    return {false, llvm::formatv("the machine profile {0} has no measurement of templates.{1} for {2}", Profile->Path,
                                 Family, Size)};
  std::string Figure = llvm::formatv("the machine profile {0} (templates.{1}) measured {2:f2} us for the persistent "
                                     "request against {3:f2} us for the generic call at {4} bytes (the message: {5})",
                                     Profile->Path, Family, P->TemplateUs, P->GenericUs, P->Bytes, Size);
  if (!P->wins())
    return {false, Figure + "; a template must be 5% faster"};
  return {true, Figure};
}

} // namespace

PersistentPlan ompi::planPersistent(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                    const MachineProfile *Profile, llvm::function_ref<bool(const CallExpr *)> Taken,
                                    bool Reassociate) {
  PersistentPlan Plan;
  std::optional<DerivedTypes> DT;
  for (const CallResult &C : Calls.Calls) {
    std::optional<Form> F = C.Model ? formOf(C.Function) : std::nullopt;
    if (!F || !C.Call || !C.Caller || C.Loops.empty() || Taken(C.Call))
      continue;
    auto Decline = [&](const std::string &Why) {
      Plan.Declined.push_back(ChangeNote::at(Transform, false, C.File, C.Line, C.Column,
                                             C.Function + " not through a persistent request", Why));
    };
    if (std::string Why = macroProblem(Ctx, C.Call, Calls); !Why.empty()) {
      Decline(Why);
      continue;
    }
    if (std::string W = wildcard(C); !W.empty()) {
      Decline("it receives from " + W + ": wildcard receives stay generic");
      continue;
    }
    if (F->Collective)
      if (std::optional<Divergence> D = Uni.at(C.Call, C.Caller)) {
        Decline("every rank must make its persistent collective at the same point, but " + D->Why);
        continue;
      }
    if (std::string Why = orderProblem(C, Reassociate); !Why.empty()) {
      Decline(Why);
      continue;
    }
    LoopLifetime Life = loopLifetime(C, messageChanges);
    if (!Life.Loop) {
      Decline(Life.Why);
      continue;
    }
    const LoopFact &L = C.Loops[Life.Level];
    std::vector<const ReturnStmt *> Returns;
    if (std::optional<std::string> B = wrapBlocker(Ctx, L.Loop, C.Call, Returns)) {
      Decline(llvm::formatv("its request could live through the loop at line {0}, but {1}", L.Line, *B));
      continue;
    }
    if (!DT)
      DT.emplace(Ctx, Ev);
    auto [Wins, Figure] = profileSays(C, Ev, *DT, F->Family, Profile);
    if (!Wins) {
      Decline(Figure);
      continue;
    }
    PersistentCall P;
    P.Call = C.Call;
    P.Loop = L.Loop;
    P.To = F->To.str();
    P.Returns = std::move(Returns);
    P.Note = ChangeNote::at(
        Transform, true, C.File, C.Line, C.Column,
        llvm::formatv("{0} through a persistent request made once per run of the loop at line {1} ({2})", C.Function,
                      L.Line, P.To)
            .str(),
        llvm::formatv("its {0} are the same on every iteration{1}{2}; the request is made at the first call, "
                      "started and waited for at each, and freed after the loop{3}; {4}",
                      F->Collective ? "buffers, counts, datatypes, op, root and communicator"
                                    : "buffers, counts, datatypes, peers, tags and communicator",
                      Life.Level > 0 ? " of the " + std::to_string(Life.Level + 1) + " loops around it" : std::string(),
                      F->Collective ? " and every rank runs it alike" : "",
                      P.Returns.empty() ? "" : " and before each return in it", Figure)
            .str());
    P.Note.Kind = NoteKind::Template;
    P.Note.Saves = "MPI's argument checks and request set-up on each call, for one comparison of the arguments";
    Plan.Calls.push_back(std::move(P));
  }
  return Plan;
}
