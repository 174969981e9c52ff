//===- ThreadRegions.h - The thread level a program asks for, and regions -===//
//
// Shared by thread-level and portability-unchecked-thread-level (defined in
// ThreadLevel.cpp): the level main asks MPI for, and where a call sits in
// OpenMP constructs.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CHECKS_THREADREGIONS_H
#define OMPI_TOOL_CHECKS_THREADREGIONS_H

#include "checks/Checks.h"
#include "clang/AST/StmtOpenMP.h"
#include <optional>

namespace ompi {

/// The level main asks for, and the call that asks.
struct Requested {
  ThreadLevel Level;
  const clang::CallExpr *At;
};

/// main's MPI_Init (MPI_THREAD_SINGLE) or MPI_Init_thread with a level the
/// check can read (spelled MPI_THREAD_*, through macros or a const
/// variable); none otherwise.
std::optional<Requested> requestedThreadLevel(CheckContext &C);

/// Where a call sits in OpenMP constructs: the innermost parallel region
/// around it, and the constructs between them that let only the main
/// thread (master, masked) or one thread at a time (single, critical,
/// ordered, a section) run it.
struct Placement {
  const clang::OMPExecutableDirective *Region = nullptr;
  bool MainThread = false;
  bool OneAtATime = false;
};
Placement ompPlacement(clang::ASTContext &Ctx, const clang::Stmt *S);

} // namespace ompi

#endif
