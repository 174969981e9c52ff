//===- MessageRace.cpp - Check: message-race ------------------------------===//
//
// A receive from MPI_ANY_SOURCE into one local integer variable that matches, in
// turn, messages of two or more ranks carrying different values, where
// nothing reads the variable between one receive and the next (the loop
// around the call names it only as the receive's buffer) and something
// reads it after that loop: which value it holds then depends on the order
// in which the messages arrive, which MPI does not fix between senders
// (MBI's "message race"). The point-to-point runs (analysis/P2PMatch) say
// who sends what to whom at each process count; the check is silent where
// a sent value is unknown or every sender sends the same one.
//
//===----------------------------------------------------------------------===//
#include "checks/P2PText.h"
#include "support/AST.h"
#include "clang/AST/ParentMapContext.h"
#include <map>
#include <set>

using namespace clang;

namespace ompi {

namespace {

/// The body of the function Call is in (the topmost statement above it).
const Stmt *bodyAround(ASTContext &Ctx, const Stmt *Call) {
  const Stmt *S = Call;
  while (const Stmt *P = parentStmt(Ctx, S))
    S = P;
  return S;
}

/// Whether the loop around Call names V only inside Call, and the function
/// holding them reads V after that loop (the receive's value is kept only
/// from the last message, and used). V a global: what other functions do
/// with it is not looked at (a helper's loop reads it only in the helper).
bool overwrittenUnread(ASTContext &Ctx, const CallExpr *Call, const VarDecl *V) {
  std::vector<const Stmt *> Loops = enclosingLoops(Ctx, Call);
  if (Loops.empty() || !V->hasLocalStorage())
    return false;
  const Stmt *Loop = Loops.front();
  const SourceManager &SM = Ctx.getSourceManager();
  auto Within = [&](const Stmt *Outer, const Stmt *Inner) {
    return !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(), Outer->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), Inner->getBeginLoc());
  };
  bool Elsewhere = false, After = false;
  anyNode(bodyAround(Ctx, Call), [&](const Stmt *N) {
    const auto *R = dyn_cast<DeclRefExpr>(N);
    if (!R || R->getDecl() != V)
      return false;
    if (Within(Loop, R))
      Elsewhere |= !Within(Call, R);
    else if (SM.isBeforeInTranslationUnit(Loop->getEndLoc(), R->getBeginLoc()))
      After = true;
    return false;
  });
  return !Elsewhere && After;
}

} // namespace

void checkMessageRace(CheckContext &C) {
  std::set<const CallExpr *> Reported;
  for (const P2PTraces &T : C.p2p()) {
    P2PRunResult R = matchP2P(T, /*Buffered=*/true);
    if (!R.Followed)
      continue;
    // The messages each rank's wildcard receive at one call took, in order.
    std::map<std::pair<int, const CallExpr *>, std::vector<const P2PMatchPair *>> Sites;
    for (const P2PMatchPair &M : R.Matches)
      if (M.Send && M.Recv && (M.Recv->K == P2PEvent::Recv || M.Recv->K == P2PEvent::IRecv) && M.Recv->R.Peer == -1 &&
          M.Recv->R.Buf && !Reported.count(M.Recv->Call))
        Sites[{M.Receiver, M.Recv->Call}].push_back(&M);
    for (const auto &[Key, Ms] : Sites) {
      std::set<int> Senders;
      std::map<int64_t, int> Values; // a value and a rank that sent it
      bool Known = true;
      for (const P2PMatchPair *M : Ms) {
        Senders.insert(M->Sender);
        Known &= M->Send->S.Value.has_value() && M->Recv->R.Buf == Ms[0]->Recv->R.Buf;
        if (M->Send->S.Value)
          Values.emplace(*M->Send->S.Value, M->Sender);
      }
      const P2PEvent &Recv = *Ms[0]->Recv;
      if (!Known || Senders.size() < 2 || Values.size() < 2 || Reported.count(Recv.Call) ||
          !overwrittenUnread(C.Ctx, Recv.Call, Recv.R.Buf))
        continue;
      std::string Who;
      unsigned N = 0;
      for (int S : Senders)
        Who += (N++ ? (N == Senders.size() ? " and " : ", ") : "") + std::to_string(S);
      std::string Var = Recv.R.Buf->getNameAsString();
      Finding *F = C.report(
          "message-race", Recv.Call->getBeginLoc(),
          llvm::formatv("{0}, rank {1}'s {2} from MPI_ANY_SOURCE (line {3}) receives in turn the messages of ranks "
                        "{4} into '{5}', which nothing reads between them: the value '{5}' holds after the loop "
                        "depends on the order the messages arrive, which MPI does not fix between senders",
                        withProcesses(T), Key.first, callName(Recv), Recv.Line, Who, Var)
              .str());
      // Two senders of different values show the race: one note where
      // they send (two where they send from two calls).
      auto First = Values.begin(), Second = std::next(First);
      const P2PEvent *A = nullptr, *B = nullptr;
      for (const P2PMatchPair *M : Ms) {
        if (!A && M->Sender == First->second)
          A = M->Send;
        if (!B && M->Sender == Second->second)
          B = M->Send;
      }
      if (F && A && B && A->Call == B->Call)
        C.note(*F, A->Call->getBeginLoc(),
               llvm::formatv("rank {0} sends {1} here, rank {2} sends {3}", First->second, First->first, Second->second,
                             Second->first));
      else if (F && A && B) {
        C.note(*F, A->Call->getBeginLoc(), llvm::formatv("rank {0} sends {1} here", First->second, First->first));
        C.note(*F, B->Call->getBeginLoc(), llvm::formatv("rank {0} sends {1} here", Second->second, Second->first));
      }
      Reported.insert(Recv.Call);
    }
  }
}

} // namespace ompi
