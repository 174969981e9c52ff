//===- FusionPlan.cpp - Which reductions fuse statically, and why ---------===//
#include "analysis/FusionPlan.h"
#include "analysis/Effects.h"
#include "analysis/ReductionHelpers.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace clang;
using namespace ompi;

namespace {

bool isVolatileObject(const VarDecl *V) {
  QualType T = V->getType();
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  return T.isVolatileQualified();
}

struct Candidate {
  const CallExpr *Call = nullptr;
  const CallResult *Result = nullptr;
  const Stmt *S = nullptr;
  std::string Key;       ///< function, communicator, op, datatype, root
  std::string Coarse;    ///< function, communicator, root: what a mixed collective needs alike
  std::string MixWhy;    ///< why it shares no collective with calls of another op or datatype
  std::string Invalid;   ///< why it cannot take part in a fusion
  bool Declined = false; ///< a note already says why it was not fused
  /// The result is reached through a pointer parameter (an out-parameter of
  /// a helper): its object is unknown, so the calls of its group must be
  /// consecutive statements, and the results are unpacked in call order.
  bool PointerResult = false;
  const ReductionHelper *Helper = nullptr; ///< x = helper(...): the helper
  const VarDecl *HelperResult = nullptr;   ///< and x
  FusionMember M;
  std::string Function, TypeText, CType, OpText, CommText, RootText;
  struct Object {
    const VarDecl *Var;
    int64_t Begin, End; ///< byte range
    bool Recv;
  };
  std::vector<Object> Objects;
  std::set<const VarDecl *> Protected; ///< receive buffers and result variable
  std::set<const VarDecl *> CountVars; ///< variables a run-time count reads
};

class Analysis {
public:
  Analysis(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls, const MachineProfile *Profile)
      : File(Calls.File), Ctx(Ctx), SM(Ctx.getSourceManager()), Ev(Ev), Uni(Uni), Profile(Profile),
        Helpers(std::make_unique<ReductionHelpers>(Ctx, Calls)) {
    for (const CallResult &C : Calls.Calls) {
      ByCall[C.Call] = &C;
      SetsErrhandler |= setsErrorHandler(C.Function);
    }
  }

  FusionPlan Plan;

  /// The reductions of one block: consecutive compatible calls fuse.
  void block(const CompoundStmt *CS, const FunctionDecl *F) {
    std::vector<Candidate> Cands(CS->size());
    if (collect(CS, Cands) < 2)
      return;
    for (Candidate &C : Cands)
      if (C.Call)
        validate(C, F);
    Groups.clear();
    Closed.clear();
    for (unsigned K = 0; K < Cands.size(); ++K)
      if (Cands[K].Call)
        join(Cands, K, F);
    std::vector<std::string> Keys;
    for (auto &KV : Groups)
      Keys.push_back(KV.first);
    for (const std::string &Key : Keys)
      close(Cands, Key);
    merge(Cands, F);
    for (const Open &O : Closed)
      if (O.Members.size() == 1)
        explainAlone(Cands, O.Members.front());
      else if (O.Members.size() >= 2)
        emit(Cands, O);
  }

private:
  /// A group being built: its members (indices into the block's
  /// candidates) and the statements between them.
  struct Open {
    std::vector<unsigned> Members;
    unsigned Between = 0;
  };
  std::map<std::string, Open> Groups; ///< by candidate key, in the current block
  std::vector<Open> Closed;           ///< the block's groups (one member: fused with nothing)

  /// The statements of CS, each with its reduction call if it is one;
  /// returns the number of calls.
  unsigned collect(const CompoundStmt *CS, std::vector<Candidate> &Cands) {
    unsigned NCalls = 0, I = 0;
    for (const Stmt *S : CS->body()) {
      Candidate &C = Cands[I++];
      C.S = S;
      const Stmt *Inner = S;
      while (const auto *LS = dyn_cast<LabelStmt>(Inner))
        Inner = LS->getSubStmt();
      const CallExpr *CE = reductionCall(Inner, C);
      if (!CE)
        continue;
      C.Call = CE;
      if (Inner != S)
        C.Invalid =
            llvm::formatv("the call is labelled: a jump to line {0} would skip the others", line(S->getBeginLoc()))
                .str();
      ++NCalls;
    }
    return NCalls;
  }

  /// Candidate K joins the open group of its key, or starts one.
  void join(std::vector<Candidate> &Cands, unsigned K, const FunctionDecl *F) {
    Candidate &C = Cands[K];
    if (!C.Invalid.empty()) {
      decline(C, C.Invalid);
      C.Declined = true;
      return;
    }
    auto It = Groups.find(C.Key);
    if (It == Groups.end()) {
      Groups[C.Key].Members.push_back(K);
      return;
    }
    Open &G = It->second;
    std::string Why = joinProblem(Cands, G.Members, K, F);
    if (Why.empty()) {
      G.Between += K - G.Members.back() - 1;
      G.Members.push_back(K);
      return;
    }
    decline(C, llvm::formatv("not fused with the call at line {0}: {1}", Cands[G.Members.back()].M.Line, Why).str());
    C.Declined = true;
    close(Cands, C.Key);
    Groups[C.Key].Members.push_back(K);
  }

  /// Why candidate K cannot join the group Members, or "". Every member
  /// moves down to K: the statements after the group's last member must
  /// leave all their results alone; K itself must not read or overwrite
  /// them either.
  std::string joinProblem(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members, unsigned K,
                          const FunctionDecl *F) {
    std::string Why = pointerProblem(Cands, Members, K);
    if (Why.empty())
      Why = ownStatement(Cands, Members, F);
    if (Why.empty())
      Why = crossable(Cands, Members, Members.back() + 1, K, F);
    if (Why.empty())
      Why = disjoint(Cands, Members, Cands[K]);
    if (Why.empty())
      Why = countsStable(Cands, Members, K);
    return Why;
  }

  /// Results reached through pointers are unknown objects: nothing may run
  /// between the calls (the fused call's unpacking in call order then
  /// leaves memory as the calls did, even if two pointers alias).
  std::string pointerProblem(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members, unsigned K) {
    const Candidate *P = Cands[K].PointerResult ? &Cands[K] : nullptr;
    for (unsigned Idx : Members)
      if (!P && Cands[Idx].PointerResult)
        P = &Cands[Idx];
    if (!P)
      return "";
    if (K != Members.back() + 1)
      return llvm::formatv("the result of the call at line {0} is reached through a pointer, so no statement may "
                           "come between the calls",
                           P->M.Line)
          .str();
    if (Cands[K].M.Wrapped || llvm::any_of(Members, [&](unsigned I) { return Cands[I].M.Wrapped; }))
      return llvm::formatv("the result of the call at line {0} is reached through a pointer, and a macro around a "
                           "call would run code between the calls",
                           P->M.Line)
          .str();
    return "";
  }

