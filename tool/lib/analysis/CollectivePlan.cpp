//===- CollectivePlan.cpp - Which collectives the runtime plans or selects ===//
#include "analysis/CollectivePlan.h"
#include "analysis/LoopInvariance.h"
#include "analysis/RewriteSites.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Planned = "planned-collectives";
constexpr const char *Vector = "vector-reductions";

bool sendSide(Role R) {
  return R == Role::SendCounts || R == Role::SendDispls || R == Role::SendType || R == Role::SendCount;
}

/// Whether the call's send buffer is MPI_IN_PLACE (the send arguments are
/// then ignored).
bool inPlace(const CallResult &C) {
  const ArgResult *A = C.arg(Role::SendBuf);
  return A && A->Sym.K == SymValue::Handle && isInPlaceBuffer(A->Sym.Name);
}

/// Why some plan argument of C may change between iterations of loop L
/// (nullopt: none can).
std::optional<std::string> planChanges(const CallResult &C, const LoopFact &L) {
  bool Skip = inPlace(C);
  for (const ArgResult &A : C.Args) {
    if (!isPlanRole(A.R) || (Skip && sendSide(A.R)))
      continue;
    if (!L.invariant(A.Index))
      return A.Name + " (" + A.Text + ") may change: " + L.Varies[A.Index];
    if (!L.unchanged(A.Index))
      return "the " + A.Name + " array (" + A.Text + ") may change: " + L.Written[A.Index];
  }
  return std::nullopt;
}

/// Bytes each pair exchanges (MPI_Alltoall) or each rank contributes
/// (MPI_Allgatherv, MPI_Allgather), when static: the send count x the type's size.
std::optional<int64_t> pairBytes(const CallResult &C, Evaluator &Ev) {
  const ArgResult *Count = C.arg(inPlace(C) ? Role::RecvCount : Role::SendCount);
  const ArgResult *Type = C.arg(inPlace(C) ? Role::RecvType : Role::SendType);
  if (!Count || !Count->Int || !Type || Type->Sym.K != SymValue::Handle)
    return std::nullopt;
  std::optional<int64_t> Size = Ev.datatypeSize(Type->Sym.Name);
  return Size ? std::optional<int64_t>(*Count->Int * *Size) : std::nullopt;
}

/// Why the scalar-keyed plan cache cannot take C: a datatype argument that
/// is no predefined datatype named at the call ("" when all are: every
/// rank then passes the same ones, and MPI's matching rule makes the
/// counts change alike on every rank).
std::string unnamedType(const CallResult &C) {
  bool Skip = inPlace(C);
  for (const ArgResult &A : C.Args) {
    if (!isDatatypeRole(A.R) || (Skip && sendSide(A.R)))
      continue;
    const HandleModel *H = A.Sym.K == SymValue::Handle ? lookupHandle(A.Sym.Name) : nullptr;
    if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty()) // (MPI_DATATYPE_NULL has no C type)
      return "its " + A.Name + " (" + A.Text + ") is not a predefined datatype named at the call";
  }
  return "";
}

/// The plan cache's form for C, and why (Why: why no plan lives through a
/// loop), or why there is none ({"", reason}).
std::pair<std::string, std::string> cachedForm(const CallResult &C, const PlannedForms &Forms, const std::string &Why) {
  if (Forms.Cached.empty())
    return {"", "the runtime has no plan cache for " + C.Function};
  if (!Forms.ScalarKey)
    return {Forms.Cached.str(), Why + "; the cache keeps a plan per set of counts and displacements, and the ranks "
                                      "agree at each call whether theirs still fit (one small MPI_Allreduce)"};
  if (std::string U = unnamedType(C); !U.empty())
    return {"", U + ", which the runtime's plan cache for " + C.Function + " needs"};
  return {Forms.Cached.str(),
          Why + "; the cache keeps one plan per call site while its counts and datatypes stay the same: with "
                "predefined datatypes named at the call, MPI's matching rule makes the counts change on every rank "
                "alike, so the ranks need no agreement"};
}

