//===- OverlapPlan.cpp - Completions later, receives earlier --------------===//
#include "analysis/OverlapPlan.h"
#include "analysis/HaloSplit.h"
#include "analysis/NonblockingPlan.h"
#include "analysis/OverlapAccess.h"
#include "analysis/OwnedMemory.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "communication-overlap";

bool isStart(llvm::StringRef F) {
  return llvm::StringSwitch<bool>(F)
      .Cases(mpi::MPI_Isend, mpi::MPI_Issend, mpi::MPI_Ibsend, mpi::MPI_Irsend, mpi::MPI_Irecv, true)
      .Default(false);
}
bool isCompletion(llvm::StringRef F) { return F.starts_with(mpi::MPI_Wait) || F.starts_with(mpi::MPI_Test); }

/// The requests a request argument names: a variable, and one constant
/// element of it (none: any element, or the variable itself).
struct ReqRef {
  const VarDecl *V = nullptr;
  std::optional<int64_t> Elem;
};

ReqRef requestRef(const ASTContext &Ctx, const Expr *Arg) {
  const Expr *E = Arg ? Arg->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  std::optional<int64_t> Elem;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E)) {
    Expr::EvalResult R;
    if (A->getIdx()->EvaluateAsInt(R, Ctx))
      Elem = R.Val.getInt().getExtValue();
    E = A->getBase()->IgnoreParenImpCasts();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(E); B && B->isAdditiveOp()) {
    E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())->IgnoreParenImpCasts();
  }
  if (const VarDecl *V = namedVar(E))
    return {V, Elem};
  // An array of arrays (reqs[g][i]): the variable, any element of it.
  while (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  return {namedVar(E), std::nullopt};
}

bool disjoint(const ReqRef &A, const ReqRef &B) {
  return A.V && B.V && (A.V->getCanonicalDecl() != B.V->getCanonicalDecl() || (A.Elem && B.Elem && *A.Elem != *B.Elem));
}

/// The statement of a block that moves with call C (C itself, `v = C`, or
/// either as the only statement of an `if` without else), and its block;
/// {nullptr, nullptr} if C is none of these.
std::pair<const Stmt *, const CompoundStmt *> unitOf(ASTContext &Ctx, const CallExpr *C) {
  const Stmt *S = C, *P = parentStmt(Ctx, C);
  if (const auto *A = dyn_cast_or_null<BinaryOperator>(parentThroughCasts(Ctx, C));
      A && A->getOpcode() == BO_Assign && A->getRHS()->IgnoreParenImpCasts() == C &&
      isa<DeclRefExpr>(A->getLHS()->IgnoreParens()) && namedVar(A->getLHS())) {
    S = A;
    P = parentStmt(Ctx, A);
  }
  if (const auto *B = dyn_cast_or_null<CompoundStmt>(P); B && B->size() == 1)
    if (const auto *If = dyn_cast_or_null<IfStmt>(parentStmt(Ctx, B)); If && If->getThen() == B) {
      S = B;
      P = If;
    }
  if (const auto *If = dyn_cast_or_null<IfStmt>(P)) {
    if (If->getThen() != S || If->getElse() || If->getInit() || If->getConditionVariable() || If->isConsteval() ||
        If->isConstexpr())
      return {nullptr, nullptr};
    S = If;
    P = parentStmt(Ctx, If);
  }
  return {S, dyn_cast_or_null<CompoundStmt>(P)};
}

/// Why call C, a wait or receive that is not a statement of a block in one
/// of unitOf's forms, is not moved.
std::string notAStatement(ASTContext &Ctx, const CallExpr *C) {
  const Expr *Child = C;
  const Stmt *S, *P = parentThroughCasts(Ctx, C, &Child);
  S = Child;
  if (const auto *A = dyn_cast_or_null<BinaryOperator>(P); A && A->getOpcode() == BO_Assign && A->getRHS() == S) {
    if (!namedVar(A->getLHS()))
      return "its result is assigned to memory, not to a variable";
    S = A;
    P = parentStmt(Ctx, A);
  }
  if (isa_and_nonnull<ForStmt, WhileStmt, DoStmt>(P))
    return "it is the body of a loop (a call per iteration): it would move only with the loop";
  if (isa_and_nonnull<IfStmt>(P))
    return "it is a branch of an if with an else or an initialiser: the branches do not move apart";
  if (isa_and_nonnull<SwitchCase, LabelStmt>(P))
    return "it follows a label or a case";
  if (isa_and_nonnull<CompoundStmt>(P))
    return "it is not a statement the transformation moves";
  return "its value is used in a larger expression";
}

/// Whether source text can be written again on one line: it holds no
/// comment, string, preprocessor line or line continuation.
bool oneLineSafe(llvm::StringRef T) {
  return !T.empty() && !T.contains("//") && !T.contains("/*") && !T.contains('#') && !T.contains('"') &&
         !T.contains('\\');
}

