//===- RecvBufferInUse.cpp - Check: recv-buffer-in-use ----------------------===//
//
// after a nonblocking receive (or a nonblocking collective's receive
// buffer), a use of the buffer's variable (an array, a struct, a scalar
// passed as &x, a pointer) before the first completion call that names the
// request.
//
//===----------------------------------------------------------------------===//
#include "checks/PendingBuffer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

void checkRecvBufferInUse(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller || CR.Model->M != Mode::Nonblocking)
      continue;
    auto P = pendingBuffer(C, CR, Role::RecvBuf);
    if (!P || P->Uses.empty())
      continue;
    C.report("recv-buffer-in-use", P->Uses.front()->getLocation(),
             llvm::formatv("'{0}' is used before the {1} at line {2} that writes it has completed (the "
                           "completion on '{3}' is at line {4})",
                           P->Buf->getName(), CR.Function, CR.Line, P->Req->getName(), P->UntilLine)
                 .str());
  }
}

} // namespace ompi
