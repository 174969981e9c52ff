//===- CollectiveSequence.cpp - Check: collective-sequence ------------------===//
//
// the first point where two groups of ranks part in the collectives they
// issue (analysis/CollectiveSequence: each entry function run per rank with
// 2, 3, 4 and 8 processes): a different collective, the same one with a
// different root, op or count, or none at all where the others call one.
// The standard requires every rank of a communicator to issue the same
// collectives in the same order with matching arguments.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

llvm::StringRef callName(const CollectiveEvent &E) { return llvm::StringRef(E.Key).split(' ').first; }
std::string args(const CollectiveEvent &E) {
  llvm::StringRef A = llvm::StringRef(E.Key).split(' ').second;
  return A.empty() ? "" : "(" + A.str() + ")";
}
std::string what(const CollectiveEvent &E) {
  std::string Via = E.Via ? llvm::formatv(", through the call at line {0}", E.Via).str() : "";
  return callName(E) == "loop" ? llvm::formatv("the collectives of the loop at line {0}{1}", E.Line, Via).str()
                               : llvm::formatv("{0} (line {1}{2}{3})", callName(E), E.Line, Via, E.Held).str();
}

std::string message(const SequenceDivergence &D) {
  std::string RA = describeRanks(D.RanksA), RB = describeRanks(D.RanksB);
  std::string Ord = std::to_string(D.Index + 1);
  Ord += D.Index == 0 ? "st" : D.Index == 1 ? "nd" : D.Index == 2 ? "rd" : "th";
  std::string Head = llvm::formatv("with {0} processes, ", D.Size);
  if (!D.Assumed.empty())
    Head += "where " + D.Assumed + ", ";
  if (D.A && D.B && callName(*D.A) == callName(*D.B) && callName(*D.A) != "loop")
    return Head + llvm::formatv("ranks {0} call {1} {2} as their {3} collective but ranks {4} call it {5} (line "
                                "{6}): every rank must pass the same root, op and count",
                                RA, what(*D.A), args(*D.A), Ord, RB, args(*D.B), D.B->Line)
                      .str();
  if (D.A && D.B)
    return Head + llvm::formatv("ranks {0} call {1} as their {2} collective but ranks {3} call {4}: every rank of a "
                                "communicator must issue the same collectives in the same order",
                                RA, what(*D.A), Ord, RB, what(*D.B))
                      .str();
  const CollectiveEvent &E = D.A ? *D.A : *D.B;
  return Head + llvm::formatv("ranks {0} call {1} as their {2} collective but ranks {3} call none (their path ends "
                              "at line {4}): every rank of a communicator must issue the same collectives",
                              D.A ? RA : RB, what(E), Ord, D.A ? RB : RA, D.A ? D.EndLineB : D.EndLineA)
                    .str();
}

} // namespace

void checkCollectiveSequences(CheckContext &C) {
  for (const SequenceResult &R : C.sequences()) {
    if (!R.Divergence)
      continue;
    const SequenceDivergence &D = *R.Divergence;
    const CollectiveEvent &At = D.A ? *D.A : *D.B;
    Finding *F = C.report("collective-sequence", At.At->getBeginLoc(), message(D));
    if (F && D.A && D.B)
      C.note(*F, D.B->At->getBeginLoc(),
             llvm::formatv("where ranks {0} call {1}", describeRanks(D.RanksB), callName(*D.B)).str());
  }
}

} // namespace ompi
