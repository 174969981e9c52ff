//===- Transforms.cpp - The registry of source transformations ------------===//
#include "Transforms.h"
#include "ReductionFusion.h"

using namespace ompi;

// One line per transformation: {name, summary, entry point}.
static const std::vector<TransformInfo> Registry = {
    {"reduction-fusion", "fuse independent MPI_Allreduce / MPI_Reduce calls into one collective", runReductionFusion},
};

llvm::ArrayRef<TransformInfo> ompi::transforms() { return Registry; }
