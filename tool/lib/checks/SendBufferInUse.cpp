//===- SendBufferInUse.cpp - Check: send-buffer-in-use ----------------------===//
//
// after a nonblocking send (MPI_Isend and its forms, a nonblocking
// collective's send buffer, MPI_Ibcast's buffer), a write to the buffer's
// variable (an assignment or increment of it or of an element or member,
// or memset/memcpy/strcpy into it) before the first completion call that
// names the request: the standard forbids changing a send buffer until the
// send completes. Reads are allowed.
//
//===----------------------------------------------------------------------===//
#include "checks/PendingBuffer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// Whether the reference D is written: it is the variable of an assigned
/// or incremented lvalue (through elements, members and dereferences) or
/// the destination of a C library function that writes memory.
bool isWrite(ASTContext &Ctx, const DeclRefExpr *D) {
  const Stmt *Child = D;
  for (const Stmt *P = parentStmt(Ctx, D); P; Child = P, P = parentStmt(Ctx, P)) {
    if (isa<ParenExpr, ImplicitCastExpr, MemberExpr>(P))
      continue;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P); AS && AS->getBase() == Child)
      continue;
    if (const auto *U = dyn_cast<UnaryOperator>(P); U && U->getOpcode() == UO_Deref)
      continue;
    if (const Expr *L = assignedLValue(P))
      return L == Child;
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *F = CE->getDirectCallee();
      llvm::StringRef N = F && F->getIdentifier() ? F->getName() : "";
      return CE->getNumArgs() > 0 && CE->getArg(0) == Child &&
             (N == "memset" || N == "memcpy" || N == "memmove" || N == "strcpy" || N == "strncpy");
    }
    return false;
  }
  return false;
}

} // namespace

void checkSendBufferInUse(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller)
      continue;
    for (const CallExpr *Start : transferStarts(C, CR))
      for (Role R : {Role::SendBuf, Role::Buf}) {
        auto P = pendingBuffer(C, CR, R, Start);
        if (!P)
          continue;
        auto W = llvm::find_if(P->Uses, [&](const DeclRefExpr *D) { return isWrite(C.Ctx, D); });
        if (W == P->Uses.end())
          continue;
        C.report("send-buffer-in-use", (*W)->getLocation(),
                 llvm::formatv("'{0}' is written before the {1} at line {2}{3} that sends it has completed (the "
                               "completion on '{4}' is at line {5}): a send buffer must not change until its send "
                               "completes",
                               P->Buf->getName(), CR.Function, CR.Line, startedBy(C, Start), P->Req->getName(),
                               P->UntilLine)
                     .str());
      }
  }
}

} // namespace ompi
