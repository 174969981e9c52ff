//===- NonblockingPlan.cpp - Nonblocking calls through persistent requests ===//
#include "analysis/NonblockingPlan.h"
#include "analysis/OwnedMemory.h"
#include "analysis/PersistentPlan.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RewriteSites.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "nonblocking-persistent";

/// The template of a start ("" for none).
llvm::StringRef startTemplate(llvm::StringRef Function) {
  return llvm::StringSwitch<llvm::StringRef>(Function)
      .Case(mpi::MPI_Isend, "mpiopt_isend_nb")
      .Case(mpi::MPI_Issend, "mpiopt_issend_nb")
      .Case(mpi::MPI_Irecv, "mpiopt_irecv_nb")
      .Default("");
}

/// The template of a completion call ("" for none).
llvm::StringRef completionTemplate(llvm::StringRef Function) {
  return llvm::StringSwitch<llvm::StringRef>(Function)
      .Case(mpi::MPI_Wait, "mpiopt_wait_nb")
      .Case(mpi::MPI_Waitall, "mpiopt_waitall_nb")
      .Case(mpi::MPI_Waitany, "mpiopt_waitany_nb")
      .Case(mpi::MPI_Waitsome, "mpiopt_waitsome_nb")
      .Case(mpi::MPI_Test, "mpiopt_test_nb")
      .Case(mpi::MPI_Testall, "mpiopt_testall_nb")
      .Case(mpi::MPI_Testany, "mpiopt_testany_nb")
      .Case(mpi::MPI_Testsome, "mpiopt_testsome_nb")
      .Default("");
}

/// The variable a request argument names (`&r`, `&reqs[i]`, `reqs + i`,
/// `reqs`), or null with Why.
const VarDecl *requestBase(const ASTContext &Ctx, const Expr *Arg, std::string &Why) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E)) {
    // reqs[i], or reqs[g][i] of an array of arrays (not through a pointer)
    while (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      E = S->getBase()->IgnoreParenImpCasts();
      if (!isa<ArraySubscriptExpr>(E) && !isa<DeclRefExpr>(E))
        break;
    }
  } else {
    // reqs + i, reqs + 2 * k + 1
    while (const auto *B = dyn_cast<BinaryOperator>(E))
      if (!B->isAdditiveOp() || !B->getType()->isPointerType())
        break;
      else
        E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenImpCasts();
  }
  const auto *D = dyn_cast<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V) {
    Why = "its request (" + fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), Arg) +
          ") is not a variable of its function: a struct member or memory "
          "behind a pointer may be completed where the tool does not see it";
    return nullptr;
  }
  if (isa<ParmVarDecl>(V) || (!V->isLocalVarDecl() && !V->isFileVarDecl())) {
    Why = "its request variable '" + V->getNameAsString() + "' is " +
          (isa<ParmVarDecl>(V) ? "a parameter" : "not local to its function") +
          ": another function may complete or free the request";
    return nullptr;
  }
  if (!requestVariableType(V->getType()) && !requestPointerType(V->getType())) {
    Why = "its request variable '" + V->getNameAsString() +
          "' is not an MPI_Request, an array of them or a pointer to them";
    return nullptr;
  }
  return V;
}

/// The DeclRefExprs of one variable in a function body.
struct RefFinder : RecursiveASTVisitor<RefFinder> {
  const VarDecl *V;
  std::vector<const DeclRefExpr *> Refs;
  explicit RefFinder(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == V)
      Refs.push_back(D);
    return true;
  }
};

/// The references to V in F's body, or (F null) in the whole file: every
/// function and initializer.
std::vector<const DeclRefExpr *> refsOf(ASTContext &Ctx, const FunctionDecl *F, const VarDecl *V) {
  RefFinder Refs(V);
  if (F)
    Refs.TraverseStmt(F->getBody());
  else
    Refs.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Refs.Refs);
}

/// What an expression built on the variable is: the variable or an
/// element (an lvalue), its address or an element's, or a request's value.
enum class Use { Object, Pointer, Value };

