//===- CallerLoops.h - What the loop checks share about helpers' calls ----===//
//
// persistent-candidate and alltoallv-plan also look at calls in helpers a
// loop calls: a call's argument is the same at every execution of the call
// when it is fixed for the whole run.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_CALLERLOOPS_H
#define OMPI_TOOL_CHECKS_CALLERLOOPS_H

#include "analysis/CallAnalysis.h"
#include "analysis/LoopInvariance.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace ompi {

/// Whether the argument of role R (if any) is the same at every execution
/// of the call in the run: static or rank-relative, and an address only of
/// an object of static storage (a helper's local lives per call).
inline bool fixedForRun(const CallResult &CR, Role R) {
  const ArgResult *A = CR.arg(R);
  if (!A)
    return true;
  if (A->Class != ArgClass::Static && A->Class != ArgClass::RankRelative)
    return false;
  return A->Sym.K != SymValue::Address || (A->Sym.Obj && A->Sym.Obj->hasGlobalStorage());
}

/// "the loop at line 40 of main (through step())": where a helper is called.
inline std::string callerLoopText(const clang::SourceManager &SM, const CallerLoop &L) {
  std::string S = llvm::formatv("the loop at line {0} of {1}", SM.getExpansionLineNumber(L.Loop->getBeginLoc()),
                                L.Caller->getName())
                      .str();
  if (!L.Through.empty())
    S += " (through " + llvm::join(L.Through, "(), ") + "())";
  return S;
}

} // namespace ompi

#endif
