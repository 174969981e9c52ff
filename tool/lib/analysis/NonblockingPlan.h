//===- NonblockingPlan.h - Nonblocking calls through persistent requests --===//
//
// The nonblocking-persistent transformation (templates/mpiopt/nbpersist.h):
// an MPI_Isend, MPI_Issend or MPI_Irecv that a function may run more than
// once (in a loop of its function, or in a function other than main) runs
// through a cache of persistent requests, one static struct mpiopt_nbcache
// per function, and every completion call of the function on the same
// request variable through the completion template with that cache.
//
// What is proved, for the request variable V that the call's request
// argument names (`&r`, `&reqs[i]`, `reqs + i`, `reqs`):
//  - V is a variable of the function (automatic, or static in it; not a
//    parameter, a global, a struct member or memory behind a pointer) whose
//    type is MPI_Request or an array of them, so no other function can
//    reach it except through an address the function gives away; or a
//    pointer to MPI_Request, local to the function, whose every value is a
//    fresh allocation or a null pointer (OwnedMemory.h: malloc, calloc, a
//    function of the program that returns one) and which is otherwise only
//    freed (free, or a function of the program that only frees its
//    parameter) and tested, never copied or its address taken, so its
//    memory is reached through it alone;
//  - every use of V in the function is the request argument of an MPI
//    nonblocking start (any: those not rewritten make ordinary requests),
//    the request argument of MPI_Wait, MPI_Waitall, MPI_Waitany,
//    MPI_Waitsome, MPI_Test, MPI_Testall, MPI_Testany or MPI_Testsome, the
//    left side of an assignment, an operand of == or !=, or sizeof: never
//    MPI_Request_free, MPI_Cancel, MPI_Start, another function, a copy or
//    a pointer kept; so the only completions of V's requests are those
//    calls, all of them rewritten, and the program's variables hold
//    MPI_REQUEST_NULL after each completion as with MPI's nonblocking
//    requests (the templates' comment says why the rest is the same);
//  - every such completion call can be rewritten: written outside a
//    macro's body, not rewritten by another transformation.
// The function keeps the cache: its body begins with a brace written in
// this file, and in C it is not an inline definition with external linkage.
//
// Left generic: a start in main outside any loop (it runs once), a receive
// written with MPI_ANY_SOURCE or MPI_ANY_TAG (the template checks again at
// run time, as it does MPI_PROC_NULL), a call in a macro's body, and every
// call where the machine profile's "templates.persistent_nonblocking"
// measurements do not show the template 5% faster at the message's size.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_NONBLOCKINGPLAN_H
#define OMPI_TOOL_ANALYSIS_NONBLOCKINGPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/DerivedTypes.h"
#include "mpi/MachineProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace ompi {

class OwnedMemory;

/// A call rewritten to its template with the function's cache.
struct NonblockingCall {
  const clang::CallExpr *Call = nullptr;
  std::string To; ///< mpiopt_isend_nb, mpiopt_waitall_nb, ...
  bool Start = false;
  ChangeNote Note; ///< starts only
};

/// One function's cache and the calls that use it; or (Global) the cache
/// of a global request variable, declared at file scope as Cache.
struct NonblockingFunction {
  const clang::FunctionDecl *Function = nullptr;
  const clang::VarDecl *Global = nullptr;
  std::string Cache;                  ///< mpiopt_nbg_<Global>
  std::vector<NonblockingCall> Calls; ///< starts and completions
};

struct NonblockingPlan {
  std::vector<NonblockingFunction> Functions;
  std::vector<ChangeNote> Declined;
};

/// Why the local request pointer V (MPI_Request *reqs) of F may not reach
/// its requests alone (given memory other code may reach, copied, passed
/// to code other than MPI starts and completions, freeing and tests), or ""
/// when only F's MPI calls can start and complete them (the rules above).
/// Its notes say what "the tool" cannot follow (communication-overlap's
/// question; this plan's own notes name the templates).
std::string requestPointerProblem(clang::ASTContext &Ctx, OwnedMemory &Owned, const clang::FunctionDecl *F,
                                  const clang::VarDecl *V);

/// Why the file's code may reach the requests of the global request
/// variable V other than by nonblocking starts and by completions the
/// templates can rewrite (in this file, outside a macro's body), by the
/// rules above applied to every function and initializer of the file, or
/// "" (the facts' "requests" of V: ProgramFacts.h).
std::string globalRequestsProblem(clang::ASTContext &Ctx, OwnedMemory &Owned, const clang::VarDecl *V);

/// Taken: the calls another transformation already rewrote. The program's
/// facts (Ev's options) say what other files do with a global request
/// variable.
NonblockingPlan planNonblocking(clang::ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived, OwnedMemory &Owned,
                                const FileResult &Calls, const MachineProfile *Profile,
                                llvm::function_ref<bool(const clang::CallExpr *)> Taken);

} // namespace ompi

#endif