/// Climb from a use of V through subscripts, addresses, pointer arithmetic,
/// parentheses and casts; E becomes the outermost such expression.
const Stmt *climb(ASTContext &Ctx, const Expr *&E, Use &K) {
  for (;;) {
    const Stmt *P = parentStmt(Ctx, E);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay)
        K = Use::Pointer;
      else if (C->getCastKind() == CK_LValueToRValue)
        K = K == Use::Object ? Use::Value : K;
      else if (C->getCastKind() != CK_NoOp)
        return P;
    } else if (const auto *S = dyn_cast_or_null<ArraySubscriptExpr>(P)) {
      if (S->getBase()->IgnoreParenImpCasts() != E->IgnoreParenImpCasts() || K != Use::Pointer)
        return P;
      K = Use::Object;
    } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(P)) {
      if (U->getOpcode() == UO_AddrOf && K == Use::Object)
        K = Use::Pointer;
      else if (U->getOpcode() == UO_Deref && K == Use::Pointer)
        K = Use::Object;
      else
        return P;
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(P)) {
      if (!B->isAdditiveOp() || K != Use::Pointer || !B->getType()->isPointerType())
        return P;
    } else if (!isa_and_nonnull<ParenExpr>(P)) {
      return P;
    }
    E = cast<Expr>(P);
  }
}

/// The uses of one request variable: the completion calls on it, or why
/// some use is one the templates cannot follow.
struct Storage {
  std::vector<const CallExpr *> Completions;
  std::string Why;
  /// Who cannot follow a use, as the notes say it: the persistent
  /// templates, or (communication-overlap's question) the tool.
  const char *Follower = "the templates";
};

/// The line a note names for statement X.
unsigned lineOf(const SourceManager &SM, const Stmt *X) {
  return SM.getPresumedLineNumber(SM.getFileLoc(X->getBeginLoc()));
}

/// Why the use of V at E (climbed to consumer P) is one the templates
/// cannot follow, or "" (a completion call is added to S).
std::string useProblem(const SourceManager &SM, const VarDecl *V, const Expr *E, Use K, const Stmt *P, Storage &S) {
  std::string Name = "'" + V->getNameAsString() + "'";
  unsigned Line = lineOf(SM, E);
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const FunctionModel *M = FD ? lookupFunction(FD->getName()) : nullptr;
    for (unsigned I = 0; M && K == Use::Pointer && I < Call->getNumArgs() && I < M->Args.size(); I++) {
      if (Call->getArg(I)->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
        continue;
      Role R = M->Args[I].R;
      if ((R == Role::Request || R == Role::Requests) && !completionTemplate(M->Name).empty()) {
        S.Completions.push_back(Call);
        return "";
      }
      // A start (MPI_Test is a nonblocking completion, not a start).
      if (R == Role::Request && M->M == Mode::Nonblocking && M->Cat != Category::Completion)
        return "";
    }
    return llvm::formatv("the request variable {0} is passed to {1} at line {2}, which {3} cannot follow", Name,
                         FD ? FD->getName().str() : std::string("a function"), Line, S.Follower);
  }
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P)) {
    if (B->getOpcode() == BO_Assign && K == Use::Object && B->getLHS()->IgnoreParens() == E->IgnoreParens())
      return "";
    if (B->isEqualityOp() && K == Use::Value)
      return "";
  }
  if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
    return "";
  return llvm::formatv("the request variable {0} is used at line {1} in a way {2} cannot follow (only "
                       "nonblocking starts, waits and tests, assignments to it and comparisons)",
                       Name, Line, S.Follower);
}