/// What a moving call must not meet: memory, and the rule for it.
struct Guard {
  Place At;
  bool WritesOnly = false; ///< only a write meets it (a send buffer, a variable the call reads)
  std::string What;        ///< "top_buf_in, which the receive at line 340 fills"
};

/// Whether access A and guard Gd are both on the request array of Req (an
/// access the caller knows to be of another element of it).
bool sameRequestArray(const Access &A, const Guard &Gd, const ReqRef &Req) {
  return Gd.At.K == Place::Named && A.At.K == Place::Named && Gd.At.Var == Req.V && A.At.Var == Req.V;
}

/// The calls and facts the plan works with.
struct Planner {
  ASTContext &Ctx;
  const FileResult &Calls;
  llvm::function_ref<bool(const CallExpr *)> Taken;
  llvm::function_ref<bool(const Stmt *)> Changed;
  OwnedMemory &Owned;
  OverlapMemory Mem;
  OverlapPlan Plan;
  std::map<const CallExpr *, const CallResult *> Facts;
  std::map<const CallExpr *, const Stmt *> Units;       ///< the statement each moving call moves with
  std::map<const Stmt *, const CallResult *> UnitCalls; ///< the other way round

  const Stmt *unit(const CallExpr *C) const {
    auto It = Units.find(C);
    return It != Units.end() ? It->second : C;
  }

  Planner(ASTContext &Ctx, OwnedMemory &Owned, const FileResult &Calls,
          llvm::function_ref<bool(const CallExpr *)> Taken, llvm::function_ref<bool(const Stmt *)> Changed)
      : Ctx(Ctx), Calls(Calls), Taken(Taken), Changed(Changed), Owned(Owned), Mem(Ctx, Owned) {
    for (const CallResult &C : Calls.Calls)
      if (C.Call)
        Facts[C.Call] = &C;
  }

  unsigned line(const Stmt *S) const { return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc()); }
  std::string text(const Expr *E) const { return fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), E); }

  std::optional<std::string> callProblem(const CallResult &C);
  std::optional<std::string> requestGuards(const CallResult &W, const ReqRef &Req, std::vector<Guard> &Out);
  std::optional<std::string> waitGuards(const CallResult &W, std::vector<Guard> &Out);
  void argGuards(const CallResult &C, std::vector<Guard> &Out);
  void readGuards(const Expr *E, llvm::StringRef Why, std::vector<Guard> &Out);
  std::optional<std::string> unitGuards(const CallResult &C, std::vector<Guard> &Out);
  std::optional<std::string> blocks(const Stmt *S, const std::vector<Guard> &G, const FunctionDecl *F);
  bool crossable(const Stmt *S, const CallResult &W, const ReqRef &Req, const std::vector<Guard> &G);
  /// Whether access A meets guard Gd in F: a write meets any guard, a
  /// read only one that every access meets.
  bool meets(const Access &A, const Guard &Gd, const FunctionDecl *F) {
    return (A.Write || !Gd.WritesOnly) && Mem.mayMeet(A, Gd.At, F);
  }
  /// "line 9 writes memory through alias, which may be keep, which the send
  /// at line 4 reads": access A meeting guard Gd.
  std::string meeting(const Access &A, const Guard &Gd) const {
    bool Same = A.At.K == Place::Named ? Gd.At.K == Place::Named
                                       : OverlapMemory::describe(A.At) == OverlapMemory::describe(Gd.At);
    return llvm::formatv("line {0} {1} {2}{3}", line(A.E), A.Write ? "writes" : "reads",
                         Same ? "" : OverlapMemory::describe(A.At) + ", which may be ", Gd.What)
        .str();
  }
  bool passableSend(const Stmt *S, const ReqRef &Req, const std::vector<Guard> &G, const clang::FunctionDecl *F);
  std::string sendsPassed(const std::set<unsigned> &Starts, const CompoundStmt *B) const;
  bool insertable(const Stmt *S) const;
  /// How far a wait goes down a block (scanDown).
  struct Scan {
    unsigned To = 0, Work = 0, Crossed = 0;
    bool Mpi = false;
    std::string Stop;
  };
  /// An if a wait may leave (exitOf).
  struct Exit {
    const CompoundStmt *Outer;
    unsigned Index;
    std::string Prefix;
    std::vector<Guard> Cond;
  };
  std::map<const CompoundStmt *, std::set<unsigned>> Dests; ///< where waits were put, per block
  std::optional<std::string> blocksWait(const Stmt *S, const ReqRef &Req, const std::vector<Guard> &G,
                                        const FunctionDecl *F, bool *Mpi);
  Scan scanDown(const CompoundStmt *B, unsigned From, const CallResult &W, const ReqRef &Req,
                const std::vector<Guard> &G);
  std::optional<Exit> exitOf(const CompoundStmt *B);
  std::optional<OverlapMove> leaveIf(const CompoundStmt *B, unsigned I, const CallResult &W, const ReqRef &Req,
                                     std::vector<Guard> G);
  ChangeNote moveNote(const CallResult &W, const CompoundStmt *B, unsigned From, const Scan &R,
                      const CompoundStmt *Left);
  void sinkWaits(const CompoundStmt *B, std::vector<const CallResult *> &Waits);
  void hoistReceives(const CompoundStmt *B, std::vector<const CallResult *> &Recvs);
  void decline(const CallResult &C, std::string Why) {
    Plan.Declined.push_back(
        ChangeNote::at(Transform, false, C.File, C.Line, C.Column,
                       C.Function + (isStart(C.Function) ? " stays where it is posted" : " stays where it is written"),
                       std::move(Why)));
  }
};

