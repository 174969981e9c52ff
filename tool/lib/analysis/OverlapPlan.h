//===- OverlapPlan.h - Completions later, receives earlier ----------------===//
//
// The communication-overlap transformation (Danalis et al., SC 2005, within
// one block): a nonblocking transfer's completion (MPI_Wait, MPI_Waitall)
// moves down its block, past the statements that do not depend on the
// transfers it completes, and an MPI_Irecv moves up its block, past the
// statements its receive does not depend on; the computation the move
// passes then runs while the messages are in flight.
//
// What is proved, for a wait W moved past statements S1..Sk of its block:
//  - W is a statement of its block (the call with its value discarded,
//    `v = W` with v a variable, or either as the only statement of an if
//    without else whose condition is local and free of side effects; the
//    statement moves whole), written outside a macro, whose arguments have
//    no side effects, and whose text holds no comment, string or
//    preprocessor line (it is written again on one line);
//  - its request variable R (`&r`, `&reqs[i]`, `reqs`) is an automatic
//    variable of the function of type MPI_Request (or an array of them)
//    whose address is used only by MPI calls, or a local MPI_Request *
//    that alone reaches its requests (NonblockingPlan.h's
//    requestPointerProblem: given only fresh allocations or null, never
//    copied, used only by starts, completions, frees and tests), so only
//    this function's calls start and complete its requests; every start
//    on R is MPI_Isend,
//    MPI_Issend, MPI_Ibsend, MPI_Irsend or MPI_Irecv of a predefined
//    datatype (a derived one may reach memory outside its buffer), and the
//    transfers W may complete are among them (those on other constant
//    elements of R are not; in an array of arrays any element may be W's):
//    their buffers are the memory in question;
//  - each Si is local (OverlapAccess.h: no call but pure library functions,
//    no jump out of it, no label) and no other transformation changed it;
//    it names neither R nor W's status nor the variable W's result goes
//    to, writes no memory W's arguments or condition read (variables, and
//    memory read through pointers), writes no memory a send buffer may lie
//    in and touches none a receive buffer may lie in (OverlapAccess.h's
//    places);
//  - or Si is itself an MPI_Wait or MPI_Waitall statement (in one of W's
//    forms) on requests that are not W's (another variable, or other
//    constant elements of the same array) that touches none of the memory
//    above: two waits on requests that are both already started complete
//    in either order, since nothing between them communicates;
//  - or Si holds, besides local code, MPI_Isend/Issend/Ibsend/Irsend/
//    Irecv, MPI_Wait and MPI_Waitall calls on requests that are not W's
//    (written as calls, arguments free of side effects), and nothing in it
//    meets the memory above, counting the buffers those starts reach (a
//    receive writes its buffer, a send reads its own): operations already
//    started complete in either order, and the transfers are posted in the
//    same order, so every message matches as before.
// When W reaches the end of the block of an if without else (its
// condition local, free of side effects, outside a macro, unchanged by
// other transformations), and no other statement of that block writes
// memory the condition reads, W leaves the if as `if (cond) W` and goes on
// down the block around it under the same rules, with the condition's
// memory guarded too (nothing passed writes it): the copy reads the values
// the if read, so W runs exactly when it did. One if is left, not more.
// So the statements read and write exactly what they did, and W completes
// the same requests with the same results; only the time at which the
// process learns of the completion moves. Nothing else communicates
// between W's two places, so message matching and the order of every
// other MPI call are unchanged.
//
// For an MPI_Irecv I moved above statements S1..Sk of its block: I is a
// statement of its block in one of W's forms, outside a macro, without
// side effects in its arguments, of a predefined datatype, written as an
// MPI call (no other transformation rewrote it); each Si is local, no
// other transformation changed it, names I's request variable nowhere nor
// the variable its result goes to, writes no memory I's arguments or
// condition read and touches no memory I's buffer may lie in
// (a posted receive may write its buffer at any time); or Si is an
// MPI_Isend, MPI_Issend, MPI_Ibsend or MPI_Irsend statement on another
// request whose accesses (arguments, request) meet none of that memory.
// No other MPI call lies between I's two places, so the receives are
// posted in the same order and match the same messages (the order of a
// receive and a send of one process decides no matching: receives match
// in the order they are posted, each process's messages in the order it
// sends them).
//
// A receive does not move above the place a moved wait was put (the two
// keep their order), and a wait is not moved when all it would pass is
// other waits and declarations.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_OVERLAPPLAN_H
#define OMPI_TOOL_ANALYSIS_OVERLAPPLAN_H

#include "analysis/CallAnalysis.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
} // namespace clang

namespace ompi {

class OwnedMemory;

/// One statement that moves within its block.
struct OverlapMove {
  const clang::CompoundStmt *Block = nullptr;
  unsigned From = 0;  ///< its index in the block
  unsigned To = 0;    ///< the index it goes before (the block's size: its end)
  bool Later = false; ///< a completion moved down (else a receive moved up)
  /// The block To indexes (null: Block); a wait leaves an if's block for
  /// the block around it, written after Prefix ("if (cond) ").
  const clang::CompoundStmt *ToBlock = nullptr;
  std::string Prefix;
  ChangeNote Note;
};

struct OverlapPlan {
  std::vector<OverlapMove> Moves; ///< grouped by block, in order
  std::vector<ChangeNote> Declined;
};

/// Taken: the calls another transformation already rewrote; Changed: whether
/// another transformation changed a statement.
OverlapPlan planOverlap(clang::ASTContext &Ctx, OwnedMemory &Owned, const FileResult &Calls,
                        llvm::function_ref<bool(const clang::CallExpr *)> Taken,
                        llvm::function_ref<bool(const clang::Stmt *)> Changed);

} // namespace ompi

#endif
