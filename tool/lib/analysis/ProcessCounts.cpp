//===- ProcessCounts.cpp - The process counts a program says it runs at --===//
#include "analysis/ProcessCounts.h"
#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringSwitch.h"
#include <optional>

using namespace clang;
using namespace ompi;

namespace {

/// The value of a guard's condition (or part of it) with N processes:
/// nullopt where it reads anything but the world's size and constants.
class GuardValue {
public:
  GuardValue(Evaluator &Ev, const FunctionDecl *F, const Stmt *At) : Ev(Ev), F(F), At(At) {}

  std::optional<int64_t> at(const Expr *E, int64_t N) {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> L = at(B->getLHS(), N), R = at(B->getRHS(), N);
      if (!L || !R)
        return std::nullopt;
      switch (B->getOpcode()) {
      case BO_Add:
        return *L + *R;
      case BO_Sub:
        return *L - *R;
      case BO_Mul:
        return *L * *R;
      case BO_Div:
        return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
      case BO_Rem:
        return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
      case BO_LT:
        return *L < *R;
      case BO_GT:
        return *L > *R;
      case BO_LE:
        return *L <= *R;
      case BO_GE:
        return *L >= *R;
      case BO_EQ:
        return *L == *R;
      case BO_NE:
        return *L != *R;
      case BO_LAnd:
        return *L && *R;
      case BO_LOr:
        return *L || *R;
      default:
        return std::nullopt;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      std::optional<int64_t> X = at(U->getSubExpr(), N);
      if (!X)
        return std::nullopt;
      if (U->getOpcode() == UO_LNot)
        return !*X;
      if (U->getOpcode() == UO_Minus)
        return -*X;
      return std::nullopt;
    }
    SymValue V = Ev.evaluate(E, F, At);
    if (V.K == SymValue::Int)
      return V.I;
    if (V.K == SymValue::Affine && V.A.Rank == 0 && V.A.Mod == AffineForm::NoMod && V.Comm.isWorld())
      return V.A.Size * N + V.A.Const;
    return std::nullopt;
  }

private:
  Evaluator &Ev;
  const FunctionDecl *F;
  const Stmt *At;
};

/// Whether a guard's then arm stops the job or the process, or warns.
bool refuses(const Stmt *Then) {
  return anyNode(Then, [](const Stmt *N) {
    if (isa<ReturnStmt>(N))
      return true;
    const auto *CE = dyn_cast<CallExpr>(N);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    return G && G->getIdentifier() &&
           (abortsJob(G->getName()) || llvm::StringSwitch<bool>(G->getName())
                                           .Cases("exit", "abort", "_exit", "printf", "fprintf", "puts", "perror", true)
                                           .Default(false));
  });
}

/// Whether S may communicate (before it, a guard still counts).
bool communicates(const Stmt *S) {
  return anyNode(S, [](const Stmt *N) {
    const auto *CE = dyn_cast<CallExpr>(N);
    const FunctionDecl *G = CE ? CE->getDirectCallee() : nullptr;
    if (!CE)
      return false;
    if (!G || !G->getIdentifier())
      return true; // a call through a pointer
    llvm::StringRef Name = G->getName();
    if (!isMPIFunctionName(Name))
      return G->hasBody(); // the file's own code may communicate; a library's does not
    return !setsUpOrQueries(Name);
  });
}

} // namespace

std::vector<int> ompi::processCounts(Evaluator &Ev, const FunctionDecl *F, llvm::ArrayRef<int> Defaults) {
  const std::vector<int> &Requested = Ev.options().NProcs;
  if (!Requested.empty())
    return Requested;
  std::vector<int> All(Defaults.begin(), Defaults.end());
  const auto *Body = F && F->isMain() ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body)
    return All;
  std::vector<bool> Accepted(17, true);
  bool Guarded = false;
  for (const Stmt *S : Body->body()) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (If && !If->getElse() && !If->getInit() && !If->getConditionVariable() && refuses(If->getThen()) &&
        !communicates(If->getCond())) {
      GuardValue G(Ev, F, If->getCond());
      std::vector<bool> Refused(17, false);
      bool Known = true;
      for (int N = 1; N <= 16 && Known; ++N) {
        std::optional<int64_t> C = G.at(If->getCond(), N);
        Known = C.has_value();
        Refused[N] = Known && *C;
      }
      if (Known) {
        Guarded = true;
        for (int N = 1; N <= 16; ++N)
          Accepted[N] = Accepted[N] && !Refused[N];
        continue;
      }
    }
    if (communicates(S))
      break;
  }
  if (!Guarded)
    return All;
  std::vector<int> Out;
  for (int N : Defaults)
    if (N >= 1 && N <= 16 && Accepted[N])
      Out.push_back(N);
  if (Out.empty()) // none of the defaults: the two smallest counts accepted
    for (int N = 1; N <= 16 && Out.size() < 2; ++N)
      if (Accepted[N])
        Out.push_back(N);
  return Out.empty() ? All : Out;
}
