//===- RmaBufferInUse.cpp - Check: rma-buffer-in-use -------------------------===//
//
// after MPI_Get (or the result buffer of MPI_Get_accumulate,
// MPI_Fetch_and_op, MPI_Compare_and_swap) any use of the origin buffer's
// variable, and after MPI_Put or MPI_Accumulate a write to it, before the
// next call that completes the window's RMA at the origin (a fence, an
// unlock, a flush, MPI_Win_complete, MPI_Win_free): until then MPI may still
// be reading or writing that memory. Only uses in the statement block of the
// RMA call itself count (a use in another branch is on another path).
// Also: the memory of a window (MPI_Win_create's base, a variable) given to
// free() before the MPI_Win_free of that window, with no return, exit or
// abort between the two, and no synchronisation of the window before it.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "checks/PendingBuffer.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;

namespace ompi {

namespace {

bool completesAtOrigin(llvm::StringRef Name) {
  return Name == mpi::MPI_Win_fence || Name == mpi::MPI_Win_unlock || Name == mpi::MPI_Win_unlock_all ||
         Name.starts_with(mpi::MPI_Win_flush) || Name == mpi::MPI_Win_complete || Name == mpi::MPI_Win_free;
}

/// Whether the reference D is written: the target of an assignment or an
/// increment, itself or through a subscript or member of it.
bool written(ASTContext &Ctx, const DeclRefExpr *D) {
  const Stmt *Cur = D;
  for (const Stmt *P = parentStmt(Ctx, Cur); P; Cur = P, P = parentStmt(Ctx, P)) {
    if (isa<ParenExpr, ImplicitCastExpr, MemberExpr>(P) ||
        (isa<ArraySubscriptExpr>(P) && cast<ArraySubscriptExpr>(P)->getBase() == Cur))
      continue;
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->isIncrementDecrementOp())
        return true;
      if (U->getOpcode() == UO_Deref)
        continue;
      return false;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P))
      return B->isAssignmentOp() && B->getLHS() == Cur;
    return false;
  }
  return false;
}

/// The innermost compound statement around S.
const Stmt *block(ASTContext &Ctx, const Stmt *S) {
  for (const Stmt *P = parentStmt(Ctx, S); P; P = parentStmt(Ctx, P))
    if (isa<CompoundStmt>(P))
      return P;
  return nullptr;
}

/// An RMA call's origin buffer: the result buffer of a fetching call (MPI
/// writes it), else the buffer it sends.
const ArgResult *originArg(const CallResult &CR) {
  return CR.arg(Role::RecvBuf) ? CR.arg(Role::RecvBuf) : CR.arg(Role::SendBuf);
}

/// The variable CR's origin buffer lies in (x of &x, a of a or &a[i]).
const VarDecl *originVar(const CallResult &CR) {
  const ArgResult *B = originArg(CR);
  const Expr *BE = B ? strip(CR.expr(*B)) : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(BE); U && U->getOpcode() == UO_AddrOf)
    BE = U->getSubExpr();
  return BE ? rootVar(BE) : nullptr;
}

unsigned offsetOf(const SourceManager &SM, SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); }

/// The bytes [From, To) of its variable that CR's origin buffer covers,
/// where its address, count and predefined datatype are static.
std::optional<std::pair<int64_t, int64_t>> originBytes(CheckContext &C, const CallResult &CR) {
  const ArgResult *B = originArg(CR);
  const ArgResult *N = CR.arg(Role::Count) ? CR.arg(Role::Count) : CR.arg(Role::SendCount);
  const ArgResult *T = CR.arg(Role::Type) ? CR.arg(Role::Type) : CR.arg(Role::SendType);
  if (!B || !N || !T || !N->Int)
    return std::nullopt;
  SymValue A = C.Ev.evaluate(CR.expr(*B), CR.Caller, CR.Call);
  auto DT = C.Ev.spelledHandle(CR.expr(*T));
  std::optional<int64_t> Size = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
  if (A.K != SymValue::Address || !Size)
    return std::nullopt;
  return std::make_pair(A.Offset, A.Offset + *N->Int * *Size);
}

/// Another RMA call of the epoch (at offset At) on the window whose origin
/// buffer is BV too, while CR's transfer is pending: a conflict where one
/// of the two writes it (a get's result, Reads for CR).
bool originConflict(CheckContext &C, const CallResult &CR, bool Reads, const VarDecl *BV,
                    const std::map<unsigned, const CallResult *> &RMAAt, unsigned At) {
  auto It = RMAAt.find(At);
  if (It == RMAAt.end())
    return false;
  const CallResult &O = *It->second;
  bool Writes = O.arg(Role::RecvBuf) != nullptr;
  if (originVar(O) != BV || (!Reads && !Writes) || O.arg(Role::Request))
    return false;
  // A jump or case label between the two: not one path (a switch's cases).
  const SourceManager &SM = C.Ctx.getSourceManager();
  unsigned From = offsetOf(SM, CR.Call->getEndLoc());
  if (const Stmt *Block = block(C.Ctx, CR.Call); !Block || anyNode(Block, [&](const Stmt *S) {
        unsigned X = offsetOf(SM, S->getBeginLoc());
        return isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, SwitchCase, LabelStmt>(S) && X > From && X < At;
      }))
    return false;
  auto Mine = originBytes(C, CR), Theirs = originBytes(C, O);
  if (Mine && Theirs && (Mine->second <= Theirs->first || Theirs->second <= Mine->first))
    return false; // disjoint parts of the variable
  C.report("rma-buffer-in-use", O.Call->getBeginLoc(),
           llvm::formatv("this {0} {1} '{2}', which the {3} at line {4} may still be {5}: RMA calls of one epoch "
                         "must not share origin memory that one of them writes (the first completes only when "
                         "the epoch ends)",
                         O.Function, Writes ? "writes into" : "reads", BV->getName(), CR.Function, CR.Line,
                         Reads ? "writing" : "reading")
               .str());
  return true;
}