  /// The open group of Key ends.
  void close(const std::vector<Candidate> &Cands, const std::string &Key) {
    auto It = Groups.find(Key);
    if (It == Groups.end())
      return;
    Closed.push_back(std::move(It->second));
    Groups.erase(It);
  }

  /// How the calls Members can share one collective (Mix::Why says why not).
  Mix mixOf(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members) const {
    std::vector<MixInput> In;
    for (unsigned Idx : Members) {
      const FusionMember &M = Cands[Idx].M;
      In.push_back(
          {M.Op, M.Type, M.CType, M.Size, M.CountText.empty() ? std::optional<int64_t>(M.Count) : std::nullopt});
    }
    return mixReductions(In, Profile);
  }

  /// Groups of one function, communicator and root but different ops or
  /// datatypes join where one collective can serve them exactly
  /// (FusionMix.h) and the proof of a single group holds for the union:
  /// the union is checked call by call as if the calls had joined in turn.
  void merge(std::vector<Candidate> &Cands, const FunctionDecl *F) {
    llvm::sort(Closed, [](const Open &A, const Open &B) { return A.Members.front() < B.Members.front(); });
    for (size_t I = 0; I < Closed.size(); ++I)
      for (size_t J = I + 1; J < Closed.size() && !Closed[I].Members.empty(); ++J) {
        Open &A = Closed[I], &B = Closed[J];
        if (B.Members.empty() || Cands[A.Members.front()].Coarse != Cands[B.Members.front()].Coarse)
          continue;
        std::vector<unsigned> U(A.Members);
        U.insert(U.end(), B.Members.begin(), B.Members.end());
        llvm::sort(U);
        Mix X = mixOf(Cands, U);
        std::string Why = X.Why;
        if (Why.empty() && X.Kind == FusionKind::Composite &&
            llvm::any_of(U, [&](unsigned I) { return Cands[I].Helper != nullptr; }))
          Why = "a helper's result does not take part in a composite op";
        Open Joined{{U.front()}, 0};
        unsigned Failed = 0; // the call that could not join, when one could not
        for (size_t N = 1; N < U.size() && Why.empty(); ++N) {
          Why = joinProblem(Cands, Joined.Members, U[N], F);
          Failed = Why.empty() ? 0 : U[N];
          Joined.Between += U[N] - Joined.Members.back() - 1;
          Joined.Members.push_back(U[N]);
        }
        if (!Why.empty()) {
          for (unsigned Idx : U)
            if (Cands[Idx].MixWhy.empty())
              Cands[Idx].MixWhy = !Failed || Idx == Failed
                                      ? Why
                                      : llvm::formatv("one collective could serve both, but the call at line {0} "
                                                      "cannot join: {1}",
                                                      Cands[Failed].M.Line, Why)
                                            .str();
          continue;
        }
        A = std::move(Joined);
        B.Members.clear();
      }
  }

  /// A group of two or more calls becomes a fusion.
  void emit(const std::vector<Candidate> &Cands, const Open &O) {
    FusionGroup G;
    // The collective runs where the last call was: its texts are valid there.
    const Candidate &Last = Cands[O.Members.back()];
    G.Function = Last.Function;
    G.TypeText = Last.TypeText;
    G.CType = Last.CType;
    G.OpText = Last.OpText;
    G.CommText = Last.CommText;
    G.RootText = Last.RootText;
    G.Rooted = Last.Result->Model->find(Role::Root).has_value();
    G.Between = O.Between;
    for (unsigned Idx : O.Members)
      G.Members.push_back(Cands[Idx].M);
    Mix X = mixOf(Cands, O.Members);
    G.Kind = X.Kind;
    G.Rule = X.Rule;
    if (X.Kind == FusionKind::OneOp) {
      G.OpText = X.Op;
      G.TypeText = X.Type;
      G.CType = X.CType;
    } else if (X.Kind == FusionKind::Composite) {
      G.Lanes = X.Lanes;
      G.Bytes = X.Bytes;
      G.CType = "unsigned char";
    }
    for (size_t I = 0; I < G.Members.size(); ++I) {
      G.Members[I].Enc = X.Enc.empty() ? Encoding::Plain : X.Enc[I];
      G.Members[I].Lane = X.Lane.empty() ? 0 : X.Lane[I];
    }
    for (unsigned Idx : O.Members)
      if (const ReductionHelper *H = Cands[Idx].Helper;
          H && llvm::none_of(Plan.Helpers, [&](const HelperVariant &V) { return V.Helper == H->Name; }))
        Plan.Helpers.push_back({H->Name, H->ValueType, H->Params, H->Body, H->After, H->Local, H->Proto});
    Plan.Groups.push_back(std::move(G));
  }

  std::string File;
  ASTContext &Ctx;
  SourceManager &SM;
  Evaluator &Ev;
  Uniformity &Uni;
  const MachineProfile *Profile;
  llvm::DenseMap<const CallExpr *, const CallResult *> ByCall;
  Effects Eff{Ctx};
  std::unique_ptr<ReductionHelpers> Helpers;
  bool SetsErrhandler = false; ///< the file installs an error handler somewhere
  const Stmt *Skip = nullptr;  ///< check() leaves this subtree alone

  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }

  /// A valid call that fused with nothing: say how it differs from the
  /// nearest other valid call of the block (calls that were turned down for
  /// a conflict already have their note).
  void explainAlone(const std::vector<Candidate> &Cands, unsigned K) {
    const Candidate &C = Cands[K];
    if (C.Declined)
      return;
    const Candidate *Near = nullptr;
    for (unsigned D = 1; D < Cands.size() && !Near; ++D)
      for (long J : {long(K) - long(D), long(K) + long(D)})
        if (J >= 0 && J < long(Cands.size()) && Cands[J].Call && Cands[J].Invalid.empty()) {
          Near = &Cands[J];
          break;
        }
    if (!Near)
      return;
    llvm::SmallVector<llvm::StringRef, 5> A, B;
    llvm::StringRef(C.Key).split(A, '|');
    llvm::StringRef(Near->Key).split(B, '|');
    static const char *What[] = {"function", "communicator", "op", "datatype", "root"};
    for (unsigned I = 0; I < A.size() && I < B.size(); ++I)
      if (A[I] != B[I]) {
        // Different ops or datatypes alone could still share a collective.
        std::string Mixed = (I == 2 || I == 3) && C.Coarse == Near->Coarse && !C.MixWhy.empty() ? ": " + C.MixWhy : "";
        decline(C, llvm::formatv("not fused with the call at line {0}: different {1} ({2}, not {3}){4}", Near->M.Line,
                                 What[I], I == 1 ? C.CommText : A[I].str(), I == 1 ? Near->CommText : B[I].str(), Mixed)
                       .str());
        return;
      }
  }

