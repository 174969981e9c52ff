//===- TypeMismatch.cpp - Check: type-mismatch ------------------------------===//
//
// a buffer whose element type its predefined datatype (or the type a
// derived datatype of known shape is built from) does not describe, where
// the two differ in size or representation (checks/BufferTypes); types
// that are alike on this target are portability-type-size's.
//
//===----------------------------------------------------------------------===//
#include "checks/BufferTypes.h"

namespace ompi {

void checkTypeMismatch(CheckContext &C) {
  bufferTypeMismatches(C, [&](const BufferTypeMismatch &M) {
    if (!M.SameRepresentation)
      C.report("type-mismatch", M.At->getBeginLoc(), M.Message);
  });
}

} // namespace ompi