/// Why the call itself cannot move: written in a macro, its value used,
/// side effects in its arguments, rewritten by another transformation.
std::optional<std::string> Planner::callProblem(const CallResult &C) {
  if (C.Call->getBeginLoc().isMacroID() || C.Call->getEndLoc().isMacroID())
    return "the call is written in a macro";
  if (Taken(C.Call))
    return "another transformation rewrote the call";
  for (const Expr *A : C.Call->arguments())
    if (A->HasSideEffects(Ctx))
      return "an argument (" + text(A) + ") has side effects";
  const Stmt *U = unit(C.Call);
  if (U != C.Call) {
    if (U->getBeginLoc().isMacroID() || U->getEndLoc().isMacroID())
      return "its statement is written in a macro";
    if (Changed(U))
      return "another transformation changed its statement";
    if (const auto *If = dyn_cast<IfStmt>(U)) {
      if (If->getCond()->HasSideEffects(Ctx))
        return "the condition of its if (" + text(If->getCond()) + ") has side effects";
      if (auto Why = Mem.notLocal(If->getCond()))
        return "the condition of its if is not local: " + *Why;
    }
  }
  // The statement's text is written again on one line: nothing in it may
  // need its own line or end it early.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = stmtEnd(Ctx, U);
  if (End.isInvalid() || !End.isFileID())
    return "the end of the call's statement is not found in the file";
  llvm::StringRef T(SM.getCharacterData(U->getBeginLoc()), SM.getFileOffset(End) - SM.getFileOffset(U->getBeginLoc()));
  if (!oneLineSafe(T))
    return "the call's statement holds a comment, a string or a preprocessor line";
  return std::nullopt;
}

/// Every variable and all memory an argument of C reads (`n`, `*pn`,
/// `p->count`): a moved call must find them as they were.
void Planner::argGuards(const CallResult &C, std::vector<Guard> &Out) {
  for (const Expr *A : C.Call->arguments())
    readGuards(A, ", which the call's arguments read", Out);
}

/// A guard against writes for every place E touches ("n" + Why).
void Planner::readGuards(const Expr *E, llvm::StringRef Why, std::vector<Guard> &Out) {
  for (const Access &X : Mem.accesses(E))
    Out.push_back({X.At, true, OverlapMemory::describe(X.At) + Why.str()});
}

/// The guards of the statement a call moves with: the variable its result
/// is assigned to (nothing may read or write it in between), and what the
/// condition of its if reads.
std::optional<std::string> Planner::unitGuards(const CallResult &C, std::vector<Guard> &Out) {
  const Stmt *U = unit(C.Call);
  const VarDecl *Result = nullptr;
  anyNode(U, [&](const Stmt *S) {
    if (const auto *A = dyn_cast<BinaryOperator>(S); A && A->getOpcode() == BO_Assign)
      Result = namedVar(A->getLHS());
    return Result != nullptr;
  });
  if (Result) {
    if (Result->getType().isVolatileQualified())
      return "its result is assigned to a volatile variable";
    Out.push_back(
        {{Place::Named, Result}, false, Result->getNameAsString() + ", which the call's result is assigned to"});
  }
  if (const auto *If = dyn_cast<IfStmt>(U))
    readGuards(If->getCond(), ", which the condition of its if reads", Out);
  return std::nullopt;
}

