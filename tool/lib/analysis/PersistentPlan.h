//===- PersistentPlan.h - Which calls run through persistent requests -----===//
//
// Persistent requests (templates/mpiopt/persist.h): a blocking
// MPI_Send, MPI_Ssend, MPI_Recv or MPI_Sendrecv in a loop of its function
// whose buffers, counts, datatypes, peers, tags and communicator read the
// same on every iteration (the call facts' loop invariance: no write in the
// loop, nothing it calls can write them, no pointer reaches them) runs
// through a persistent request that lives as long as the loop: made at the
// first call, started and waited for at each, freed after the loop and
// before each return in it. The outermost loop for which every message
// argument stays the same is the one the request lives in. Proved besides:
// nothing jumps into the loop or out of it past the release (labels,
// switch cases, gotos), and MPI_Finalize is not called in it.
//
// Collectives (MPI_Allreduce, MPI_Reduce, MPI_Bcast, MPI_Allgather,
// MPI_Alltoall, MPI_Barrier) likewise, through MPI-4's persistent
// collectives (Open MPI 4's MPIX_ forms), where besides every rank runs the
// call alike (the uniformity analysis): each rank makes its request at the
// same point of its sequence of collectives, as MPI requires. Their profile
// families are "persistent_allreduce" and so on; an MPI without persistent
// collectives has no such points (scripts/tune measures none), so no call
// goes through them. A reduction's persistent form may reduce in another
// order than the blocking call (MPICH picks its algorithms separately), so
// MPI_Allreduce and MPI_Reduce go only with a predefined op on a predefined
// arithmetic type, and a floating-point MPI_SUM or MPI_PROD only with
// --reassociate (integer results, minima and maxima are exact in any order).
//
// A point-to-point call whose request cannot live through a loop (in no
// loop of its function, a helper's call made once per call of the helper;
// or in a loop where some buffer, count, peer or tag may change, or that
// a jump or MPI_Finalize would leave past the release) keeps its requests
// in a per-site cache (struct mpiopt_pcache, static, declared at the start
// of its function): keyed by every argument, made on first use, freed at
// MPI_Finalize; a site that misses more than one call in eight returns to
// the generic call at run time. Proved besides: a communicator or datatype
// that may change between iterations is no candidate (a new handle each
// iteration would miss every time), nor an argument that follows the
// counter of a for loop around the call; in C, an inline definition with
// external linkage (which may not keep a static object) is no candidate.
// A call of main in no loop runs once and is no candidate. Collectives are
// never cached: every rank must make a persistent collective at the same
// point, and caches keyed by buffer addresses could miss on some ranks only.
//
// Left generic: a receive from MPI_ANY_SOURCE or with MPI_ANY_TAG written
// as such (the template also checks at run time), calls written in a
// macro's body, and every call where the machine profile's
// "templates.persistent" measurements ("persistent_ssend" for MPI_Ssend,
// "persistent_sendrecv" for MPI_Sendrecv) do not show the template 5%
// faster than the generic call at the message's size (with no static size,
// at every size measured).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_PERSISTENTPLAN_H
#define OMPI_TOOL_ANALYSIS_PERSISTENTPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/DerivedTypes.h"
#include "analysis/Uniformity.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ReturnStmt;
class Stmt;
} // namespace clang

namespace ompi {

/// A call that runs through a persistent request living through Loop.
struct PersistentCall {
  const clang::CallExpr *Call = nullptr;
  const clang::Stmt *Loop = nullptr;
  std::string To;                                 ///< mpiopt_send_persistent, mpiopt_send_cached, ...
  std::vector<const clang::ReturnStmt *> Returns; ///< returns inside Loop (the request is freed before each)
  /// Not null: the requests live in a per-site cache declared at the start
  /// of this function (Loop is then null).
  const clang::FunctionDecl *CacheIn = nullptr;
  ChangeNote Note;
};

struct PersistentPlan {
  std::vector<PersistentCall> Calls;
  std::vector<ChangeNote> Declined;
};

/// The wildcard C receives with, as written (MPI_ANY_SOURCE or
/// MPI_ANY_TAG; "": none).
std::string receiveWildcard(const CallResult &C);

/// The bytes of one side's message (its count and datatype arguments),
/// when static: a predefined datatype's size, or the data of a derived
/// datatype of known shape.
std::optional<int64_t> sideBytes(const CallResult &C, Evaluator &Ev, const DerivedTypes &DT, Role Count, Role Type);

/// Why FD cannot keep a static cache declared after its opening brace, or
/// "": its body does not begin with a brace written in the main file, or
/// it is a C inline definition with external linkage.
std::string cacheHome(const clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

/// Taken: the calls another transformation already rewrote (fused,
/// deferred, planned, templated), which are no candidates.
/// Reassociate: floating-point sums and products may be reduced in another
/// order (--reassociate).
PersistentPlan planPersistent(clang::ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, Uniformity &Uni,
                              const FileResult &Calls, const MachineProfile *Profile,
                              llvm::function_ref<bool(const clang::CallExpr *)> Taken, bool Reassociate);

} // namespace ompi

#endif
