//===- UniformityRoot.cpp - Values every rank takes from the root ---------===//
//
// (And writes the root makes before a collective sets the whole variable
// on every rank, and, at the end, globals read straight after a collective
// set them.)
//
// Uniformity's use of RootBroadcast.h: a variable the root packs and
// broadcasts and every other rank unpacks holds the root's value on every
// rank once the if ends, whatever either arm wrote into it before. That
// covers the writes an arm makes itself and those of the functions it
// calls (the root's input check, `check_input()`, that adjusts what it
// read before packing it): a function that writes a global only when it
// is called from such an arm, directly or through its callers, does not
// make the global differ between ranks.
//
//===----------------------------------------------------------------------===//
#include "analysis/Effects.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RootBroadcast.h"
#include "analysis/Uniformity.h"
#include "mpi/CallModel.h"
#include "support/AST.h"

using namespace clang;
using namespace ompi;

namespace {

/// Whether control may leave S other than by its end: a return, a goto, a
/// label (a way in), or a break or continue not inside a loop or switch of
/// S's own.
bool leaves(const Stmt *S, bool Nested = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt>(S))
    return true;
  if (isa<BreakStmt, ContinueStmt>(S))
    return !Nested;
  bool In = Nested || isa<ForStmt, WhileStmt, DoStmt, SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (leaves(C, In))
      return true;
  return false;
}

/// Whether S lies inside Outer.
bool inside(ASTContext &Ctx, const Stmt *S, const Stmt *Outer) {
  for (unsigned Depth = 0; S && Depth < 256; ++Depth, S = parentStmt(Ctx, S))
    if (S == Outer)
      return true;
  return false;
}

} // namespace

RootBroadcast &Uniformity::rootBroadcast() {
  if (!RB) {
    if (!Eff)
      Eff = std::make_unique<Effects>(Ctx);
    RB = std::make_unique<RootBroadcast>(Ctx, Ev, *Eff);
  }
  return *RB;
}

bool Uniformity::reconciled(const VarDecl *V, const Stmt *At, const FunctionDecl *F) {
  return rootBroadcast().reconciles(V, At, F).has_value();
}

/// Whether every way into G (a function that writes the global V) is a
/// call made in an arm of a pack-broadcast-unpack of V, directly or through
/// G's callers. Calls from other files, through a pointer, or from main
/// outside such an arm are not.
bool Uniformity::entriesReconciled(const VarDecl *V, const FunctionDecl *G, unsigned Depth) {
  const FunctionDecl *Canon = G->getCanonicalDecl();
  if (G->isMain() || Depth > 8 || !V->hasGlobalStorage() || Ev.index().AddressTaken.count(Canon))
    return false;
  if (outside(G)) {
    const ProgramFacts *P = program();
    if (!P || P->reachedFromOtherFiles(G->getName()))
      return false;
  }
  auto It = Ev.index().CallSites.find(Canon);
  if (It == Ev.index().CallSites.end() || It->second.empty())
    return false;
  for (auto [Caller, CE] : It->second)
    if (!reconciled(V, CE, Caller) && !entriesReconciled(V, Caller, Depth + 1))
      return false;
  return true;
}

/// Whether statement T is a collective whose output, the same on every rank
/// of the world, is all of V (&V, or the array V): it overwrites whatever
/// any rank held.
bool Uniformity::setsAllOf(const Stmt *T, const VarDecl *V, Func &Fn) {
  const CallExpr *CE = statementCall(T);
  const FunctionModel *M = CE ? modelOf(CE) : nullptr;
  if (!M || !M->isCollective())
    return false;
  bool Output = false;
  for (unsigned I = 0; I < CE->getNumArgs() && I < M->Args.size(); ++I)
    if (sameOnEveryRank(*M, M->Args[I].R) && M->Args[I].R != Role::SendBuf) {
      const Expr *A = CE->getArg(I)->IgnoreParenCasts();
      const VarDecl *D = addressedVar(A);
      Output |= (D ? D : namedVar(A)) == V;
    }
  return Output && !collectiveOutVaries(CE, V, Fn);
}

