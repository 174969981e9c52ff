//===- DeferralPlan.cpp - Which reductions the lazy runtime takes ---------===//
#include "analysis/DeferralPlan.h"
#include "analysis/ProgramFacts.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

struct Ref {
  const DeclRefExpr *E;
  const FunctionDecl *F; ///< null outside function bodies
};

/// Every reference to a variable, return, call and goto of the main file.
class Collector : public FunctionVisitor<Collector> {
public:
  explicit Collector(SourceManager &SM) : SM(SM) {}
  std::map<const VarDecl *, std::vector<Ref>> Refs;
  std::map<const FunctionDecl *, std::vector<const GotoStmt *>> Gotos;
  std::set<const FunctionDecl *> IndirectGoto;
  std::map<const FunctionDecl *, std::vector<const ReturnStmt *>> Returns;
  std::map<const FunctionDecl *, std::vector<const CallExpr *>> Calls;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (inMain(E->getLocation()))
        Refs[V->getCanonicalDecl()].push_back({E, Cur});
    return true;
  }
  bool VisitGotoStmt(GotoStmt *G) {
    if (Cur)
      Gotos[Cur->getCanonicalDecl()].push_back(G);
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) {
    if (Cur)
      IndirectGoto.insert(Cur->getCanonicalDecl());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    if (Cur)
      Returns[Cur].push_back(R);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (Cur)
      Calls[Cur].push_back(C);
    return true;
  }

private:
  SourceManager &SM;
  bool inMain(SourceLocation L) { return SM.isInMainFile(SM.getExpansionLoc(L)); }
};

struct Candidate {
  const CallResult *R = nullptr;
  const VarDecl *V = nullptr;
  bool Worth = false;
  bool Invalid = false; ///< its variable cannot be deferred (already reported)
  std::string NotWorth; ///< why deferring it alone would not help
  bool AtExit = false;  ///< its (global) result is not used before its function returns
  unsigned NextUse = 0; ///< offset of the first use of its result after it
};

class Analysis {
public:
  Analysis(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
           const std::vector<std::pair<unsigned, unsigned>> &Changed)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Ev(Ev), Uni(Uni), Calls(Calls), Changed(Changed), Col(SM) {
    Col.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (const CallResult &C : Calls.Calls)
      MPI[C.Call] = &C;
  }

  DeferralPlan Plan;

  void run() {
    collectFrees();
    collectCandidates();
    computeDeferringFunctions();
    std::map<const VarDecl *, std::vector<Candidate *>> ByVar;
    for (Candidate &C : Cands)
      ByVar[C.V].push_back(&C);
    for (auto &[V, Cs] : ByVar)
      worth(V, Cs);
    joinPending();
    for (auto &[V, Cs] : ByVar)
      variable(V, Cs);
  }

private:
  ASTContext &Ctx;
  SourceManager &SM;
  Evaluator &Ev;
  Uniformity &Uni;
  const FileResult &Calls;
  const std::vector<std::pair<unsigned, unsigned>> &Changed;
  Collector Col;
  std::map<const CallExpr *, const CallResult *> MPI;
  std::vector<Candidate> Cands;
  std::set<const FunctionDecl *> Deferring;          ///< may leave a reduction pending when it returns
  std::set<std::pair<unsigned, std::string>> Placed; ///< (offset, variable) of force points
  /// Calls that free a communicator, directly or in a function they call.
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Frees;

  void collectFrees() {
    std::set<const FunctionDecl *> Freeing;
    auto Ends = [](const CallExpr *CE) {
      const FunctionDecl *G = CE->getDirectCallee();
      return G && G->getIdentifier() && endsCommunicator(G->getName());
    };
    for (auto &[F, Cs] : Col.Calls)
      if (llvm::any_of(Cs, Ends))
        Freeing.insert(F->getCanonicalDecl());
    closeOverCallers(Freeing);
    for (auto &[F, Cs] : Col.Calls)
      for (const CallExpr *CE : Cs)
        if (const FunctionDecl *G = CE->getDirectCallee(); G && (Ends(CE) || Freeing.count(G->getCanonicalDecl())))
          Frees.push_back({F, CE});
  }

  unsigned off(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }

  /// Why a goto of F may take control where force points placed in source
  /// order would miss it, or "": a computed goto, a jump backwards (a loop
  /// the analysis does not see), or, for a wait of Var placed at W, a jump
  /// from before W to a label after it (control would skip the wait).
  /// Gotos that jump forwards over no wait keep source order and are safe.
  std::string gotoProblem(const FunctionDecl *F, SourceLocation W, llvm::StringRef Var) const {
    F = F->getCanonicalDecl();
    if (Col.IndirectGoto.count(F))
      return F->getName().str() + " uses a computed goto: its force points cannot be placed on every path";
    auto It = Col.Gotos.find(F);
    if (It == Col.Gotos.end())
      return "";
    for (const GotoStmt *G : It->second) {
      const LabelStmt *L = G->getLabel() ? G->getLabel()->getStmt() : nullptr;
      SourceLocation GL = SM.getExpansionLoc(G->getBeginLoc());
      SourceLocation LL = L ? SM.getExpansionLoc(L->getBeginLoc()) : SourceLocation();
      if (!L || SM.getFileID(GL) != SM.getFileID(LL))
        return llvm::formatv("the goto at line {0} of {1}: its label cannot be placed", line(GL), F->getName()).str();
      if (off(LL) <= off(GL))
        return llvm::formatv("the goto at line {0} jumps back to line {1}: a loop the force points do not follow",
                             line(GL), line(LL))
            .str();
      if (W.isValid() && SM.getFileID(W) == SM.getFileID(GL) && off(GL) < off(W) && off(W) < off(LL))
        return llvm::formatv("the goto at line {0} jumps over the wait for {1} at line {2} (to line {3})", line(GL),
                             Var, line(W), line(LL))
            .str();
    }
    return "";
  }

  ChangeNote note(const CallResult &C, bool Applied, std::string What, std::string Why) const {
    return ChangeNote::at("lazy-deferral", Applied, C.File, C.Line, C.Column, std::move(What), std::move(Why));
  }

  bool changedByEarlier(SourceRange R) const {
    unsigned B = off(R.getBegin()), E = off(R.getEnd());
    for (auto [CB, CE] : Changed)
      if (CB <= E && B < std::max(CE, CB + 1))
        return true;
    return false;
  }

  const Stmt *parent(DynTypedNode N) const { return parentStmt(Ctx, N); }
  const Stmt *parent(const Stmt *S) const { return parentStmt(Ctx, S); }

  /// A call to MPI_Finalize as a statement of its own (possibly cast to
  /// void or assigned to a return-code variable).
  static bool isFinalize(const Stmt *S) {
    const Expr *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      E = B->getRHS()->IgnoreParenCasts();
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    return FD && FD->getName() == mpi::MPI_Finalize;
  }

  /// Node runs after an MPI_Finalize statement on every path: an enclosing
  /// block runs one before it. The runtime delivers every deferred result in
  /// MPI_Finalize, so no wait is needed there (one would be redundant).
  bool afterFinalize(const Stmt *Node) const {
    const Stmt *Child = Node;
    for (const Stmt *P = parent(Child); P; Child = P, P = parent(P))
      if (const auto *CS = dyn_cast<CompoundStmt>(P))
        for (const Stmt *S : CS->body()) {
          if (S == Child)
            break;
          if (isFinalize(S))
            return true;
        }
    return false;
  }

  std::set<const Stmt *> loopsAround(const Stmt *S) const {
    std::set<const Stmt *> L;
    for (const Stmt *P = parent(S); P; P = parent(P))
      if (isa<ForStmt, WhileStmt, DoStmt>(P))
        L.insert(P);
    return L;
  }

  static bool within(const Stmt *Outer, const Stmt *Inner) {
    return anyNode(Outer, [&](const Stmt *S) { return S == Inner; });
  }

  /// The variable the receive buffer names: &v, &v[i], &s.f, or an array v.
  const VarDecl *recvVar(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      return rootVar(U->getSubExpr());
    if (E->getType()->isArrayType() || isa<DeclRefExpr>(E))
      if (const VarDecl *V = rootVar(E); V && V->getType()->isArrayType())
        return V;
    return nullptr;
  }

  /// Whether code of another file may name the global V: it has external
  /// linkage, and neither the closed world nor the program's facts
  /// (ProgramFacts::namedOnlyIn) say that only this file's code names it.
  bool visibleOutside(const VarDecl *V) const {
    if (!V->hasGlobalStorage() || V->isStaticLocal() || !V->isExternallyVisible() ||
        (Ev.options().ClosedWorld && Ev.index().DefinesMain))
      return false;
    const ProgramFacts *P = Ev.options().Program.get();
    return !(P && P->program() && P->namedOnlyIn(V->getName(), ProgramFacts::nameOf(Ctx)));
  }