/// Whether the reference D lies in the argument of CR in role R.
bool inArg(CheckContext &C, const CallResult &CR, Role R, const DeclRefExpr *D) {
  const ArgResult *A = CR.arg(R);
  if (!A)
    return false;
  const SourceManager &SM = C.Ctx.getSourceManager();
  const Expr *E = CR.expr(*A);
  unsigned O = offsetOf(SM, D->getLocation());
  return O >= offsetOf(SM, E->getBeginLoc()) && O <= offsetOf(SM, E->getEndLoc());
}

/// Another MPI call (not an RMA call of the window) given the pending
/// buffer: any use while MPI writes it (Reads), a receive into it while MPI
/// reads it. The finding, or false.
bool otherCallUse(CheckContext &C, const CallResult &CR, bool Reads, const VarDecl *BV, const DeclRefExpr *D,
                  const CallResult *O) {
  bool Writes = O && inArg(C, *O, Role::RecvBuf, D);
  if (!O || !O->Model || !(Writes || (Reads && inArg(C, *O, Role::SendBuf, D))))
    return false;
  C.report("rma-buffer-in-use", D->getLocation(),
           llvm::formatv("'{0}' is {1} by this {2} before the {3} at line {4} has completed: the origin buffer of "
                         "RMA belongs to MPI until the window's epoch ends",
                         BV->getName(), Writes ? "written" : "read", O->Function, CR.Function, CR.Line)
               .str());
  return true;
}

/// CR's buffer Buf (its origin or result buffer, or a fetching call's
/// compare buffer) until the window's epoch ends: Reads where MPI writes
/// it (any use is early), else MPI reads it (a write is early). Primary:
/// the buffer originConflict compares with other RMA calls' buffers.
void checkCall(CheckContext &C, const CallResult &CR, const ArgResult *Buf, bool Reads, bool Primary) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  auto offset = [&](SourceLocation L) { return offsetOf(SM, L); };
  const ArgResult *W = CR.arg(Role::Win);
  if (!W || !Buf || CR.arg(Role::Request))
    return;
  const VarDecl *WV = namedVar(CR.expr(*W)), *BV = Primary ? originVar(CR) : bufferVar(CR.expr(*Buf));
  const Stmt *Block = block(C.Ctx, CR.Call);
  if (!WV || !BV || !Block)
    return;
  unsigned From = offset(CR.Call->getEndLoc()), Until = ~0u, UntilLine = 0;
  std::vector<std::pair<unsigned, unsigned>> MPIArgs;
  std::map<unsigned, const CallResult *> RMAAt, At; // the RMA calls on the window, all MPI calls, by offset
  for (const CallResult &O : C.Analysis.Calls)
    if (O.Call && O.Caller == CR.Caller && &O != &CR) {
      At[offset(O.Call->getBeginLoc())] = &O;
      if (O.arg(Role::Win) && namedVar(O.expr(*O.arg(Role::Win))) == WV)
        RMAAt[offset(O.Call->getBeginLoc())] = &O;
    }
  anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    if (!G || !G->getIdentifier())
      return false;
    unsigned O = offset(CE->getBeginLoc());
    if (isMPIFunctionName(G->getName()))
      MPIArgs.push_back({O, offset(CE->getEndLoc())});
    bool NamesW = llvm::any_of(CE->arguments(), [&](const Expr *A) { return namedVar(A) == WV; });
    if (O > From && O < Until && NamesW && (completesAtOrigin(G->getName()) || !isMPIFunctionName(G->getName()))) {
      Until = O;
      UntilLine = SM.getExpansionLineNumber(CE->getBeginLoc());
    }
    return false;
  });
  if (Until == ~0u)
    return;
  anyNode(Block, [&](const Stmt *S) {
    const auto *D = dyn_cast<DeclRefExpr>(S);
    unsigned O = D ? offset(D->getLocation()) : 0;
    if (!D || D->getDecl() != BV || O <= From || O >= Until)
      return false;
    auto In = llvm::find_if(MPIArgs, [&](auto &Rg) { return O >= Rg.first && O <= Rg.second; });
    if (In != MPIArgs.end()) {
      if (RMAAt.count(In->first))
        return Primary && originConflict(C, CR, Reads, BV, RMAAt, In->first);
      auto It = At.find(In->first);
      return otherCallUse(C, CR, Reads, BV, D, It == At.end() ? nullptr : It->second);
    }
    if (!Reads && !written(C.Ctx, D))
      return false;
    C.report("rma-buffer-in-use", D->getLocation(),
             llvm::formatv(
                 "'{0}' is {1} before the {2} at line {3} has completed: the origin buffer of RMA "
                 "belongs to MPI until the window's epoch ends (the {4} at line {5})",
                 BV->getName(), Reads ? "used" : "written", CR.Function, CR.Line,
                 [&] {
                   for (const CallResult &O : C.Analysis.Calls)
                     if (O.Call && offset(O.Call->getBeginLoc()) == Until)
                       return O.Function;
                   return std::string("call");
                 }(),
                 UntilLine)
                 .str());
    return true; // one finding per call
  });
}