/// Why the use of request pointer V's value at E (climbed to consumer P) is
/// one the templates cannot follow, or "": besides what useProblem allows,
/// the pointer may be freed (free, or a function that only frees it) and
/// tested (`if (reqs)`, `reqs == NULL`).
std::string pointerUseProblem(ASTContext &Ctx, OwnedMemory &Owned, const VarDecl *V, const Expr *E, Use K,
                              const Stmt *P, Storage &S) {
  if (K == Use::Pointer && isa<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    const Expr *Child = E;
    const Stmt *Up = parentThroughCasts(Ctx, E, &Child);
    if (const auto *Call = dyn_cast_or_null<CallExpr>(Up))
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == Child && Owned.freesArg(Call, I))
          return "";
    const auto *B = dyn_cast_or_null<BinaryOperator>(P);
    const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
    const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P);
    if ((B && (B->isEqualityOp() || B->isLogicalOp())) || (U && U->getOpcode() == UO_LNot) ||
        (C && C->getCastKind() == CK_PointerToBoolean) || isCondition(Up, Child))
      return "";
    if (isa_and_nonnull<CallExpr>(Up)) // through a cast to the parameter's type: say which call
      return useProblem(Ctx.getSourceManager(), V, Child, K, Up, S);
    const auto *A = dyn_cast_or_null<BinaryOperator>(Up);
    const VarDecl *Into = dyn_cast_or_null<VarDecl>(parentDecl(Ctx, Child));
    if ((A && A->getOpcode() == BO_Assign && A->getRHS() == Child) || Into)
      return llvm::formatv("the request pointer '{0}' is copied at line {1}, so other code may complete its requests",
                           V->getName(), lineOf(Ctx.getSourceManager(), Child))
          .str();
  }
  return useProblem(Ctx.getSourceManager(), V, E, K, P, S);
}

/// The uses of a request pointer V (MPI_Request *reqs) in F (null: the
/// whole file): every value it is given is a fresh object or null, so its
/// memory is reached through it alone, and its value is used only as
/// useProblem and pointerUseProblem allow; never copied, kept or its
/// address taken.
Storage pointerStorageOf(ASTContext &Ctx, OwnedMemory &Owned, const FunctionDecl *F, const VarDecl *V,
                         const char *Follower = "the templates") {
  Storage S;
  S.Follower = Follower;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = "'" + V->getNameAsString() + "'";
  auto NotFresh = [&](const Stmt *At) {
    return llvm::formatv("the request pointer {0} is given memory other code may reach at line {1} (only an "
                         "allocation or a null pointer keeps its requests where the tool sees every use)",
                         Name, lineOf(SM, At))
        .str();
  };
  if (const Expr *Init = V->getInit(); Init && !Owned.freshObject(Init))
    S.Why = NotFresh(Init);
  std::vector<const DeclRefExpr *> Refs = refsOf(Ctx, F, V);
  for (size_t I = 0; I < Refs.size() && S.Why.empty(); ++I) {
    const Expr *E = Refs[I];
    const Stmt *P = parentStmt(Ctx, E);
    while (isa_and_nonnull<ParenExpr>(P)) {
      E = cast<Expr>(P);
      P = parentStmt(Ctx, P);
    }
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(P); B && B->getOpcode() == BO_Assign && B->getLHS() == E) {
      if (!Owned.freshObject(B->getRHS()))
        S.Why = NotFresh(B);
      continue;
    }
    if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
      continue;
    const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P);
    if (!C || C->getCastKind() != CK_LValueToRValue) {
      S.Why = llvm::formatv("the request pointer {0} is used at line {1} in a way {2} cannot follow (its "
                            "address taken, or changed other than by an assignment)",
                            Name, lineOf(SM, E), S.Follower);
      break;
    }
    E = C;
    Use K = Use::Pointer;
    const Stmt *Q = climb(Ctx, E, K);
    S.Why = pointerUseProblem(Ctx, Owned, V, E, K, Q, S);
  }
  return S;
}

/// The uses of request variable V in F (null: the whole file).
Storage storageOf(ASTContext &Ctx, OwnedMemory &Owned, const FunctionDecl *F, const VarDecl *V) {
  if (requestPointerType(V->getType()))
    return pointerStorageOf(Ctx, Owned, F, V);
  Storage S;
  for (const DeclRefExpr *D : refsOf(Ctx, F, V)) {
    const Expr *E = D;
    Use K = Use::Object;
    const Stmt *P = climb(Ctx, E, K);
    S.Why = useProblem(Ctx.getSourceManager(), V, E, K, P, S);
    if (!S.Why.empty())
      return S;
  }
  return S;
}

