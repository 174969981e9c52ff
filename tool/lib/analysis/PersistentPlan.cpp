//===- PersistentPlan.cpp - Which calls run through persistent requests ---===//
#include "analysis/PersistentPlan.h"
#include "analysis/DerivedTypes.h"
#include "analysis/RewriteSites.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "persistent-requests";

/// A call's template and the profile family that decides it.
struct Form {
  llvm::StringRef To, Family;
  llvm::StringRef Cached; ///< the per-site cache's template ("" for collectives, never cached)
  bool Collective = false;
};

std::optional<Form> formOf(llvm::StringRef Function) {
  return llvm::StringSwitch<std::optional<Form>>(Function)
      .Case(mpi::MPI_Send, Form{"mpiopt_send_persistent", "persistent", "mpiopt_send_cached"})
      .Case(mpi::MPI_Ssend, Form{"mpiopt_ssend_persistent", "persistent_ssend", "mpiopt_ssend_cached"})
      .Case(mpi::MPI_Recv, Form{"mpiopt_recv_persistent", "persistent", "mpiopt_recv_cached"})
      .Case(mpi::MPI_Sendrecv, Form{"mpiopt_sendrecv_persistent", "persistent_sendrecv", "mpiopt_sendrecv_cached"})
      .Case(mpi::MPI_Allreduce, Form{"mpiopt_allreduce_persistent", "persistent_allreduce", "", true})
      .Case(mpi::MPI_Reduce, Form{"mpiopt_reduce_persistent", "persistent_reduce", "", true})
      .Case(mpi::MPI_Bcast, Form{"mpiopt_bcast_persistent", "persistent_bcast", "", true})
      .Case(mpi::MPI_Allgather, Form{"mpiopt_allgather_persistent", "persistent_allgather", "", true})
      .Case(mpi::MPI_Alltoall, Form{"mpiopt_alltoall_persistent", "persistent_alltoall", "", true})
      .Case(mpi::MPI_Barrier, Form{"mpiopt_barrier_persistent", "persistent_barrier", "", true})
      .Default(std::nullopt);
}

bool messageRole(Role R) {
  switch (R) {
  case Role::SendBuf:
  case Role::RecvBuf:
  case Role::SendCount:
  case Role::RecvCount:
  case Role::Count:
  case Role::SendType:
  case Role::RecvType:
  case Role::Type:
  case Role::Dest:
  case Role::Source:
  case Role::SendTag:
  case Role::RecvTag:
  case Role::Tag:
  case Role::Comm:
  case Role::Buf:
  case Role::Op:
  case Role::Root:
    return true;
  default:
    return false;
  }
}

/// Why some message argument of C may change between iterations of L
/// (nullopt: none can).
std::optional<std::string> messageChanges(const CallResult &C, const LoopFact &L) {
  for (const ArgResult &A : C.Args)
    if (messageRole(A.R) && !L.invariant(A.Index))
      return A.Name + " (" + A.Text + ") may change: " + L.Varies[A.Index];
  return std::nullopt;
}

/// Why a reduction's persistent form could change its result, or "": the
/// persistent algorithm may reduce in another order than the blocking call.
std::string orderProblem(const CallResult &C, bool Reassociate) {
  const ArgResult *Op = C.arg(Role::Op), *Type = C.arg(Role::Type);
  if (!Op)
    return "";
  if (Op->Sym.K != SymValue::Handle || !isReductionOp(Op->Sym.Name))
    return "its op (" + Op->Text +
           ") is not a predefined one: the persistent collective may apply it in another "
           "order than the blocking call";
  std::optional<bool> Float =
      Type && Type->Sym.K == SymValue::Handle ? floatingArithmetic(Type->Sym.Name) : std::nullopt;
  if (!Float && reassociates(Op->Sym.Name))
    return "its datatype (" + (Type ? Type->Text : std::string("?")) +
           ") is not a predefined arithmetic type: the persistent collective may reduce in another order";
  if (Float && *Float && reassociates(Op->Sym.Name) && !Reassociate)
    return "a floating-point " + Op->Sym.Name.substr(4) +
           " may be reduced in another order by the persistent collective (the last bits may change); "
           "--reassociate allows it";
  return "";
}

/// The message's bytes (a sendrecv's larger side; a barrier's 0), when
/// static.
std::optional<int64_t> messageBytes(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT) {
  if (C.Function == mpi::MPI_Barrier)
    return 0;
  if (!C.arg(Role::SendCount))
    return sideBytes(C, Ev, DT, Role::Count, Role::Type);
  std::optional<int64_t> S = sideBytes(C, Ev, DT, Role::SendCount, Role::SendType);
  std::optional<int64_t> R = sideBytes(C, Ev, DT, Role::RecvCount, Role::RecvType);
  return S && R ? std::optional<int64_t>(std::max(*S, *R)) : std::nullopt;
}

