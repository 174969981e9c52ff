//===- SequenceFacts.cpp - The MPI calls a call of a function makes -------===//
//
// FunctionFact::Sequence: for a function whose every MPI call is a
// collective or a blocking send or receive made in order on every path
// through it, those calls, with each argument that names them
// (communicator, root, op, count, datatype, peer, tag) as a constant or as
// the caller's argument. The per-rank runs of another file follow a call
// of such a function as if its calls were written at the call
// (ranks/Events.cpp).
//
//===----------------------------------------------------------------------===//
#include "analysis/Effects.h"
#include "analysis/Evaluator.h"
#include "analysis/ProgramFacts.h"
#include "mpi/CallModel.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

/// The call a statement of a function's body makes as a whole: f(...);
/// x = f(...); (void)f(...) (statementCall), T x = f(...), or return f(...).
const CallExpr *bodyCall(const Stmt *S) {
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return R->getRetValue() ? dyn_cast<CallExpr>(R->getRetValue()->IgnoreParenCasts()) : nullptr;
  if (const auto *D = dyn_cast<DeclStmt>(S); D && D->isSingleDecl())
    if (const auto *V = dyn_cast<VarDecl>(D->getSingleDecl()); V && V->getInit())
      return dyn_cast<CallExpr>(V->getInit()->IgnoreParenCasts());
  return statementCall(S);
}

/// Whether a call of the function Name communicates (an MPI call), ends
/// the process or leaves by a jump, whatever it is given.
bool communicatesOrLeaves(llvm::StringRef Name) {
  return isMPIFunctionName(Name) || endsProcess(Name) || Name == "exit" || Name == "_Exit" || Name == "abort" ||
         Name == "longjmp" || Name == "siglongjmp";
}

bool actsAt(const Stmt *N, std::set<const FunctionDecl *> &Seen, bool TrustLibrary);

/// Whether a call of G (a function this file defines) may make an MPI call,
/// end the process or leave by a jump: in it or in what it calls.
bool mayAct(const FunctionDecl *G, std::set<const FunctionDecl *> &Seen) {
  const FunctionDecl *Def = nullptr;
  if (!G->hasBody(Def) || !Seen.insert(Def).second)
    return false;
  return anyNode(Def->getBody(), [&](const Stmt *N) { return actsAt(N, Seen, false); });
}

/// Whether the node N jumps, throws, or is a call that may make an MPI call,
/// end the process or leave by a jump (through a pointer: may). With
/// TrustLibrary, a library function or builtin is taken to do none of these
/// unless by its name; otherwise an inline body of one is followed too.
bool actsAt(const Stmt *N, std::set<const FunctionDecl *> &Seen, bool TrustLibrary) {
  if (isa<GotoStmt>(N) || isa<IndirectGotoStmt>(N) || isa<CXXThrowExpr>(N))
    return true;
  const auto *CE = dyn_cast<CallExpr>(N);
  if (!CE)
    return false;
  const FunctionDecl *H = CE->getDirectCallee();
  if (!H || communicatesOrLeaves(H->getIdentifier() ? H->getName() : ""))
    return true;
  return !(TrustLibrary && (H->getBuiltinID() || Effects::isLibrary(H))) && mayAct(H, Seen);
}

/// Whether the body writes the parameter P or takes its address.
bool changes(const Stmt *Body, const ParmVarDecl *P) {
  return anyNode(Body, [&](const Stmt *N) {
    auto names = [&](const Expr *E) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return D && D->getDecl() == P;
    };
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
      return names(B->getLHS());
    if (const auto *U = dyn_cast<UnaryOperator>(N))
      return (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && names(U->getSubExpr());
    return false;
  });
}

/// An argument as SequenceCall holds it: "param:N", a predefined handle's
/// spelling, an integer constant (for an Integer argument: a root or count,
/// as the runs take their values; handles only by spelling), or "?".
std::string argText(ASTContext &Ctx, const Evaluator &Ev, const FunctionDecl *F, const Expr *E, bool Integer) {
  if (!E)
    return "";
  const Expr *X = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(X))
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        P && P->getFunctionScopeIndex() < F->getNumParams() && !changes(F->getBody(), P))
      return "param:" + std::to_string(P->getFunctionScopeIndex());
  if (std::optional<std::string> H = Ev.spelledHandle(E); H && lookupHandle(*H))
    return *H;
  Expr::EvalResult R;
  if (Integer && !X->isValueDependent() && X->EvaluateAsInt(R, Ctx))
    return std::to_string(R.Val.getInt().getExtValue());
  return "?";
}

/// A blocking send or receive of one message (MPI_Send and its modes,
/// MPI_Recv): the per-rank runs match it as they match one written at the
/// call.
bool isBlockingMessage(const FunctionModel &M) {
  return M.Cat == Category::PointToPoint && M.M == Mode::Blocking && !M.find(Role::Request) &&
         (M.find(Role::Dest) || M.find(Role::Source)) && !(M.find(Role::Dest) && M.find(Role::Source)) &&
         M.find(Role::Tag) && M.find(Role::Count) && M.find(Role::Type);
}