  void collectCandidates() {
    for (const CallResult &C : Calls.Calls) {
      if (!isFusibleReduction(C.Function) || !C.Call || !C.Caller || !C.expr(Role::RecvBuf) || C.Call->getNumArgs() < 2)
        continue;
      if (changedByEarlier(C.Call->getSourceRange()))
        continue; // fused statically
      auto Decline = [&](std::string Why) {
        Plan.Declined.push_back(note(C, false, "defer " + C.Function, std::move(Why)));
      };
      if (C.Call->getBeginLoc().isMacroID() || C.Call->getCallee()->getBeginLoc().isMacroID()) {
        Decline("the call is written through a macro");
        continue;
      }
      if (std::optional<Divergence> D = Uni.at(C.Call, C.Caller)) {
        Decline("only some ranks may run it, and the runtime's queues must hold the same reductions on every rank (" +
                D->Why + ")");
        continue;
      }
      if (std::string Why = gotoProblem(C.Caller, SourceLocation(), ""); !Why.empty()) {
        Decline(Why);
        continue;
      }
      const VarDecl *V = recvVar(C.expr(Role::RecvBuf));
      if (!V) {
        Decline("the receive buffer " + Ev.text(C.expr(Role::RecvBuf)) +
                " is not a named variable: a pointer may be read anywhere");
        continue;
      }
      V = V->getCanonicalDecl();
      QualType T = V->getType();
      while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
        T = AT->getElementType();
      if (T.isVolatileQualified()) {
        Decline(V->getName().str() + " is volatile");
        continue;
      }
      if (visibleOutside(V)) {
        Decline(V->getName().str() +
                " has external linkage: another file may read it (make it static, build the "
                "program from this one file: --closed-world, or give every file: --whole-program)");
        continue;
      }
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V)) {
        if (std::string Why = scopeProblem(V); !Why.empty()) {
          Decline(Why);
          continue;
        }
      }
      Candidate N;
      N.R = &C;
      N.V = V;
      Cands.push_back(std::move(N));
    }
  }

  /// The block a local V is declared in (the function's body, or an inner
  /// block), or null (a for-loop's declaration).
  const CompoundStmt *scopeOf(const VarDecl *V) const { return declaringBlock(Ctx, V); }

  /// The inner block a local V dies at the end of, or null for the
  /// function's body.
  const CompoundStmt *innerScope(const VarDecl *V) const {
    const CompoundStmt *B = scopeOf(V);
    return B && !isFunctionBody(B, V) ? B : nullptr;
  }

  static bool isFunctionBody(const CompoundStmt *B, const VarDecl *V) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    return !F || B == F->getBody();
  }

  /// Why a local V cannot hold a pending result, or "". One of an inner
  /// block dies at the block's end: the wait goes before its closing brace,
  /// which control must not leave any other way.
  std::string scopeProblem(const VarDecl *V) const {
    const CompoundStmt *B = scopeOf(V);
    if (!B)
      return V->getName().str() + " is declared in a loop's header: it may die before the result arrives";
    if (isFunctionBody(B, V))
      return "";
    std::string Why;
    std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool InLoop) {
      if (!S || !Why.empty())
        return;
      bool Leaves = isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
                    (!InLoop && (isa<BreakStmt>(S) || isa<ContinueStmt>(S)));
      if (Leaves) {
        Why = llvm::formatv("{0} is declared in an inner block that control may leave before its end (line {1}): it "
                            "may die before the result arrives",
                            V->getName(), line(S->getBeginLoc()))
                  .str();
        return;
      }
      bool Inner = isa<ForStmt, WhileStmt, DoStmt, SwitchStmt>(S);
      for (const Stmt *C : subStmts(S))
        Walk(C, InLoop || Inner);
    };
    Walk(B, false);
    return Why;
  }

  /// Add to Set every function that calls one in Set, directly or not.
  void closeOverCallers(std::set<const FunctionDecl *> &Set) const {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[F, Cs] : Col.Calls)
        if (!Set.count(F->getCanonicalDecl()))
          for (const CallExpr *CE : Cs)
            if (const FunctionDecl *G = CE->getDirectCallee(); G && Set.count(G->getCanonicalDecl())) {
              Set.insert(F->getCanonicalDecl());
              Changed = true;
              break;
            }
    }
  }

  void computeDeferringFunctions() {
    for (const Candidate &C : Cands)
      Deferring.insert(C.R->Caller->getCanonicalDecl());
    closeOverCallers(Deferring);
  }

  ChangeNote forceNote(SourceLocation At, const std::string &Name, std::string Why) const {
    ChangeNote N = ChangeNote::at("lazy-deferral", true, Calls.File, line(At), SM.getExpansionColumnNumber(At),
                                  "force point: wait for " + Name, std::move(Why));
    N.Kind = NoteKind::ForcePoint;
    return N;
  }

  /// Whether S queues a reduction: a candidate call, or a call of a
  /// function that may leave one pending.
  bool queues(const Stmt *S) const {
    return anyNode(S, [&](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      if (!CE)
        return false;
      for (const Candidate &C : Cands)
        if (C.R->Call == CE)
          return true;
      const FunctionDecl *G = CE->getDirectCallee();
      return G && Deferring.count(G->getCanonicalDecl());
    });
  }

  const Candidate *candidateFor(const CallExpr *CE) const {
    for (const Candidate &C : Cands)
      if (C.R->Call == CE)
        return &C;
    return nullptr;
  }

  enum class Use { Force, Ignore, Escape };

  /// How a reference uses the variable: an access (a force point), part of a
  /// deferred call's receive buffer, unevaluated, or its address escapes.
  Use classify(const Ref &R, const VarDecl *V, const std::vector<Candidate *> &Cs, std::string &Where) const {
    const Stmt *Top = R.E;
    for (const Stmt *P = parent(Top); P; Top = P, P = parent(P)) {
      if (isa<UnaryExprOrTypeTraitExpr>(P))
        return Use::Ignore; // sizeof(v)
      if (isa<ParenExpr, MemberExpr>(P))
        continue;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P);
          AS && AS->getBase()->IgnoreParenImpCasts() == cast<Expr>(Top)->IgnoreParenImpCasts())
        continue; // v[i]: still an object inside v
      if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
        if (IC->getCastKind() == CK_ArrayToPointerDecay) {
          if (const Stmt *G = parent(P); G && isa<ArraySubscriptExpr>(G))
            continue;
          return addressUse(P, V, Cs, Where);
        }
        if (IC->getCastKind() == CK_LValueToRValue)
          return Use::Force;
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(P); U && U->getOpcode() == UO_AddrOf)
        return addressUse(P, V, Cs, Where);
      return Use::Force;
    }
    return Use::Force;
  }

  Use addressUse(const Stmt *Addr, const VarDecl *V, const std::vector<Candidate *> &Cs, std::string &Where) const {
    const Stmt *Top = Addr;
    const Stmt *P = parent(Top);
    while (P && (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(P) ||
                 (isa<BinaryOperator>(P) && cast<BinaryOperator>(P)->isAdditiveOp()))) {
      Top = P;
      P = parent(P);
    }
    if (const auto *CE = dyn_cast_or_null<CallExpr>(P); CE && MPI.count(CE)) {
      for (const Candidate *C : Cs)
        if (C->R->Call == CE && C->R->expr(Role::RecvBuf) == Top)
          return Use::Ignore; // the deferred call's own receive buffer
      return Use::Force;      // another MPI call reads or writes v: wait first
    }
    Where = llvm::formatv("{0}'s address is taken at line {1}: the tool cannot see every access through it",
                          V->getName(), line(Addr->getBeginLoc()))
                .str();
    return Use::Escape;
  }

  /// Child is a declaration that only declarations precede in Block.
  static bool inDeclarations(const CompoundStmt *Block, const Stmt *Child) {
    for (const Stmt *S : Block->body()) {
      if (!isa<DeclStmt>(S))
        return false;
      if (S == Child)
        return true;
    }
    return false;
  }

  /// Where a wait for V must go so that it runs before Node every time.
  bool place(const Stmt *Node, const FunctionDecl *F, const VarDecl *V, const char *Reason, const Stmt *Ref,
             ForcePoint &FP, std::string &Why) const {
    const Stmt *Child = Node;
    // A wait is a collective: it goes only where every rank runs it alike.
    // Code some ranks skip queues nothing (such calls are not deferred), so
    // the wait moves before it.
    auto Uniform = [&](const Stmt *At) { return !Uni.within(At, F); };
    for (const Stmt *P = parent(Child); P; Child = P, P = parent(P)) {
      if (isa<CompoundStmt>(P)) {
        // The braced body of a construct that queues nothing: move up (below).
        if (const Stmt *G = parent(P); G && isa<ForStmt, WhileStmt, DoStmt, IfStmt, SwitchStmt>(G) && !queues(P))
          continue;
        if (!Uniform(Child))
          continue;
        FP.K = ForcePoint::Before;
        FP.At = SM.getExpansionLoc(Child->getBeginLoc());
        FP.Indent = lineIndent(SM, FP.At);
        FP.AsDeclaration = inDeclarations(cast<CompoundStmt>(P), Child);
        return true;
      }
      if (isa<SwitchCase, LabelStmt>(P)) {
        // After the label: "case 1: wait; stmt;" runs the wait exactly when stmt runs.
        const Stmt *Sw = P;
        while (Sw && !isa<SwitchStmt>(Sw))
          Sw = isa<SwitchCase>(P) ? parent(Sw) : nullptr;
        if (Sw && (!queues(Sw) || !Uniform(Child))) { // a switch that queues nothing: wait before it
          Child = Sw;
          P = Sw;
          continue;
        }
        FP.K = ForcePoint::Before;
        FP.At = SM.getExpansionLoc(Child->getBeginLoc());
        FP.Indent = " ";
        return true;
      }
      auto [IsBody, InCond, Loop] = roleIn(P, Child);
      // A wait is a collective: every rank must reach it. Under a condition
      // (or in a loop) that queues nothing, it moves up before the whole
      // construct, which every rank that reaches the force point reaches
      // too; where the construct queues a reduction, the program already
      // needs every rank to run it alike, so the wait may stay inside.
      if (IsBody && (!queues(Child) || !Uniform(Child)))
        continue;
      if (IsBody) {
        FP.K = ForcePoint::Braces;
        FP.At = SM.getExpansionLoc(Child->getBeginLoc());
        FP.End = stmtEnd(Ctx, Child);
        if (FP.End.isInvalid()) {
          Why = llvm::formatv("no place for a wait before line {0}", line(Child->getBeginLoc())).str();
          return false;
        }
        return true;
      }
      if (InCond && Loop && queues(Loop))
        return placeInCondition(P, F, V, Reason, Ref, FP, Why);
    }
    Why = Uniform(Child) ? "no statement to place a wait before"
                         : llvm::formatv("no point before line {0} that every rank reaches alike: {1}",
                                         line(Node->getBeginLoc()), Uni.within(Child, F)->Why)
                               .str();
    return false;
  }

  struct Position {
    bool IsBody = false;        ///< Child is the body (or a branch) of P
    bool InCond = false;        ///< Child is P's loop condition or increment
    const Stmt *Loop = nullptr; ///< P's loop body
  };
  /// Where Child sits in its parent statement P.
  static Position roleIn(const Stmt *P, const Stmt *Child) {
    if (const auto *F = dyn_cast<ForStmt>(P))
      return {F->getBody() == Child, Child == F->getCond() || Child == F->getInc(), F->getBody()};
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return {W->getBody() == Child, Child == W->getCond(), W->getBody()};
    if (const auto *D = dyn_cast<DoStmt>(P))
      return {D->getBody() == Child, Child == D->getCond(), D->getBody()};
    if (const auto *If = dyn_cast<IfStmt>(P))
      return {If->getThen() == Child || If->getElse() == Child, false, nullptr};
    if (const auto *Sw = dyn_cast<SwitchStmt>(P))
      return {Sw->getBody() == Child, false, nullptr};
    return {};
  }

  /// A loop condition (of loop P) that reads V after every iteration that
  /// may queue it: the wait goes inside the condition, next to the read.
  bool placeInCondition(const Stmt *P, const FunctionDecl *F, const VarDecl *V, const char *Reason, const Stmt *Ref,
                        ForcePoint &FP, std::string &Why) const {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Ref);
    if (DRE && Uni.within(DRE, F)) {
      Why = llvm::formatv("the loop condition at line {0} {1} {2}, and ranks may leave the loop at different "
                          "iterations: {3}",
                          line(P->getBeginLoc()), Reason, V->getName(), Uni.within(DRE, F)->Why)
                .str();
      return false;
    }
    const Stmt *RP = DRE ? parent(DRE) : nullptr;
    const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(RP);
    if (!DRE || !IC || (IC->getCastKind() != CK_LValueToRValue && IC->getCastKind() != CK_ArrayToPointerDecay)) {
      Why = llvm::formatv("the loop condition at line {0} {1} {2} other than by reading it", line(P->getBeginLoc()),
                          Reason, V->getName())
                .str();
      return false;
    }
    FP.K = ForcePoint::Comma;
    FP.At = SM.getExpansionLoc(DRE->getBeginLoc());
    FP.End = SM.getExpansionLoc(DRE->getEndLoc());
    return true;
  }

  /// Steps 1 and 2: the uses of V, and which of its calls are worth deferring.
  void worth(const VarDecl *V, std::vector<Candidate *> &Cs) {
    const std::string Name = V->getName().str();
    bool Global = V->hasGlobalStorage();
    // 1. Every use of V: accesses are force points; an escaping address
    // or a use outside any function declines V.
    std::vector<const DeclRefExpr *> Uses;
    std::string Why;
    for (const Ref &R : Col.Refs[V]) {
      if (!R.F) {
        Why = llvm::formatv("{0} is used in an initializer at line {1}", Name, line(R.E->getBeginLoc())).str();
        break;
      }
      Use U = classify(R, V, Cs, Why);
      if (U == Use::Escape)
        break;
      if (U == Use::Force) {
        if (changedByEarlier(R.E->getSourceRange())) {
          Why = llvm::formatv("{0} is used at line {1} in code another transformation changed", Name,
                              line(R.E->getBeginLoc()))
                    .str();
          break;
        }
        Uses.push_back(R.E);
      }
    }
    if (!Why.empty()) {
      for (Candidate *C : Cs) {
        Plan.Declined.push_back(note(*C->R, false, "defer " + C->R->Function + " into " + Name, Why));
        C->Invalid = true;
      }
      return;
    }
    UsesOf[V] = Uses;
    // 2. Worth it? A call helps when no access follows in its function, or
    // another reduction may be queued before the first one.
    const CompoundStmt *Scope = Global ? nullptr : innerScope(V);
    const char *Ends = Scope ? "its block ends" : "the function returns";
    for (Candidate *C : Cs) {
      const FunctionDecl *F = C->R->Caller;
      unsigned CallEnd = off(C->R->Call->getEndLoc());
      const DeclRefExpr *Next = nullptr;
      for (const DeclRefExpr *E : Uses)
        if (functionOf(E) == F && off(E->getBeginLoc()) > CallEnd &&
            (!Next || off(E->getBeginLoc()) < off(Next->getBeginLoc())))
          Next = E;
      unsigned End = off(Scope ? Scope->getRBracLoc() : F->getBody()->getEndLoc());
      unsigned Limit = Next ? off(Next->getBeginLoc()) : End;
      bool Joined = false;
      for (const CallExpr *CE : Col.Calls[F]) {
        unsigned O = off(CE->getBeginLoc());
        if (CE == C->R->Call || O <= CallEnd || O >= Limit)
          continue;
        const FunctionDecl *G = CE->getDirectCallee();
        if (candidateFor(CE) || (G && Deferring.count(G->getCanonicalDecl())))
          Joined = true;
      }
      if (!Next && Global)
        C->Worth = C->AtExit = true,
        Why = llvm::formatv("its result {0} is not used before the end of {1}", Name, C->R->EnclosingFunction).str();
      else if (Joined)
        C->Worth = true,
        Why = llvm::formatv("another reduction can join it before {0}",
                            Next ? llvm::formatv("{0} is read at line {1}", Name, line(Next->getBeginLoc())).str()
                                 : std::string(Ends))
                  .str();
      else
        C->NotWorth = Next ? llvm::formatv("its result is used at line {0} before any other reduction could join it",
                                           line(Next->getBeginLoc()))
                                 .str()
                           : "nothing could join it before " + std::string(Ends);
      C->NextUse = Next ? off(Next->getBeginLoc()) : End;
      if (C->Worth)
        WorthWhy[C] = Why;
    }
  }

  /// A call that follows a deferred one still pending joins it: defer it too.
  void joinPending() {
    for (Candidate &C : Cands) {
      if (C.Worth || C.Invalid)
        continue;
      unsigned At = off(C.R->Call->getBeginLoc());
      for (const Candidate &D : Cands)
        if (D.Worth && D.R->Caller == C.R->Caller && off(D.R->Call->getEndLoc()) < At && D.NextUse > At) {
          C.Worth = true;
          WorthWhy[&C] = llvm::formatv("it joins the reduction of line {0}, still pending here", D.R->Line).str();
          break;
        }
      if (!C.Worth)
        Plan.Declined.push_back(
            note(*C.R, false, "defer " + C.R->Function + " into " + C.V->getName().str(), C.NotWorth));
    }
  }

  /// The force points of one variable V, and why it cannot be deferred
  /// when it cannot (Why).
  struct VarForces {
    Analysis &A;
    const VarDecl *V;
    std::vector<Candidate *> &Cs;
    const std::string Name;
    const bool Global;
    std::vector<Candidate *> Deferred; ///< the candidates worth deferring
    std::vector<ForcePoint> Forces;
    std::string Why;
    std::set<const FunctionDecl *> CallersDone;
    unsigned AfterFinalize = 0; ///< uses that MPI_Finalize serves (no wait)

    VarForces(Analysis &A, const VarDecl *V, std::vector<Candidate *> &Cs)
        : A(A), V(V), Cs(Cs), Name(V->getName().str()), Global(V->hasGlobalStorage()) {
      for (Candidate *C : Cs)
        if (C->Worth)
          Deferred.push_back(C);
    }

    /// The runtime delivers each communicator's results in order, not across
    /// communicators: one variable is deferred on one communicator only.
    bool oneCommunicator() {
      auto CommOf = [&](const Candidate *C) { return A.Ev.commId(C->R->expr(Role::Comm), C->R->Caller, C->R->Call); };
      const CommId FirstComm = CommOf(Deferred.front());
      for (Candidate *C : Deferred) {
        if (C == Deferred.front() || CommOf(C) == FirstComm)
          continue;
        for (Candidate *D : Deferred)
          A.Plan.Declined.push_back(A.note(*D->R, false, "defer " + D->R->Function + " into " + Name,
                                           llvm::formatv("{0} also receives results on another communicator (line "
                                                         "{1}): their order across communicators would be lost",
                                                         Name, C->R->Line)
                                               .str()));
        for (Candidate *D : Deferred)
          D->Worth = false;
        return false;
      }
      return true;
    }

    /// Whether S may run after a deferred call (anywhere, for a global).
    bool after(const Stmt *S) const {
      if (Global)
        return true;
      for (Candidate *C : Deferred) {
        if (A.off(S->getBeginLoc()) > A.off(C->R->Call->getEndLoc()))
          return true;
        auto X = A.loopsAround(S), Y = A.loopsAround(C->R->Call);
        for (const Stmt *L : X)
          if (Y.count(L))
            return true;
      }
      return false;
    }

    void add(const Stmt *Node, const FunctionDecl *F, const Stmt *Ref, const char *Reason, std::string What) {
      if (A.afterFinalize(Node)) {
        ++AfterFinalize; // MPI_Finalize delivered every result before Node
        return;
      }
      ForcePoint FP;
      FP.Var = Name;
      std::string W;
      if (!A.place(Node, F, V, Reason, Ref, FP, W)) {
        Why = W;
        return;
      }
      if (std::string G = A.gotoProblem(F, FP.At, Name); !G.empty()) {
        Why = G;
        return;
      }
      if (!A.Placed.insert({A.off(FP.At), Name}).second)
        return;
      FP.Note = A.forceNote(Node->getBeginLoc(), Name, std::move(What));
      Forces.push_back(std::move(FP));
    }

    /// A force point in a function that only some ranks run would be a
    /// collective only they reach: its callers wait before calling it
    /// instead (the function then finds nothing pending).
    void site(const Stmt *Node, const FunctionDecl *F, const Stmt *Ref, const char *Reason, std::string What) {
      if (!A.Uni.entry(F)) {
        add(Node, F, Ref, Reason, std::move(What));
        return;
      }
      if (!CallersDone.insert(F->getCanonicalDecl()).second)
        return;
      auto It = A.Ev.index().CallSites.find(F->getCanonicalDecl());
      if (It == A.Ev.index().CallSites.end() || It->second.empty()) {
        Why = llvm::formatv("{0} is used in {1}, which only some ranks may run ({2}), and no call of it is in "
                            "this file to wait before",
                            Name, F->getName(), A.Uni.entry(F)->Why)
                  .str();
        return;
      }
      for (auto [Caller, CE] : It->second)
        site(CE, Caller, nullptr, "reads", callNote(CE, F));
    }

    std::string callNote(const CallExpr *CE, const FunctionDecl *Callee) const {
      return llvm::formatv("line {0} calls {1}, which uses {2}, under a condition", A.line(CE->getBeginLoc()),
                           Callee->getName(), Name)
          .str();
    }

    /// Force points: before each access that may follow a deferred call
    /// (anywhere, for a global), and before a local's function returns.
    void placeAll() {
      for (const DeclRefExpr *E : A.UsesOf[V])
        if (after(E))
          site(E, A.functionOf(E), E, "uses", llvm::formatv("line {0} uses {1}", A.line(E->getBeginLoc()), Name).str());
      // A reduction into V that stays immediate writes V at once: what is
      // pending for V must land before it, or it would land after and undo it.
      for (Candidate *C : Cs)
        if (!C->Worth && (Global || after(C->R->Call)))
          site(C->R->Call, C->R->Caller, nullptr, "writes",
               llvm::formatv("line {0} writes {1} with a reduction that is not deferred", C->R->Line, Name).str());
      // A communicator that is freed cannot deliver what is pending on it.
      for (auto [F, CE] : A.Frees)
        if (Global || (F == Deferred.front()->R->Caller && after(CE)))
          site(CE, F, nullptr, "",
               llvm::formatv("line {0} frees a communicator: what is pending must be delivered first",
                             A.line(CE->getBeginLoc()))
                   .str());
      if (Global)
        conditionalCallers();
      if (V->hasLocalStorage())
        localEnd();
    }

    /// A function that reads the global V waits inside; where it is called
    /// under a condition, every rank must still wait at the same point: wait
    /// before the construct (the callee's own wait then finds nothing).
    void conditionalCallers() {
      std::set<const FunctionDecl *> Reads;
      for (const DeclRefExpr *E : A.UsesOf[V])
        Reads.insert(A.functionOf(E)->getCanonicalDecl());
      A.closeOverCallers(Reads);
      for (auto &[F, Calls] : A.Col.Calls)
        for (const CallExpr *CE : Calls)
          if (const FunctionDecl *G = CE->getDirectCallee(); G && G->getCanonicalDecl() != F->getCanonicalDecl() &&
                                                             Reads.count(G->getCanonicalDecl()) && A.conditional(CE))
            site(CE, F, nullptr, "reads", callNote(CE, G));
    }

    /// A local V: a wait before every return after a deferred call, and at
    /// the end of the function when control can reach it.
    void localEnd() {
      const FunctionDecl *F = Deferred.front()->R->Caller;
      if (const CompoundStmt *B = A.innerScope(V)) {
        blockEnd(B, F);
        return;
      }
      for (const ReturnStmt *RS : A.Col.Returns[F])
        if (after(RS))
          add(RS, F, nullptr, "", llvm::formatv("{0} dies when {1} returns", Name, F->getName()).str());
      const auto *Body = cast<CompoundStmt>(F->getBody());
      bool LastWaits = !Body->body_empty() && A.Placed.count({A.off(Body->body_back()->getBeginLoc()), Name});
      // Where only some ranks reach the end (the others returned earlier and
      // waited before leaving), nothing can be pending there. A last
      // statement the CFG does not hold (a label on an empty statement) is
      // not known to be reached by some ranks only: no wait could be placed
      // on proof, so V's calls stay as written.
      std::optional<Divergence> EndDv = Body->body_empty() ? std::nullopt : A.Uni.within(Body->body_back(), F);
      if (EndDv && EndDv->Unplaced) {
        Why = llvm::formatv("{0} dies at the end of {1}, whose last statement (line {2}) the tool cannot place in "
                            "its control flow",
                            Name, F->getName(), EndDv->Line)
                  .str();
        return;
      }
      bool EndUniform = !EndDv;
      if (LastWaits || !EndUniform || (!Body->body_empty() && isa<ReturnStmt>(Body->body_back())))
        return;
      beforeBrace(Body, F, llvm::formatv("{0} dies at the end of {1}", Name, F->getName()).str());
    }

    /// A local V of an inner block B (left only through its end, and entered
    /// by every rank, since a deferred call inside it is run by all): a wait
    /// before B's closing brace, each time B runs.
    void blockEnd(const CompoundStmt *B, const FunctionDecl *F) {
      if (!B->body_empty() && (A.Placed.count({A.off(B->body_back()->getBeginLoc()), Name})))
        return;
      beforeBrace(B, F,
                  llvm::formatv("{0} dies at the end of its block (line {1})", Name,
                                A.line(A.SM.getExpansionLoc(B->getRBracLoc())))
                      .str());
    }

    /// A wait for V just before B's closing brace.
    void beforeBrace(const CompoundStmt *B, const FunctionDecl *F, std::string What) {
      if (llvm::any_of(B->body(), isFinalize) || A.afterFinalize(B)) {
        ++AfterFinalize; // MPI_Finalize delivered every result before the brace
        return;
      }
      ForcePoint FP;
      FP.K = ForcePoint::BeforeBrace;
      FP.At = A.SM.getExpansionLoc(B->getRBracLoc());
      if (std::string G = A.gotoProblem(F, FP.At, Name); !G.empty()) {
        Why = G;
        return;
      }
      FP.Indent = lineIndent(A.SM, FP.At);
      FP.Var = Name;
      FP.Note = A.forceNote(FP.At, Name, std::move(What));
      Forces.push_back(std::move(FP));
    }
  };

  void variable(const VarDecl *V, std::vector<Candidate *> &Cs) {
    if (!UsesOf.count(V))
      return; // declined in worth()
    VarForces VF(*this, V, Cs);
    if (VF.Deferred.empty() || !VF.oneCommunicator())
      return;
    VF.placeAll();
    if (!VF.Why.empty()) {
      for (Candidate *C : VF.Deferred)
        Plan.Declined.push_back(note(*C->R, false, "defer " + C->R->Function + " into " + VF.Name, VF.Why));
      return;
    }
    for (Candidate *C : VF.Deferred)
      Plan.Calls.push_back(deferredCall(*C, VF));
    for (ForcePoint &FP : VF.Forces)
      Plan.Forces.push_back(std::move(FP));
  }

  DeferredCall deferredCall(Candidate &C, const VarForces &VF) {
    DeferredCall D;
    D.Callee = SM.getExpansionLoc(C.R->Call->getCallee()->getBeginLoc());
    D.From = C.R->Function;
    D.To = lazyCounterpart(C.R->Function).str();
    D.PendingAtExit = C.AtExit;
    D.Summary = llvm::formatv("{0}({1} -> {2})", C.R->Function, Ev.text(C.R->expr(Role::SendBuf)),
                              Ev.text(C.R->expr(Role::RecvBuf)))
                    .str();
    size_t N = VF.Forces.size();
    std::string Waits =
        N == 0 ? std::string(VF.AfterFinalize ? "MPI_Finalize delivers it to its uses, all after it"
                                              : "nothing uses it afterwards")
               : llvm::formatv("{0} force point{1} wait{2} for it{3}", N, N == 1 ? "" : "s", N == 1 ? "s" : "",
                               VF.AfterFinalize ? " (MPI_Finalize delivers it to the uses after it)" : "")
                     .str();
    D.Note = note(*C.R, true, "deferred " + D.Summary + " to the lazy runtime",
                  WorthWhy[&C] + llvm::formatv("; {0} is a {1} whose address only MPI calls use, and {2}", VF.Name,
                                               VF.Global ? "variable of this file" : "local variable", Waits)
                                     .str());
    D.Note.Kind = NoteKind::Deferred;
    D.Note.Saves = "one collective per reduction that joins it before the next force point";
    return D;
  }

  /// Whether S runs only under a condition or in a loop of its function.
  bool conditional(const Stmt *S) const {
    for (const Stmt *P = parent(S); P; P = parent(P)) {
      if (isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt, ConditionalOperator>(P))
        return true;
      if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isLogicalOp())
        return true;
    }
    return false;
  }

  const FunctionDecl *functionOf(const DeclRefExpr *E) const {
    for (const Ref &R : Col.Refs.at(cast<VarDecl>(E->getDecl())->getCanonicalDecl()))
      if (R.E == E)
        return R.F;
    return nullptr;
  }

  std::map<const Candidate *, std::string> WorthWhy;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> UsesOf;
};

} // namespace

DeferralPlan ompi::analyzeLazyDeferral(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                       const std::vector<std::pair<unsigned, unsigned>> &Changed) {
  Analysis A(Ctx, Ev, Uni, Calls, Changed);
  A.run();
  return std::move(A.Plan);
}
