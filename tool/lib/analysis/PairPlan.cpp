//===- PairPlan.cpp - Adjacent sends and receives that become one exchange ===//
#include "analysis/PairPlan.h"
#include "analysis/BufferStorage.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "sendrecv-pairing";

const CallExpr *mpiCall(const Stmt *S, llvm::StringRef Name) {
  const auto *CE = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == Name ? CE : nullptr;
}

const VarDecl *objectOf(const ArgResult *A) { return addressObject(A); }

/// Why the send's arguments could read what the receive writes, when the
/// receive is written first ("" when they cannot).
std::string readsReceived(const CallResult &S, const VarDecl *RecvObj, const VarDecl *Status) {
  std::optional<WrittenRead> R = readsWritten(S.Call, S.expr(Role::SendBuf), RecvObj, Status);
  if (!R)
    return "";
  if (R->Pointer)
    return "the send's arguments read through a pointer, which may reach what the receive written first writes";
  return "the send's arguments read " + R->Name + ", which the receive written first writes";
}

/// The larger of the two calls' messages (count x predefined datatype
/// size, from the call facts), or none when either is known only at run
/// time.
std::optional<int64_t> pairBytes(const CallResult &S, const CallResult &R) {
  std::optional<int64_t> SB = S.CommSize.Bytes, RB = R.CommSize.Bytes;
  return SB && RB ? std::optional<int64_t>(std::max(*SB, *RB)) : std::nullopt;
}

/// Why First and Second cannot be one MPI_Sendrecv ("" when they can), with
/// their facts S (the send) and R (the receive).
std::string pairProblem(ASTContext &Ctx, const CallExpr *First, const CallExpr *Second, const CallResult &S,
                        const CallResult &R) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (First->getBeginLoc().isMacroID() || Second->getBeginLoc().isMacroID() || First->getEndLoc().isMacroID() ||
      Second->getEndLoc().isMacroID())
    return "a call is written in a macro";
  if (!onlyBlanksBetween(Ctx, First, Second))
    return "something is written between the two calls";
  for (const CallExpr *CE : {First, Second})
    if (const Expr *A = unmovableArgument(Ctx, CE))
      return "an argument (" + fileText(SM, Ctx.getLangOpts(), A) +
             ") has side effects or is written in a macro's body: the exchange evaluates every argument before "
             "either transfer";
  if (!S.Comm.known() || S.Comm != R.Comm ||
      fileText(SM, Ctx.getLangOpts(), S.expr(Role::Comm)) != fileText(SM, Ctx.getLangOpts(), R.expr(Role::Comm)))
    return "the two calls may not run on the same communicator";
  for (const ArgResult *A : {S.arg(Role::Dest), R.arg(Role::Source), R.arg(Role::Tag)})
    if (A && A->Sym.K == SymValue::Handle) {
      if (A->Sym.Name == mpi::MPI_PROC_NULL)
        return "a peer is MPI_PROC_NULL: nothing to overlap";
      return "the receive takes " + A->Sym.Name + ": posted earlier, it could more often match another message";
    }
  // A derived datatype may reach memory outside its buffer's object (a
  // struct of displacements between variables from MPI_Get_address).
  for (const ArgResult *T : {S.arg(Role::Type), R.arg(Role::Type)}) {
    if (!predefinedDatatype(T))
      return "the datatype " + (T ? T->Text : std::string("?")) +
             " is not a predefined one: a derived datatype may reach memory outside its buffer's object";
  }
  const VarDecl *SendObj = bufferStorage(Ctx, S, Role::SendBuf), *RecvObj = bufferStorage(Ctx, R, Role::RecvBuf);
  if (!SendObj || !RecvObj || SendObj == RecvObj)
    return "the send buffer (" + S.arg(Role::SendBuf)->Text + ") and the receive buffer (" +
           R.arg(Role::RecvBuf)->Text +
           ") are not known to be different objects (named variables, or pointers that each hold one allocation "
           "of their own): MPI_Sendrecv needs them disjoint";
  // The receive writes its status too: the send's data must not lie there
  // (in the exchange the send may still read while the receive writes).
  const ArgResult *St = R.arg(Role::Status);
  bool Ignored = St && St->Sym.K == SymValue::Handle;
  if (!St || (!Ignored && !objectOf(St)))
    return "the receive's status is not a named object the send's buffer and arguments could be checked against";
  if (!Ignored && objectOf(St) == SendObj)
    return "the send's buffer is the receive's status, which the receive writes";
  if (First != R.Call)
    return "";
  return readsReceived(S, RecvObj, Ignored ? nullptr : objectOf(St));
}