/// Why the completion Call cannot be rewritten, or "".
std::string completionProblem(const ASTContext &Ctx, const CallExpr *Call, const FileResult &Calls,
                              llvm::function_ref<bool(const CallExpr *)> Taken) {
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Line = lineOf(SM, Call);
  std::string Name = Call->getDirectCallee()->getName().str();
  if (Taken(Call))
    return llvm::formatv("another transformation rewrites the {0} at line {1} that completes its requests", Name, Line);
  if (std::string Why = macroProblem(Ctx, Call, Calls); !Why.empty())
    return llvm::formatv("the {0} at line {1} that completes its requests cannot be rewritten: {2}", Name, Line, Why);
  return "";
}

/// Name the completions Ws rewritten with a start (or that would be) as
/// the other sites its note covers.
void addCompletions(ChangeNote &N, const std::vector<const CallExpr *> &Ws, const FileResult &Calls) {
  for (const CallResult &C : Calls.Calls)
    if (C.Call && llvm::is_contained(Ws, C.Call) && !llvm::is_contained(N.Also, std::make_pair(C.Line, C.Column)))
      N.Also.push_back({C.Line, C.Column});
}

/// Why start C stays as written though its request variable allows the
/// cache (a call in a macro's body, a wildcard receive), or "".
std::string startProblem(const ASTContext &Ctx, const CallResult &C, const FileResult &Calls) {
  std::string Why = macroProblem(Ctx, C.Call, Calls);
  if (std::string W = receiveWildcard(C); Why.empty() && !W.empty())
    Why = "it receives from " + W + ": wildcard receives stay generic";
  return Why;
}

/// The profile's verdict on start C (templates.persistent_nonblocking).
ProfileVerdict startVerdict(Evaluator &Ev, LazyDerivedTypes &Derived, const MachineProfile *Profile,
                            const CallResult &C) {
  return profileVerdict(Profile, "persistent_nonblocking", sideBytes(C, Ev, Derived.get(), Role::Count, Role::Type),
                        {"the persistent request", "the nonblocking call", "a persistent request", "a template"});
}

/// Start C through a cache, the note saying What and Why, naming the
/// completions Ws rewritten with it.
NonblockingCall startCall(const CallResult &C, const std::string &What, const std::string &Why,
                          const std::vector<const CallExpr *> &Ws, const FileResult &Calls) {
  NonblockingCall N;
  N.Call = C.Call;
  N.Start = true;
  N.To = startTemplate(C.Function).str();
  N.Note = ChangeNote::at(Transform, true, C.File, C.Line, C.Column, What + " (" + N.To + ")", Why);
  N.Note.Kind = NoteKind::Template;
  addCompletions(N.Note, Ws, Calls);
  N.Note.Saves = "MPI's argument checks and request set-up on each start, for one comparison of the arguments";
  return N;
}

/// Completion W through its template with the cache.
NonblockingCall completionCall(const CallExpr *W) {
  NonblockingCall Done;
  Done.Call = W;
  Done.To = completionTemplate(W->getDirectCallee()->getName()).str();
  return Done;
}