/// The guards of request variable R for wait W: R itself, and the buffers
/// of every transfer started on R in W's function.
std::optional<std::string> Planner::requestGuards(const CallResult &W, const ReqRef &Req, std::vector<Guard> &Out) {
  const VarDecl *R = Req.V;
  std::string Name = R->getNameAsString();
  bool Pointer = requestPointerType(R->getType());
  if (!R->hasLocalStorage() || isa<ParmVarDecl>(R) || (!requestVariableType(R->getType()) && !Pointer))
    return "its request variable '" + Name + "' is not an automatic MPI_Request (or array of them) of " +
           W.EnclosingFunction + ", nor a local pointer to requests";
  if (Pointer && W.Caller)
    if (std::string Why = requestPointerProblem(Ctx, Owned, W.Caller, R); !Why.empty())
      return Why;
  if (Mem.reachable(R, W.Caller))
    return "the address of its request variable '" + Name + "' is kept, so other code may complete its requests";
  Out.push_back({{Place::Named, R}, false, Name + ", the request variable"});
  for (const CallResult &C : Calls.Calls) {
    if (!C.Call || C.Caller != W.Caller || isCompletion(C.Function))
      continue;
    const Expr *Q = C.expr(Role::Request) ? C.expr(Role::Request) : C.expr(Role::Requests);
    ReqRef Started = Q ? requestRef(Ctx, Q) : ReqRef();
    if (!Started.V || Started.V->getCanonicalDecl() != R->getCanonicalDecl() || disjoint(Req, Started))
      continue; // another variable, or another constant element of the array
    if (!isStart(C.Function))
      return llvm::formatv("{0} at line {1} also uses '{2}'", C.Function, C.Line, Name).str();
    if (!predefinedDatatype(C.arg(Role::Type)))
      return llvm::formatv("the {0} at line {1} has a derived datatype, which may reach memory outside its buffer",
                           C.Function, C.Line)
          .str();
    bool Send = C.Function != mpi::MPI_Irecv;
    const Expr *Buf = C.expr(Send ? Role::SendBuf : Role::RecvBuf);
    if (!Buf)
      return llvm::formatv("the {0} at line {1} has no buffer argument", C.Function, C.Line).str();
    Out.push_back({Mem.pointee(Buf), Send,
                   llvm::formatv("{0}, which the {1} at line {2} {3}", OverlapMemory::describe(Mem.pointee(Buf)),
                                 Send ? "send" : "receive", C.Line, Send ? "reads" : "fills")});
  }
  return std::nullopt;
}

/// The guards of a wait: its requests' transfers, its status, what its
/// arguments read.
std::optional<std::string> Planner::waitGuards(const CallResult &W, std::vector<Guard> &Out) {
  const Expr *Q = W.expr(W.Function == mpi::MPI_Wait ? Role::Request : Role::Requests);
  ReqRef Req = requestRef(Ctx, Q);
  if (!Req.V)
    return "its request (" + (Q ? text(Q) : std::string("?")) + ") is not a variable of " + W.EnclosingFunction;
  if (auto Why = requestGuards(W, Req, Out))
    return Why;
  const Expr *St = W.expr(W.Function == mpi::MPI_Wait ? Role::Status : Role::Statuses);
  const ArgResult *SA = W.arg(W.Function == mpi::MPI_Wait ? Role::Status : Role::Statuses);
  if (St && !(SA && SA->Sym.K == SymValue::Handle)) {
    Place P = Mem.pointee(St);
    if (P.K == Place::Anywhere)
      return "its status (" + text(St) + ") is neither a named variable nor memory one pointer owns";
    Out.push_back({P, false, OverlapMemory::describe(P) + ", the status the wait writes"});
  }
  argGuards(W, Out);
  return unitGuards(W, Out);
}

/// Why statement S may not run on the other side of a moving call with
/// guards G, or nullopt.
std::optional<std::string> Planner::blocks(const Stmt *S, const std::vector<Guard> &G, const FunctionDecl *F) {
  unsigned L = line(S);
  if (Changed(S))
    return llvm::formatv("another transformation changed line {0}", L).str();
  // A declaration of a name the call uses: the call would name another
  // variable (or one not yet declared) on the other side.
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *X : D->decls())
      if (const auto *N = dyn_cast<NamedDecl>(X))
        for (const Guard &Gd : G)
          if (Gd.At.K == Place::Named && Gd.At.Var->getName() == N->getName())
            return llvm::formatv("line {0} declares {1}, which the call names", L, N->getName()).str();
  if (auto Why = Mem.notLocal(S))
    return llvm::formatv("line {0} is not local: {1}", L, *Why).str();
  for (const Access &A : Mem.accesses(S))
    for (const Guard &Gd : G)
      if (meets(A, Gd, F))
        return meeting(A, Gd);
  return std::nullopt;
}

/// Whether S is an MPI_Wait or MPI_Waitall statement (alone, assigned, in
/// an if) a wait W (request Req, guards G) may pass: other requests, and
/// nothing it reads or writes meets what W writes or needs.
bool Planner::crossable(const Stmt *S, const CallResult &W, const ReqRef &Req, const std::vector<Guard> &G) {
  auto It = UnitCalls.find(S);
  const CallResult *C = It != UnitCalls.end() ? It->second : nullptr;
  if (!C || (C->Function != mpi::MPI_Wait && C->Function != mpi::MPI_Waitall) || Changed(S) || callProblem(*C))
    return false;
  ReqRef Other = requestRef(Ctx, C->expr(C->Function == mpi::MPI_Wait ? Role::Request : Role::Requests));
  if (!disjoint(Req, Other))
    return false;
  // Its requests, its status, what its arguments and condition read and
  // the variable its result goes to: none may meet W's.
  for (const Access &A : Mem.accesses(S))
    for (const Guard &Gd : G)
      if (!sameRequestArray(A, Gd, Req) && meets(A, Gd, W.Caller)) // other elements of one array are disjoint
        return false;
  return true;
}

