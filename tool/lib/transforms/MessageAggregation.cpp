//===- MessageAggregation.cpp - Rewrite: messages to one peer as one ------===//
//
// Writes each group of the aggregation plan (analysis/AggregationPlan.h
// states what is proved and when the profile chooses it) as one call of
// its template in templates/mpiopt/aggregate.h, on the first call's line;
// the lines the group spanned stay (blank), so line numbers after it do not
// move:
//
//   MPI_Send(&n, 1, MPI_INT, right, 5, comm);
//   MPI_Send(x, 8, MPI_DOUBLE, right, 6, comm);
//     -> mpiopt_agg_send(2, right, comm, (const void *)(&n), (int)(1), (MPI_Datatype)(MPI_INT), 5,
//                        (const void *)(x), (int)(8), (MPI_Datatype)(MPI_DOUBLE), 6);
//
// The template's parts are variadic arguments, each cast to the type the
// template reads. The groups of one shape change together: when one cannot
// be written (another change in its text), none of this file's is.
//
//===----------------------------------------------------------------------===//
#include "analysis/AggregationPlan.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace ompi;

/// The template call that stands for group G.
static std::string groupText(ASTContext &Ctx, const AggregateGroup &G) {
  auto T = [&](const CallResult *C, Role R) { return fileText(Ctx, C->expr(R)); };
  const CallResult &F = *G.Calls.front();
  Role Peer = G.Send ? Role::Dest : Role::Source;
  std::string Out = std::string(G.Send ? "mpiopt_agg_send(" : "mpiopt_agg_recv(") + std::to_string(G.Calls.size()) +
                    ", " + T(&F, Peer) + ", " + T(&F, Role::Comm);
  for (const CallResult *C : G.Calls) {
    Out += G.Send ? ", (const void *)(" + T(C, Role::SendBuf) : ", (void *)(" + T(C, Role::RecvBuf);
    Out += "), (int)(" + T(C, Role::Count) + "), (MPI_Datatype)(" + T(C, Role::Type) + "), " +
           std::to_string(*C->arg(Role::Tag)->Int);
    if (!G.Send)
      Out += ", (MPI_Status *)(" + T(C, Role::Status) + ")";
  }
  return Out + ");";
}

llvm::Error ompi::runMessageAggregation(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  AggregationPlan Plan = planAggregation(TC.Ctx, TC.Ev, TC.Analysis, TC.Profile, Taken);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  if (Plan.Groups.empty())
    return llvm::Error::success();
  tooling::Replacements All = TC.Out;
  for (const AggregateGroup &G : Plan.Groups) {
    if (llvm::Error E =
            All.add(spanReplacement(TC.Ctx, G.Calls.front()->Call, G.Calls.back()->Call, groupText(TC.Ctx, G)))) {
      // All of the file's groups, or none: a receive left as written
      // would miss the packed message.
      llvm::consumeError(std::move(E));
      for (const AggregateGroup &H : Plan.Groups) {
        ChangeNote N = H.Declined;
        N.Why = "another change in this file overlaps the group at line " + std::to_string(G.Calls.front()->Line) +
                ", and the groups of the file change together or not at all";
        TC.Notes.push_back(N);
      }
      return llvm::Error::success();
    }
  }
  TC.Out = std::move(All);
  for (const AggregateGroup &G : Plan.Groups)
    TC.Notes.push_back(G.Note);
  TC.needs("#include <mpiopt/aggregate.h>");
  return llvm::Error::success();
}
