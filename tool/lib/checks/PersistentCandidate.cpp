//===- PersistentCandidate.cpp - Check: persistent-candidate ----------------===//
//
// a point-to-point call in a loop whose arguments read the same in every
// iteration (the call facts' loop invariance): a persistent request sets
// the message up once.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

/// Whether the argument of role R (if the call has one) reads the same in
/// every iteration of the innermost loop around the call.
static bool invariant(const CallResult &CR, Role R) {
  const ArgResult *A = CR.arg(R);
  return !A || CR.Loops.empty() || CR.Loops.front().invariant(A->Index);
}

void checkPersistentCandidates(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || CR.Loops.empty())
      continue;
    llvm::StringRef Init = persistentCounterpart(CR.Function);
    if (Init.empty())
      continue;
    bool Same = true;
    for (Role R :
         {Role::SendBuf, Role::RecvBuf, Role::Count, Role::Type, Role::Dest, Role::Source, Role::Tag, Role::Comm})
      Same = Same && invariant(CR, R);
    if (!Same)
      continue;
    C.report("persistent-candidate", CR.File, CR.Line, CR.Column,
             llvm::formatv("{0} in the loop at line {1} has the same buffer, count, datatype, peer, tag and "
                           "communicator on every iteration: a persistent request ({2} before the loop, "
                           "MPI_Start and MPI_Wait in it) sets the message up once",
                           CR.Function, CR.LoopLine, Init)
                 .str());
  }
}

} // namespace ompi
