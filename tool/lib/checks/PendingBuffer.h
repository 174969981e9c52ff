//===- PendingBuffer.h - A nonblocking call's buffer before completion ----===//
//
// For a nonblocking call's buffer of one role, the buffer's variable (an
// array, a struct, a scalar given as &x, or a pointer), the request's, the
// first completion call after the call that names the request (or a call
// it escapes to), and the references to the buffer's variable in between,
// in source order, leaving out those inside other MPI calls' arguments (a
// different part of the buffer, judged by its own call). Shared by
// recv-buffer-in-use and send-buffer-in-use.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_PENDINGBUFFER_H
#define OMPI_TOOL_CHECKS_PENDINGBUFFER_H

#include "checks/Checks.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <vector>

namespace ompi {

struct PendingBuffer {
  const clang::VarDecl *Buf = nullptr, *Req = nullptr;
  unsigned UntilLine = 0;                       ///< the completion's line
  std::vector<const clang::DeclRefExpr *> Uses; ///< references to Buf before it
};

/// The variable a buffer argument lies in: x of &x, a, a + k, &a[i], s.f,
/// or the pointer p of p / p + k.
inline const clang::VarDecl *bufferVar(const clang::Expr *E) {
  E = strip(E);
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E); U && U->getOpcode() == clang::UO_AddrOf)
    return rootVar(U->getSubExpr());
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E); B && B->isAdditiveOp())
    E = strip(B->getLHS());
  if (const clang::VarDecl *V = rootVar(E))
    return V;
  return namedVar(E);
}

/// The variable CR's request argument lies in (r of &r, of &reqs[i]).
inline const clang::VarDecl *requestVar(const CallResult &CR) {
  using namespace clang;
  const ArgResult *R = CR.arg(Role::Request);
  const Expr *RE = R ? CR.expr(*R)->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(RE); U && U->getOpcode() == UO_AddrOf)
    RE = U->getSubExpr();
  return RE ? rootVar(RE) : nullptr;
}

/// A nonblocking call's buffer from the call on; a persistent request's
/// (CR its _init call) from Start on, the MPI_Start that begins a transfer.
inline std::optional<PendingBuffer> pendingBuffer(CheckContext &C, const CallResult &CR, Role Buffer,
                                                  const clang::CallExpr *Start = nullptr) {
  using namespace clang;
  const SourceManager &SM = C.Ctx.getSourceManager();
  auto offset = [&](SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); };
  const ArgResult *B = CR.arg(Buffer);
  if (!B || C.Ev.spelledHandle(CR.expr(*B)))
    return std::nullopt;
  PendingBuffer P;
  P.Buf = bufferVar(CR.expr(*B));
  P.Req = requestVar(CR);
  if (!P.Buf || !P.Req)
    return std::nullopt;
  unsigned From = offset((Start ? Start : CR.Call)->getEndLoc()), Until = ~0u;
  std::vector<std::pair<unsigned, const DeclRefExpr *>> Uses;
  std::vector<std::pair<unsigned, unsigned>> MPIArgs; // ranges of MPI calls' arguments
  anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      unsigned O = offset(CE->getBeginLoc());
      bool NamesR = llvm::any_of(CE->arguments(), [&](const Expr *A) { return refersTo(A, P.Req); });
      const FunctionModel *M = modelOf(CE);
      if (M)
        MPIArgs.push_back({O, offset(CE->getEndLoc())});
      bool Completes = M && requestEffect(*M) == RequestEffect::Completes;
      if (O > From && NamesR && (!M || Completes || M->Name == mpi::MPI_Request_free) && O < Until) {
        Until = O;
        P.UntilLine = SM.getExpansionLineNumber(CE->getBeginLoc());
      }
    } else if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == P.Buf) {
      Uses.push_back({offset(D->getLocation()), D});
    }
    return false;
  });
  if (Until == ~0u)
    return std::nullopt; // never completed here: request-never-completed's business
  for (auto &[O, D] : Uses) {
    unsigned At = O; // a structured binding cannot be captured in C++17
    if (O > From && O < Until && !llvm::any_of(MPIArgs, [&](auto &Rg) { return At >= Rg.first && At <= Rg.second; }))
      P.Uses.push_back(D);
  }
  return P;
}

/// The MPI_Start calls of CR's function after CR (a persistent request's
/// _init call) that name its request variable: where its transfers begin.
inline std::vector<const clang::CallExpr *> startsOf(CheckContext &C, const CallResult &CR) {
  using namespace clang;
  std::vector<const CallExpr *> Out;
  const VarDecl *Req = requestVar(CR);
  if (!Req)
    return Out;
  const SourceManager &SM = C.Ctx.getSourceManager();
  anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
    const Expr *Started =
        F && F->getIdentifier() && F->getName() == mpi::MPI_Start ? argOf(CE, Role::Request) : nullptr;
    if (Started && refersTo(Started, Req) && SM.isBeforeInTranslationUnit(CR.Call->getBeginLoc(), CE->getBeginLoc()))
      Out.push_back(CE);
    return false;
  });
  return Out;
}

/// The calls from which CR's buffer is in use: CR itself (nullptr) when it
/// is nonblocking, the MPI_Starts of its request when it is persistent.
inline std::vector<const clang::CallExpr *> transferStarts(CheckContext &C, const CallResult &CR) {
  if (CR.Model && CR.Model->M == Mode::Nonblocking)
    return {nullptr};
  if (CR.Model && CR.Model->M == Mode::Persistent && CR.Model->Cat == Category::PointToPoint)
    return startsOf(C, CR);
  return {};
}

/// " (started by MPI_Start at line 12)" for a persistent request's start.
inline std::string startedBy(CheckContext &C, const clang::CallExpr *Start) {
  return Start ? " (started by MPI_Start at line " +
                     std::to_string(C.Ctx.getSourceManager().getExpansionLineNumber(Start->getBeginLoc())) + ")"
               : "";
}

} // namespace ompi

#endif