/// The variables a for loop's increment writes (its counters).
struct CounterFinder : RecursiveASTVisitor<CounterFinder> {
  std::set<const VarDecl *> Vars;
  void add(const Expr *E) {
    if (const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        Vars.insert(V);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      add(U->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      add(B->getLHS());
    return true;
  }
};

/// The variables an expression reads by name.
struct ReadFinder : RecursiveASTVisitor<ReadFinder> {
  std::set<const VarDecl *> Vars;
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      Vars.insert(V);
    return true;
  }
};

bool handleRole(Role R) { return R == Role::Comm || R == Role::Type || R == Role::SendType || R == Role::RecvType; }

/// Why the loops around C would make a per-site cache miss on every
/// iteration, or "": a communicator or datatype that may change in the
/// innermost loop, or an argument that follows a for loop's counter.
std::string cacheMisses(const CallResult &C) {
  if (C.Loops.empty())
    return "";
  for (const ArgResult &A : C.Args)
    if (handleRole(A.R) && !C.Loops[0].invariant(A.Index))
      return llvm::formatv("its {0} ({1}) may be a new handle on each iteration of the loop at line {2}, which no "
                           "cached request would match",
                           A.Name, A.Text, C.Loops[0].Line);
  for (const LoopFact &L : C.Loops) {
    const auto *For = dyn_cast<ForStmt>(L.Loop);
    if (!For || !For->getInc())
      continue;
    CounterFinder Counters;
    Counters.TraverseStmt(const_cast<Expr *>(For->getInc()));
    for (const ArgResult &A : C.Args) {
      const Expr *E = messageRole(A.R) ? C.expr(A) : nullptr;
      if (!E)
        continue;
      ReadFinder Reads;
      Reads.TraverseStmt(const_cast<Expr *>(E));
      for (const VarDecl *V : Reads.Vars)
        if (Counters.Vars.count(V))
          return llvm::formatv("its {0} ({1}) follows {2}, the counter of the loop at line {3}: a per-site cache "
                               "would miss on every iteration",
                               A.Name, A.Text, V->getName(), L.Line);
    }
  }
  return "";
}

/// Where C's requests live: through a loop of its function, or in a
/// per-site cache; or why neither.
struct Site {
  const LoopFact *Loop = nullptr;
  int Level = 0;
  std::vector<const ReturnStmt *> Returns;
  bool Cached = false;
  std::string Why; ///< why not through a loop (cached), or why neither
};

Site siteOf(ASTContext &Ctx, const CallResult &C, const Form &F) {
  Site S;
  if (C.Loops.empty()) {
    S.Why = "it is in no loop of " + C.Caller->getNameAsString() + ", so no request can live through one";
  } else if (LoopLifetime Life = loopLifetime(C, messageChanges); !Life.Loop) {
    S.Why = Life.Why;
  } else {
    const LoopFact &L = C.Loops[Life.Level];
    std::optional<std::string> B = wrapBlocker(Ctx, L.Loop, C.Call, S.Returns);
    if (!B) {
      S.Loop = &L;
      S.Level = Life.Level;
      return S;
    }
    S.Why = llvm::formatv("its request could live through the loop at line {0}, but {1}", L.Line, *B);
  }
  if (F.Collective)
    return S;
  std::string Problem = cacheMisses(C);
  if (Problem.empty())
    Problem = cacheHome(Ctx, C.Caller);
  if (!Problem.empty()) {
    S.Why += "; " + Problem;
    return S;
  }
  S.Cached = true;
  return S;
}

/// The note of a call through a persistent request living through a loop.
ChangeNote loopNote(const CallResult &C, const Form &F, const Site &S, const PersistentCall &P,
                    const std::string &Figure) {
  return ChangeNote::at(
      Transform, true, C.File, C.Line, C.Column,
      llvm::formatv("{0} through a persistent request made once per run of the loop at line {1} ({2})", C.Function,
                    S.Loop->Line, P.To)
          .str(),
      llvm::formatv("its {0} are the same on every iteration{1}{2}; the request is made at the first call, "
                    "started and waited for at each, and freed after the loop{3}; {4}",
                    F.Collective ? "buffers, counts, datatypes, op, root and communicator"
                                 : "buffers, counts, datatypes, peers, tags and communicator",
                    S.Level > 0 ? " of the " + std::to_string(S.Level + 1) + " loops around it" : std::string(),
                    F.Collective ? " and every rank runs it alike" : "",
                    P.Returns.empty() ? "" : " and before each return in it", Figure)
          .str());
}

/// The note of a call through a per-site cache.
ChangeNote cacheNote(const CallResult &C, const Site &S, const PersistentCall &P, const std::string &Figure) {
  return ChangeNote::at(
      Transform, true, C.File, C.Line, C.Column,
      llvm::formatv("{0} through a per-site cache of persistent requests ({1})", C.Function, P.To).str(),
      llvm::formatv("{0}; the cache, static in {1}, keeps the requests of up to 4 argument lists, keyed by every "
                    "argument: made at a call whose arguments it does not hold, started and waited for at each, "
                    "freed at MPI_Finalize; a site that misses more than one call in eight returns to the generic "
                    "call; {2}",
                    S.Why, C.Caller->getNameAsString(), Figure)
          .str());
}

} // namespace

