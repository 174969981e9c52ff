//===- HandleLifecycle.cpp - Check: handle-lifecycle -------------------------===//
//
// a handle used, committed or freed after every path reaching the call freed
// it; a datatype describing a communication's data on every path built and
// never committed; a handle used before any call created it; a constructor
// writing over a handle every path left alive and unfreed (the old one
// leaks). The handles' lives are analysis/HandleFlow's.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

bool alive(int S) { return S >= 0; }

/// The last event of kind K before event I, in source order (null: none).
const HandleEvent *lastBefore(const HandleVar &H, unsigned I, HandleEvent::Kind K) {
  for (unsigned J = I; J-- > 0;)
    if (H.Events[J].K == K)
      return &H.Events[J];
  return nullptr;
}

/// A finding at E naming the line of the earlier event Prev ("@L@" in Msg),
/// with a note there.
void reportWith(CheckContext &C, const HandleEvent &E, const HandleEvent *Prev, llvm::StringRef Note,
                const std::string &Msg) {
  unsigned L = Prev ? C.Ctx.getSourceManager().getExpansionLineNumber(Prev->Loc) : 0;
  std::string Text = Msg;
  for (size_t P; (P = Text.find("@L@")) != std::string::npos;)
    Text.replace(P, 3, std::to_string(L));
  if (Finding *F = C.report("handle-lifecycle", E.Loc, Text); F && Prev)
    C.note(*F, Prev->Loc, Note.str());
}

llvm::StringRef freeCall(HandleClass K) {
  switch (K) {
  case HandleClass::Datatype:
    return mpi::MPI_Type_free;
  case HandleClass::Comm:
    return mpi::MPI_Comm_free;
  case HandleClass::Group:
    return mpi::MPI_Group_free;
  case HandleClass::Op:
    return mpi::MPI_Op_free;
  case HandleClass::Win:
    return mpi::MPI_Win_free;
  case HandleClass::Info:
    return mpi::MPI_Info_free;
  case HandleClass::Errhandler:
    return mpi::MPI_Errhandler_free;
  case HandleClass::Request:
    return mpi::MPI_Request_free;
  }
  return "";
}

void checkEvent(CheckContext &C, const HandleVar &H, unsigned I) {
  const HandleEvent &E = H.Events[I];
  const HandleStates &At = H.At[I];
  std::string Name = H.V->getName().str(), Kind = handleClassName(H.Class).str();
  if (E.K == HandleEvent::Other || E.K == HandleEvent::SetNull)
    return;
  if (E.K == HandleEvent::Create) {
    if (allStates(At, alive))
      reportWith(C, E, lastBefore(H, I, HandleEvent::Create), "the " + Kind + " created here",
                 llvm::formatv("{0} overwrites the {1} '{2}' created at line @L@, which no {3} freed: that {1} is "
                               "lost and leaks (free a handle before its variable takes a new one)",
                               E.Function, Kind, Name, freeCall(H.Class))
                     .str());
    return;
  }
  if (allStates(At, [](int S) { return S == HFreed; })) {
    reportWith(C, E, lastBefore(H, I, HandleEvent::Free), "freed here",
               llvm::formatv("{0} {1} {2} '{3}' after the {4} at line @L@ freed it: a freed handle is no longer "
                             "valid",
                             E.Function, E.K == HandleEvent::Free ? "frees" : "uses", Kind, Name, freeCall(H.Class))
                   .str());
    return;
  }
  if (allStates(At, [](int S) { return S == HUnset; })) {
    C.report("handle-lifecycle", E.Loc,
             llvm::formatv("{0} uses {1} '{2}', which no call created on any path to here: a handle must be "
                           "created (or set to a predefined one) before it is used",
                           E.Function, Kind, Name)
                 .str());
    return;
  }
  if (E.K == HandleEvent::UseComm && allStates(At, [](int S) { return S == HBuilt; }))
    reportWith(C, E, lastBefore(H, I, HandleEvent::Create), "built here",
               llvm::formatv("{0} communicates with datatype '{1}', built at line @L@ but never committed: a "
                             "datatype must be committed (MPI_Type_commit) before communication uses it",
                             E.Function, Name)
                   .str());
}

} // namespace

void checkHandleLifecycle(CheckContext &C) {
  for (const FunctionDecl *F : C.functionsWithCalls())
    for (const HandleVar &H : C.handles(F))
      for (unsigned I = 0; I < H.Events.size(); ++I)
        checkEvent(C, H, I);
}

} // namespace ompi
