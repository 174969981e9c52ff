//===- AlltoallvPlan.cpp - Check: alltoallv-plan ----------------------------===//
//
// an MPI_Alltoallv (or MPI_Allgatherv) in a loop whose counts,
// displacements, datatypes and communicator nothing in the loop changes (the
// plan lifetime the planned-collectives transformation uses,
// analysis/CollectivePlan.h): its communication plan can be computed once. A call in a helper that a loop
// calls counts too when the count and displacement arrays are objects of
// static storage that nothing in that loop (the helper included) writes.
//
//===----------------------------------------------------------------------===//
#include "analysis/CollectivePlan.h"
#include "checks/CallerLoops.h"
#include "checks/Checks.h"
#include "mpi/Names.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

static const Role PlanRoles[] = {Role::SendCounts, Role::SendDispls, Role::RecvCounts, Role::RecvDispls};

/// The first loop calling CR's function in which no count or displacement
/// array of CR changes, if there is one.
static std::optional<CallerLoop> unchangedInCaller(CheckContext &C, const CallResult &CR, CallerLoops &Callers) {
  if (!CR.Caller || !llvm::all_of(PlanRoles, [&](Role R) { return CR.arg(R) && fixedForRun(CR, R); }))
    return std::nullopt;
  LoopInvariance LI(C.Ctx, C.Ev);
  for (const CallerLoop &L : Callers.of(CR.Caller)) {
    bool Changes = false;
    for (Role R : PlanRoles) {
      const VarDecl *V = CR.arg(R)->Sym.Obj;
      Changes = Changes || !V || LI.written(V, L.Loop, L.Caller).has_value();
    }
    if (!Changes)
      return L;
  }
  return std::nullopt;
}

void checkAlltoallvPlans(CheckContext &C) {
  std::optional<CallerLoops> Callers;
  for (const CallResult &CR : C.Analysis.Calls) {
    bool Gather = CR.Function == mpi::MPI_Allgatherv;
    if ((CR.Function != mpi::MPI_Alltoallv && !Gather) || !CR.Call)
      continue;
    if (CR.Loops.empty() && !Gather) {
      if (!Callers)
        Callers.emplace(C.Ctx);
      if (std::optional<CallerLoop> L = unchangedInCaller(C, CR, *Callers))
        C.report("alltoallv-plan", CR.File, CR.Line, CR.Column,
                 llvm::formatv("the counts and displacements of this MPI_Alltoallv in {0}(), which {1} calls, are "
                               "arrays nothing in that loop changes: its communication plan can be computed once "
                               "before the loop (a planned Alltoallv)",
                               CR.Caller->getName(), callerLoopText(C.Ctx.getSourceManager(), *L))
                     .str());
      continue;
    }
    PlanLifetime Life = planLifetime(CR);
    if (!Life.Loop)
      continue;
    llvm::StringRef Coll = Gather ? "Allgatherv" : "Alltoallv";
    C.report("alltoallv-plan", CR.File, CR.Line, CR.Column,
             llvm::formatv("the counts and displacements of this MPI_{1} do not change in the loop at line "
                           "{0}: its communication plan can be computed once before the loop (a planned "
                           "{1}; ompi-cc plans it where the machine profile measured that faster)",
                           Life.Line, Coll)
                 .str());
  }
}

} // namespace ompi
