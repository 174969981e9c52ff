//===- Checks.h - The registry of lint checks (ompi-opt --check) ----------===//
//
// A check reads the analysis results (and the AST, for what the analysis
// does not record) and reports findings: a location, a message, and fix-its
// where the fix is mechanical. Checks never change the source. Each check
// is one file under checks/, one line in the registry (Checks.cpp), a lit
// test run of its own (test/tool/checks/) and a paragraph in README.md.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_H
#define OMPI_TOOL_CHECKS_H

#include "analysis/CallAnalysis.h"
#include "analysis/DerivedTypes.h"
#include "analysis/HandleFlow.h"
#include "analysis/RequestFlow.h"
#include "analysis/Uniformity.h"
#include "analysis/ranks/RankTraces.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class SourceLocation;
class SourceRange;
class FunctionDecl;
} // namespace clang

namespace ompi {

class ReductionPlans;

struct FixIt {
  unsigned Line = 0, Column = 0, EndLine = 0, EndColumn = 0; ///< the replaced range, [begin, end)
  std::string Text;                                          ///< what replaces it
};

/// A related location, printed as a clang "note:" after the finding.
struct RelatedNote {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

/// A point-to-point end as another file's findings need it (a run over
/// several files is one program): the communicator ("" when it is not a
/// predefined one, which may then be any), the tag (none: any) and, for a
/// peer written rank + k, k.
struct P2PEnd {
  std::string Comm;
  std::optional<int64_t> Tag, Shift;
  /// A receive R of another file may accept a send S with these: same or
  /// unknown communicator, matching tags, and (ByShift) a compatible source.
  static bool mayMatch(const P2PEnd &S, const P2PEnd &R, bool ByShift) {
    return (S.Comm.empty() || R.Comm.empty() || S.Comm == R.Comm) && (!S.Tag || !R.Tag || *S.Tag == *R.Tag) &&
           (!ByShift || !S.Shift || !R.Shift || *R.Shift == -*S.Shift);
  }
};

/// How a finding is printed: optimisation findings are remarks, correctness
/// findings warnings; either is an error where --Werror (or the config's
/// WarningsAsErrors) selects its check.
enum class FindingLevel { Remark, Warning, Error };

struct Finding {
  std::string Check; ///< the check's name ("type-mismatch"); reported as [ompi-<name>]
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
  std::vector<FixIt> Fixes;
  std::vector<RelatedNote> Notes;
  FindingLevel Level = FindingLevel::Warning;
  /// unmatched-p2p: the send, and whether only its source was wrong; the
  /// driver drops the finding when a receive of another file of the run
  /// may accept it.
  std::optional<P2PEnd> UnmatchedSend;
  bool ByShift = false;
  /// A tag finding's message where other files' receives accept the tag but
  /// all expect another source ("" when the send's peer is not rank + k).
  std::string ShiftMessage;
  /// The check whose finding reports the same bug more fully (collective-
  /// sequence for rank-dependent-collective): the driver drops this one
  /// where the file's selection runs that check.
  std::string CoveredBy;
};

struct CheckContext {
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  LazyDerivedTypes &Derived; ///< the file's datatype variables of known shape, shared with the transformations
  Uniformity &Uni;
  ReductionPlans &Plans;
  const FileResult &Analysis; ///< with the transformations' notes
  std::vector<Finding> &Out;
  std::vector<P2PEnd> *Receives = nullptr; ///< this file's receiving ends, for the other files' findings
  std::map<const clang::FunctionDecl *, std::vector<RequestVar>> RequestFlows = {}; ///< requests(), computed once
  std::map<const clang::FunctionDecl *, std::vector<HandleVar>> HandleFlows = {};   ///< handles(), computed once
  std::optional<std::vector<SequenceResult>> Sequences = {};                        ///< sequences(), computed once
  std::optional<std::vector<P2PTraces>> P2P = {};                                   ///< p2p(), computed once
  std::optional<std::map<const clang::FunctionDecl *, bool>> Agreeing = {};         ///< sequencesAgree(), computed once