/// The bytes of one side's message, when static: a predefined datatype's
/// size, or the data of a derived datatype of known shape.
std::string ompi::receiveWildcard(const CallResult &C) {
  for (Role R : {Role::Source, Role::Tag, Role::RecvTag})
    if (const ArgResult *A = C.arg(R);
        A && A->Sym.K == SymValue::Handle && (A->Sym.Name == mpi::MPI_ANY_SOURCE || A->Sym.Name == mpi::MPI_ANY_TAG))
      return A->Sym.Name;
  return "";
}

std::optional<int64_t> ompi::sideBytes(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT, Role Count,
                                       Role Type) {
  const ArgResult *N = C.arg(Count), *T = C.arg(Type);
  if (!N || !N->Int || !T)
    return std::nullopt;
  std::optional<int64_t> Size;
  if (T->Sym.K == SymValue::Handle)
    Size = Ev.datatypeSize(T->Sym.Name);
  else if (const DatatypeVar *V = DT.of(C.expr(*T)); V && V->Shape)
    Size = V->Shape->sizeBytes();
  return Size ? std::optional<int64_t>(*N->Int * *Size) : std::nullopt;
}

/// Why C's function cannot keep a per-site cache, or "".
std::string ompi::cacheHome(const ASTContext &Ctx, const FunctionDecl *FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || !Body->getLBracLoc().isFileID() || !SM.isInMainFile(Body->getLBracLoc()))
    return "the body of " + FD->getNameAsString() +
           " does not begin with a brace written in this file, where its per-site cache would be declared";
  if (!Ctx.getLangOpts().CPlusPlus && FD->isInlineSpecified() && FD->getStorageClass() != SC_Static)
    return FD->getNameAsString() +
           " is an inline definition with external linkage, which may not keep the static object a per-site cache "
           "is (C11 6.7.4)";
  return "";
}

PersistentPlan ompi::planPersistent(ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, Uniformity &Uni,
                                    const FileResult &Calls, const MachineProfile *Profile,
                                    llvm::function_ref<bool(const CallExpr *)> Taken, bool Reassociate) {
  PersistentPlan Plan;
  for (const CallResult &C : Calls.Calls) {
    std::optional<Form> F = C.Model ? formOf(C.Function) : std::nullopt;
    if (!F || !C.Call || !C.Caller || Taken(C.Call))
      continue;
    // A call in no loop is a candidate only for a per-site cache, and
    // main's runs once.
    if (C.Loops.empty() && (F->Collective || C.Caller->isMain()))
      continue;
    auto Decline = [&](const std::string &Why) {
      Plan.Declined.push_back(ChangeNote::at(Transform, false, C.File, C.Line, C.Column,
                                             C.Function + " not through a persistent request", Why));
    };
    if (std::string Why = macroProblem(Ctx, C.Call, Calls); !Why.empty()) {
      Decline(Why);
      continue;
    }
    if (std::string W = receiveWildcard(C); !W.empty()) {
      Decline("it receives from " + W + ": wildcard receives stay generic");
      continue;
    }
    if (F->Collective)
      if (std::optional<Divergence> D = Uni.at(C.Call, C.Caller)) {
        Decline("every rank must make its persistent collective at the same point, but " + D->Why);
        continue;
      }
    if (std::string Why = orderProblem(C, Reassociate); !Why.empty()) {
      Decline(Why);
      continue;
    }
    Site S = siteOf(Ctx, C, *F);
    if (!S.Loop && !S.Cached) {
      Decline(S.Why);
      continue;
    }
    auto [Wins, Figure] =
        profileVerdict(Profile, F->Family, messageBytes(C, Ev, Derived.get()),
                       {"the persistent request", "the generic call", "a persistent request", "a template"});
    if (!Wins) {
      Decline(S.Cached ? S.Why + "; a per-site cache: " + Figure : Figure);
      continue;
    }
    PersistentCall P;
    P.Call = C.Call;
    if (S.Cached) {
      P.CacheIn = C.Caller;
      P.To = F->Cached.str();
      P.Note = cacheNote(C, S, P, Figure);
    } else {
      P.Loop = S.Loop->Loop;
      P.To = F->To.str();
      P.Returns = std::move(S.Returns);
      P.Note = loopNote(C, *F, S, P, Figure);
    }
    P.Note.Kind = NoteKind::Template;
    P.Note.Saves = "MPI's argument checks and request set-up on each call, for one comparison of the arguments";
    Plan.Calls.push_back(std::move(P));
  }
  return Plan;
}
