//===- WaitPairing.cpp - The waits that complete a nonblocking call -------===//
#include "analysis/WaitPairing.h"
#include "mpi/MPIModel.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

/// What event E does to the request, in words.
std::string describe(const SourceManager &SM, const RequestEvent &E) {
  unsigned Line = SM.getExpansionLineNumber(E.Loc);
  if (E.K == RequestEvent::Start)
    return llvm::formatv("line {0} starts it again ({1})", Line, E.Function).str();
  if (E.K == RequestEvent::Complete)
    return llvm::formatv("line {0} completes it with {1}, not MPI_Wait or MPI_Waitall", Line, E.Function).str();
  return llvm::formatv("line {0} uses it otherwise (assigned, indexed by a value that is not constant, or passed "
                       "to a function that is not MPI_Wait or MPI_Waitall with a constant count)",
                       Line)
      .str();
}

bool meets(const RequestStates &S, const std::set<int> &Starts) {
  return llvm::any_of(S, [&](int K) { return Starts.count(K) != 0; });
}

} // namespace

WaitPairing ompi::pairWaits(const SourceManager &SM, const std::vector<RequestVar> &Flow, const VarDecl *Req, int Index,
                            llvm::ArrayRef<const CallExpr *> Starts) {
  WaitPairing P;
  const RequestVar *R = nullptr;
  for (const RequestVar &X : Flow)
    if (X.V == Req && X.Index == Index)
      R = &X;
  if (!R) {
    P.Why = "the request's flow through the function is not known (no control-flow graph, or a persistent request)";
    return P;
  }
  std::set<int> Ks;
  for (unsigned K = 0; K < R->Events.size(); ++K)
    if (R->Events[K].K == RequestEvent::Start && llvm::is_contained(Starts, R->Events[K].S))
      Ks.insert(int(K));
  if (Ks.size() != Starts.size()) {
    P.Why = "a call that starts the request is not among its events";
    return P;
  }
  for (unsigned J = 0; J < R->Events.size(); ++J) {
    const RequestEvent &E = R->Events[J];
    bool Wait = E.K == RequestEvent::Complete && (E.Function == "MPI_Wait" || E.Function == "MPI_Waitall");
    bool Pending = meets(R->At[J], Ks);
    if (Pending && !Wait) {
      P.Why = "while the call's request may be pending, " + describe(SM, E);
      return P;
    }
    if (!Wait)
      continue;
    const auto *CE = dyn_cast_or_null<CallExpr>(E.S);
    bool Macro = !CE || CE->getBeginLoc().isMacroID() || CE->getRParenLoc().isMacroID();
    if (Pending && Macro) {
      P.Why = llvm::formatv("the {0} at line {1} that completes it is written through a macro", E.Function,
                            SM.getExpansionLineNumber(E.Loc));
      return P;
    }
    if (!Macro)
      P.Waits.push_back(CE);
  }
  if (meets(R->Exit, Ks))
    P.Why = "on some path the function ends with the request still pending";
  return P;
}
