//===- Names.h - The MPI names the tool spells ----------------*- C++ -*-===//
//
// The spelling of every MPI function, handle, constant and C type that code
// outside tool/lib/mpi/ names: analysis, checks and transforms write
// mpi::MPI_Wait, never the string "MPI_Wait", so that the model stays the
// one place that knows how MPI spells things (test/docs/check_mpi_names.py
// keeps it so). Each constant is its own spelling.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_MPI_NAMES_H
#define OMPI_TOOL_MPI_NAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace ompi::mpi {

#define OMPI_MPI_NAME(N) inline constexpr llvm::StringLiteral N{#N};

// Functions (and their profiling names).
OMPI_MPI_NAME(MPI_Accumulate)
OMPI_MPI_NAME(MPI_Allgather)
OMPI_MPI_NAME(MPI_Allgatherv)
OMPI_MPI_NAME(MPI_Allreduce)
OMPI_MPI_NAME(MPI_Alltoall)
OMPI_MPI_NAME(MPI_Alltoallv)
OMPI_MPI_NAME(MPI_Barrier)
OMPI_MPI_NAME(MPI_Bcast)
OMPI_MPI_NAME(MPI_Bsend)
OMPI_MPI_NAME(MPI_Bsend_init)
OMPI_MPI_NAME(MPI_Comm_disconnect)
OMPI_MPI_NAME(MPI_Comm_free)
OMPI_MPI_NAME(MPI_Comm_get_parent)
OMPI_MPI_NAME(MPI_Comm_idup)
OMPI_MPI_NAME(MPI_Comm_rank)
OMPI_MPI_NAME(MPI_Comm_split)
OMPI_MPI_NAME(MPI_Errhandler_free)
OMPI_MPI_NAME(MPI_Errhandler_set)
OMPI_MPI_NAME(MPI_Finalize)
OMPI_MPI_NAME(MPI_Gather)
OMPI_MPI_NAME(MPI_Get)
OMPI_MPI_NAME(MPI_Group_free)
OMPI_MPI_NAME(MPI_Ibsend)
OMPI_MPI_NAME(MPI_Imrecv)
OMPI_MPI_NAME(MPI_Info_free)
OMPI_MPI_NAME(MPI_Init)
OMPI_MPI_NAME(MPI_Init_thread)
OMPI_MPI_NAME(MPI_Irecv)
OMPI_MPI_NAME(MPI_Irsend)
OMPI_MPI_NAME(MPI_Isend)
OMPI_MPI_NAME(MPI_Issend)
OMPI_MPI_NAME(MPI_Op_free)
OMPI_MPI_NAME(MPI_Probe)
OMPI_MPI_NAME(MPI_Put)
OMPI_MPI_NAME(MPI_Query_thread)
OMPI_MPI_NAME(MPI_Raccumulate)
OMPI_MPI_NAME(MPI_Recv)
OMPI_MPI_NAME(MPI_Reduce)
OMPI_MPI_NAME(MPI_Request_free)
OMPI_MPI_NAME(MPI_Rget)
OMPI_MPI_NAME(MPI_Rput)
OMPI_MPI_NAME(MPI_Rsend)
OMPI_MPI_NAME(MPI_Scatter)
OMPI_MPI_NAME(MPI_Send)
OMPI_MPI_NAME(MPI_Sendrecv)
OMPI_MPI_NAME(MPI_Sendrecv_replace)
OMPI_MPI_NAME(MPI_Ssend)
OMPI_MPI_NAME(MPI_Ssend_init)
OMPI_MPI_NAME(MPI_Start)
OMPI_MPI_NAME(MPI_Startall)
OMPI_MPI_NAME(MPI_Test)
OMPI_MPI_NAME(MPI_Testall)
OMPI_MPI_NAME(MPI_Testany)
OMPI_MPI_NAME(MPI_Testsome)
OMPI_MPI_NAME(MPI_Type_commit)
OMPI_MPI_NAME(MPI_Type_dup)
OMPI_MPI_NAME(MPI_Type_free)
OMPI_MPI_NAME(MPI_Type_hvector)
OMPI_MPI_NAME(MPI_Type_match_size)
OMPI_MPI_NAME(MPI_Wait)
OMPI_MPI_NAME(MPI_Waitall)
OMPI_MPI_NAME(MPI_Waitany)
OMPI_MPI_NAME(MPI_Waitsome)
OMPI_MPI_NAME(MPI_Win_allocate)
OMPI_MPI_NAME(MPI_Win_allocate_shared)
OMPI_MPI_NAME(MPI_Win_complete)
OMPI_MPI_NAME(MPI_Win_create)
OMPI_MPI_NAME(MPI_Win_fence)
OMPI_MPI_NAME(MPI_Win_flush)
OMPI_MPI_NAME(MPI_Win_flush_all)
OMPI_MPI_NAME(MPI_Win_flush_local)
OMPI_MPI_NAME(MPI_Win_flush_local_all)
OMPI_MPI_NAME(MPI_Win_free)
OMPI_MPI_NAME(MPI_Win_lock)
OMPI_MPI_NAME(MPI_Win_lock_all)
OMPI_MPI_NAME(MPI_Win_post)
OMPI_MPI_NAME(MPI_Win_start)
OMPI_MPI_NAME(MPI_Win_unlock)
OMPI_MPI_NAME(MPI_Win_unlock_all)
OMPI_MPI_NAME(MPI_Win_wait)
OMPI_MPI_NAME(PMPI_Finalize)

