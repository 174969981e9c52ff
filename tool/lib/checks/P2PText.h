//===- P2PText.h - How the point-to-point checks describe a waiting rank ---===//
//
// Shared by message-matching and portability-unsafe-buffering.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_P2PTEXT_H
#define OMPI_TOOL_CHECKS_P2PTEXT_H

#include "analysis/P2PMatch.h"
#include "checks/Checks.h"
#include "llvm/Support/FormatVariadic.h"
#include <string>

namespace ompi {

inline std::string callName(const P2PEvent &E) {
  const clang::FunctionDecl *F = E.Call->getDirectCallee();
  return F ? F->getName().str() : "the call";
}

inline std::string fromRank(int64_t Peer) { return Peer < 0 ? "any rank" : "rank " + std::to_string(Peer); }

/// "in MPI_Recv (line 12) for a message from rank 1": where a rank waits,
/// for what. Origin is the call whose completion it needs (At itself for a
/// blocking call, the MPI_Irecv or MPI_Issend for a wait).
inline std::string waitsFor(const P2PEvent &At, const P2PEvent *Origin, bool Sending) {
  if (At.K == P2PEvent::Collective || !Origin)
    return llvm::formatv("in {0} (line {1}) for every rank to join it", callName(At), At.Line);
  std::string In = llvm::formatv("in {0} (line {1})", callName(At), At.Line);
  if (Origin != &At)
    In += llvm::formatv(" for the {0} of line {1}", callName(*Origin), Origin->Line).str();
  if (Sending)
    return llvm::formatv("{0} until rank {1} receives", In, *Origin->S.Peer);
  return llvm::formatv("{0}{1} a message from {2}", In, Origin != &At ? "," : " for", fromRank(*Origin->R.Peer));
}

} // namespace ompi

#endif
