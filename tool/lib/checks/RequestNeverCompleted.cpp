//===- RequestNeverCompleted.cpp - Check: request-never-completed -----------===//
//
// a local request pending at the function's exit on every path (the request
// flow on the CFG, analysis/RequestFlow).
//
//===----------------------------------------------------------------------===//
#include "analysis/RequestFlow.h"
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkRequestNeverCompleted(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const RequestVar &R : C.requests(F))
      if (allPending(R.Exit))
        for (int K : R.Exit)
          C.report("request-never-completed", R.Events[K].Loc,
                   llvm::formatv("the request '{0}' of this {1} is never completed: no MPI_Wait, MPI_Test or "
                                 "MPI_Request_free on it follows in {2}",
                                 R.V->getName(), R.Events[K].Function, F->getName())
                       .str());
}

} // namespace ompi
