//===- SendrecvPairing.cpp - Rewrite: an adjacent send and receive as one -===//
//
// Writes each pair of the pairing plan (analysis/PairPlan.h states what is
// proved and when the profile chooses it) as one MPI_Sendrecv in place of
// the two statements, the send's arguments first, then the receive's; the
// lines the two statements spanned stay (the call on the first, the others
// blank), so line numbers after them do not move:
//
//   MPI_Send(a, n, MPI_DOUBLE, right, 0, comm);
//   MPI_Recv(b, n, MPI_DOUBLE, left, 0, comm, &st);
//     -> MPI_Sendrecv(a, n, MPI_DOUBLE, right, 0, b, n, MPI_DOUBLE, left, 0, comm, &st);
//
//===----------------------------------------------------------------------===//
#include "analysis/PairPlan.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace ompi;

/// The arguments of CE from First to Last, as written, joined by ", ".
static std::string argsText(ASTContext &Ctx, const CallExpr *CE, unsigned First, unsigned Last) {
  std::string Out;
  for (unsigned I = First; I <= Last && I < CE->getNumArgs(); ++I)
    Out += (I == First ? "" : ", ") + fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), CE->getArg(I));
  return Out;
}

llvm::Error ompi::runSendrecvPairing(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  PairPlan Plan = planPairs(TC.Ctx, TC.Ev, TC.Analysis, TC.Profile, Taken);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  for (const PairCall &P : Plan.Pairs) {
    std::string Text = "MPI_Sendrecv(" + argsText(TC.Ctx, P.Send, 0, 4) + ", " + argsText(TC.Ctx, P.Recv, 0, 4) + ", " +
                       argsText(TC.Ctx, P.Recv, 5, 6) + ");";
    if (auto E = TC.Out.add(spanReplacement(TC.Ctx, P.First, P.Second, Text)))
      return E;
    TC.Notes.push_back(P.Note);
  }
  return llvm::Error::success();
}
