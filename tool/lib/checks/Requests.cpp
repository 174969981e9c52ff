//===- Requests.cpp - Checks: nonblocking requests and their buffers ------===//
//
// For every local MPI_Request variable (a scalar of the function: requests
// in arrays, structs or behind pointers belong to code this pass cannot
// follow, such as RAII wrappers and MPI_Waitall over arrays, and are left
// alone), the events on it: started by a nonblocking call, completed by a
// wait, test or free, or anything else (assigned, passed to another
// function, its address taken), which stops the tracking. The states the
// request may be in flow along the function's CFG, one per path, and a
// finding needs every path to agree:
//   request-never-completed  pending at the function's exit on every path
//   request-overwritten      a start where every path holds a pending start
//   wait-without-start       a completion where no path started or assigned
//                            the request (MPI_REQUEST_NULL is fine)
// recv-buffer-in-use: after a nonblocking receive (or a nonblocking
// collective's receive buffer), a use of the buffer's variable before the
// first completion call that names the request.
//
//===----------------------------------------------------------------------===//
#include "analysis/RequestFlow.h"
#include "checks/Checks.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace ompi {

namespace {

const FunctionModel *mpiModel(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  return F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
}

bool isCompletion(const FunctionModel *M) { return requestEffect(*M) == RequestEffect::Completes; }

std::set<const FunctionDecl *> functionsWithCalls(const FileResult &A) {
  std::set<const FunctionDecl *> Fs;
  for (const CallResult &C : A.Calls)
    if (C.Caller && C.Caller->hasBody())
      Fs.insert(C.Caller);
  return Fs;
}
} // namespace

void checkRequests(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  for (const FunctionDecl *F : functionsWithCalls(C.Analysis))
    for (const RequestVar &R : requestFlow(C.Ctx, C.Ev, F)) {
      const std::vector<RequestEvent> &All = R.Events;
      for (unsigned K = 0; K < All.size(); ++K) {
        const RequestEvent &E = All[K];
        const RequestStates &S = R.At[K];
        if (E.K == RequestEvent::Start && allPending(S)) {
          const RequestEvent &Open = All[*S.begin()];
          C.report("request-overwritten", E.Loc,
                   llvm::formatv("{0} overwrites request '{1}' while the {2} at line {3} that it holds has not "
                                 "completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between)",
                                 E.Function, R.V->getName(), Open.Function, SM.getExpansionLineNumber(Open.Loc))
                       .str());
        } else if (E.K == RequestEvent::Complete && S == RequestStates{RequestUnset}) {
          C.report("wait-without-start", E.Loc,
                   llvm::formatv("{0} on request '{1}', which no nonblocking call started (initialise it to "
                                 "MPI_REQUEST_NULL if that is intended)",
                                 E.Function, R.V->getName())
                       .str());
        }
      }
      if (allPending(R.Exit))
        for (int K : R.Exit)
          C.report("request-never-completed", All[K].Loc,
                   llvm::formatv("the request '{0}' of this {1} is never completed: no MPI_Wait, MPI_Test or "
                                 "MPI_Request_free on it follows in {2}",
                                 R.V->getName(), All[K].Function, F->getName())
                       .str());
    }
}

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
        const FunctionModel *M = mpiModel(CE);
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
      if (llvm::any_of(MPIArgs, [&](auto &Rg) { return O >= Rg.first && O <= Rg.second; }))
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
