//===- PersistentCandidate.cpp - Check: persistent-candidate ----------------===//
//
// a point-to-point call in a loop whose arguments read the same in every
// iteration (the call facts' loop invariance): a persistent request sets
// the message up once. A call in a helper that a loop calls (halo() in the
// time loop) counts too when every argument is fixed for the whole run:
// static or rank-relative, with buffers that are objects of static storage.
//
//===----------------------------------------------------------------------===//
#include "checks/CallerLoops.h"
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

static const Role MessageRoles[] = {Role::SendBuf, Role::RecvBuf, Role::Count, Role::Type,
                                    Role::Dest,    Role::Source,  Role::Tag,   Role::Comm};

/// Whether the argument of role R (if the call has one) reads the same in
/// every iteration of the innermost loop around the call.
static bool invariant(const CallResult &CR, Role R) {
  const ArgResult *A = CR.arg(R);
  return !A || CR.Loops.empty() || CR.Loops.front().invariant(A->Index);
}

void checkPersistentCandidates(CheckContext &C) {
  std::optional<CallerLoops> Callers;
  for (const CallResult &CR : C.Analysis.Calls) {
    llvm::StringRef Init = CR.Model ? persistentCounterpart(CR.Function) : "";
    if (Init.empty())
      continue;
    if (!CR.Loops.empty()) {
      if (llvm::all_of(MessageRoles, [&](Role R) { return invariant(CR, R); }))
        C.report("persistent-candidate", CR.File, CR.Line, CR.Column,
                 llvm::formatv("{0} in the loop at line {1} has the same buffer, count, datatype, peer, tag and "
                               "communicator on every iteration: a persistent request ({2} before the loop, "
                               "MPI_Start and MPI_Wait in it) sets the message up once",
                               CR.Function, CR.LoopLine, Init)
                     .str());
      continue;
    }
    if (!CR.Caller || !llvm::all_of(MessageRoles, [&](Role R) { return fixedForRun(CR, R); }))
      continue;
    if (!Callers)
      Callers.emplace(C.Ctx);
    std::vector<CallerLoop> Loops = Callers->of(CR.Caller);
    if (Loops.empty())
      continue;
    C.report("persistent-candidate", CR.File, CR.Line, CR.Column,
             llvm::formatv("{0} in {1}(), which {2} calls, has the same buffer, count, datatype, peer, tag and "
                           "communicator on every call (static or rank-relative arguments, buffers of static "
                           "storage): a persistent request ({3} before that loop, MPI_Start and MPI_Wait here) "
                           "sets the message up once",
                           CR.Function, CR.Caller->getName(), callerLoopText(C.Ctx.getSourceManager(), Loops.front()),
                           Init)
                 .str());
  }
}

} // namespace ompi