/// Whether S is a nonblocking send statement (MPI_Isend, MPI_Issend,
/// MPI_Ibsend, MPI_Irsend) a receive with request Req and guards G may be
/// posted before: the order of a receive and a send at one process decides
/// no matching (receives match in the order they are posted, and messages
/// in the order each sender sends them), so only memory matters: nothing
/// the send's arguments read or its request may lie in the receive's
/// buffer, request or what its arguments read.
bool Planner::passableSend(const Stmt *S, const ReqRef &Req, const std::vector<Guard> &G, const FunctionDecl *F) {
  const auto *CE = dyn_cast<CallExpr>(S);
  auto It = CE ? Facts.find(CE) : Facts.end();
  const CallResult *C = It != Facts.end() ? It->second : nullptr;
  if (!C || !isStart(C->Function) || C->Function == mpi::MPI_Irecv || Changed(S) || callProblem(*C))
    return false;
  ReqRef Other = requestRef(Ctx, C->expr(Role::Request));
  if (!Other.V)
    return false;
  bool SameArray = Other.V->getCanonicalDecl() == Req.V->getCanonicalDecl();
  if (SameArray && !disjoint(Req, Other))
    return false;
  for (const Access &A : Mem.accesses(S))
    for (const Guard &Gd : G)
      if (!(SameArray && sameRequestArray(A, Gd, Req)) && meets(A, Gd, F)) // another constant element of it
        return false;
  return true;
}

/// Whether code can be put just before S: it begins in this file's text
/// (or at the start of a macro's expansion that is the whole statement).
bool Planner::insertable(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = S->getBeginLoc();
  if (B.isFileID())
    return SM.isWrittenInMainFile(B);
  SourceLocation Exp;
  return Lexer::isAtStartOfMacroExpansion(B, SM, Ctx.getLangOpts(), &Exp) && SM.isWrittenInMainFile(Exp) &&
         (S->getEndLoc().isFileID() || Lexer::isAtEndOfMacroExpansion(S->getEndLoc(), SM, Ctx.getLangOpts()));
}

/// Whether S holds a loop: computation worth overlapping (a few scalar
/// assignments take less than the calls cost to move).
bool works(const Stmt *S) {
  return anyNode(S, [](const Stmt *X) { return isa<ForStmt, WhileStmt, DoStmt>(X); });
}

/// The lines of B's statements From..To-1, as text ("line 4", "lines 4-9").
std::string span(const Planner &P, const CompoundStmt *B, unsigned From, unsigned To) {
  unsigned A = P.line(B->body_begin()[From]);
  unsigned Z = P.Ctx.getSourceManager().getExpansionLineNumber(B->body_begin()[To - 1]->getEndLoc());
  return A == Z ? llvm::formatv("line {0}", A).str() : llvm::formatv("lines {0}-{1}", A, Z).str();
}

/// Why wait W (request Req, guards G) may not pass statement S, which may
/// hold MPI starts and waits of other requests (a halo exchange's other
/// direction), or nullopt. *Mpi: whether S holds such calls.
std::optional<std::string> Planner::blocksWait(const Stmt *S, const ReqRef &Req, const std::vector<Guard> &G,
                                               const FunctionDecl *F, bool *Mpi) {
  std::vector<const CallExpr *> Calls;
  auto Allowed = [&](const CallExpr *CE) {
    auto It = Facts.find(CE);
    const CallResult *C = It != Facts.end() ? It->second : nullptr;
    bool Wait = C && (C->Function == mpi::MPI_Wait || C->Function == mpi::MPI_Waitall);
    if (!C || (!Wait && !isStart(C->Function)) || Taken(CE))
      return false;
    for (const Expr *A : CE->arguments())
      if (A->HasSideEffects(Ctx))
        return false;
    ReqRef O = requestRef(Ctx, C->expr(C->Function == mpi::MPI_Waitall ? Role::Requests : Role::Request));
    if (!disjoint(Req, O))
      return false;
    Calls.push_back(CE);
    return true;
  };
  if (!anyNode(S, [&](const Stmt *X) { return isa<CallExpr>(X) && Facts.count(cast<CallExpr>(X)); }))
    return blocks(S, G, F);
  unsigned L = line(S);
  if (Changed(S))
    return llvm::formatv("another transformation changed line {0}", L).str();
  if (isa<DeclStmt>(S))
    return blocks(S, G, F);
  if (auto Why = Mem.notLocal(S, Allowed))
    return llvm::formatv("line {0} is not local: {1}", L, *Why).str();
  const SourceManager &SM = Ctx.getSourceManager();
  auto InCall = [&](const Expr *E) {
    for (const CallExpr *CE : Calls)
      if (!SM.isBeforeInTranslationUnit(E->getBeginLoc(), CE->getBeginLoc()) &&
          !SM.isBeforeInTranslationUnit(CE->getEndLoc(), E->getBeginLoc()))
        return true;
    return false;
  };
  // The memory the starts in S reach: a receive writes its buffer, a send
  // reads its own (the buffers' expressions alone show only pointers read).
  std::vector<Access> All = Mem.accesses(S);
  for (const CallExpr *CE : Calls) {
    const CallResult *C = Facts[CE];
    bool Recv = C->Function == mpi::MPI_Irecv;
    if (const Expr *Buf = isStart(C->Function) ? C->expr(Recv ? Role::RecvBuf : Role::SendBuf) : nullptr)
      All.push_back({Mem.pointee(Buf), Recv, Buf});
  }
  for (const Access &A : All)
    for (const Guard &Gd : G)
      if (!(sameRequestArray(A, Gd, Req) && InCall(A.E)) && meets(A, Gd, F)) // another element, in a call on it
        return meeting(A, Gd);
  *Mpi = true;
  return std::nullopt;
}