  /// A finding of check Name at Loc (null when a NOLINT comment suppresses
  /// it, or the same check already reported there).
  Finding *report(llvm::StringRef Name, clang::SourceLocation Loc, std::string Message);
  Finding *report(llvm::StringRef Name, llvm::StringRef File, unsigned Line, unsigned Column, std::string Message);
  /// The request flow of F (analysis/RequestFlow), computed once for the
  /// request checks that read it.
  const std::vector<RequestVar> &requests(const clang::FunctionDecl *F);
  /// The handle flow of F (analysis/HandleFlow), computed once for the
  /// lifecycle and RMA checks.
  const std::vector<HandleVar> &handles(const clang::FunctionDecl *F);
  /// The datatype variables whose shape is known (analysis/DerivedTypes).
  const DerivedTypes &derived();
  /// The predefined datatype a datatype argument is, or for a variable of
  /// known shape the predefined type it is built from (Shape set).
  struct DatatypeInfo {
    std::string Name; ///< as written ("MPI_INT", "two_ints")
    std::string Base; ///< the predefined type the elements are ("MPI_INT")
    const TypeShape *Shape = nullptr;
    /// How messages name it: "MPI_INT", or "two_ints (built from MPI_INT)".
    std::string shown() const { return Shape ? Name + " (built from " + Base + ")" : Base; }
  };
  std::optional<DatatypeInfo> datatype(const clang::Expr *E);
  /// Each entry function's collectives per rank (analysis/ranks),
  /// computed once for the checks that read them.
  const std::vector<SequenceResult> &sequences();
  /// main's point-to-point calls per rank (analysis/ranks'
  /// p2pTraces), computed once for the checks that match them.
  const std::vector<P2PTraces> &p2p();
  /// Whether the collective sequences prove every call of F right: F is
  /// reached only from entry functions whose runs were followed to their
  /// end and found every rank issuing the same collectives.
  bool sequencesAgree(const clang::FunctionDecl *F);
  /// Whether collective-sequence reports its divergence at the call S (or
  /// names it in its note).
  bool sequenceDivergesAt(const clang::Stmt *S);
  /// The functions with an MPI call, in source order.
  std::vector<const clang::FunctionDecl *> functionsWithCalls() const;
  /// A fix-it replacing the characters of R (a token range) by Text.
  void fix(Finding &F, clang::SourceRange R, std::string Text);
  /// A related location of F (printed as "note: Message" at Loc's expansion).
  void note(Finding &F, clang::SourceLocation Loc, std::string Message);
};

struct CheckInfo {
  const char *Name;
  const char *Kind; ///< "optimisation", "correctness" or "portability" (a remark, like optimisation)
  const char *Summary;
  void (*Run)(CheckContext &);
};

/// Every check, in the order they run.
llvm::ArrayRef<CheckInfo> checks();
/// The registry entry of the check Name (null when none).
const CheckInfo *findCheck(llvm::StringRef Name);

// The checks, one file each (checks/<Name>.cpp).
void checkFusableReductions(CheckContext &C);
void checkDeferrableReductions(CheckContext &C);
void checkPersistentCandidates(CheckContext &C);
void checkAlltoallvPlans(CheckContext &C);
void checkTypeMismatch(CheckContext &C);
void checkCountOverflow(CheckContext &C);
void checkPointerToPointer(CheckContext &C);
void checkRequestNeverCompleted(CheckContext &C);
void checkRequestOverwritten(CheckContext &C);
void checkWaitWithoutStart(CheckContext &C);
void checkRecvBufferInUse(CheckContext &C);
void checkRankDependentCollectives(CheckContext &C);
void checkUnmatchedP2P(CheckContext &C);
void checkInvalidArguments(CheckContext &C);
void checkCollectiveSequences(CheckContext &C);
void checkHandleLifecycle(CheckContext &C);
void checkHandleLeaks(CheckContext &C);
void checkMissingFinalize(CheckContext &C);
void checkPersistentRequests(CheckContext &C);
void checkRmaEpochs(CheckContext &C);
void checkRmaConflicts(CheckContext &C);
void checkRmaBufferInUse(CheckContext &C);
void checkStructDatatypes(CheckContext &C);
void checkMessageMatching(CheckContext &C);
void checkMessageRace(CheckContext &C);
void checkSendBufferInUse(CheckContext &C);
void checkPortabilityTypeSize(CheckContext &C);
void checkUnsafeBuffering(CheckContext &C);
void checkThreadLevel(CheckContext &C);
void checkThreadBufferRace(CheckContext &C);
void checkUncheckedThreadLevel(CheckContext &C);
void checkThreadPrivateUninitialized(CheckContext &C);

} // namespace ompi

#endif
