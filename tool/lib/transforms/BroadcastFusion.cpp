//===- BroadcastFusion.cpp - Rewrite: adjacent broadcasts as one ----------===//
//
// Writes each group of the broadcast plan (analysis/BroadcastPlan.h states
// what is proved and when the profile chooses it) as one call of
// mpiopt_agg_bcast in templates/mpiopt/aggregate.h, on the first call's
// line; the lines the group spanned stay (blank), so line numbers after it
// do not move:
//
//   MPI_Bcast(&n, 1, MPI_INT, root, comm);
//   MPI_Bcast(&tol, 1, MPI_DOUBLE, root, comm);
//     -> mpiopt_agg_bcast(2, root, comm, (void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT),
//                         (void *)(&tol), (int)(1), (MPI_Datatype)(MPI_DOUBLE));
//
// The template's parts are variadic arguments, each cast to the type the
// template reads. Each group stands alone (every process that runs it
// runs the same rewritten text), so one that cannot be written (another
// change in its text) is declined by itself.
//
//===----------------------------------------------------------------------===//
#include "analysis/BroadcastPlan.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace ompi;

/// The template call that stands for group G.
static std::string groupText(ASTContext &Ctx, const BroadcastGroup &G) {
  auto T = [&](const CallResult *C, Role R) { return fileText(Ctx, C->expr(R)); };
  const CallResult &F = *G.Calls.front();
  std::string Out =
      "mpiopt_agg_bcast(" + std::to_string(G.Calls.size()) + ", " + T(&F, Role::Root) + ", " + T(&F, Role::Comm);
  for (const CallResult *C : G.Calls)
    Out += ", (void *)(" + T(C, Role::Buf) + "), (int)(" + T(C, Role::Count) + "), (MPI_Datatype)(" + T(C, Role::Type) +
           ")";
  return Out + ");";
}

llvm::Error ompi::runBroadcastFusion(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  BroadcastPlan Plan = planBroadcastFusion(TC.Ctx, TC.Uni, TC.Analysis, TC.Profile, Taken);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  bool Changed = false;
  for (const BroadcastGroup &G : Plan.Groups) {
    if (llvm::Error E =
            TC.Out.add(spanReplacement(TC.Ctx, G.Calls.front()->Call, G.Calls.back()->Call, groupText(TC.Ctx, G)))) {
      llvm::consumeError(std::move(E));
      ChangeNote N = G.Declined;
      N.Why = "another change in this file overlaps its text";
      TC.Notes.push_back(N);
      continue;
    }
    TC.Notes.push_back(G.Note);
    Changed = true;
  }
  if (Changed)
    TC.needs("#include <mpiopt/aggregate.h>");
  return llvm::Error::success();
}
