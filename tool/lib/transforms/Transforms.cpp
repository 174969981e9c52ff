//===- Transforms.cpp - The registry of source transformations ------------===//
#include "transforms/Transforms.h"
#include "mpi/Names.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

using namespace ompi;

// One line per transformation: {name, summary, entry point}.
static const std::vector<TransformInfo> Registry = {
    {"reduction-fusion", "fuse independent MPI_Allreduce / MPI_Reduce calls into one collective", runReductionFusion},
    {"lazy-deferral", "defer the remaining reductions to the lazy runtime; wait at each force point", runLazyDeferral},
    {"message-aggregation", "send adjacent small messages to one peer as one packed message, and receive them alike",
     runMessageAggregation},
    {"broadcast-fusion", "broadcast adjacent MPI_Bcast calls from one root as one packed broadcast",
     runBroadcastFusion},
    {"datatype-templates", "send and receive derived datatypes of known shape through compiled pack loops",
     runDatatypeTemplates},
    {"planned-collectives",
     "plan MPI_Alltoallv / MPI_Alltoall / MPI_Allgatherv / MPI_Allgather once per loop (or through the plan cache)",
     runPlannedCollectives},
    {"vector-reductions", "hand large MPI_Allreduce / MPI_Reduce to the runtime's algorithm selector",
     runVectorReductions},
    {"sendrecv-pairing", "write an adjacent MPI_Send and MPI_Recv as one MPI_Sendrecv, whose transfers overlap",
     runSendrecvPairing},
    {"peer-templates",
     "run sends and receives with MPI_PROC_NULL as no-ops and exchanges with the caller itself as copies",
     runPeerTemplates},
    {"persistent-requests", "run point-to-point calls in loops through persistent requests made once per loop",
     runPersistentRequests},
    {"nonblocking-persistent",
     "run nonblocking sends and receives through a function's cache of persistent requests, and their waits alike",
     runNonblockingPersistent},
    {"communication-overlap",
     "move nonblocking completions down and receives up their blocks, past the statements that do not need them",
     runCommunicationOverlap},
};

llvm::ArrayRef<TransformInfo> ompi::transforms() { return Registry; }

llvm::Error ompi::addPrologue(TransformContext &TC) {
  if (TC.Prologue.empty())
    return llvm::Error::success();
  const SourceManager &SM = TC.Ctx.getSourceManager();
  // mpi.h is the file that declares MPI_Init.
  SourceLocation Decl;
  for (const NamedDecl *D : TC.Ctx.getTranslationUnitDecl()->lookup(&TC.Ctx.Idents.get(mpi::MPI_Init)))
    Decl = D->getLocation();
  auto [At, Line] = afterIncludeOf(SM, Decl);
  if (At.isInvalid()) {
    At = SM.getLocForStartOfFile(SM.getMainFileID());
    Line = 1;
  }
  std::string Text;
  for (const std::string &P : TC.Prologue)
    Text += P + "\n";
  Text += "#line " + std::to_string(Line) + "\n";
  return TC.Out.add(tooling::Replacement(SM, At, 0, Text));
}
