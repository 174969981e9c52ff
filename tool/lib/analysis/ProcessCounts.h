//===- ProcessCounts.h - The process counts a program says it runs at ----===//
//
// The per-rank runs (CollectiveSequence, P2PMatch) judge a program at a few
// process counts. A program that needs 3 or 4 processes says so in a guard
// at the top of main:
//
//   MPI_Comm_size(MPI_COMM_WORLD, &size);
//   if (size < 3) { printf("needs 3 processes\n"); MPI_Finalize(); return 0; }
//
// Judged at 2 processes, such a program is judged where its author said it
// does not run (and where a guard only prints, it runs on into code written
// for more ranks). The counts to judge at are:
//  - those the user gives (--nprocs=N[,M...]), whatever the guards say;
//  - else the default counts the guards accept, or, where they accept none
//    of them, the two smallest counts from 1 to 16 they accept.
// A guard is an if statement of main's body, before any statement that
// communicates (MPI_Init, MPI_Comm_rank and MPI_Comm_size aside), without
// an else, whose condition the tool evaluates for every count from the
// size of MPI_COMM_WORLD and integer constants alone (comparisons,
// arithmetic, &&, ||, !), and whose then arm stops the job or the process
// (MPI_Abort, exit, abort, return) or warns (printf, fprintf, puts,
// perror). The counts it accepts are those for which its condition is
// false.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_PROCESSCOUNTS_H
#define OMPI_TOOL_ANALYSIS_PROCESSCOUNTS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace ompi {

class Evaluator;

/// The process counts at which to run F's ranks (see above): Defaults
/// where F is not main or has no guard.
std::vector<int> processCounts(Evaluator &Ev, const clang::FunctionDecl *F, llvm::ArrayRef<int> Defaults);

} // namespace ompi

#endif
