//===- Transforms.cpp - The registry of source transformations ------------===//
#include "Transforms.h"

using namespace ompi;

// One line per transformation: {name, summary, entry point}. None is
// registered yet; the output of ompi-opt is then the input, byte for byte.
static const std::vector<TransformInfo> Registry = {};

llvm::ArrayRef<TransformInfo> ompi::transforms() { return Registry; }
