//===- UniformityRoot.cpp - Values every rank takes from the root ---------===//
//
// Uniformity's use of RootBroadcast.h: a variable the root packs and
// broadcasts and every other rank unpacks holds the root's value on every
// rank once the if ends, whatever either arm wrote into it before. That
// covers the writes an arm makes itself and those of the functions it
// calls (the root's input check, `check_input()`, that adjusts what it
// read before packing it): a function that writes a global only when it
// is called from such an arm, directly or through its callers, does not
// make the global differ between ranks.
//
//===----------------------------------------------------------------------===//
#include "analysis/Effects.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RootBroadcast.h"
#include "analysis/Uniformity.h"

using namespace clang;
using namespace ompi;

bool Uniformity::reconciled(const VarDecl *V, const Stmt *At, const FunctionDecl *F) {
  if (!RB) {
    Eff = std::make_unique<Effects>(Ctx);
    RB = std::make_unique<RootBroadcast>(Ctx, Ev, *Eff);
  }
  return RB->reconciles(V, At, F).has_value();
}

/// Whether every way into G (a function that writes the global V) is a
/// call made in an arm of a pack-broadcast-unpack of V, directly or through
/// G's callers. Calls from other files, through a pointer, or from main
/// outside such an arm are not.
bool Uniformity::entriesReconciled(const VarDecl *V, const FunctionDecl *G, unsigned Depth) {
  const FunctionDecl *Canon = G->getCanonicalDecl();
  if (G->isMain() || Depth > 8 || !V->hasGlobalStorage() || Ev.index().AddressTaken.count(Canon))
    return false;
  if (outside(G)) {
    const ProgramFacts *P = program();
    if (!P || P->reachedFromOtherFiles(G->getName()))
      return false;
  }
  auto It = Ev.index().CallSites.find(Canon);
  if (It == Ev.index().CallSites.end() || It->second.empty())
    return false;
  for (auto [Caller, CE] : It->second)
    if (!reconciled(V, CE, Caller) && !entriesReconciled(V, Caller, Depth + 1))
      return false;
  return true;
}
