//===- Transforms.h - The registry of source transformations --------------===//
//
// A transformation reads the analysis results (plain data) and adds
// clang::tooling::Replacements; it never parses or evaluates on its own.
// Each transformation is one source file with one line in the registry
// (Transforms.cpp), its own lit test and a paragraph in README.md.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_TRANSFORMS_H
#define OMPI_TOOL_TRANSFORMS_H

#include "analysis/CallAnalysis.h"
#include "analysis/DerivedTypes.h"
#include "analysis/Uniformity.h"
#include "mpi/MachineProfile.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <string>
#include <vector>

namespace ompi {

class ReductionPlans;

struct TransformContext {
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  LazyDerivedTypes &Derived; ///< the file's datatype variables of known shape, shared with the checks
  Uniformity &Uni;
  ReductionPlans &Plans;
  const FileResult &Analysis;
  clang::tooling::Replacements &Out;
  std::vector<ChangeNote> &Notes;         ///< every change made, and every one declined
  std::vector<std::string> Selected = {}; ///< the transformations that run (empty: all)
  /// File-scope code the transformed file needs (#include lines, generated
  /// functions), in order, each once; addPrologue() inserts it.
  std::vector<std::string> Prologue = {};
  /// The machine profile, for choices made on performance grounds (null: none).
  const MachineProfile *Profile = nullptr;
  /// --reassociate: floating-point sums and products may be evaluated in
  /// another order (vector-reductions).
  bool Reassociate = false;

  void needs(const std::string &Code) {
    if (std::find(Prologue.begin(), Prologue.end(), Code) == Prologue.end())
      Prologue.push_back(Code);
  }

  bool enabled(llvm::StringRef Name) const {
    return Selected.empty() || std::find(Selected.begin(), Selected.end(), Name) != Selected.end();
  }
};

struct TransformInfo {
  const char *Name;
  const char *Summary;
  llvm::Error (*Run)(TransformContext &);
};

/// Every transformation, in the order they run.
llvm::ArrayRef<TransformInfo> transforms();

/// Insert TC.Prologue after the main file's #include of mpi.h (so that the
/// macros the program defines before it, such as _GNU_SOURCE, still come
/// first), or at the top of the file when there is no such line; a #line
/// directive after it keeps the original line numbers.
llvm::Error addPrologue(TransformContext &TC);

// The transformations, one file each.
llvm::Error runReductionFusion(TransformContext &TC);       // ReductionFusion.cpp
llvm::Error runLazyDeferral(TransformContext &TC);          // LazyDeferral.cpp
llvm::Error runMessageAggregation(TransformContext &TC);    // MessageAggregation.cpp
llvm::Error runBroadcastFusion(TransformContext &TC);       // BroadcastFusion.cpp
llvm::Error runDatatypeTemplates(TransformContext &TC);     // DatatypeTemplates.cpp
llvm::Error runPlannedCollectives(TransformContext &TC);    // PlannedCollectives.cpp
llvm::Error runVectorReductions(TransformContext &TC);      // VectorReductions.cpp
llvm::Error runSendrecvPairing(TransformContext &TC);       // SendrecvPairing.cpp
llvm::Error runPeerTemplates(TransformContext &TC);         // PeerTemplates.cpp
llvm::Error runPersistentRequests(TransformContext &TC);    // PersistentRequests.cpp
llvm::Error runNonblockingPersistent(TransformContext &TC); // NonblockingPersistent.cpp
llvm::Error runCommunicationOverlap(TransformContext &TC);  // CommunicationOverlap.cpp

} // namespace ompi

#endif