/// The plan of one function's starts, grouped by request variable.
void planFunction(ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, OwnedMemory &Owned,
                  const FileResult &Calls, const MachineProfile *Profile,
                  llvm::function_ref<bool(const CallExpr *)> Taken, const FunctionDecl *F,
                  const std::vector<const CallResult *> &Starts, NonblockingPlan &Plan) {
  auto Decline = [&](const CallResult &C, const std::string &Why) -> ChangeNote & {
    return Plan.Declined.emplace_back(ChangeNote::at(Transform, false, C.File, C.Line, C.Column,
                                                     C.Function + " not through a persistent request", Why));
  };
  if (std::string Why = cacheHome(Ctx, F); !Why.empty()) {
    for (const CallResult *C : Starts)
      Decline(*C, Why);
    return;
  }
  NonblockingFunction NF;
  NF.Function = F;
  std::set<const CallExpr *> Seen;
  std::map<const VarDecl *, Storage> Vars;
  for (const CallResult *C : Starts) {
    std::string Why;
    const VarDecl *V = requestBase(Ctx, C->expr(Role::Request), Why);
    if (V && !Vars.count(V)) {
      Storage S = storageOf(Ctx, Owned, F, V);
      for (const CallExpr *W : S.Completions)
        if (S.Why.empty())
          S.Why = completionProblem(Ctx, W, Calls, Taken);
      Vars[V] = S;
    }
    if (V && Why.empty())
      Why = Vars[V].Why;
    if (Why.empty())
      Why = startProblem(Ctx, *C, Calls);
    if (!Why.empty()) {
      Decline(*C, Why);
      continue;
    }
    auto [Wins, Figure] = startVerdict(Ev, Derived, Profile, *C);
    if (!Wins) {
      addCompletions(Decline(*C, Figure), Vars[V].Completions, Calls);
      continue;
    }
    std::string Owner =
        requestPointerType(V->getType())
            ? llvm::formatv(
                  "its requests are in memory that only '{0}', local to {1}, reaches (every value it is given "
                  "is a fresh allocation or a null pointer; it is only freed and tested otherwise)",
                  V->getName(), F->getNameAsString())
                  .str()
            : llvm::formatv("its request variable '{0}' is local to {1}", V->getName(), F->getNameAsString()).str();
    NF.Calls.push_back(startCall(
        *C, llvm::formatv("{0} through {1}'s cache of persistent requests", C->Function, F->getNameAsString()),
        llvm::formatv("{0} and only nonblocking starts, waits and tests, assignments and comparisons use it, so {2} "
                      "on it, rewritten alike, {3} the only completion: a completed request is MPI_REQUEST_NULL as "
                      "with MPI's nonblocking calls; the cache, static in {1}, keeps up to 32 persistent requests "
                      "keyed by every argument, made at the first start with new arguments, reused while inactive, "
                      "freed at MPI_Finalize; {4}",
                      Owner, F->getNameAsString(),
                      Vars[V].Completions.size() == 1
                          ? std::string("the one wait or test")
                          : "the " + std::to_string(Vars[V].Completions.size()) + " waits and tests",
                      Vars[V].Completions.size() == 1 ? "is" : "are", Figure),
        Vars[V].Completions, Calls));
    for (const CallExpr *W : Vars[V].Completions)
      if (Seen.insert(W).second)
        NF.Calls.push_back(completionCall(W));
  }
  if (!NF.Calls.empty())
    Plan.Functions.push_back(std::move(NF));
}

/// The file-scope variable a start's or completion's request argument
/// names, or null.
const VarDecl *globalRequestOf(const ASTContext &Ctx, const CallResult &C) {
  const Expr *Arg = C.expr(Role::Request);
  if (!Arg)
    Arg = C.expr(Role::Requests);
  std::string Why;
  const VarDecl *V = Arg ? requestBase(Ctx, Arg, Why) : nullptr;
  return V && V->isFileVarDecl() ? V : nullptr;
}

/// Why a completion on a global's requests cannot be rewritten here, or "".
std::string globalCompletionProblem(const ASTContext &Ctx, const CallExpr *W, const FileResult *Calls,
                                    llvm::function_ref<bool(const CallExpr *)> Taken) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = W->getDirectCallee()->getName().str();
  if (!SM.isWrittenInMainFile(SM.getExpansionLoc(W->getBeginLoc())))
    return llvm::formatv("the {0} at {1} that completes its requests is in an included file, which is not rewritten",
                         Name, SM.getFileLoc(W->getBeginLoc()).printToString(SM));
  if (!Calls) // the facts' question: no call of the file in a macro's body
    return W->getBeginLoc().isMacroID()
               ? llvm::formatv("the {0} at line {1} that completes its requests is written in a macro", Name,
                               lineOf(SM, W))
                     .str()
               : std::string();
  return completionProblem(Ctx, W, *Calls, Taken);
}