/// Where wait W, guards G, stops going down block B from index From: the
/// index it goes before, the statements' work (loops), what stopped it,
/// whether it passes MPI calls.
Planner::Scan Planner::scanDown(const CompoundStmt *B, unsigned From, const CallResult &W, const ReqRef &Req,
                                const std::vector<Guard> &G) {
  Scan R;
  unsigned N = B->size(), J = From;
  std::set<unsigned> Crossed; // other waits it passes: no work to overlap
  for (; J < N; ++J) {
    const Stmt *S = B->body_begin()[J];
    if (crossable(S, W, Req, G)) {
      Crossed.insert(J);
      R.Mpi = true;
      continue;
    }
    if (auto Y = blocksWait(S, Req, G, W.Caller, &R.Mpi)) {
      R.Stop = *Y;
      std::vector<const VarDecl *> Filled; // the receives' buffers: guards every access meets
      for (const Guard &Gd : G)
        if (!Gd.WritesOnly && Gd.At.K != Place::Anywhere && Gd.At.Var)
          Filled.push_back(Gd.At.Var);
      if (std::optional<std::string> H = haloSplitHint(Ctx, S, Filled))
        R.Stop += "; " + *H;
      break;
    }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  while (J > From && (J < N ? !insertable(B->body_begin()[J])
                            : !(B->getRBracLoc().isFileID() && SM.isWrittenInMainFile(B->getRBracLoc()))))
    --J;
  R.To = J;
  R.Crossed = Crossed.size();
  for (unsigned K = From; K < J; ++K)
    R.Work += !Crossed.count(K) && works(B->body_begin()[K]);
  return R;
}

/// The if a wait at the end of block B may leave (B is its then-branch,
/// it has no else, its condition is local, free of side effects and
/// written on its own in the file), the block it is in and its index there.
std::optional<Planner::Exit> Planner::exitOf(const CompoundStmt *B) {
  const auto *If = dyn_cast_or_null<IfStmt>(parentStmt(Ctx, B));
  if (!If || If->getThen() != B || If->getElse() || If->getInit() || If->getConditionVariable() || If->isConstexpr() ||
      If->isConsteval())
    return std::nullopt;
  const Expr *C = If->getCond();
  if (C->getBeginLoc().isMacroID() || C->getEndLoc().isMacroID() || C->HasSideEffects(Ctx) || Mem.notLocal(C) ||
      Changed(If))
    return std::nullopt;
  std::string T = text(C);
  if (!oneLineSafe(T))
    return std::nullopt;
  const auto *OB = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, If));
  if (!OB)
    return std::nullopt;
  Exit E{OB, unsigned(std::find(OB->body_begin(), OB->body_end(), If) - OB->body_begin()), "if (" + T + ") ", {}};
  readGuards(C, llvm::formatv(", which the condition of the if at line {0} reads", line(If)).str(), E.Cond);
  return E;
}

/// The move of W out of its if into the block around it, if the other
/// statements of the if's block (before W too) leave the condition alone
/// and work lies beyond.
std::optional<OverlapMove> Planner::leaveIf(const CompoundStmt *B, unsigned I, const CallResult &W, const ReqRef &Req,
                                            std::vector<Guard> G) {
  std::optional<Exit> E = exitOf(B);
  if (!E)
    return std::nullopt;
  // The copy of the condition runs after every other statement of the
  // block: none may write what it reads.
  for (unsigned K = 0; K < B->size(); ++K)
    for (const Access &A : K == I ? std::vector<Access>() : Mem.accesses(B->body_begin()[K]))
      for (const Guard &Gd : E->Cond) // guards against writes
        if (meets(A, Gd, W.Caller))
          return std::nullopt;
  G.insert(G.end(), E->Cond.begin(), E->Cond.end());
  Scan R = scanDown(E->Outer, E->Index + 1, W, Req, G);
  if (!R.Work)
    return std::nullopt;
  OverlapMove M{B, I, R.To, true, nullptr, "", {}};
  M.ToBlock = E->Outer;
  M.Prefix = E->Prefix;
  M.Note = moveNote(W, E->Outer, E->Index + 1, R, B);
  return M;
}

