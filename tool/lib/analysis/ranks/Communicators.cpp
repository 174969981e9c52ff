//===- Communicators.cpp - Communicators a rank's run makes ---------------===//
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi::ranks {

RankRun::SplitColour RankRun::splitColour(const CallExpr *CE) {
  const HandleCallModel *M = lookupHandleCall(calleeName(CE));
  const Expr *Colour = M ? argAt(CE, M->Colour) : nullptr;
  if (!Colour)
    return {};
  auto H = Ev.spelledHandle(Colour);
  auto V = value(Colour);
  return {V, (H && *H == mpi::MPI_UNDEFINED) || (V && *V == -32766)};
}

void RankRun::commCall(const CallExpr *CE) {
  const HandleCallModel *HM = lookupHandleCall(calleeName(CE));
  if (!HM ||
      (HM->Kind != HandleCallModel::Split && HM->Kind != HandleCallModel::Dup && HM->Kind != HandleCallModel::Free))
    return;
  const Expr *Out = argAt(CE, HM->Out), *Parent = argAt(CE, HM->Parent);
  if (!Out || (HM->Kind != HandleCallModel::Free && !Parent))
    return;
  const UnaryOperator *U = nullptr;
  const VarDecl *V = addressedVar(Out, &U);
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal() ||
      handleClassOf(V->getType().getAsString()) != HandleClass::Comm)
    return;
  Modelled.insert(U);
  MadeInto.insert(V);
  if (V->getType()->isIntegralOrEnumerationType()) // MPICH's handles are integers
    frame().Env[V] = std::nullopt;
  if (HM->Kind == HandleCallModel::Free) {
    frame().Handles[V] = mpi::MPI_COMM_NULL;
    return;
  }
  MadeComm M;
  M.Call = CE;
  M.OfWorld = commValue(Parent).value_or(Ev.commId(Parent, frame().F, CE).isWorld() ? mpi::MPI_COMM_WORLD.str() : "") ==
              mpi::MPI_COMM_WORLD;
  if (HM->Kind == HandleCallModel::Split) {
    SplitColour C = splitColour(CE);
    const Expr *Key = argAt(CE, HM->Key);
    M.Colour = C.Undefined ? std::optional<int64_t>(-1) : C.Value;
    M.Key = Key ? value(Key) : std::nullopt;
  } else { // a duplicate: the parent's ranks in its order
    M.Colour = 0;
    M.Key = Rank;
  }
  frame().Handles[V] =
      M.Colour && *M.Colour < 0 ? std::string(mpi::MPI_COMM_NULL) : llvm::formatv("#comm{0}", Comms.size()).str();
  Comms.push_back(M);
}

/// The calls of T on communicators its ranks made of the world (CommIndex
/// >= 0) given world ranks as peers: the members of a rank's part are the
/// ranks that gave the same colour to that split, in the order of their
/// keys (then of their world ranks). False when that is not known for
/// every rank (a communicator made of another, a colour or key not known,
/// ranks that made different ones) or a peer lies beyond the part.
bool translatePeers(P2PTraces &T, const std::vector<std::vector<MadeComm>> &Comms) {
  for (int R = 0; R < T.Size; ++R)
    for (P2PEvent &E : T.Ranks[R]) {
      if (E.CommIndex < 0)
        continue;
      size_t N = size_t(E.CommIndex);
      std::vector<std::pair<int64_t, int>> Part;
      for (int Q = 0; Q < T.Size; ++Q) {
        if (N >= Comms[Q].size() || N >= Comms[R].size())
          return false;
        const MadeComm &M = Comms[Q][N];
        if (!M.OfWorld || !M.Colour || !M.Key || M.Call != Comms[R][N].Call)
          return false;
        if (*M.Colour == *Comms[R][N].Colour)
          Part.push_back({*M.Key, Q});
      }
      llvm::sort(Part);
      E.CommMadeBy = Comms[R][N].Call;
      E.CommPeer = E.K == P2PEvent::Send || E.K == P2PEvent::Ssend || E.K == P2PEvent::ISend ? E.S.Peer : E.R.Peer;
      for (std::optional<int64_t> *P : {&E.S.Peer, &E.R.Peer}) {
        if (!*P || **P < 0)
          continue; // MPI_ANY_SOURCE, MPI_PROC_NULL
        if (**P >= int64_t(Part.size()))
          return false;
        *P = Part[size_t(**P)].second;
      }
    }
  return true;
}

} // namespace ompi::ranks