using Sequence = std::optional<std::vector<SequenceCall>>;

/// G's sequence as a call CE of it in F makes it: G's "param:K" become
/// CE's K-th argument as F names it; none where a communicator then is not
/// one F's caller can name.
Sequence substituted(ASTContext &Ctx, const Evaluator &Ev, const FunctionDecl *F, const CallExpr *CE,
                     std::vector<SequenceCall> Seq) {
  for (SequenceCall &C : Seq) {
    for (std::string *X : {&C.Comm, &C.Root, &C.Op, &C.Count, &C.Type, &C.Peer, &C.Tag}) {
      unsigned K = 0;
      llvm::StringRef T = *X;
      bool Integer = X == &C.Root || X == &C.Count || X == &C.Peer || X == &C.Tag;
      if (T.consume_front("param:") && !T.getAsInteger(10, K))
        *X = K < CE->getNumArgs() ? argText(Ctx, Ev, F, CE->getArg(K), Integer) : "?";
    }
    if (C.Comm != mpi::MPI_COMM_WORLD && !llvm::StringRef(C.Comm).starts_with("param:"))
      return std::nullopt;
  }
  return Seq;
}

/// The collective sequence of F's body (callSequenceOf), following
/// the calls of this file's functions that have one; Active: the functions
/// being followed (a recursive call has none).
Sequence sequenceIn(ASTContext &Ctx, const Evaluator &Ev, const FunctionDecl *F, llvm::StringRef File,
                    std::set<const FunctionDecl *> &Active) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || F->isVariadic() || Active.size() >= 8 || !Active.insert(F->getCanonicalDecl()).second)
    return std::nullopt;
  auto Leave = llvm::make_scope_exit([&] { Active.erase(F->getCanonicalDecl()); });
  std::vector<SequenceCall> Out;
  std::set<const CallExpr *> Made;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *S : Body->body()) {
    const CallExpr *CE = bodyCall(S);
    const FunctionModel *M = CE ? lookupFunction(calleeName(CE)) : nullptr;
    if (const FunctionDecl *G = CE && !M ? CE->getDirectCallee() : nullptr; G && G->hasBody()) {
      const FunctionDecl *Def = nullptr;
      G->hasBody(Def);
      if (Sequence Sub = sequenceIn(Ctx, Ev, Def, File, Active)) { // this file's helper
        Sub = substituted(Ctx, Ev, F, CE, std::move(*Sub));
        if (!Sub)
          return std::nullopt;
        Out.insert(Out.end(), Sub->begin(), Sub->end());
        Made.insert(CE);
      }
      continue;
    }
    if (!M)
      continue;
    bool Message = isBlockingMessage(*M);
    if ((!M->isCollective() && !Message) || M->Cat == Category::OneSided || CE->getBeginLoc().isMacroID())
      return std::nullopt;
    auto At = [&](Role R) {
      return argText(Ctx, Ev, F, argOf(CE, R), R == Role::Root || R == Role::Count || isPeerRole(R) || R == Role::Tag);
    };
    SequenceCall C{M->Name,         File.str(),     SM.getExpansionLineNumber(CE->getBeginLoc()),
                   At(Role::Comm),  At(Role::Root), At(Role::Op),
                   At(Role::Count), At(Role::Type)};
    if (Message) {
      C.Peer = At(M->find(Role::Dest) ? Role::Dest : Role::Source);
      C.Tag = At(Role::Tag);
    }
    if (C.Comm != mpi::MPI_COMM_WORLD && !llvm::StringRef(C.Comm).starts_with("param:"))
      return std::nullopt; // a communicator the caller cannot name
    Out.push_back(std::move(C));
    Made.insert(CE);
  }
  // Nothing else may communicate, stop or leave early: every MPI call is
  // one of those above, every return the body's last statement.
  std::set<const FunctionDecl *> Seen;
  bool Other = anyNode(Body, [&](const Stmt *N) {
    if (isa<ReturnStmt>(N))
      return N != Body->body_back();
    const auto *CE = dyn_cast<CallExpr>(N);
    return !(CE && Made.count(CE)) && actsAt(N, Seen, true);
  });
  if (Other || Out.empty())
    return std::nullopt;
  return Out;
}

} // namespace

std::optional<std::vector<SequenceCall>> ompi::callSequenceOf(ASTContext &Ctx, const Evaluator &Ev,
                                                              const FunctionDecl *F, const FunctionFact &FF,
                                                              llvm::StringRef File) {
  // Every function a call of F may run is this file's, reached directly.
  if (!FF.Mpi || !FF.WritesKnown || !FF.Reaches.empty())
    return std::nullopt;
  std::set<const FunctionDecl *> Active;
  return sequenceIn(Ctx, Ev, F, File, Active);
}