/// Whether a write of V in an arm of an if whose condition may differ
/// between ranks (the root's input, `if (rank == 0) p.n = atoi(argv[1]);`)
/// is overwritten on every rank before any code outside that if can read
/// it: after the if (and after the ifs and loops around it, where no other
/// code of the loop names V), the statements of the enclosing blocks name
/// V nowhere (nor, for a global, call code that may read it), make no jump
/// and hold no label until a collective sets all
/// of V alike on every rank (MPI_Bcast(&p, sizeof p, MPI_BYTE, 0,
/// MPI_COMM_WORLD)). What the arm itself reads of V feeds only code that
/// some ranks run, which is judged so. The collective's own write of V is
/// judged as any other (at a point every rank reaches).
bool Uniformity::broadcastOverwrites(const VarDecl *V, const Stmt *At, const FunctionDecl *F, Func &Fn) {
  const Stmt *D = parentStmt(Ctx, At);
  while (D && !(isa<IfStmt>(D) && variesNode(cast<IfStmt>(D)->getCond(), Fn)))
    D = parentStmt(Ctx, D);
  if (!D || refersTo(cast<IfStmt>(D)->getCond(), V) || !F->getBody())
    return false;
  if (leaves(D))
    return false;
  if (!Eff)
    Eff = std::make_unique<Effects>(Ctx);
  // Whether N names V or calls code that may read it (a global: any
  // function of the file that touches it, code of another file).
  auto Touches = [&](const Stmt *N) { return V->hasGlobalStorage() ? Eff->touches(N, V) : refersTo(N, V); };
  const Stmt *Cur = D;
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    const Stmt *P = parentStmt(Ctx, Cur);
    if (!P)
      return false;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      bool After = false;
      for (const Stmt *T : CS->body()) {
        if (T == Cur) {
          After = true;
          continue;
        }
        if (!After)
          continue;
        if (setsAllOf(T, V, Fn))
          return true;
        if (Touches(T) || leaves(T))
          return false;
      }
    } else if (isa<ForStmt, WhileStmt, DoStmt>(P)) {
      // The next iteration runs the loop's code before the if: it may
      // name V nowhere but in the if.
      if (anyNode(P, [&](const Stmt *N) {
            return (isa<DeclRefExpr>(N) || isa<CallExpr>(N)) && !inside(Ctx, N, D) &&
                   (isa<DeclRefExpr>(N) ? cast<DeclRefExpr>(N)->getDecl() == V : Touches(N));
          }))
        return false;
    } else if (!isa<IfStmt>(P)) {
      return false; // a switch, a label, a statement expression: not followed
    }
    if (P == F->getBody())
      return false;
    Cur = P;
  }
  return false;
}

/// Whether the read Ref of the global V is of the value a collective gave
/// every rank just before: the statement before the one holding Ref, in the
/// same block, is a collective whose output, the same on every rank of the
/// world (collectiveOutVaries), is all of V; Ref is in that statement's
/// expression (an if's condition, a return's value, an expression
/// statement, not a loop's), which makes no call and writes nothing, so
/// nothing can write V between the collective and the read:
///
///   aml_long_allsum(&val_errors);   // MPI_Allreduce(MPI_IN_PLACE, &val_errors, ...)
///   if (val_errors > 0) return 0;
bool Uniformity::collectiveJustSet(const VarDecl *V, const DeclRefExpr *Ref, Func &Fn) {
  const Stmt *Child = Ref, *P = parentStmt(Ctx, Ref);
  while (P && !isa<CompoundStmt>(P)) {
    if (isa<WhileStmt, ForStmt, DoStmt, SwitchStmt, CaseStmt, DefaultStmt, LabelStmt>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond())
      return false;
    Child = P;
    P = parentStmt(Ctx, P);
  }
  const auto *Block = dyn_cast_or_null<CompoundStmt>(P);
  if (!Block)
    return false;
  const Stmt *Prev = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Child)
      break;
    Prev = S;
  }
  const auto *CE = Prev ? dyn_cast<CallExpr>(Prev->IgnoreContainers()) : nullptr;
  if (const auto *E = dyn_cast_or_null<Expr>(Prev); !CE && E)
    CE = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  const FunctionModel *M = CE ? modelOf(CE) : nullptr;
  if (!M || !M->isCollective())
    return false;
  bool Output = false; // V (&V, or the array V) is an output of the call
  for (unsigned I = 0; I < CE->getNumArgs() && I < M->Args.size(); ++I)
    if (sameOnEveryRank(*M, M->Args[I].R) && M->Args[I].R != Role::SendBuf) {
      const Expr *A = CE->getArg(I)->IgnoreParenCasts();
      const VarDecl *D = addressedVar(A);
      Output |= (D ? D : namedVar(A)) == V;
    }
  if (!Output || collectiveOutVaries(CE, V, Fn))
    return false;
  // The read's statement runs no code and writes nothing before the read.
  const Stmt *Scope = Child;
  if (const auto *If = dyn_cast<IfStmt>(Child))
    Scope = If->getCond();
  return !anyNode(Scope, [](const Stmt *S) {
    if (isa<CallExpr>(S) || isa<StmtExpr>(S))
      return true;
    if (const auto *B = dyn_cast<BinaryOperator>(S))
      return B->isAssignmentOp();
    const auto *U = dyn_cast<UnaryOperator>(S);
    return U && U->isIncrementDecrementOp();
  });
}