/// The adjacent MPI_Send / MPI_Recv statements of the blocks that hold
/// the file's calls, in order (a statement may be in two: the plan takes
/// the first pair that qualifies).
std::vector<std::pair<const CallExpr *, const CallExpr *>> adjacentPairs(ASTContext &Ctx, const FileResult &Calls) {
  std::set<const CompoundStmt *> Blocks;
  for (const CallResult &C : Calls.Calls)
    if (C.Call && (C.Function == mpi::MPI_Send || C.Function == mpi::MPI_Recv))
      if (const auto *B = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, C.Call)))
        Blocks.insert(B);
  std::vector<std::pair<const CallExpr *, const CallExpr *>> Out;
  for (const CompoundStmt *B : Blocks) {
    const Stmt *Prev = nullptr;
    for (const Stmt *S : B->body()) {
      if (Prev && ((mpiCall(Prev, mpi::MPI_Send) && mpiCall(S, mpi::MPI_Recv)) ||
                   (mpiCall(Prev, mpi::MPI_Recv) && mpiCall(S, mpi::MPI_Send))))
        Out.push_back({cast<CallExpr>(Prev), cast<CallExpr>(S)});
      Prev = S;
    }
  }
  return Out;
}

} // namespace

PairPlan ompi::planPairs(ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls, const MachineProfile *Profile,
                         llvm::function_ref<bool(const CallExpr *)> Taken) {
  PairPlan Plan;
  std::map<const CallExpr *, const CallResult *> Facts;
  for (const CallResult &C : Calls.Calls)
    if (C.Call)
      Facts[C.Call] = &C;
  std::set<const CallExpr *> Used;
  for (auto [First, Second] : adjacentPairs(Ctx, Calls)) {
    if (!Facts.count(First) || !Facts.count(Second) || Taken(First) || Taken(Second) || Used.count(First))
      continue;
    const CallResult &F = *Facts[First], &G = *Facts[Second];
    const CallResult &S = F.Function == mpi::MPI_Send ? F : G, &R = F.Function == mpi::MPI_Send ? G : F;
    std::string What = llvm::formatv("{0} at line {1} and {2} at line {3}", F.Function, F.Line, G.Function, G.Line);
    std::string Why = pairProblem(Ctx, First, Second, S, R);
    auto [Wins, Figure] = Why.empty() ? profileVerdict(Profile, "sendrecv_pair", pairBytes(S, R),
                                                       {"the exchange", "the pair", "the exchange", "the exchange"})
                                      : ProfileVerdict();
    if (!Why.empty() || !Wins) {
      Plan.Declined.push_back(ChangeNote::at(Transform, false, F.File, F.Line, F.Column, What + " stay two calls",
                                             Why.empty() ? Figure : Why));
      continue;
    }
    Used.insert(Second);
    PairCall P{First, Second, S.Call, R.Call, {}};
    P.Note = ChangeNote::at(
        Transform, true, F.File, F.Line, F.Column, What + " as one MPI_Sendrecv",
        llvm::formatv("adjacent statements on {0}: MPI_Sendrecv runs the send and the receive as if in parallel, so "
                      "every outcome is one the pair could have had; no argument has side effects; the buffers {1} "
                      "and {2} are different objects; the receive names its source and tag{3}; {4}",
                      S.arg(Role::Comm)->Text, S.arg(Role::SendBuf)->Text, R.arg(Role::RecvBuf)->Text,
                      First == R.Call ? "; the send's arguments read nothing the receive writes" : "", Figure)
            .str());
    P.Note.Kind = NoteKind::Template;
    P.Note.Saves = "the wait between the two transfers: they overlap";
    P.Note.Also.push_back({G.Line, G.Column});
    Plan.Pairs.push_back(std::move(P));
  }
  return Plan;
}