  void decline(const Candidate &C, std::string Why) {
    Plan.Declined.push_back(ChangeNote::at("reduction-fusion", false, C.Result ? C.Result->File : File, C.M.Line,
                                           C.M.Column, C.Function + " not fused", std::move(Why)));
  }

  /// The MPI_Allreduce / MPI_Reduce call S consists of, if it is one:
  /// "MPI_X(...);", "(void)MPI_X(...);" or "rc = MPI_X(...);".
  const CallExpr *reductionCall(const Stmt *S, Candidate &C) {
    const auto *E = dyn_cast<Expr>(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
      if (const auto *X = dyn_cast<VarDecl>(DS->getSingleDecl()); X && X->getInit())
        if (const auto *CE = dyn_cast<CallExpr>(X->getInit()->IgnoreParenImpCasts()))
          return helperCall(X->getInit(), X, CE, C, /*DeclForm=*/true);
    if (!E)
      return wrappedCall(S, C);
    const Expr *Inner = E->IgnoreParens();
    const VarDecl *RC = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(Inner); BO && BO->getOpcode() == BO_Assign) {
      RC = dyn_cast_or_null<VarDecl>(isa<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())
                                         ? cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())->getDecl()
                                         : nullptr);
      if (!RC)
        return nullptr;
      Inner = BO->getRHS();
    }
    const auto *CE = dyn_cast<CallExpr>(Inner->IgnoreParenCasts());
    if (!CE || !CE->getDirectCallee() || !CE->getDirectCallee()->getIdentifier())
      return wrappedCall(S, C);
    if (RC && !isMPIFunctionName(CE->getDirectCallee()->getName()))
      return helperCall(E, RC, CE, C, /*DeclForm=*/false);
    if (!take(CE, C))
      return nullptr;
    if (RC) {
      C.M.ResultCode = RC->getName().str();
      C.Protected.insert(RC);
    }
    C.M.Expr = fileRange(E);
    return CE;
  }

  /// x = H(args) (E; or, DeclForm, the initializer of x) where H is a
  /// reduction helper: the candidate is H's reduction, run through its
  /// variant where the call was.
  const CallExpr *helperCall(const Expr *E, const VarDecl *X, const CallExpr *CE, Candidate &C, bool DeclForm) {
    const FunctionDecl *H = CE->getDirectCallee();
    if (!H || !H->getIdentifier() || !H->hasBody())
      return nullptr;
    const ReductionHelper &RH = Helpers->of(H);
    if (!RH.Why.empty()) {
      // A function that holds a reduction but cannot be split: say why.
      bool Reduces = anyNode(H->getBody(), [](const Stmt *S) {
        const auto *X = dyn_cast<CallExpr>(S);
        const FunctionDecl *D = X ? X->getDirectCallee() : nullptr;
        return D && D->getIdentifier() && isFusibleReduction(D->getName());
      });
      if (!Reduces)
        return nullptr;
      C.Function = RH.Name + "()";
      C.M.Line = line(CE->getBeginLoc());
      C.M.Column = SM.getExpansionColumnNumber(CE->getBeginLoc());
      C.Invalid = "it cannot be split into a local part and the reduction whose result it returns: " + RH.Why;
      return CE;
    }
    C.Helper = &RH;
    C.HelperResult = X;
    C.Result = RH.Reduction;
    C.Function = RH.Reduction->Function;
    C.M.Line = line(CE->getBeginLoc());
    C.M.Column = SM.getExpansionColumnNumber(CE->getBeginLoc());
    C.M.Expr = fileRange(E);
    C.M.DeclForm = DeclForm;
    C.M.Helper = RH.Name;
    std::string Call = textOf(CE);
    if (!llvm::StringRef(Call).starts_with(RH.Name + "(") && !llvm::StringRef(Call).starts_with(RH.Name + " ("))
      C.Invalid = "the call of " + RH.Name + " is not written as " + RH.Name + "(...)";
    else
      C.M.HelperArgs = llvm::StringRef(Call).drop_front(RH.Name.size()).ltrim().str();
    return CE;
  }

  /// Whether CE is a fusible reduction of the report; fills C's identity.
  bool take(const CallExpr *CE, Candidate &C) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || !isFusibleReduction(Callee->getName()))
      return false;
    auto It = ByCall.find(CE);
    if (It == ByCall.end())
      return false;
    C.Result = It->second;
    C.Function = Callee->getName().str();
    C.M.Line = C.Result->Line;
    C.M.Column = C.Result->Column;
    return true;
  }

  /// A statement a macro made around one reduction written as its argument
  /// (CHECK(MPI_Allreduce(...));): the call, if S holds exactly one MPI
  /// call and it is that.
  const CallExpr *wrappedCall(const Stmt *S, Candidate &C) {
    if (!S->getBeginLoc().isMacroID())
      return nullptr;
    std::vector<const CallExpr *> MPICalls;
    anyNode(S, [&](const Stmt *X) {
      const auto *CE = dyn_cast<CallExpr>(X);
      const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
      if (Callee && Callee->getIdentifier() && isMPIFunctionName(Callee->getName()) && !endsProcess(Callee->getName()))
        MPICalls.push_back(CE);
      return false;
    });
    if (MPICalls.size() != 1 || !take(MPICalls.front(), C))
      return nullptr;
    const CallExpr *CE = MPICalls.front();
    // Written in the macro's body, the call has no text of its own in the
    // file (M.Expr stays invalid and placeProblem says so).
    if (SM.isMacroArgExpansion(CE->getBeginLoc()))
      C.M.Expr = fileRange(CE);
    C.M.Wrapped = true;
    if (std::string Why = runsOnce(CE, S); !Why.empty() && C.M.Expr.isValid())
      C.Invalid = "the macro around the call " + Why;
    return CE;
  }

  /// Why the statement S that a macro made around CE may run CE other than
  /// exactly once, or "": CE's path from the start of S has no loop, no
  /// condition it depends on and no jump before it.
  std::string runsOnce(const CallExpr *CE, const Stmt *S) {
    const Stmt *Child = CE;
    while (Child != S) {
      const Stmt *P = parentStmt(Ctx, DynTypedNode::create(*Child));
      if (!P)
        return "is not one statement";
      std::string Why = onPath(P, Child);
      if (!Why.empty())
        return Why;
      Child = P;
    }
    return "";
  }

  /// Why Child, directly inside P, may not run exactly once when P runs.
  std::string onPath(const Stmt *P, const Stmt *Child) {
    if (isa<ParenExpr, CastExpr, UnaryOperator, CallExpr, DeclStmt, FullExpr>(P))
      return "";
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->isLogicalOp() && Child != BO->getLHS() ? "runs it only when a condition holds" : "";
    if (const auto *CO = dyn_cast<ConditionalOperator>(P))
      return Child == CO->getCond() ? "" : "runs it only when a condition holds";
    if (const auto *IS = dyn_cast<IfStmt>(P))
      return Child == IS->getCond() ? "" : "runs it only when a condition holds";
    if (isa<ForStmt, WhileStmt>(P))
      return "runs it in a loop";
    if (const auto *DS = dyn_cast<DoStmt>(P)) {
      Expr::EvalResult R;
      bool Once = DS->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
      return Once ? "" : "runs it in a loop";
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (anyNode(Before, [](const Stmt *X) { return isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt>(X); }))
          return "may jump past it";
      }
      return "";
    }
    return "runs it inside a statement that may not run it exactly once";
  }

  /// E's extent in the file: the text as written, a macro argument, or the
  /// whole of a macro invocation that expands to exactly E; invalid if E's
  /// text is (partly) in a macro's body.
  CharSourceRange fileRange(const Expr *E) {
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
  }

  /// The text for argument A (expression E) at the fused point: as written,
  /// or, for one written in a macro's body, its static value; "" if neither.
  std::string spelling(const ArgResult &A, const Expr *E) {
    std::string T = textOf(E);
    if (T.empty() && A.Class == ArgClass::Static)
      T = A.Value;
    return T;
  }

  std::string textOf(const Expr *E) { return fileText(SM, Ctx.getLangOpts(), E); }

  /// Check everything about one call that does not depend on its neighbours.
  /// The arguments of a candidate, as validate() reads them.
  struct Args {
    const ArgResult *Count = nullptr, *Type = nullptr, *Op = nullptr, *Comm = nullptr, *Send = nullptr, *Recv = nullptr,
                    *Root = nullptr;
    int64_t TypeSize = 0;
  };

  /// Whether C can take part in a fusion; if not, C.Invalid says why.
  void validate(Candidate &C, const FunctionDecl *F) {
    Args A;
    std::string Why = placeProblem(C, F);
    if (Why.empty() && C.Helper)
      Why = helperProblem(C, F, A);
    if (Why.empty() && !C.Helper)
      Why = argumentProblem(C, F, A);
    if (Why.empty() && !C.Helper)
      Why = bufferProblem(C, F, A);
    if (Why.empty())
      Why = statementProblem(C);
    for (const VarDecl *O : C.Protected)
      if (auto L = Why.empty() ? Eff.escapes(O, F) : std::nullopt)
        Why = llvm::formatv("the address of {0} escapes at line {1}", O->getName(), *L).str();
    if (!Why.empty() && C.Invalid.empty())
      C.Invalid = std::move(Why);
  }

  /// The build asks for -Wdeclaration-after-statement (ompi-opt itself runs
  /// with -w, so the options say it, not the diagnostics engine).
  bool warnsMixedDeclarations() const {
    bool On = false;
    for (const std::string &W : Ctx.getDiagnostics().getDiagnosticOptions().Warnings)
      if (W == "declaration-after-statement" || W == "error=declaration-after-statement")
        On = true;
      else if (W == "no-declaration-after-statement")
        On = false;
    return On;
  }

  /// Where the call is: not in a macro, run alike by every rank, in C99.
  std::string placeProblem(Candidate &C, const FunctionDecl *F) {
    if (C.M.Expr.isInvalid())
      return "the call is part of a macro's body (only a macro that is the whole call, or a call written as a "
             "macro's argument, is rewritten)";
    if (C.M.Wrapped && SetsErrhandler)
      return "the call's return code goes to a macro, and this file sets error handlers: an earlier call's code "
             "could not be reported where it was";
    if (std::optional<Divergence> D = Uni.at(C.S, F))
      // Fusing here would change the collective sequence of the ranks that
      // run this code and not of the others (which may run other calls).
      return "only some ranks may run it, so fusing it would change their sequence of collectives and not the "
             "others' (" +
             D->Why + ")";
    if (!Ctx.getLangOpts().C99)
      return "C89 does not allow the declaration the fused code needs";
    if (warnsMixedDeclarations())
      return "the build warns of declarations after statements (-Wdeclaration-after-statement), and the fused "
             "code declares its buffer where the first call is";
    return "";
  }

  /// Where the scope of local variable V ends: the '}' of its block, or the
  /// end of the for loop that declares it.
  SourceLocation scopeEnd(const VarDecl *V) {
    if (const CompoundStmt *B = declaringBlock(Ctx, V))
      return B->getRBracLoc();
    DynTypedNodeList Ps = Ctx.getParents(*V);
    const Stmt *DS = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    const auto *For = dyn_cast_or_null<ForStmt>(parentStmt(Ctx, DS));
    return For ? For->getEndLoc() : SourceLocation();
  }

  /// Count, op, datatype, communicator and root: what the fused call needs
  /// to know statically (a run-time count must read the same throughout).
  std::string argumentProblem(Candidate &C, const FunctionDecl *F, Args &A) {
    const CallResult &R = *C.Result;
    A = {R.arg(Role::Count),   R.arg(Role::Type),    R.arg(Role::Op),  R.arg(Role::Comm),
         R.arg(Role::SendBuf), R.arg(Role::RecvBuf), R.arg(Role::Root)};
    if (!A.Count || !A.Type || !A.Op || !A.Comm || !A.Send || !A.Recv)
      return "the call does not have the expected arguments";
    if (A.Count->Class == ArgClass::Static && A.Count->Int && *A.Count->Int < 0)
      return "count " + A.Count->Text + " is negative";
    if (A.Count->Class != ArgClass::Static || !A.Count->Int) {
      std::string Why = stableCount(R.expr(*A.Count), F, C.CountVars);
      if (!Why.empty())
        return "count " + A.Count->Text + " is not static and " + Why;
      C.M.CountText = textOf(R.expr(*A.Count));
      if (C.M.CountText.empty())
        return "count " + A.Count->Text + " is written inside a macro";
    }
    if (A.Op->Class != ArgClass::Static || !isReductionOp(A.Op->Value))
      return "op " + A.Op->Text + " is not a predefined reduction operation";
    const HandleModel *H = A.Type->Class == ArgClass::Static ? lookupHandle(A.Type->Value) : nullptr;
    if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty() || llvm::StringRef(H->CTypes).contains('+'))
      return "datatype " + A.Type->Text + " is not a predefined datatype of one C type";
    std::optional<int64_t> Size = Ev.datatypeSize(A.Type->Value);
    if (!Size)
      return "the size of " + A.Type->Text + " is not known";
    A.TypeSize = *Size;
    CommId Comm = Ev.commId(R.expr(Role::Comm), F, C.Call);
    // A communicator a constructor creates once (outside any loop) in this
    // function is the same one at every member and at the fused point.
    if (!Comm.known() || (A.Comm->Class == ArgClass::Dynamic && Comm.K != CommId::Created))
      return "communicator " + A.Comm->Text + " cannot be identified";
    if (A.Root && A.Root->Class != ArgClass::Static)
      return "root " + A.Root->Text + " is not static";
    C.TypeText = spelling(*A.Type, R.expr(Role::Type));
    C.CType = H->CTypes;
    C.OpText = spelling(*A.Op, R.expr(Role::Op));
    C.CommText = spelling(*A.Comm, R.expr(Role::Comm));
    C.RootText = A.Root ? spelling(*A.Root, R.expr(Role::Root)) : "";
    if (C.TypeText.empty() || C.OpText.empty() || C.CommText.empty() || (A.Root && C.RootText.empty()))
      return "an argument is written in a macro's body and is not static";
    C.Key = C.Function + "|" + Comm.str() + "|" + A.Op->Value + "|" + canonicalHandle(A.Type->Value).str() + "|" +
            (A.Root ? A.Root->Value : "");
    C.Coarse = C.Function + "|" + Comm.str() + "|" + (A.Root ? A.Root->Value : "");
    C.M.Op = A.Op->Value;
    C.M.Type = canonicalHandle(A.Type->Value).str();
    C.M.CType = H->CTypes;
    C.M.Size = A.TypeSize;
    for (Role Ro : {Role::Count, Role::Type, Role::Op, Role::Comm, Role::Root})
      if (const Expr *E = R.expr(Ro))
        anyNode(E, [&](const Stmt *S) {
          if (const auto *D = dyn_cast<DeclRefExpr>(S))
            if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && V->isLocalVarDecl())
              if (SourceLocation End = scopeEnd(V); End.isValid())
                C.M.ArgVars.push_back({V->getName().str(), End});
          return false;
        });
    return "";
  }

  /// Buffers: fixed objects of this function or of the file, never
  /// volatile; their byte ranges (a run-time count spans the whole object).
  std::string bufferProblem(Candidate &C, const FunctionDecl *F, const Args &A) {
    const Expr *SendE = C.Result->expr(Role::SendBuf), *RecvE = C.Result->expr(Role::RecvBuf);
    SymValue SV = Ev.evaluate(SendE, F, C.Call), RV = Ev.evaluate(RecvE, F, C.Call);
    bool InPlace = SV.K == SymValue::Handle && isInPlaceBuffer(SV.Name);
    if (InPlace && A.Root)
      return "MPI_IN_PLACE in MPI_Reduce is valid at the root only";
    if (!InPlace && mentionsSpecialBuffer(SendE))
      return "the input " + A.Send->Text + " may be MPI_IN_PLACE or another special buffer";
    int64_t Bytes = A.Count->Int ? *A.Count->Int * A.TypeSize : INT64_MAX / 4;
    for (auto [V, Text, IsRecv] : {std::tuple{&RV, A.Recv->Text, true}, std::tuple{&SV, A.Send->Text, false}}) {
      if (!IsRecv && InPlace)
        continue;
      // An input is read where its call was; a pointer to it cannot reach a
      // result, since no result's address escapes (checked below).
      if (!IsRecv && V->K == SymValue::Dynamic)
        continue;
      // A pointer parameter's object is unknown here (even when every call
      // site passes the same one, it lives in another function).
      if (IsRecv && outParameter(RecvE, F)) {
        C.PointerResult = true;
        continue;
      }
      if (V->K != SymValue::Address || !V->Obj)
        return "buffer " + Text + " is not a known object (a pointer's target cannot be proved distinct)";
      if (isVolatileObject(V->Obj))
        return "buffer " + Text + " is volatile";
      const VarDecl *O = V->Obj;
      if (IsRecv && !O->hasGlobalStorage() && O->getParentFunctionOrMethod() != F)
        return "buffer " + Text + " is not visible where the fused call goes";
      C.Objects.push_back({O, V->Offset, V->Offset + Bytes, IsRecv});
      if (IsRecv)
        C.Protected.insert(O);
    }
    C.M.Count = A.Count->Int ? *A.Count->Int : 0;
    C.M.InputText = textOf(InPlace ? RecvE : SendE);
    if (C.M.InputText.empty())
      return "an argument is written inside a macro";
    if (C.PointerResult)
      return pointerResult(C, F, A, InPlace, SV);
    const VarDecl *RO = RV.Obj;
    std::string Base = RO->getType()->isArrayType() ? RO->getName().str() : "&" + RO->getName().str();
    C.M.ResultAddr = RV.Offset == 0 ? Base : llvm::formatv("(char *)&{0} + {1}", RO->getName(), RV.Offset).str();
    C.M.Buffers = (InPlace                              ? SV.Name
                   : A.Send->Class == ArgClass::Dynamic ? A.Send->Text
                                                        : A.Send->Value) +
                  " -> " + A.Recv->Value;
    return "";
  }

  /// x = H(args): H's reduction, its arguments static (spelled by value,
  /// valid at the caller), the result x a variable visible at the fused
  /// point; H defined before F (its variant goes after it).
  std::string helperProblem(Candidate &C, const FunctionDecl *F, Args &A) {
    const ReductionHelper &H = *C.Helper;
    const VarDecl *X = C.HelperResult;
    // Defined later, the variant needs a prototype where the helper has one.
    if (!SM.isBeforeInTranslationUnit(H.F->getEndLoc(), F->getBeginLoc()) &&
        (H.Proto.isInvalid() || !SM.isBeforeInTranslationUnit(H.Proto, F->getBeginLoc())))
      return "the helper " + H.Name + " is defined after " + F->getNameAsString() +
             " and not declared before it (its variant goes after it, and would come too late)";
    if (X->getType().isVolatileQualified() || !X->getType()->isArithmeticType())
      return "the result " + X->getName().str() + " is not a non-volatile arithmetic variable";
    const CallExpr *Saved = C.Call;
    C.Call = H.Reduction->Call;
    std::string Why = argumentProblem(C, H.F, A);
    C.Call = Saved;
    if (!Why.empty())
      return "in " + H.Name + ": " + Why;
    C.TypeText = A.Type->Value;
    C.OpText = A.Op->Value;
    C.CommText = A.Comm->Value;
    C.M.Count = 1;
    C.M.ResultVar = X->getName().str();
    C.M.ResultAddr = "&" + C.M.ResultVar;
    C.M.Buffers = H.Name + "(...) -> " + C.M.ResultVar;
    C.Objects.push_back({X, 0, int64_t(Ctx.getTypeSizeInChars(X->getType()).getQuantity()), true});
    C.Protected.insert(X);
    return "";
  }

  /// A pointer parameter P of F that F never changes, as P, P + c or &P[c]
  /// (c a constant): it points to an object that existed when F was
  /// entered, so never to one of F's automatic locals.
  bool outParameter(const Expr *E, const FunctionDecl *F) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
        E = AS->getIdx()->isIntegerConstantExpr(Ctx) ? AS->getBase()->IgnoreParenImpCasts() : nullptr;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E); BO && BO->getOpcode() == BO_Add)
      E = BO->getRHS()->isIntegerConstantExpr(Ctx) ? BO->getLHS()->IgnoreParenImpCasts() : nullptr;
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType() || P->getType()->getPointeeType().isVolatileQualified() ||
        !llvm::is_contained(F->parameters(), P) || Ev.analysis(F).addressTaken(P))
      return false;
    return !defines(F->getBody(), P);
  }

  /// A result reached through an out-parameter: its input must be an
  /// automatic local of F (which no parameter can point to), read where its
  /// call was; the result is written at the fused point, in call order.
  std::string pointerResult(Candidate &C, const FunctionDecl *F, const Args &A, bool InPlace, const SymValue &SV) {
    if (InPlace)
      return "MPI_IN_PLACE on " + A.Recv->Text +
             ", a pointer: it may point to the result of another call of the group, read too early";
    const VarDecl *In = SV.K == SymValue::Address ? SV.Obj : nullptr;
    if (!In || !In->hasLocalStorage() || In->getParentFunctionOrMethod() != F)
      return "the result " + A.Recv->Text + " is reached through a pointer, and the input " + A.Send->Text +
             " is not an automatic local of this function (the pointer may point to it)";
    C.M.ResultAddr = textOf(C.Result->expr(Role::RecvBuf));
    C.M.Buffers = A.Send->Value + " -> " + A.Recv->Text;
    if (C.M.ResultAddr.empty())
      return "an argument is written inside a macro";
    return "";
  }

  /// The statement's extent (through its ';') and indentation.
  std::string statementProblem(Candidate &C) {
    CharSourceRange Whole = SM.getExpansionRange(C.S->getSourceRange());
    // A declaration's range ends with its ';'.
    SourceLocation Semi = isa<DeclStmt>(C.S)
                              ? Lexer::getLocForEndOfToken(Whole.getEnd(), 0, SM, Ctx.getLangOpts())
                              : Lexer::findLocationAfterToken(Whole.getEnd(), tok::semi, SM, Ctx.getLangOpts(),
                                                              /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (Semi.isInvalid())
      return "the statement's end cannot be found";
    C.M.Stmt = CharSourceRange::getCharRange(Whole.getBegin(), Semi);
    C.M.Indent = blankBefore(SM, Whole.getBegin());
    return "";
  }

  /// Why the count expression E may not read the same at every point of
  /// the group, or "": it must have no side effect and read only local
  /// scalars whose address is never taken (whether they are assigned within
  /// the group is checked when calls join).
  std::string stableCount(const Expr *E, const FunctionDecl *F, std::set<const VarDecl *> &Vars) {
    FunctionAnalysis &FA = Ev.analysis(F);
    std::string Why;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || !Why.empty())
        return;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          if (!V->hasLocalStorage() && !V->getType().isConstQualified())
            Why = "reads the global " + V->getName().str();
          else if (V->getType().isVolatileQualified())
            Why = "reads the volatile " + V->getName().str();
          else if (V->hasLocalStorage() && FA.addressTaken(V))
            Why = llvm::formatv("the address of {0} is taken at line {1}", V->getName(), *FA.addressTaken(V)).str();
          else if (V->hasLocalStorage())
            Vars.insert(V);
        }
      } else if (isa<CallExpr>(S) || isa<StmtExpr>(S) ||
                 (isa<BinaryOperator>(S) && cast<BinaryOperator>(S)->isAssignmentOp()) ||
                 (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->isIncrementDecrementOp()) ||
                 (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref) ||
                 isa<ArraySubscriptExpr>(S) || isa<MemberExpr>(S)) {
        Why = "reads memory or has side effects";
      }
      for (const Stmt *C : subStmts(S))
        Walk(C);
    };
    Walk(E);
    return Why;
  }

  /// Whether S assigns, increments or declares V.
  const Stmt *defines(const Stmt *S, const VarDecl *V) {
    if (!S)
      return nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && rootVar(BO->getLHS()) == V)
      return S;
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && rootVar(U->getSubExpr()) == V)
      return S; // &V: an MPI query's output (MPI_Get_count) writes it

    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == V)
          return S;
    for (const Stmt *C : subStmts(S))
      if (const Stmt *Found = defines(C, V))
        return Found;
    return nullptr;
  }

  /// Run-time counts of the group and of C must keep their values from the
  /// group's first call to C.
  std::string countsStable(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members, unsigned To) {
    std::set<const VarDecl *> Vars = Cands[To].CountVars;
    for (unsigned Idx : Members)
      Vars.insert(Cands[Idx].CountVars.begin(), Cands[Idx].CountVars.end());
    for (const VarDecl *V : Vars)
      for (unsigned K = Members.front(); K <= To; ++K)
        if (const Stmt *D = defines(Cands[K].S, V))
          return llvm::formatv("line {0} changes {1}, which a count reads", line(D->getBeginLoc()), V->getName()).str();
    return "";
  }

  /// Whether E spells MPI_IN_PLACE, MPI_BOTTOM or another buffer constant
  /// anywhere inside it (as in "rank == 0 ? MPI_IN_PLACE : &x").
  bool mentionsSpecialBuffer(const Expr *E) {
    return anyNode(E, [&](const Stmt *S) {
      const auto *X = dyn_cast<Expr>(S);
      std::optional<std::string> H = X ? Ev.spelledHandle(X) : std::nullopt;
      const HandleModel *M = H ? lookupHandle(*H) : nullptr;
      return M && M->Kind == HandleKind::Buffer;
    });
  }

  /// Buffers of the new member C must be distinct from every member's.
  std::string disjoint(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members, const Candidate &C) {
    // Inputs are packed where each call was, so two calls may read the same
    // object; a result may not share memory with anything else.
    for (unsigned Idx : Members)
      for (const Candidate::Object &A : Cands[Idx].Objects)
        for (const Candidate::Object &B : C.Objects)
          if ((A.Recv || B.Recv) && A.Var == B.Var && A.Begin < B.End && B.Begin < A.End)
            return llvm::formatv("its buffers overlap those of the call at line {0} ({1})", Cands[Idx].M.Line,
                                 A.Var->getName())
                .str();
    for (unsigned Idx : Members)
      for (const VarDecl *P : Cands[Idx].Protected) {
        if (refersTo(C.S, P))
          return llvm::formatv("it uses {0}, the result of the call at line {1}", P->getName(), Cands[Idx].M.Line)
              .str();
        if (C.Helper && P->hasGlobalStorage() && Eff.touchesGlobal(C.Helper->F, P))
          return llvm::formatv("{0} may use {1}, the result of the call at line {2}", C.Helper->Name, P->getName(),
                               Cands[Idx].M.Line)
              .str();
      }
    return "";
  }

  /// The results and return codes of the members, each with its call's line.
  std::map<const VarDecl *, unsigned> protectedBy(const std::vector<Candidate> &Cands,
                                                  const std::vector<unsigned> &Members) const {
    std::map<const VarDecl *, unsigned> Protected;
    for (unsigned Idx : Members)
      for (const VarDecl *P : Cands[Idx].Protected)
        Protected.emplace(P, Cands[Idx].M.Line);
    return Protected;
  }

  /// Why statements [From, To) cannot be crossed by the members, or "".
  std::string crossable(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members, unsigned From,
                        unsigned To, const FunctionDecl *F) {
    std::map<const VarDecl *, unsigned> Protected = protectedBy(Cands, Members);
    std::set<std::string> Names;
    for (auto &KV : Protected)
      Names.insert(KV.first->getName().str());
    for (unsigned K = From; K < To; ++K) {
      const Candidate &S = Cands[K];
      // A declaration in between could hide a result's name at the fused point.
      if (const auto *DS = dyn_cast<DeclStmt>(S.S))
        for (const Decl *D : DS->decls())
          if (const auto *ND = dyn_cast<NamedDecl>(D); ND && Names.count(ND->getNameAsString()))
            return llvm::formatv("the declaration at line {0} hides {1}", line(D->getLocation()), ND->getName()).str();
      std::string Why = check(S.S, Protected, F, /*OtherReduction=*/S.Call ? S.Call : nullptr, 0);
      if (!Why.empty())
        return Why;
    }
    return "";
  }

  /// A wrapped call's macro statement runs where it ran, before the fused
  /// call: apart from the call, it must be crossable like the statements in
  /// between.
  std::string ownStatement(const std::vector<Candidate> &Cands, const std::vector<unsigned> &Members,
                           const FunctionDecl *F) {
    const Candidate &Last = Cands[Members.back()];
    if (!Last.M.Wrapped)
      return "";
    Skip = Last.Call;
    std::string Why = check(Last.S, protectedBy(Cands, Members), F, nullptr, 0);
    Skip = nullptr;
    return Why.empty() ? "" : "the macro around the call at line " + std::to_string(Last.M.Line) + ": " + Why;
  }

  /// Why S cannot be crossed, or "". Loops counts enclosing loops/switches
  /// inside the crossed statement (a break there stays inside).
  std::string check(const Stmt *S, const std::map<const VarDecl *, unsigned> &Protected, const FunctionDecl *F,
                    const CallExpr *Allowed, unsigned Loops) {
    if (!S || S == Skip)
      return "";
    unsigned L = line(S->getBeginLoc());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Protected.count(V))
        return llvm::formatv("line {0} uses {1}, the result of the call at line {2}", L, V->getName(), Protected.at(V))
            .str();
      return "";
    }
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      return llvm::formatv("the {0} at line {1} leaves the block", isa<ReturnStmt>(S) ? "return" : "goto", L).str();
    if (isa<LabelStmt>(S))
      return llvm::formatv("the label at line {0} can be jumped to", L).str();
    if (isa<SwitchCase>(S) && Loops == 0)
      return llvm::formatv("the case label at line {0} can be jumped to", L).str();
    if ((isa<BreakStmt>(S) || isa<ContinueStmt>(S)) && Loops == 0)
      return llvm::formatv("the {0} at line {1} leaves the block", isa<BreakStmt>(S) ? "break" : "continue", L).str();
    const Expr *Cond = nullptr;
    bool Loop = false;
    if (const auto *IS = dyn_cast<IfStmt>(S))
      Cond = IS->getCond();
    else if (const auto *WS = dyn_cast<WhileStmt>(S))
      Cond = WS->getCond(), Loop = true;
    else if (const auto *DS = dyn_cast<DoStmt>(S))
      Cond = DS->getCond(), Loop = true;
    else if (const auto *FS = dyn_cast<ForStmt>(S))
      Cond = FS->getCond(), Loop = true;
    else if (const auto *SS = dyn_cast<SwitchStmt>(S))
      Cond = SS->getCond(), Loop = true;
    else if (const auto *CO = dyn_cast<ConditionalOperator>(S))
      Cond = CO->getCond();
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      std::string Why = checkCall(CE, Protected, F, Allowed);
      if (!Why.empty())
        return Why;
    }
    for (const Stmt *Child : subStmts(S)) {
      std::string Why = check(Child, Protected, F, Allowed, Loops + (Loop ? 1 : 0));
      if (Why.empty())
        continue;
      // Ranks may take different paths here, and one of them holds what
      // stops the fusion. (A branch on the rank that holds nothing of the
      // kind, such as a loop over this rank's share, is crossed: every rank
      // still reaches both calls.)
      if (std::optional<std::string> Varies = Cond ? Uni.varies(Cond, F) : std::nullopt)
        return llvm::formatv("the branch at line {0} may go different ways on different ranks: {1}, and {2}", L,
                             *Varies, Why)
            .str();
      return Why;
    }
    return "";
  }

  std::string checkCall(const CallExpr *CE, const std::map<const VarDecl *, unsigned> &Protected, const FunctionDecl *F,
                        const CallExpr *Allowed) {
    unsigned L = line(CE->getBeginLoc());
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return llvm::formatv("the call through a function pointer at line {0} may do anything", L).str();
    llvm::StringRef Name = Callee->getIdentifier() ? Callee->getName() : "";
    if (Name.contains("longjmp") || Name == "setjmp")
      return llvm::formatv("the call to {0} at line {1} jumps", Name, L).str();
    // A rank that ends here (MPI_Abort, or exit, abort and assert's failure
    // from the system's headers) reaches neither the later original calls
    // nor the fused one; its arguments are checked like any other code.
    if (endsProcess(Name) || (Callee->isNoReturn() && SM.isInSystemHeader(Callee->getLocation())))
      return "";
    if (isMPIFunctionName(Name)) {
      if (CE == Allowed)
        return ""; // another reduction on the same path: all ranks reorder alike
      return llvm::formatv("the MPI call {0} at line {1} may depend on the results", Name, L).str();
    }
    if (Eff.isLibrary(Callee))
      return ""; // the C library neither communicates nor names the program's variables
    if (!Callee->hasBody())
      return llvm::formatv("the call to {0} at line {1}, whose code is not in this file, may make MPI calls", Name, L)
          .str();
    if (Eff.callsMPI(Callee))
      return llvm::formatv("the call to {0} at line {1} makes MPI calls", Name, L).str();
    for (auto &[V, From] : Protected) {
      if (!V->hasGlobalStorage())
        continue; // a local whose address does not escape: no callee sees it
      if (Eff.touchesGlobal(Callee, V))
        return llvm::formatv("the call to {0} at line {1} may use {2}, the result of the call at line {3}", Name, L,
                             V->getName(), From)
            .str();
    }
    return "";
  }
};

