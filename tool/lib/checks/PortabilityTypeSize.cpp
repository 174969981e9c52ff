//===- PortabilityTypeSize.cpp - Check: portability-type-size ---------------===//
//
// a buffer whose element type differs from the type its datatype describes
// but is alike on this target (long and MPI_LONG_LONG on LP64, int64_t and
// MPI_LONG_LONG, a long double of the same format): the program works here
// and breaks where the sizes differ (long is 4 bytes on 64-bit Windows).
// Lower severity than type-mismatch (a remark, SARIF "note"), so teams can
// keep type-mismatch an error.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferTypes.h"
#include "llvm/Support/FormatVariadic.h"

namespace ompi {

void checkPortabilityTypeSize(CheckContext &C) {
  bufferTypeMismatches(C, [&](const BufferTypeMismatch &M) {
    if (M.SameRepresentation)
      C.report("portability-type-size", M.At->getBeginLoc(),
               llvm::formatv("{0}: the two are the same size here, but not on every platform (use the datatype of "
                             "the element type)",
                             M.Message)
                   .str());
  });
}

} // namespace ompi
