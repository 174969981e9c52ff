//===- WaitPairing.cpp - The waits that complete a nonblocking call -------===//
#include "analysis/WaitPairing.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
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
    return llvm::formatv("line {0} completes it with {1}, which has no template (MPI_Wait and MPI_Test; over an "
                         "array of requests, MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany, MPI_Waitsome and "
                         "MPI_Testsome)",
                         Line, E.Function)
        .str();
  return llvm::formatv("line {0} uses it otherwise (assigned, indexed by a value that is not constant, or passed "
                       "to a function that is not a wait or test with a constant count)",
                       Line)
      .str();
}

/// Whether a completion by Function goes through a template: MPI_Wait and
/// MPI_Test on the request itself; over an array (an element: InArray),
/// the calls on a run of requests too.
bool templated(llvm::StringRef Function, bool InArray) {
  if (Function == mpi::MPI_Wait || Function == mpi::MPI_Test)
    return true;
  return InArray && completesRun(Function);
}

bool meets(const RequestStates &S, const std::set<int> &Starts) {
  return llvm::any_of(S, [&](int K) { return K >= 0 && Starts.count(startOf(K)) != 0; });
}

/// Whether some event other than its initialiser hands the request (or its
/// array) to code the flow does not follow: an assignment, its address
/// kept, a call that is no start or completion of it.
bool escapes(const RequestVar &R) {
  return llvm::any_of(
      R.Events, [&](const RequestEvent &E) { return E.K == RequestEvent::Other && !(E.S && E.S == R.V->getInit()); });
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
    bool Wait = E.K == RequestEvent::Complete && templated(E.Function, Index >= 0);
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
  // A path that ends the function with the request pending loses it: the
  // program can then never complete it (nor read a receive's buffer), and
  // the template's buffer stays out of its pool. Where the request may be
  // reached otherwise, a completion elsewhere would miss the template's.
  if (meets(R->Exit, Ks) && escapes(*R))
    P.Why = "on some path the function ends with the request still pending, and the request is also used otherwise";
  return P;
}