/// The note of wait W moved down to R.To in block B past statements From..:
/// Left, the block of an if it leaves (or null).
ChangeNote Planner::moveNote(const CallResult &W, const CompoundStmt *B, unsigned From, const Scan &R,
                             const CompoundStmt *Left) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Span = span(*this, B, From, R.To);
  bool Many = llvm::StringRef(Span).starts_with("lines");
  std::string To =
      R.To < B->size()
          ? llvm::formatv("before line {0}", line(B->body_begin()[R.To])).str()
          : llvm::formatv("to the end of its block (line {0})", SM.getExpansionLineNumber(B->getRBracLoc())).str();
  if (Left)
    To = llvm::formatv("out of the if at line {0} (with its condition), {1}", line(parentStmt(Ctx, Left)), To);
  ChangeNote N = ChangeNote::at(
      Transform, true, W.File, W.Line, W.Column, W.Function + " moved down " + To,
      llvm::formatv("{0}{1} {2} not depend on the transfers it completes: {3} no memory a send of them reads, "
                    "touch none a receive of them fills, name neither its requests nor its status, write nothing "
                    "its arguments read{4}, and call nothing that communicates{5}; the wait completes the same "
                    "requests with the same results{6}{7}",
                    Left ? "the rest of its if's block and " : "", Span, Many || Left ? "do" : "does",
                    Many || Left ? "they write" : "it writes", Left ? " or the if's condition reads" : "",
                    R.Mpi ? " but starts and waits of other requests" : "",
                    R.Mpi ? " (two operations already started complete in either order, and the order of posting "
                            "is unchanged)"
                          : ", and nothing between its two places communicates",
                    R.Stop.empty() ? "" : " (it stops there: " + R.Stop + ")")
          .str());
  N.Kind = NoteKind::Moved;
  N.Saves = "the time of " + Span + ", which now runs while the transfers complete";
  return N;
}

void Planner::sinkWaits(const CompoundStmt *B, std::vector<const CallResult *> &Waits) {
  unsigned N = B->size();
  for (const CallResult *W : Waits) {
    unsigned I = std::find(B->body_begin(), B->body_end(), Units[W->Call]) - B->body_begin();
    std::vector<Guard> G;
    std::optional<std::string> Why = callProblem(*W);
    if (!Why)
      Why = waitGuards(*W, G);
    if (Why) {
      if (I + 1 < N)
        decline(*W, *Why);
      continue;
    }
    ReqRef Req = requestRef(Ctx, W->expr(W->Function == mpi::MPI_Wait ? Role::Request : Role::Requests));
    Scan R = scanDown(B, I + 1, *W, Req, G);
    if (R.To == N && R.Stop.empty())
      if (std::optional<OverlapMove> M = leaveIf(B, I, *W, Req, G)) {
        Dests[M->ToBlock].insert(M->To);
        Plan.Moves.push_back(std::move(*M));
        continue;
      }
    if (I + 1 >= N)
      continue; // nothing follows it, and it cannot leave its block
    if (!R.Work) {
      decline(*W, R.To > I + 1 + R.Crossed ? "what it could pass (" + span(*this, B, I + 1, R.To) +
                                                 ") holds no loop: too little computation to overlap" +
                                                 (R.Stop.empty() ? "" : " (then " + R.Stop + ")")
                  : R.Stop.empty() ? "only other waits follow it in its block"
                                   : "what follows needs the transfers it completes: " + R.Stop);
      continue;
    }
    Dests[B].insert(R.To);
    OverlapMove M{B, I, R.To, true, nullptr, "", {}};
    M.Note = moveNote(*W, B, I + 1, R, nullptr);
    Plan.Moves.push_back(std::move(M));
  }
}

/// ", but the nonblocking sends at lines 4 and 6 (...)" for the sends a
/// receive passes (none: "").
std::string Planner::sendsPassed(const std::set<unsigned> &Starts, const CompoundStmt *B) const {
  if (Starts.empty())
    return "";
  std::string Lines;
  unsigned K = 0;
  for (unsigned I : Starts)
    Lines += (K++ ? (K == Starts.size() ? " and " : ", ") : "") + std::to_string(line(B->body_begin()[I]));
  return llvm::formatv(" but the nonblocking send{0} at line{0} {1}, whose arguments and requests touch none of "
                       "this memory (a receive and a send of one process match alike in either order: receives "
                       "match in the order they are posted, messages in the order each process sends them)",
                       Starts.size() > 1 ? "s" : "", Lines)
      .str();
}