// Predefined handles and constants.
OMPI_MPI_NAME(MPI_ANY_SOURCE)
OMPI_MPI_NAME(MPI_ANY_TAG)
OMPI_MPI_NAME(MPI_BAND)
OMPI_MPI_NAME(MPI_BOR)
OMPI_MPI_NAME(MPI_BOTTOM)
OMPI_MPI_NAME(MPI_BXOR)
OMPI_MPI_NAME(MPI_BYTE)
OMPI_MPI_NAME(MPI_COMM_NULL)
OMPI_MPI_NAME(MPI_COMM_SELF)
OMPI_MPI_NAME(MPI_COMM_WORLD)
OMPI_MPI_NAME(MPI_IN_PLACE)
OMPI_MPI_NAME(MPI_LAND)
OMPI_MPI_NAME(MPI_LOCK_SHARED)
OMPI_MPI_NAME(MPI_LOR)
OMPI_MPI_NAME(MPI_LXOR)
OMPI_MPI_NAME(MPI_MAX)
OMPI_MPI_NAME(MPI_MAXLOC)
OMPI_MPI_NAME(MPI_MIN)
OMPI_MPI_NAME(MPI_MINLOC)
OMPI_MPI_NAME(MPI_MODE_NOPRECEDE)
OMPI_MPI_NAME(MPI_MODE_NOSUCCEED)
OMPI_MPI_NAME(MPI_NO_OP)
OMPI_MPI_NAME(MPI_ORDER_C)
OMPI_MPI_NAME(MPI_ORDER_FORTRAN)
OMPI_MPI_NAME(MPI_PACKED)
OMPI_MPI_NAME(MPI_PROC_NULL)
OMPI_MPI_NAME(MPI_PROD)
OMPI_MPI_NAME(MPI_REPLACE)
OMPI_MPI_NAME(MPI_REQUEST_NULL)
OMPI_MPI_NAME(MPI_SUM)
OMPI_MPI_NAME(MPI_UNDEFINED)
OMPI_MPI_NAME(MPI_UNSIGNED_LONG_LONG)

// C types of mpi.h.
OMPI_MPI_NAME(MPI_Aint)
OMPI_MPI_NAME(MPI_Count)
OMPI_MPI_NAME(MPI_Datatype)
OMPI_MPI_NAME(MPI_Offset)

#undef OMPI_MPI_NAME

// Prefixes that name a family by its spelling.
inline constexpr llvm::StringLiteral Prefix{"MPI_"};           ///< every MPI name
inline constexpr llvm::StringLiteral ProfilingPrefix{"PMPI_"}; ///< the profiling interface
inline constexpr llvm::StringLiteral WinPrefix{"MPI_Win_"};    ///< window calls
inline constexpr llvm::StringLiteral TypeGetPrefix{"MPI_Type_get_"};
inline constexpr llvm::StringLiteral ModePrefix{"MPI_MODE_"};       ///< assertions
inline constexpr llvm::StringLiteral CommHandlePrefix{"MPI_COMM_"}; ///< predefined communicators

/// Every function constant above (for the model's unit test).
llvm::ArrayRef<llvm::StringLiteral> spelledFunctions();
/// Every handle and constant above.
llvm::ArrayRef<llvm::StringLiteral> spelledHandles();

} // namespace ompi::mpi

#endif
