//===- BufferTypes.h - Buffers whose type their datatype does not describe ===//
#ifndef OMPI_TOOL_CHECKS_BUFFERTYPES_H
#define OMPI_TOOL_CHECKS_BUFFERTYPES_H

#include "checks/Checks.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace ompi {

struct BufferTypeMismatch {
  const CallResult *Call = nullptr;
  const clang::Expr *At = nullptr; ///< the buffer argument
  std::string Message;             ///< what differs
  bool SameRepresentation = false; ///< the types differ but are alike on this target (long and long long on LP64)
};

/// Every buffer of the file whose element type its datatype does not
/// describe (see BufferTypes.cpp for what is judged).
void bufferTypeMismatches(CheckContext &C, llvm::function_ref<void(const BufferTypeMismatch &)> Found);

} // namespace ompi

#endif