/// The uses of global request variable V in the whole file, and why one
/// of them or a completion on it cannot be followed or rewritten (Calls
/// null: the facts' question, globalCompletionProblem's).
Storage globalStorage(ASTContext &Ctx, OwnedMemory &Owned, const VarDecl *V, const FileResult *Calls,
                      llvm::function_ref<bool(const CallExpr *)> Taken) {
  Storage S = storageOf(Ctx, Owned, nullptr, V);
  for (const CallExpr *W : S.Completions)
    if (S.Why.empty())
      S.Why = globalCompletionProblem(Ctx, W, Calls, Taken);
  return S;
}

/// Why the other files of the program may reach global V's requests other
/// than by starts and completions the tool rewrites, or "": V is the
/// file's (internal linkage), or the program's facts say every file that
/// names V uses it only so (ProgramFacts.h, "requests").
std::string otherFilesProblem(const ASTContext &Ctx, const ProgramFacts *P, const VarDecl *V) {
  std::string Name = "'" + V->getNameAsString() + "'";
  if (!V->isExternallyVisible())
    return "";
  if (!P || !P->program() || P->Seed)
    return "its request variable " + Name +
           " is a global that other files may name, and no facts of the whole program say what they do with it "
           "(--whole-program, or ompi-cc's link, tells)";
  auto G = P->Globals.find(V->getNameAsString());
  if (G == P->Globals.end() || !G->second.Defined)
    return "its request variable " + Name + " is a global that no file of the program defines";
  if (!G->second.NamedKnown || P->RequestsUnknown)
    return "the facts of some file of the program (an older ompi-opt's) do not say how it uses the request variable " +
           Name;
  if (!llvm::is_contained(G->second.NamedBy, ProgramFacts::nameOf(Ctx)))
    return "the program's facts do not list this file among those that name " + Name;
  if (G->second.Requests)
    return "another file may complete the requests of " + Name +
           " where the templates do not see it: " + *G->second.Requests;
  return "";
}

/// The plan of a global request variable V (file scope: the file's, or the
/// program's): one cache for V, mpiopt_nbg_<V>, weak so that every file of
/// the program that uses V shares it; every completion on V in the file
/// goes through it, and the starts the profile chooses.
void planGlobal(ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, OwnedMemory &Owned, const FileResult &Calls,
                const MachineProfile *Profile, llvm::function_ref<bool(const CallExpr *)> Taken,
                const ProgramFacts *Program, const VarDecl *V, const std::vector<const CallResult *> &Starts,
                NonblockingPlan &Plan) {
  auto Decline = [&](const CallResult &C, const std::string &Why) -> ChangeNote & {
    return Plan.Declined.emplace_back(ChangeNote::at(Transform, false, C.File, C.Line, C.Column,
                                                     C.Function + " not through a persistent request", Why));
  };
  Storage S = globalStorage(Ctx, Owned, V, &Calls, Taken);
  std::string Why = S.Why;
  if (Why.empty())
    Why = otherFilesProblem(Ctx, Program, V);
  if (!Why.empty()) {
    for (const CallResult *C : Starts)
      Decline(*C, Why);
    return;
  }
  NonblockingFunction NF;
  NF.Global = V;
  NF.Cache = "mpiopt_nbg_" + V->getNameAsString();
  std::string Owner = llvm::formatv(
      "its request variable '{0}' is {1} whose every use {2} is a nonblocking start, a wait or test (each rewritten "
      "with one cache for '{0}', {3}), {4}",
      V->getName(), V->isExternallyVisible() ? "a global" : "a global of this file",
      V->isExternallyVisible() ? "in the program (the facts of every file that names it)" : "in this file",
      V->isExternallyVisible() ? "a weak object every such file declares" : "static in this file",
      requestPointerType(V->getType()) ? "a fresh allocation or null assigned to it, a free or a test of it"
                                       : "an assignment or a comparison");
  for (const CallResult *C : Starts) {
    if (std::string W = startProblem(Ctx, *C, Calls); !W.empty()) {
      Decline(*C, W);
      continue;
    }
    auto [Wins, Figure] = startVerdict(Ev, Derived, Profile, *C);
    if (!Wins) {
      addCompletions(Decline(*C, Figure + " (proved: " + Owner + ")"), S.Completions, Calls);
      continue;
    }
    NF.Calls.push_back(startCall(
        *C, llvm::formatv("{0} through the cache of persistent requests of '{1}'", C->Function, V->getName()),
        llvm::formatv("{0}: a completed request is MPI_REQUEST_NULL as with MPI's nonblocking calls; the cache keeps "
                      "up to 32 persistent requests keyed by every argument, made at the first start with new "
                      "arguments, reused while inactive, freed at MPI_Finalize; {1}",
                      Owner, Figure),
        S.Completions, Calls));
  }
  // Another file's starts may use the cache: every completion goes through
  // it wherever a persistent request may win (the same profile).
  bool AnyWin = Profile && llvm::any_of(Profile->Templates, [](const TemplatePoint &T) {
                  return T.Family == "persistent_nonblocking" && T.wins();
                });
  if (!AnyWin)
    return;
  for (const CallExpr *W : S.Completions)
    NF.Calls.push_back(completionCall(W));
  if (!NF.Calls.empty())
    Plan.Functions.push_back(std::move(NF));
}

} // namespace

