//===- Transforms.cpp - The registry of source transformations ------------===//
#include "transforms/Transforms.h"

using namespace ompi;

// One line per transformation: {name, summary, entry point}.
static const std::vector<TransformInfo> Registry = {
    {"reduction-fusion", "fuse independent MPI_Allreduce / MPI_Reduce calls into one collective", runReductionFusion},
    {"lazy-deferral", "defer the remaining reductions to the lazy runtime; wait at each force point", runLazyDeferral},
};

llvm::ArrayRef<TransformInfo> ompi::transforms() { return Registry; }