/// The note of C planned once per run of the loop C.Loops[Level].
ChangeNote loopNote(const CallResult &C, int Level, const PlannedCall &P) {
  const LoopFact &L = C.Loops[Level];
  return ChangeNote::at(
      Planned, true, C.File, C.Line, C.Column,
      llvm::formatv("{0} planned once per run of the loop at line {1} ({2})", C.Function, L.Line, P.To).str(),
      llvm::formatv("its counts, displacements, datatypes and communicator are the same on "
                    "every iteration{0} and every rank runs it alike; the runtime makes the "
                    "plan at the call and frees it after the loop{1}",
                    Level > 0 ? " of the " + std::to_string(Level + 1) + " loops around it" : std::string(),
                    P.Returns.empty() ? "" : " and before each return in it")
          .str());
}

/// P for the plan cache, where no plan of C lives through a loop (Why,
/// or "" when C is in no loop of its own function; InLoop: in a loop, or
/// in a function a loop calls); or why C stays as written.
std::optional<std::string> toCache(const CallResult &C, const PlannedForms &Forms, const std::string &Why, bool InLoop,
                                   PlannedCall &P) {
  if (!InLoop)
    return std::string("it is in no loop (directly or through the functions that call it): a plan would serve one "
                       "call");
  std::string NoLoop = Why.empty() ? std::string("it is not in a loop of its own function")
                                   : "its plan arguments are not proved the same on every iteration (" + Why + ")";
  auto [To, CacheWhy] = cachedForm(C, Forms, Why.empty() ? NoLoop : "its plan is not proved to last (" + Why + ")");
  if (To.empty())
    return NoLoop + " and " + CacheWhy;
  P.To = To;
  P.Note = ChangeNote::at(Planned, true, C.File, C.Line, C.Column,
                          C.Function + " handed to the runtime's plan cache (" + P.To + ")", CacheWhy);
  return std::nullopt;
}

std::string figure(const PlannedPoint &P, llvm::StringRef Per) {
  return llvm::formatv("the machine profile measured {0} us per call against the MPI's {1} us at {2} bytes per "
                       "{3}{4}",
                       P.PlannedUs, P.NativeUs, P.Bytes, Per, P.Algorithm.empty() ? "" : " (" + P.Algorithm + ")")
      .str();
}

std::string saving(const PlannedPoint &P, llvm::StringRef Per) {
  return llvm::formatv("{0:2} of the MPI's {1} us per call at {2} bytes per {3} (machine profile{4})",
                       P.NativeUs - P.PlannedUs, P.NativeUs, P.Bytes, Per,
                       P.Algorithm.empty() ? "" : ", algorithm " + P.Algorithm)
      .str();
}

/// The profile's points for a planned collective, and their name in a
/// message. MPI_Alltoall shares the Alltoallv's; MPI_Allgather has its own,
/// as the MPI's algorithms for it are not its MPI_Allgatherv's.
std::pair<llvm::StringRef, llvm::StringRef> profileFamily(llvm::StringRef Function) {
  if (Function == mpi::MPI_Allgather)
    return {"allgather", "Allgather"};
  if (Function == mpi::MPI_Allgatherv)
    return {"allgatherv", "Allgatherv"};
  return {"alltoallv", "all-to-all"};
}