class BlockVisitor : public FunctionVisitor<BlockVisitor> {
public:
  BlockVisitor(Analysis &A, SourceManager &SM) : A(A), SM(SM) {}
  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (Cur && SM.isInMainFile(SM.getExpansionLoc(CS->getBeginLoc())))
      A.block(CS, Cur);
    return true;
  }

private:
  Analysis &A;
  SourceManager &SM;
};

} // namespace

FusionPlan ompi::analyzeReductionFusion(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                        const MachineProfile *Profile) {
  Analysis A(Ctx, Ev, Uni, Calls, Profile);
  BlockVisitor V(A, Ctx.getSourceManager());
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  A.Plan.Loops = analyzeLoopFusion(Ctx, Ev, Uni, Calls, A.Plan.Declined);
  // Variants are numbered in the order of their helpers in the file.
  std::stable_sort(A.Plan.Helpers.begin(), A.Plan.Helpers.end(), [&](const HelperVariant &X, const HelperVariant &Y) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(X.After, Y.After);
  });
  // Number groups in source order of their first call.
  std::stable_sort(A.Plan.Groups.begin(), A.Plan.Groups.end(), [](const FusionGroup &X, const FusionGroup &Y) {
    const FusionMember &A = X.Members.front(), &B = Y.Members.front();
    return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
  });
  return std::move(A.Plan);
}