std::string ompi::globalRequestsProblem(ASTContext &Ctx, OwnedMemory &Owned, const VarDecl *V) {
  return globalStorage(Ctx, Owned, V, nullptr, [](const CallExpr *) { return false; }).Why;
}

std::string ompi::requestPointerProblem(ASTContext &Ctx, OwnedMemory &Owned, const FunctionDecl *F, const VarDecl *V) {
  return pointerStorageOf(Ctx, Owned, F, V, "the tool").Why;
}

NonblockingPlan ompi::planNonblocking(ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, OwnedMemory &Owned,
                                      const FileResult &Calls, const MachineProfile *Profile,
                                      llvm::function_ref<bool(const CallExpr *)> Taken) {
  NonblockingPlan Plan;
  const ProgramFacts *Program = Ev.options().Program.get();
  std::map<const FunctionDecl *, std::vector<const CallResult *>> Starts;
  std::vector<const FunctionDecl *> Order;
  std::map<const VarDecl *, std::vector<const CallResult *>> GlobalStarts;
  std::vector<const VarDecl *> Globals;
  for (const CallResult &C : Calls.Calls) {
    if (!C.Model || !C.Call || !C.Caller)
      continue;
    bool Start = !startTemplate(C.Function).empty();
    const VarDecl *G = Start || !completionTemplate(C.Function).empty() ? globalRequestOf(Ctx, C) : nullptr;
    if (G && !GlobalStarts.count(G))
      Globals.push_back(G);
    if (G)
      GlobalStarts[G]; // a file with only completions on G rewrites them too
    // A start of main outside any loop runs once: nothing to reuse.
    if (!Start || Taken(C.Call) || (C.Loops.empty() && C.Caller->isMain()))
      continue;
    if (G) {
      GlobalStarts[G].push_back(&C);
      continue;
    }
    if (!Starts.count(C.Caller))
      Order.push_back(C.Caller);
    Starts[C.Caller].push_back(&C);
  }
  for (const FunctionDecl *F : Order)
    planFunction(Ctx, Ev, Derived, Owned, Calls, Profile, Taken, F, Starts[F], Plan);
  for (const VarDecl *G : Globals)
    planGlobal(Ctx, Ev, Derived, Owned, Calls, Profile, Taken, Program, G, GlobalStarts[G], Plan);
  return Plan;
}
