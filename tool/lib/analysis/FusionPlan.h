//===- FusionPlan.h - Which reductions fuse statically, and why ---------------===//
//
// Fuses MPI_Allreduce calls (or MPI_Reduce calls with the same root) that
// run one after another in the same block, on the same communicator with the
// same predefined op and datatype, into one collective on a packed buffer.
//
// Each call's input is packed where the call was; the one collective and
// the unpacking of every result happen where the last call was. The proof
// obligations are therefore: the statements in between do not touch an
// earlier call's receive buffer or result code (not by name, not through a
// pointer: no buffer's address escapes, not through a callee), contain no
// other MPI call (other fused reductions excepted) and no jump or label,
// directly or in a callee, so every rank reaches the fused call exactly when
// it reached the last original one (a branch on the rank is crossed only when
// it holds none of these); the buffers are distinct objects; counts are
// static.
//
// Calls written through macros take part when the file holds their text: a
// macro whose whole expansion is the call (#define GSUM(p) MPI_Allreduce(
// MPI_IN_PLACE, p, ...)), or a call written as a macro's argument
// (CHECK(MPI_Allreduce(...))); what the fused code needs of an argument
// written in the macro's body is its static value. In the second form the
// rest of the macro's statement runs where it ran, so for an earlier call it
// is crossed like the statements in between (an earlier call's return code
// reads MPI_SUCCESS: any failure surfaces at the fused call).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_FUSIONPLAN_H
#define OMPI_TOOL_ANALYSIS_FUSIONPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/FusionMix.h"
#include "analysis/Uniformity.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <utility>
#include <vector>

namespace ompi {

struct FusionMember {
  unsigned Line = 0, Column = 0;
  int64_t Count = 0;           ///< the count, when static
  std::string CountText;       ///< the count expression, when only known at run time
  std::string InputText;       ///< what to pack, as written (the send buffer, or the receive buffer for MPI_IN_PLACE)
  std::string ResultAddr;      ///< where the result goes, valid at the fused point
  std::string ResultCode;      ///< variable that received the call's return code, if any
  std::string Buffers;         ///< "&s -> &g" for the report
  clang::CharSourceRange Expr; ///< the call (or "rc = call") without the ';', in the file
  clang::CharSourceRange Stmt; ///< the whole statement with its ';'
  std::string Indent;          ///< leading white space of the statement's line
  /// The call is an argument of a macro that uses its return code
  /// (CHECK(MPI_Allreduce(...))): the call is rewritten in place, as one
  /// expression on its line, and the rest of the macro stays.
  bool Wrapped = false;
  std::string Op, Type, CType; ///< the call's own op and datatype (canonical names) and C type
  int64_t Size = 0;            ///< bytes per element
  Encoding Enc = Encoding::Plain;
  unsigned Lane = 0; ///< Composite: the member's segment
  /// A call of a reduction helper (x = dot(r, q);, analysis/ReductionHelpers.h):
  /// the helper's name and the call's arguments as written ("(r, q)"); its
  /// input is the variant's value, its result the variable ResultVar.
  std::string Helper, HelperArgs, ResultVar;
  bool DeclForm = false; ///< double x = dot(r, q);: Expr is the initializer
  /// The local variables the call's count, datatype, op, communicator and
  /// root read: the fused code names them ((void)x) where it reads them no
  /// more, so that a build with -Werror=unused-variable stays one.
  /// Each with the end of its scope (the '}' of its block).
  std::vector<std::pair<std::string, clang::SourceLocation>> ArgVars;
};

/// A reduction helper a group calls: the variant that returns its local
/// contribution goes after it.
struct HelperVariant {
  std::string Helper, ValueType, Params, Body;
  clang::SourceLocation After;
  /// The local part the variant copies: no other transformation may change
  /// it (the copy would not have the change; fusionRanges() includes it).
  clang::CharSourceRange Local;
  clang::SourceLocation Proto; ///< where the variant's prototype goes (helper defined after a caller)
};

struct FusionGroup {
  std::string Function; ///< MPI_Allreduce or MPI_Reduce
  /// The collective's datatype, its C type (the packed buffer's elements)
  /// and op; for a Composite group, the generated ones.
  std::string TypeText, CType, OpText, CommText, RootText;
  bool Rooted = false; ///< MPI_Reduce: the result lands at RootText only
  std::vector<FusionMember> Members;
  unsigned Between = 0; ///< statements crossed
  FusionKind Kind = FusionKind::Uniform;
  std::vector<FusionLane> Lanes; ///< Composite: the segments
  int64_t Bytes = 0;             ///< Composite: the packed buffer's size
  std::string Rule;              ///< OneOp, Composite: why one collective gives the same results
};

/// A loop whose every iteration reduces one element (for (k = A; k < B; k++)
/// MPI_Allreduce(&x[k], &y[k], 1, ...)), rewritten as one reduction of the
/// range (analysis/LoopFusion.cpp states what is proved).
struct LoopFusion {
  unsigned Line = 0, Column = 0; ///< the call
  unsigned LoopLine = 0;
  std::string Function;             ///< MPI_Allreduce or MPI_Reduce
  std::string Counter, CounterType; ///< k and its type
  bool CounterScoped = false;       ///< k is declared by the loop (no final value to set)
  std::string First, End;           ///< the range's bounds: A, and B or (B) + 1
  std::string Range;                ///< "k = A; k < B" as written, for the report
  std::string SendBase, RecvBase;   ///< x and y (SendBase empty: MPI_IN_PLACE)
  std::string TypeText, OpText, CommText, RootText;
  bool Floating = false;       ///< a floating-point SUM or PROD
  std::string Buffers;         ///< "&x[k] -> &y[k]" for the report
  clang::CharSourceRange Loop; ///< the whole for statement
  std::string Indent;          ///< of the loop's line
};

struct FusionPlan {
  std::vector<FusionGroup> Groups;
  std::vector<LoopFusion> Loops;
  std::vector<HelperVariant> Helpers; ///< one per helper the groups call
  std::vector<ChangeNote> Declined;
};

/// Analysis: the element-wise reduction loops of the file (LoopFusion.cpp).
std::vector<LoopFusion> analyzeLoopFusion(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni,
                                          const FileResult &Calls, std::vector<ChangeNote> &Declined);

/// What fusing a loop does, why it is safe and what it saves.
ChangeNote loopFusionNote(const LoopFusion &L, const std::string &File);

/// Analysis: which reductions fuse, and why the others do not. Profile, if
/// any, decides where a composite op may serve.
FusionPlan analyzeReductionFusion(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
                                  const MachineProfile *Profile = nullptr);

/// Where each member goes in the packed buffer: counts and offsets, numbers
/// or sums with run-time counts in them.
struct FusionLayout {
  std::vector<std::string> Offsets, Counts;
  std::string Total;
  int64_t Fixed = 0;
  bool Dynamic = false;
};
FusionLayout fusionLayout(const FusionGroup &G);

/// "4, 5": the lines of G's calls.
std::string fusionLines(const FusionGroup &G);

/// "2 MPI_Allreduce calls (lines 4, 5) into one of 2 x MPI_DOUBLE with ...".
std::string fusionSummary(const FusionGroup &G);

/// What fusing G does, why it is safe and what it saves (the applied note).
ChangeNote fusionNote(const FusionGroup &G, const std::string &File);

/// The file offsets [begin, end) the rewrite of Plan replaces.
std::vector<std::pair<unsigned, unsigned>> fusionRanges(const FusionPlan &Plan, clang::ASTContext &Ctx);

} // namespace ompi

#endif
