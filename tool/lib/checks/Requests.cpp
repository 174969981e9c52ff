//===- Requests.cpp - Checks: nonblocking requests and their buffers ------===//
//
// For every local MPI_Request variable (a scalar of the function: requests
// in arrays, structs or behind pointers belong to code this pass cannot
// follow, such as RAII wrappers and MPI_Waitall over arrays, and are left
// alone), the events on it in source order: started by a nonblocking call,
// completed by a wait, test or free, or anything else (assigned, passed to
// another function, its address taken), which stops the tracking.
//   request-never-completed  a start with nothing after it
//   request-overwritten      a start after a start, nothing in between
//   wait-without-start       a completion of a request never started nor
//                            assigned (MPI_REQUEST_NULL is fine)
// recv-buffer-in-use: after a nonblocking receive (or a nonblocking
// collective's receive buffer), a use of the buffer's variable before the
// first completion call that names the request.
//
//===----------------------------------------------------------------------===//
#include "../ASTUtil.h"
#include "../Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;

namespace ompi {

namespace {
bool isRequestVar(const VarDecl *V) {
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getType().getAsString() == "MPI_Request";
}

const VarDecl *addressOfVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    if (const auto *D = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
      return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

const FunctionModel *mpiModel(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  return F && F->getIdentifier() ? lookupFunction(F->getName()) : nullptr;
}

bool isCompletion(const FunctionModel *M) {
  llvm::StringRef N = M->Name;
  return N.starts_with("MPI_Wait") || N.starts_with("MPI_Test") || N == "MPI_Request_free";
}

enum class Ev { Start, Complete, Other };
struct Event {
  Ev K;
  unsigned Offset;
  SourceLocation Loc;
  std::string Function;
  const Stmt *S;
};

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  std::map<const VarDecl *, std::vector<Event>> Events;
  std::set<const VarDecl *> Persistent, NullInit;
  std::set<const DeclRefExpr *> Seen;

  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }

  bool VisitVarDecl(VarDecl *V) {
    if (!isRequestVar(V) || !V->hasInit())
      return true;
    const Expr *I = V->getInit()->IgnoreParenImpCasts();
    bool Null = I->getSourceRange().isValid() &&
                Lexer::getSourceText(CharSourceRange::getTokenRange(I->getSourceRange()), SM, LangOptions())
                        .trim() == "MPI_REQUEST_NULL";
    if (Null)
      NullInit.insert(V);
    else
      Events[V].push_back({Ev::Other, offset(V->getLocation()), V->getLocation(), "", nullptr});
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionModel *M = mpiModel(CE);
    if (!M)
      return true;
    for (unsigned I = 0; I < M->Args.size() && I < CE->getNumArgs(); ++I) {
      Role R = M->Args[I].R;
      if (R != Role::Request && R != Role::Requests)
        continue;
      const VarDecl *V = addressOfVar(CE->getArg(I));
      if (!isRequestVar(V))
        continue;
      if (const auto *U = dyn_cast<UnaryOperator>(CE->getArg(I)->IgnoreParenImpCasts()))
        Seen.insert(cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens()));
      if (M->M == Mode::Persistent) {
        Persistent.insert(V);
        continue;
      }
      Ev K = isCompletion(M) ? Ev::Complete : M->Name == "MPI_Start" || M->Name == "MPI_Cancel" ? Ev::Other : Ev::Start;
      Events[V].push_back({K, offset(CE->getBeginLoc()), CE->getBeginLoc(), M->Name, CE});
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!isRequestVar(V) || Seen.count(D))
      return true;
    Pending.push_back(D);
    return true;
  }

  /// References not consumed by a start or completion: "other" events.
  void finish() {
    for (const DeclRefExpr *D : Pending)
      if (!Seen.count(D))
        Events[cast<VarDecl>(D->getDecl())].push_back({Ev::Other, offset(D->getLocation()), D->getLocation(), "", D});
    for (auto &[V, Es] : Events)
      llvm::sort(Es, [](const Event &A, const Event &B) { return A.Offset < B.Offset; });
  }

private:
  const SourceManager &SM;
  std::vector<const DeclRefExpr *> Pending;
};

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
  for (const FunctionDecl *F : functionsWithCalls(C.Analysis)) {
    Collector Col(C.Ctx);
    Col.TraverseStmt(F->getBody());
    Col.finish();
    for (auto &[V, Es] : Col.Events) {
      if (Col.Persistent.count(V))
        continue;
      enum { Unset, Unknown, Pending, Done } State = Col.NullInit.count(V) ? Unknown : Unset;
      const Event *Open = nullptr;
      for (const Event &E : Es) {
        if (E.K == Ev::Other) {
          State = Unknown;
          Open = nullptr;
        } else if (E.K == Ev::Start) {
          if (State == Pending && Open)
            C.report("request-overwritten", E.Loc,
                     llvm::formatv("{0} overwrites request '{1}' while the {2} at line {3} that it holds has not "
                                   "completed (no MPI_Wait, MPI_Test or MPI_Request_free on it in between)",
                                   E.Function, V->getName(), Open->Function, SM.getExpansionLineNumber(Open->Loc))
                         .str());
          State = Pending;
          Open = &E;
        } else { // Complete
          if (State == Unset) {
            // A wait at the top of a loop that starts the request further down is fine.
            std::vector<const Stmt *> L = enclosingLoops(C.Ctx, E.S);
            bool StartedInLoop = llvm::any_of(Es, [&](const Event &S) {
              if (S.K != Ev::Start)
                return false;
              std::vector<const Stmt *> SL = enclosingLoops(C.Ctx, S.S);
              return llvm::any_of(SL, [&](const Stmt *X) { return llvm::is_contained(L, X); });
            });
            if (!StartedInLoop)
              C.report("wait-without-start", E.Loc,
                       llvm::formatv("{0} on request '{1}', which no nonblocking call started (initialise it to "
                                     "MPI_REQUEST_NULL if that is intended)",
                                     E.Function, V->getName())
                           .str());
          }
          State = Done;
          Open = nullptr;
        }
      }
      if (State == Pending && Open)
        C.report("request-never-completed", Open->Loc,
                 llvm::formatv("the request '{0}' of this {1} is never completed: no MPI_Wait, MPI_Test or "
                               "MPI_Request_free on it follows in {2}",
                               V->getName(), Open->Function, F->getName())
                     .str());
    }
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
    const Expr *BE = CR.Call->getArg(B->Index);
    if (C.Ev.spelledHandle(BE))
      continue;
    const VarDecl *BV = rootVar(BE);
    if (!BV) // a pointer variable p (or p + k) as the buffer
      if (const auto *D = dyn_cast<DeclRefExpr>(strip(BE)))
        BV = dyn_cast<VarDecl>(D->getDecl());
    const Expr *RE = CR.Call->getArg(R->Index)->IgnoreParenImpCasts();
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
