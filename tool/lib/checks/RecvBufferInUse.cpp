//===- RecvBufferInUse.cpp - Check: recv-buffer-in-use ----------------------===//
//
// after a nonblocking receive (or a nonblocking collective's receive buffer),
// a use of the buffer's variable before the first completion call that names
// the request.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "mpi/CallModel.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool isCompletion(const FunctionModel *M) { return requestEffect(*M) == RequestEffect::Completes; }

} // namespace

void checkRecvBufferInUse(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  auto offset = [&](SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); };
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller || CR.Model->M != Mode::Nonblocking)
      continue;
    const ArgResult *B = CR.arg(Role::RecvBuf), *R = CR.arg(Role::Request);
    if (!B || !R)
      continue;
    const Expr *BE = CR.expr(*B);
    if (C.Ev.spelledHandle(BE))
      continue;
    const VarDecl *BV = rootVar(BE);
    if (!BV) // a pointer variable p (or p + k) as the buffer
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(BE)))
        BV = dyn_cast<VarDecl>(D->getDecl());
    const Expr *RE = CR.expr(*R)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(RE); U && U->getOpcode() == UO_AddrOf)
      RE = U->getSubExpr();
    const VarDecl *RV = rootVar(RE);
    if (!BV || !RV)
      continue;
    unsigned From = offset(CR.Call->getEndLoc());
    // The first completion naming the request (or the request escaping) after the call.
    unsigned Until = ~0u, UntilLine = 0;
    std::vector<std::pair<unsigned, const DeclRefExpr *>> Uses;
    std::vector<std::pair<unsigned, unsigned>> MPIArgs; // ranges of MPI calls' arguments
    anyNode(CR.Caller->getBody(), [&](const Stmt *S) {
      if (const auto *CE = dyn_cast<CallExpr>(S)) {
        unsigned O = offset(CE->getBeginLoc());
        bool NamesR = llvm::any_of(CE->arguments(), [&](const Expr *A) {
          return anyNode(A, [&](const Stmt *N) {
            const auto *D = dyn_cast<DeclRefExpr>(N);
            return D && D->getDecl() == RV;
          });
        });
        const FunctionModel *M = modelOf(CE);
        if (M)
          MPIArgs.push_back({O, offset(CE->getEndLoc())});
        if (O > From && NamesR && (!M || isCompletion(M)) && O < Until) {
          Until = O;
          UntilLine = SM.getExpansionLineNumber(CE->getBeginLoc());
        }
      } else if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == BV) {
        Uses.push_back({offset(D->getLocation()), D});
      }
      return false;
    });
    if (Until == ~0u)
      continue; // never completed here: request-never-completed's business
    for (auto &[O, D] : Uses) {
      if (O <= From || O >= Until)
        continue;
      unsigned At = O; // a structured binding cannot be captured in C++17
      if (llvm::any_of(MPIArgs, [&](auto &Rg) { return At >= Rg.first && At <= Rg.second; }))
        continue; // another MPI call: a different part of the buffer, its own business
      C.report("recv-buffer-in-use", D->getLocation(),
               llvm::formatv("'{0}' is used before the {1} at line {2} that writes it has completed (the "
                             "completion on '{3}' is at line {4})",
                             BV->getName(), CR.Function, CR.Line, RV->getName(), UntilLine)
                   .str());
      break; // one finding per receive
    }
  }
}

} // namespace ompi
