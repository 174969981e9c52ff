//===- AggregationPlan.h - Small messages to one peer sent as one ---------===//
//
// Message aggregation (the OMPI paper's future work): adjacent MPI_Send
// statements to one peer on one communicator become one message, packed by
// templates/mpiopt/aggregate.h, and the adjacent MPI_Recv statements that
// take them become one receive, unpacked alike. The receive side is
// transformed with the send side, or neither is.
//
// A group: two or more adjacent statements of one block (nothing but blanks
// between), each a call of MPI_Send (or each of MPI_Recv) whose value is
// discarded, outside macros, with side-effect-free arguments, the same peer
// and communicator as written (the peer not MPI_ANY_SOURCE), a constant
// tag (0 or more) and a predefined datatype each. Its shape: the tags and
// the datatypes, in order.
//
// Proved, for a shape, before any group of it changes:
//  - Every point-to-point call of the program whose tag may be one of the
//    shape's tags (a constant equal to one, MPI_ANY_TAG, or a tag not known
//    at compile time; sends, receives, probes, MPI_Sendrecv, persistent and
//    nonblocking forms, an MPI function whose address is taken) is a member
//    of a group of that shape in this file. Other files' calls come from
//    the program's facts (ProgramFacts::Messages); without them the file
//    must be the whole program (--closed-world and main). So each process
//    sends the shape's messages to a peer only as whole groups, in program
//    order, and receives them from a peer only as whole groups: by MPI's
//    non-overtaking rule the i-th group a process receives from a peer takes
//    the i-th group that peer sent it, part for part. One message per group,
//    on the first tag, matches the same way, and no other call could have
//    taken a part of it. All groups of a shape are in one file, so they
//    change together (a file left as written changes none).
//  - Every send group of the shape has constant counts whose bytes, with a
//    header of one int per part, fit MPIOPT_AGG_MAX (1 KiB): the packed
//    message is sent eagerly wherever the separate ones were (no MPI's eager
//    limit is below it), so a program that relied on buffering still runs.
//  - A receive group's later calls read nothing its earlier calls write:
//    the buffers and statuses of all but the last lie in named objects or
//    pointers that own one allocation, which later arguments do not read
//    (nor anything through a pointer but a buffer's own address): the
//    arguments of all are evaluated at the first call.
//  - The machine profile measured the packed message 5% faster at the
//    largest send group's size: "templates.aggregate" (two messages against
//    one packed message of their parts, one way), "aggregate3" (three) or
//    "aggregate4" (four; groups of more parts too), by the group's parts; a
//    profile without that family decides by "aggregate" (fewer parts save
//    less).
//
// The template receives into a buffer of MPIOPT_AGG_MAX bytes, copies each
// part (the count the sender sent, checked against the receive's count: a
// larger one calls the communicator's error handler with MPI_ERR_TRUNCATE,
// as MPI_Recv would), and writes each status as the separate receive would
// (source, tag, count, not cancelled). Peers MPI_PROC_NULL run the
// separate calls. The parts travel as bytes (the shape's datatypes are the
// same on both sides, as the proof requires): a heterogeneous system that
// converts representations is not supported.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_AGGREGATIONPLAN_H
#define OMPI_TOOL_ANALYSIS_AGGREGATIONPLAN_H

#include "analysis/CallAnalysis.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace ompi {

/// A point-to-point call with a tag, anywhere in a translation unit (its
/// headers too): what could match the messages of a group.
struct TagUse {
  const clang::CallExpr *Call = nullptr; ///< null: an MPI function used other than in a call
  unsigned Line = 0;
  std::optional<int64_t> Tag; ///< none: may be any tag
  /// The tag as a constant expression (what the program's facts record,
  /// without the evaluator's facts); none: not one, or may be any.
  std::optional<int64_t> Constant;
};

/// Every use of a point-to-point MPI function with a tag in the
/// translation unit (outside system headers); Calls, when given, supplies
/// the evaluated tags of the main file's calls.
std::vector<TagUse> tagUses(clang::ASTContext &Ctx, const FileResult *Calls);

/// A group that becomes one message.
struct AggregateGroup {
  bool Send = true;
  std::vector<const CallResult *> Calls; ///< in the order written
  ChangeNote Note;
  ChangeNote Declined; ///< its note, should the rewrite not be made (its Why for the caller to give)
};

struct AggregationPlan {
  std::vector<AggregateGroup> Groups;
  std::vector<ChangeNote> Declined;
};

/// Taken: the calls another transformation already rewrote.
AggregationPlan planAggregation(clang::ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls,
                                const MachineProfile *Profile, llvm::function_ref<bool(const clang::CallExpr *)> Taken);

} // namespace ompi

#endif