/// The profile's verdict on planning C: what it saves, or why not.
std::pair<bool, std::string> profileSays(const CallResult &C, Evaluator &Ev, const MachineProfile *Profile) {
  if (!Profile)
    return {false, "no machine profile is loaded (the planned form is used only where a measurement shows it "
                   "faster)"};
  auto [Key, Name] = profileFamily(C.Function);
  llvm::StringRef Per = Key == "alltoallv" ? "pair" : "rank";
  std::optional<int64_t> Bytes = C.Function == mpi::MPI_Alltoallv ? std::nullopt : pairBytes(C, Ev);
  std::optional<PlannedPoint> P = Profile->plannedFor(Key, Bytes);
  if (!P)
    return {false, llvm::formatv("the machine profile has no planned {0} measurement", Name).str() +
                       (Bytes ? llvm::formatv(" at {0} bytes per {1} or more", *Bytes, Per).str() : std::string())};
  if (!P->wins())
    return {false, figure(*P, Per) + ": the MPI's own call is as fast"};
  return {true, saving(*P, Per)};
}

} // namespace

PlanLifetime ompi::planLifetime(const CallResult &C) { return loopLifetime(C, planChanges); }

AllToAllPlan ompi::planAllToAll(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                const MachineProfile *Profile) {
  AllToAllPlan Plan;
  std::optional<CallerLoops> Callers;
  for (const CallResult &C : Calls.Calls) {
    std::optional<PlannedForms> Forms = C.Model ? plannedForms(C.Function) : std::nullopt;
    if (!Forms || !C.Call || !C.Caller)
      continue;
    auto Decline = [&](const std::string &Why) {
      Plan.Declined.push_back(
          ChangeNote::at(Planned, false, C.File, C.Line, C.Column, C.Function + " not planned", Why));
    };
    if (std::string Why = macroProblem(Ctx, C.Call, Calls); !Why.empty()) {
      Decline(Why);
      continue;
    }
    if (std::optional<Divergence> D = Uni.at(C.Call, C.Caller)) {
      Decline("every rank must make the runtime's calls alike, but " + D->Why);
      continue;
    }
    auto [Wins, Figure] = profileSays(C, Ev, Profile);
    if (!Wins) {
      Decline(Figure);
      continue;
    }
    PlanLifetime Life = planLifetime(C);
    int Level = Life.Level;
    std::string Why = Life.Why;
    std::vector<const ReturnStmt *> Returns;
    if (Level >= 0)
      if (std::optional<std::string> B = wrapBlocker(Ctx, C.Loops[Level].Loop, C.Call, Returns)) {
        Why = "its plan could live through the loop at line " + std::to_string(C.Loops[Level].Line) + ", but " + *B;
        Level = -1;
      }
    PlannedCall P;
    P.Call = C.Call;
    if (Level >= 0) {
      P.Loop = C.Loops[Level].Loop;
      P.To = Forms->Planned.str();
      P.Returns = std::move(Returns);
      P.Note = loopNote(C, Level, P);
    } else {
      bool InLoop = !C.Loops.empty();
      if (!InLoop) {
        if (!Callers)
          Callers.emplace(Ctx);
        InLoop = !Callers->of(C.Caller).empty();
      }
      if (std::optional<std::string> No = toCache(C, *Forms, Why, InLoop, P)) {
        Decline(*No);
        continue;
      }
    }
    if (P.Loop) { // where the loop's block cannot be written
      auto [To, CacheWhy] = cachedForm(C, *Forms,
                                       "another transformation changes the code where a plan's block around its "
                                       "loop would begin or end");
      P.Cached = To;
      P.CachedWhy =
          To.empty() ? "another transformation changes the code where the plan's block would begin or end" : CacheWhy;
    }
    P.Note.Kind = NoteKind::Planned;
    P.Note.Saves = Figure;
    Plan.Calls.push_back(std::move(P));
  }
  return Plan;
}

