//===- PlannedCollectives.cpp - Rewrite: planned all-to-all ---------------===//
//
// Rewrites the calls of the all-to-all plan (analysis/CollectivePlan.h
// states what is proved): a call whose plan lives through a loop becomes
// the runtime's planned call with the address of a plan variable declared,
// null, in a block opened just before the loop; the block frees the plan
// after the loop, and each return inside the loop frees it first:
//
//   { mpiopt_plan mpiopt_plan1_p = 0; for (...) {
//       ... mpiopt_alltoallv_planned(&mpiopt_plan1_p, sb, sc, ...) ...
//   } mpiopt_plan_free(&mpiopt_plan1_p); }
//
// Other calls are renamed to the plan cache's. Nothing inserted spans a
// line, so every line keeps its number. Where another transformation
// already changes the code at the loop's start or end, its calls go to the
// plan cache where it can take them (an MPI_Alltoall or MPI_Allgather
// naming predefined datatypes), or stay as written.
//
//===----------------------------------------------------------------------===//
#include "analysis/CollectivePlan.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <tuple>

using namespace clang;
using namespace ompi;

namespace {

/// The plan variables of one loop.
struct Group {
  const Stmt *Loop = nullptr;
  std::vector<PlannedCall *> Calls;
  std::vector<std::string> Vars;
};

} // namespace

llvm::Error ompi::runPlannedCollectives(TransformContext &TC) {
  AllToAllPlan Plan = planAllToAll(TC.Ctx, TC.Ev, TC.Uni, TC.Analysis, TC.Profile);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  if (Plan.Calls.empty())
    return llvm::Error::success();
  // A call another transformation already rewrote (an MPI_Alltoall of a
  // derived datatype through datatype-templates) keeps that rewrite.
  llvm::erase_if(Plan.Calls, [&](const PlannedCall &P) {
    if (!callChanged(TC.Ctx, TC.Out, P.Call))
      return false;
    TC.Notes.push_back(declinedNote(P.Note, TC.Analysis, P.Call, "not planned",
                                    "another transformation (datatype-templates) already rewrites the call"));
    return true;
  });
  if (Plan.Calls.empty())
    return llvm::Error::success();
  // The loops' blocks, innermost first where two end together.
  std::map<const Stmt *, Group> Groups;
  for (PlannedCall &P : Plan.Calls)
    if (P.Loop) {
      Group &G = Groups[P.Loop];
      G.Loop = P.Loop;
      G.Calls.push_back(&P);
    }
  FreshNames Names(TC.Ctx);
  LoopBlocks Blocks(TC.Ctx, TC.Out);
  std::map<const CallExpr *, std::string> PlanOf;
  for (auto &[Loop, G] : Groups) {
    std::vector<const ReturnStmt *> Returns; // the loop's (every call of the group has them all)
    for (PlannedCall *P : G.Calls)
      for (const ReturnStmt *R : P->Returns)
        if (!llvm::is_contained(Returns, R))
          Returns.push_back(R);
    if (!Blocks.writable(Loop, Returns)) {
      for (PlannedCall *P : G.Calls) { // to the plan cache, or as written (below)
        P->Loop = nullptr;
        P->Returns.clear();
      }
      continue;
    }
    for (PlannedCall *P : G.Calls) {
      G.Vars.push_back(Names.next("mpiopt_plan") + "_p");
      PlanOf[P->Call] = G.Vars.back();
    }
    Blocks.add(Loop, "mpiopt_plan", G.Vars, "0", "mpiopt_plan_free", Returns);
  }
  if (auto E = Blocks.write(TC.Out))
    return E;
  bool Any = false;
  for (PlannedCall &P : Plan.Calls) {
    std::string To = P.To;
    std::string Arg;
    if (auto It = PlanOf.find(P.Call); It != PlanOf.end()) {
      Arg = "&" + It->second + ", ";
    } else if (P.Loop == nullptr && To.find("_planned") != std::string::npos) {
      // Its loop's block could not be written: the plan cache, where it can take the call.
      if (P.Cached.empty()) {
        TC.Notes.push_back(declinedNote(P.Note, TC.Analysis, P.Call, "not planned", P.CachedWhy));
        continue;
      }
      const CallResult *C = factsOf(TC.Analysis, P.Call);
      To = P.Cached;
      P.Note.What = (C ? C->Function : std::string("the call")) + " handed to the runtime's plan cache (" + To + ")";
      P.Note.Why = P.CachedWhy;
    }
    llvm::Expected<bool> Renamed = renameCall(TC.Ctx, TC.Out, P.Call, To + "(" + Arg);
    if (!Renamed)
      return Renamed.takeError();
    if (!*Renamed)
      continue;
    TC.Notes.push_back(P.Note);
    Any = true;
  }
  if (Any)
    TC.needs("#include <mpiopt/coll_optional.h>");
  return llvm::Error::success();
}