FusionLayout ompi::fusionLayout(const FusionGroup &G) {
  FusionLayout L;
  std::string Runtime;
  auto Sum = [&] {
    if (Runtime.empty())
      return std::to_string(L.Fixed);
    return (L.Fixed ? std::to_string(L.Fixed) + " + " : std::string()) + Runtime;
  };
  for (const FusionMember &M : G.Members) {
    L.Offsets.push_back(Sum());
    if (M.CountText.empty()) {
      L.Counts.push_back(std::to_string(M.Count));
      L.Fixed += M.Count;
    } else {
      L.Counts.push_back("(" + M.CountText + ")");
      Runtime += (Runtime.empty() ? "" : " + ") + L.Counts.back();
    }
  }
  L.Total = Sum();
  L.Dynamic = !Runtime.empty();
  return L;
}

std::string ompi::fusionLines(const FusionGroup &G) {
  return llvm::join(llvm::map_range(G.Members, [](const FusionMember &M) { return std::to_string(M.Line); }), ", ");
}

std::string ompi::fusionSummary(const FusionGroup &G) {
  if (G.Kind == FusionKind::Composite) {
    std::vector<std::string> Lanes;
    for (const FusionLane &L : G.Lanes)
      Lanes.push_back(llvm::formatv("{0} of {1} x {2}", L.Op, L.Count, L.Type));
    return llvm::formatv("{0} {1} calls (lines {2}) into one of {3} bytes with a composite op ({4}) on {5}",
                         G.Members.size(), G.Function, fusionLines(G), G.Bytes, llvm::join(Lanes, ", "), G.CommText)
        .str();
  }
  return llvm::formatv("{0} {1} calls (lines {2}) into one of {3} x {4} with {5} on {6}", G.Members.size(), G.Function,
                       fusionLines(G), fusionLayout(G).Total, G.TypeText, G.OpText, G.CommText)
      .str();
}