namespace {

/// The predefined arithmetic datatype of a reduction, and whether it is
/// floating point; nullopt for pair, derived or unknown datatypes.
std::optional<bool> arithmetic(const ArgResult *Type) {
  if (!Type || Type->Sym.K != SymValue::Handle)
    return std::nullopt;
  return floatingArithmetic(Type->Sym.Name);
}

std::string vectorSaving(const VectorPoint &V, bool Sparse) {
  if (V.winsDense())
    return llvm::formatv("{0:2} of the MPI's {1} us at {2} bytes on dense data{3} (machine profile)",
                         V.NativeUs - V.DenseUs, V.NativeUs, V.Bytes,
                         Sparse ? llvm::formatv(", {0:2} with 90% zeros", V.NativeUs - V.SparseUs).str()
                                : std::string())
        .str();
  return llvm::formatv("{0:2} of the MPI's {1} us at {2} bytes with 90% zeros (machine profile; dense data goes to "
                       "the MPI's own call, as the selector measures each call's density)",
                       V.NativeUs - V.SparseUs, V.NativeUs, V.Bytes)
      .str();
}

std::string vectorFigure(const VectorPoint &V) {
  return llvm::formatv("the machine profile measured the selector at {0} us (dense) and {1} us (90% zeros) against "
                       "{2} us for the MPI's own call at {3} bytes",
                       V.DenseUs, V.SparseUs, V.NativeUs, V.Bytes)
      .str();
}

/// The smallest measured size from which the selector was no slower than
/// the MPI's own call at every larger measured size and at least 5% faster
/// at one of them (dense, or with 90% zeros for a sum: the selector measures
/// each call's density), as scripts/tune sets the runtime model's min and
/// dense; the selector runs the MPI's own call below it. None: there is none.
std::optional<int64_t> vectorWinsFrom(const MachineProfile &P, llvm::StringRef Coll, bool Sum) {
  std::vector<const VectorPoint *> Points;
  for (const VectorPoint &V : P.Reductions)
    if (V.Collective == Coll)
      Points.push_back(&V);
  llvm::sort(Points, [](const VectorPoint *A, const VectorPoint *B) { return A->Bytes < B->Bytes; });
  std::optional<int64_t> From;
  bool Won = false;
  for (auto It = Points.rbegin(); It != Points.rend(); ++It) {
    const VectorPoint &V = **It;
    double Ours = Sum ? std::min(V.DenseUs, V.SparseUs) : V.DenseUs;
    if (Ours > V.NativeUs)
      break;
    Won |= V.winsDense() || (Sum && V.winsSparse());
    if (Won)
      From = V.Bytes;
  }
  return From;
}

} // namespace

namespace {

/// Whether E calls a function anywhere.
bool callsAny(const Stmt *E) {
  return anyNode(E, [](const Stmt *N) { return isa<CallExpr>(N); });
}

/// The call of C's function that is the other arm of the if whose one arm
/// is C's statement (alone, or alone in a block), when every rank reaches
/// the if alike and neither its condition nor either call's arguments call
/// a function; null otherwise. IfLine: that if's line.
const CallResult *twinOf(ASTContext &Ctx, Uniformity &Uni, const CallResult &C, const FileResult &Calls,
                         unsigned &IfLine) {
  const Stmt *S = C.Call, *P = parentStmt(Ctx, S);
  while (P && isa<Expr>(P)) { // the call's value kept (rc = MPI_Reduce(...)), casts
    S = P;
    P = parentStmt(Ctx, S);
  }
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P); CS && CS->size() == 1) {
    S = CS;
    P = parentStmt(Ctx, S);
  }
  const auto *If = dyn_cast_or_null<IfStmt>(P);
  if (!If || !If->getElse() || If->getConditionVariable() || If->getInit() || callsAny(If->getCond()))
    return nullptr;
  const Stmt *Mine = If->getThen() == S ? If->getThen() : If->getElse() == S ? If->getElse() : nullptr;
  const Stmt *Other = Mine == If->getThen() ? If->getElse() : If->getThen();
  std::vector<const Stmt *> Arm = blockStatements(Other), Own = blockStatements(Mine);
  if (!Mine || Arm.size() != 1 || Own.size() != 1 || statementCallTo(Own[0], C.Function) != C.Call)
    return nullptr;
  const CallExpr *T = statementCallTo(Arm[0], C.Function);
  if (!T || Uni.at(If, C.Caller))
    return nullptr;
  for (const CallExpr *X : {C.Call, T})
    for (const Expr *A : X->arguments())
      if (callsAny(A))
        return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  IfLine = SM.getPresumedLineNumber(SM.getFileLoc(If->getBeginLoc()));
  for (const CallResult &R : Calls.Calls)
    if (R.Call == T)
      return &R;
  return nullptr;
}