/// free(p) of MPI_Win_create's base p before MPI_Win_free of the window.
void checkWindowMemory(CheckContext &C, const CallResult &CR) {
  const ArgResult *W = CR.arg(Role::WinOut), *B = CR.arg(Role::WinBase);
  const auto *WA = W ? dyn_cast<UnaryOperator>(strip(CR.expr(*W))) : nullptr;
  const VarDecl *WV = WA && WA->getOpcode() == UO_AddrOf ? namedVar(WA->getSubExpr()) : nullptr;
  const VarDecl *BV = B ? namedVar(CR.expr(*B)) : nullptr;
  if (!WV || !BV || !BV->getType()->isPointerType())
    return;
  const SourceManager &SM = C.Ctx.getSourceManager();
  auto offset = [&](SourceLocation L) { return offsetOf(SM, L); };
  unsigned From = offset(CR.Call->getEndLoc()), WinFree = ~0u;
  std::vector<const CallExpr *> Frees;
  std::vector<unsigned> Exits, Syncs;
  anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
    if (isa<ReturnStmt>(S))
      Exits.push_back(offset(S->getBeginLoc()));
    const auto *CE = dyn_cast<CallExpr>(S);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    if (!G || !G->getIdentifier() || offset(CE->getBeginLoc()) <= From)
      return false;
    llvm::StringRef Name = G->getName();
    if (Name == "exit" || Name == "abort" || endsProcess(Name))
      Exits.push_back(offset(CE->getBeginLoc()));
    else if (Name == "free" && CE->getNumArgs() == 1 && namedVar(CE->getArg(0)) == BV)
      Frees.push_back(CE);
    else if ((completesAtOrigin(Name) || Name == mpi::MPI_Win_wait) && Name != mpi::MPI_Win_free &&
             llvm::any_of(CE->arguments(), [&](const Expr *A) { return namedVar(A) == WV; }))
      Syncs.push_back(offset(CE->getBeginLoc()));
    else if (const HandleCallModel *H = Name == mpi::MPI_Win_free ? lookupHandleCall(Name) : nullptr;
             H && argAt(CE, H->Out))
      if (const auto *U = dyn_cast<UnaryOperator>(strip(argAt(CE, H->Out)));
          U && U->getOpcode() == UO_AddrOf && namedVar(U->getSubExpr()) == WV)
        WinFree = std::min(WinFree, offset(CE->getBeginLoc()));
    return false;
  });
  for (const CallExpr *F : Frees) {
    unsigned O = offset(F->getBeginLoc());
    // After a synchronisation that completes the window's RMA (MPICH's own
    // tests free the memory after the last fence) the memory is left alone.
    if (O >= WinFree || llvm::any_of(Exits, [&](unsigned E) { return E > O && E < WinFree; }) ||
        llvm::any_of(Syncs, [&](unsigned Y) { return Y < O; }))
      continue;
    if (Finding *Fd = C.report("rma-buffer-in-use", F->getBeginLoc(),
                               llvm::formatv("'{0}' is freed while the window '{1}' created on it at line {2} still "
                                             "exposes it: a window's memory belongs to MPI until MPI_Win_free "
                                             "(line {3})",
                                             BV->getName(), WV->getName(), CR.Line,
                                             SM.getExpansionLineNumber(SM.getComposedLoc(SM.getMainFileID(), WinFree)))
                                   .str()))
      C.note(*Fd, CR.Call->getBeginLoc(), "the window is created here");
    return;
  }
}

} // namespace

void checkRmaBufferInUse(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls)
    if (CR.Model && CR.Call && CR.Caller && CR.Model->Cat == Category::OneSided) {
      bool Fetches = CR.arg(Role::RecvBuf) != nullptr; // MPI writes its result buffer: any use is early
      checkCall(C, CR, originArg(CR), Fetches, true);
      if (Fetches) { // and reads its origin (and compare) buffer until the epoch ends: a write is early
        checkCall(C, CR, CR.arg(Role::SendBuf), false, false);
        checkCall(C, CR, CR.arg(Role::Other), false, false);
      }
      if (CR.Function == mpi::MPI_Win_create)
        checkWindowMemory(C, CR);
    }
}

} // namespace ompi
