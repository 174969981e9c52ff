//===- Traces.cpp - Each rank's messages, windows and handles -------------===//
#include "analysis/ProcessCounts.h"
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

using namespace ompi;
using namespace ompi::ranks;

/// Every rank's point-to-point calls with 2, 3 and 4 processes.
static std::vector<P2PTraces> p2pJob(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel,
                                     const FunctionDecl *F, const Choices *Fixed, Taken &Chosen,
                                     std::set<std::string> &Decided, bool *WouldFork = nullptr) {
  std::vector<P2PTraces> Out;
  for (int Size : processCounts(Ev, F, {2, 3, 4})) {
    P2PTraces T{F, Size, {}, {}, ""};
    std::vector<std::vector<MadeComm>> Comms;
    for (int Rank = 0; Rank < Size; ++Rank) {
      RankRun Run(Ctx, Ev, Uni, Rel, Rank, Size);
      Run.Fixed = Fixed;
      Run.WouldFork = WouldFork;
      if (Rel.Rma || Rel.Split || Rel.Handles) { // no collective names the communicator of the ranks: the world's
        Run.TheComm = CommId{CommId::Predefined, mpi::MPI_COMM_WORLD.str()};
        Run.limitSteps(30000); // a long loop of few statements, in every job of every size
      }
      T.Aborted.push_back(Run.function(F, {}) == Flow::Aborted);
      T.Ranks.push_back(std::move(Run.Messages));
      Comms.push_back(std::move(Run.Comms));
      Chosen.insert(Run.Chosen.begin(), Run.Chosen.end());
      Decided.insert(Run.Decided.begin(), Run.Decided.end());
    }
    if (Rel.P2P && !translatePeers(T, Comms))
      continue; // splitTraces judges a peer beyond its part
    Out.push_back(std::move(T));
  }
  return Out;
}

/// Every run of F's ranks (p2pJob), then each outcome of the conditions
/// the runs could not decide, appended to Out.
static void traceRuns(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, Relevance &Rel, const FunctionDecl *F,
                      std::vector<P2PTraces> &Out) {
  Taken Chosen;
  std::set<std::string> Decided;
  bool WouldFork = false;
  try {
    std::vector<P2PTraces> Mine = p2pJob(Ctx, Ev, Uni, Rel, F, nullptr, Chosen, Decided, &WouldFork);
    Out.insert(Out.end(), Mine.begin(), Mine.end());
  } catch (const Undecided &U) {
    debugUndecided(F, Rel.Rma ? "one-sided" : Rel.Split ? "split" : Rel.Handles ? "handle" : "point-to-point", U.Why);
  }
  if (!WouldFork)
    return;
  // Then each outcome of the conditions the runs could not decide.
  explore([&](const Choices &C) {
    Taken Chosen;
    std::set<std::string> Decided;
    std::vector<P2PTraces> Mine = p2pJob(Ctx, Ev, Uni, Rel, F, &C, Chosen, Decided);
    std::string Assumed = assumed(Ctx, C, Chosen, Decided);
    for (P2PTraces &T : Mine)
      T.Assumed = Assumed;
    if (!Assumed.empty())
      Out.insert(Out.end(), Mine.begin(), Mine.end());
    return false;
  });
}

std::vector<P2PTraces> ompi::p2pTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::PointToPoint);
  Rel.Program = Ev.options().Program.get();
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (F->isMain()) // a whole program only: a library's callers may send what it receives
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

/// Whether a variable of the functions Fs that Tracked selects is used
/// other than as an argument of an MPI call (its value or address, or for
/// an array the array, &a[k] or a[k]) or in a comparison: copied, assigned
/// from another, given to a function that is not MPI's.
template <typename Pred> static bool escapes(const std::set<const FunctionDecl *> &Fs, Pred Tracked) {
  for (const FunctionDecl *F : Fs) {
    std::set<const Stmt *> Allowed;
    auto allow = [&](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      Allowed.insert(E);
    };
    bool Escapes = false;
    anyNode(F->getBody(), [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N); CE && isMPIFunctionName(calleeName(CE)))
        for (const Expr *A : CE->arguments())
          allow(A);
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isEqualityOp())
        allow(B->getLHS()), allow(B->getRHS());
      const auto *D = dyn_cast<DeclRefExpr>(N);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      Escapes = V && Tracked(V) && !Allowed.count(D);
      return Escapes;
    });
    if (Escapes)
      return true;
  }
  return false;
}

/// Whether a handle of class K (a window, a communicator) of Fs escapes.
static bool handlesEscape(const std::set<const FunctionDecl *> &Fs, HandleClass K) {
  return escapes(Fs, [K](const VarDecl *V) { return handleClassOf(V->getType().getAsString()) == K; });
}

std::vector<P2PTraces> ompi::rmaTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::OneSided);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (!handlesEscape(reachable(F), HandleClass::Win))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

/// Whether a local handle array of Fs escapes (used other than as &a[k]
/// or a[k] in MPI calls and comparisons).
static bool handleArraysEscape(const std::set<const FunctionDecl *> &Fs) {
  return escapes(Fs, [](const VarDecl *V) {
    return V->getType()->isArrayType() &&
           handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  });
}

std::vector<P2PTraces> ompi::handleArrayTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::HandleArrays);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel))
    if (!handleArraysEscape(reachable(F)))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  return Out;
}

std::vector<P2PTraces> ompi::splitTraces(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni) {
  Relevance Rel(Relevance::Splits);
  std::vector<P2PTraces> Out;
  for (const FunctionDecl *F : entries(Ctx, Rel)) {
    bool Splits = anyNode(F->getBody(), [](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      return CE && calleeName(CE) == mpi::MPI_Comm_split;
    });
    if (Splits && !handlesEscape(reachable(F), HandleClass::Comm))
      traceRuns(Ctx, Ev, Uni, Rel, F, Out);
  }
  return Out;
}