/// Keep the twins of the plan in pairs: a call whose twin is not in the
/// plan goes back to the MPI, saying why; both name the first twin's line.
void pairTwins(VectorPlan &Plan, const std::map<const CallExpr *, std::pair<const CallResult *, unsigned>> &Twins) {
  std::set<const CallExpr *> In;
  for (const VectorReduction &R : Plan.Calls)
    In.insert(R.Call);
  std::vector<VectorReduction> Kept;
  for (VectorReduction &R : Plan.Calls) {
    auto It = Twins.find(R.Call);
    if (It == Twins.end()) {
      Kept.push_back(std::move(R));
      continue;
    }
    const CallResult &T = *It->second.first;
    if (!In.count(T.Call)) {
      ChangeNote N = R.Note;
      N.Applied = false;
      N.Kind = NoteKind::Declined;
      N.What = N.What.substr(0, N.What.find(' ')) + " left to the MPI";
      N.Why = llvm::formatv("the ranks that take the other arm of the if at line {0} make the {1} at line {2}, "
                            "which stays the MPI's (see its note), and both must make the same calls",
                            It->second.second, T.Function, T.Line);
      N.Saves.clear();
      Plan.Declined.push_back(std::move(N));
      continue;
    }
    R.SiteLine = std::min(R.Note.Line, T.Line);
    Kept.push_back(std::move(R));
  }
  Plan.Calls = std::move(Kept);
}

} // namespace