ChangeNote ompi::fusionNote(const FusionGroup &G, const std::string &File) {
  const FusionMember &Last = G.Members.back();
  ChangeNote N;
  N.Transform = "reduction-fusion";
  N.Kind = NoteKind::Fused;
  N.File = File;
  N.Line = Last.Line;
  N.Column = Last.Column;
  std::vector<std::string> Bufs;
  for (const FusionMember &M : G.Members)
    Bufs.push_back(M.Buffers);
  N.What = "fused " + fusionSummary(G);
  std::string Same = G.Kind == FusionKind::Uniform ? "same communicator, op and datatype" : "same communicator";
  // What lies between the members: in correct English, and true (a member
  // of another fused group may sit in between).
  std::string Between =
      G.Between == 0   ? "nothing in between"
      : G.Between == 1 ? "the statement in between touches no result and holds no jump and no MPI call other than "
                         "fused reductions"
                       : llvm::formatv("the {0} statements in between touch no result and hold no jump and no MPI call "
                                       "other than fused reductions",
                                       G.Between)
                             .str();
  N.Why = llvm::formatv("{0}{1}{2}; distinct buffers ({3}); {4}", Same, G.Rooted ? " and root" : "",
                        G.Rule.empty() ? "" : "; " + G.Rule, llvm::join(Bufs, ", "), Between)
              .str();
  N.Saves =
      llvm::formatv("{0} collective{1} per execution", G.Members.size() - 1, G.Members.size() == 2 ? "" : "s").str();
  N.CollectivesSaved = unsigned(G.Members.size() - 1);
  for (const FusionMember &M : G.Members)
    if (&M != &Last)
      N.Also.push_back({M.Line, M.Column});
  return N;
}

std::vector<std::pair<unsigned, unsigned>> ompi::fusionRanges(const FusionPlan &Plan, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::pair<unsigned, unsigned>> R;
  auto Add = [&](CharSourceRange Range) {
    tooling::Replacement Rep(SM, Range, "", Ctx.getLangOpts());
    R.push_back({Rep.getOffset(), Rep.getOffset() + Rep.getLength()});
  };
  for (const FusionGroup &G : Plan.Groups)
    for (size_t I = 0; I < G.Members.size(); ++I) {
      // Earlier calls become their packing, the last statement the collective.
      const FusionMember &M = G.Members[I];
      Add(I + 1 < G.Members.size() || M.Wrapped ? M.Expr : M.Stmt);
    }
  for (const LoopFusion &L : Plan.Loops)
    Add(L.Loop);
  // A helper's local part is copied into its variant: a wait another
  // transformation put there would be missing from the copy.
  for (const HelperVariant &H : Plan.Helpers)
    Add(H.Local);
  return R;
}