void Planner::hoistReceives(const CompoundStmt *B, std::vector<const CallResult *> &Recvs) {
  for (const CallResult *R : Recvs) {
    unsigned I = std::find(B->body_begin(), B->body_end(), Units[R->Call]) - B->body_begin();
    unsigned Lower = 0;
    for (unsigned D : Dests[B])
      if (D <= I)
        Lower = std::max(Lower, D);
    if (I == Lower)
      continue; // nothing it could pass
    std::optional<std::string> Why = callProblem(*R);
    ReqRef Req = requestRef(Ctx, R->expr(Role::Request));
    if (!Why && !predefinedDatatype(R->arg(Role::Type)))
      Why = "its datatype is not a predefined one: a derived datatype may reach memory outside its buffer";
    if (!Why && !Req.V)
      Why = "its request is not a variable";
    if (Why) {
      decline(*R, *Why);
      continue;
    }
    std::vector<Guard> G{{Mem.pointee(R->expr(Role::RecvBuf)), false,
                          OverlapMemory::describe(Mem.pointee(R->expr(Role::RecvBuf))) + ", which it fills"},
                         {{Place::Named, Req.V}, false, Req.V->getNameAsString() + ", its request variable"}};
    argGuards(*R, G);
    if (auto Y = unitGuards(*R, G)) {
      decline(*R, *Y);
      continue;
    }
    unsigned J = I;
    std::string Stop;
    std::set<unsigned> Starts; // sends it passes
    for (; J > Lower; --J) {
      if (passableSend(B->body_begin()[J - 1], Req, G, R->Caller)) {
        Starts.insert(J - 1);
        continue;
      }
      if (auto Y = blocks(B->body_begin()[J - 1], G, R->Caller)) {
        Stop = *Y;
        break;
      }
    }
    while (J < I && !insertable(B->body_begin()[J]))
      ++J;
    unsigned Work = 0;
    for (unsigned K = J; K < I; ++K)
      Work += !Starts.count(K) && works(B->body_begin()[K]);
    if (!Work) {
      decline(*R, J < I ? "what it could pass (" + span(*this, B, J, I) +
                              ") holds no loop: too little computation to overlap" +
                              (Stop.empty() ? "" : " (then " + Stop + ")")
                        : "what comes before it must run first: " + Stop);
      continue;
    }
    OverlapMove M{B, I, J, false, nullptr, "", {}};
    std::string Span = span(*this, B, J, I);
    bool Many = llvm::StringRef(Span).starts_with("lines");
    M.Note = ChangeNote::at(
        Transform, true, R->File, R->Line, R->Column,
        llvm::formatv("MPI_Irecv posted earlier, before line {0}", line(B->body_begin()[J])).str(),
        llvm::formatv("{0} {1} no memory its buffer may lie in, {2} no request of it, {3} nothing its "
                      "arguments read and {4} nothing that communicates{5}, so the receive is posted in the same "
                      "order among {6} and matches the same message{7}",
                      Span, Many ? "touch" : "touches", Many ? "name" : "names", Many ? "write" : "writes",
                      Many ? "call" : "calls", sendsPassed(Starts, B), Starts.empty() ? "MPI calls" : "receives",
                      Stop.empty() ? "" : " (it stops there: " + Stop + ")")
            .str());
    M.Note.Kind = NoteKind::Moved;
    M.Note.Saves = "the time of " + Span + ", during which the message may now arrive";
    Plan.Moves.push_back(std::move(M));
  }
}

} // namespace

OverlapPlan ompi::planOverlap(ASTContext &Ctx, OwnedMemory &Owned, const FileResult &Calls,
                              llvm::function_ref<bool(const CallExpr *)> Taken,
                              llvm::function_ref<bool(const Stmt *)> Changed) {
  // The blocks, in order, and the waits and receives that are statements of them.
  std::vector<const CompoundStmt *> Order;
  std::map<const CompoundStmt *, std::pair<std::vector<const CallResult *>, std::vector<const CallResult *>>> Blocks;
  std::map<const CallExpr *, const Stmt *> Units;
  std::vector<std::pair<const CallResult *, std::string>> Loose; // candidates that are no statement of a block
  for (const CallResult &C : Calls.Calls) {
    bool Wait = C.Function == mpi::MPI_Wait || C.Function == mpi::MPI_Waitall;
    if (!C.Call || !C.Caller || (!Wait && C.Function != mpi::MPI_Irecv))
      continue;
    auto [U, B] = unitOf(Ctx, C.Call);
    const SourceManager &SM = Ctx.getSourceManager();
    if (!B && SM.isInMainFile(SM.getExpansionLoc(C.Call->getBeginLoc())))
      Loose.push_back({&C, notAStatement(Ctx, C.Call)});
    if (!B || !SM.isWrittenInMainFile(C.Call->getBeginLoc()))
      continue; // not a statement of its own, or in a header (only the main file is rewritten)
    if (!Blocks.count(B))
      Order.push_back(B);
    (Wait ? Blocks[B].first : Blocks[B].second).push_back(&C);
    Units[C.Call] = U;
  }
  if (Order.empty() && Loose.empty())
    return {};
  Planner P(Ctx, Owned, Calls, Taken, Changed);
  for (auto &[C, Why] : Loose)
    P.decline(*C, Why);
  P.Units = std::move(Units);
  for (const auto &[Call, U] : P.Units)
    P.UnitCalls[U] = P.Facts[Call];
  for (const CompoundStmt *B : Order)
    P.sinkWaits(B, Blocks[B].first);
  for (const CompoundStmt *B : Order)
    P.hoistReceives(B, Blocks[B].second);
  return std::move(P.Plan);
}