VectorPlan ompi::planVectorReductions(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                      const MachineProfile *Profile,
                                      const std::set<std::pair<unsigned, unsigned>> &Taken, bool Reassociate) {
  VectorPlan Plan;
  std::map<const CallExpr *, std::pair<const CallResult *, unsigned>> Twins;
  for (const CallResult &C : Calls.Calls) {
    llvm::StringRef To = C.Model ? largeVectorCounterpart(C.Function) : "";
    if (To.empty() || !C.Call || !C.Caller || Taken.count({C.Line, C.Column}))
      continue;
    const ArgResult *Count = C.arg(Role::Count), *Type = C.arg(Role::Type), *Op = C.arg(Role::Op);
    std::optional<int64_t> Size =
        Type && Type->Sym.K == SymValue::Handle ? Ev.datatypeSize(Type->Sym.Name) : std::nullopt;
    std::optional<int64_t> Bytes =
        Count && Count->Int && Size ? std::optional<int64_t>(*Count->Int * *Size) : std::nullopt;
    llvm::StringRef Coll = C.Function == mpi::MPI_Allreduce ? "allreduce" : "reduce";
    // Scalars and short vectors are no candidates (nothing to say about them).
    int64_t Smallest = INT64_MAX;
    if (Profile)
      for (const VectorPoint &V : Profile->Reductions)
        if (V.Collective == Coll)
          Smallest = std::min(Smallest, V.Bytes);
    if (Bytes && (!Profile || *Bytes < std::min<int64_t>(Smallest, 1024)))
      continue;
    auto Decline = [&](const std::string &Why) {
      Plan.Declined.push_back(
          ChangeNote::at(Vector, false, C.File, C.Line, C.Column, C.Function + " left to the MPI", Why));
    };
    std::optional<bool> Float = arithmetic(Type);
    const CallResult *Twin = nullptr;
    unsigned IfLine = 0;
    bool BuiltinOp = Op && Op->Sym.K == SymValue::Handle && isReductionOp(Op->Sym.Name) &&
                     Op->Sym.Name != mpi::MPI_MAXLOC && Op->Sym.Name != mpi::MPI_MINLOC;
    if (std::string Why = macroProblem(Ctx, C.Call, Calls); !Why.empty())
      Decline(Why);
    else if (!Float)
      Decline("its datatype (" + (Type ? Type->Text : std::string("?")) +
              ") is not a predefined arithmetic type the selector's algorithms reduce");
    else if (!BuiltinOp)
      Decline("its op (" + (Op ? Op->Text : std::string("?")) + ") is not a predefined one known to commute");
    else if (*Float && reassociates(Op->Sym.Name) && !Reassociate)
      Decline("a floating-point " + Op->Sym.Name.substr(4) +
              " would be reassociated by the selector's algorithms (the last bits may change); --reassociate allows "
              "it");
    else if (std::optional<Divergence> D = Uni.at(C.Call, C.Caller); D && !(Twin = twinOf(Ctx, Uni, C, Calls, IfLine)))
      Decline("every rank must make the runtime's calls alike, but " + D->Why);
    else if (!Profile)
      Decline("no machine profile is loaded (the selector is used only where a measurement shows it faster)");
    else if (std::optional<VectorPoint> V = Profile->vectorFor(Coll, Bytes); !V)
      Decline("the machine profile has no " + Coll.str() + " measurement" +
              (Bytes ? " at " + std::to_string(*Bytes) + " bytes or more" : std::string()));
    else if (Bytes && *Bytes < Smallest)
      Decline(llvm::formatv("{0} bytes: below the smallest size the machine profile measured ({1} bytes)", *Bytes,
                            Smallest));
    else if (!V->winsDense() && !(V->winsSparse() && Op->Sym.Name == mpi::MPI_SUM))
      Decline(vectorFigure(*V) + ": the MPI's own call is as fast");
    else if (std::optional<int64_t> From = vectorWinsFrom(*Profile, Coll, Op->Sym.Name == mpi::MPI_SUM); !From)
      Decline("the machine profile measured the selector no faster than the MPI's own call at its largest size: "
              "the selector would run the MPI's own call at every size");
    else if (Bytes && *Bytes < *From)
      Decline(llvm::formatv("{0} bytes: the selector would run the MPI's own call, as the machine profile measured "
                            "it faster only from {1} bytes on",
                            *Bytes, *From));
    else {
      VectorReduction R;
      R.Call = C.Call;
      R.To = To.str();
      std::string Size = Bytes ? std::to_string(*Bytes) + " bytes" : "a size known at run time";
      R.Note = ChangeNote::at(Vector, true, C.File, C.Line, C.Column,
                              C.Function + " of " + Type->Sym.Name + " with " + Op->Sym.Name +
                                  " handed to the large-vector selector (" + R.To + ")",
                              (Twin ? llvm::formatv("every rank that reaches the if at line {0} runs it or the {1} "
                                                    "at line {2} (the other arm, which goes to the selector too)",
                                                    IfLine, Twin->Function, Twin->Line)
                                          .str()
                                    : std::string("every rank runs it alike")) +
                                  " and it reduces " + Size +
                                  "; the selector runs binomial, reduce-scatter or ring algorithms where its model "
                                  "expects them faster, and the MPI's own call elsewhere" +
                                  (*Float && reassociates(Op->Sym.Name) ? " (the sums are reassociated: --reassociate)"
                                                                        : " (the result is exactly the MPI's)"));
      R.Note.Kind = NoteKind::Planned;
      R.Note.Saves = vectorSaving(*V, Op->Sym.Name == mpi::MPI_SUM);
      Plan.Calls.push_back(std::move(R));
      if (Twin)
        Twins[C.Call] = {Twin, IfLine};
    }
  }
  pairTwins(Plan, Twins);
  return Plan;
}
