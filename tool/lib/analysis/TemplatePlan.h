//===- TemplatePlan.h - Which calls a specialised template replaces -------===//
//
// Compiled derived datatypes (templates/mpiopt/dtype.h): a blocking
// MPI_Send, MPI_Ssend, MPI_Recv or MPI_Sendrecv whose datatype (either side
// of a sendrecv) is a variable of known shape (analysis/DerivedTypes.h)
// becomes the template's call: the same arguments, then the shape as
// constants. It is chosen only where the machine profile's "templates.vector"
// measurements show the template faster than the generic call at the
// message's size (count x the type's size when the count is static; when it
// is not, at every size measured), at every block size measured around the
// shape's contiguous runs (runs longer than any measured stay generic).
// What a template keeps exactly as MPI does: the message on the wire (the
// derived type's signature), the status, the count 0, MPI_PROC_NULL and
// over-INT_MAX cases (run generically).
//
// A datatype whose constructions are not static but can be recorded at run
// time (analysis/DerivedTypes.h, DatatypeVar::runtime()) goes through the
// _rt templates with the shadow of its shape and, per class of run lengths
// (up to 8, 64, 512 bytes), the sizes at which the profile measured the
// template winning, checked at run time.
//
// A datatype that is a run list (an (h)indexed_block whose blocks no stride
// describes) goes through the _ix forms of MPI_Send, MPI_Ssend, MPI_Recv,
// MPI_Sendrecv, the nonblocking calls and the four collectives, with a table
// of its displacements declared at the start of the calling function, where
// the profile's "templates.indexed" measurements (a collective's own:
// "templates.gather_indexed", ...) show them faster.
//
// Nonblocking calls (MPI_Isend, MPI_Issend, MPI_Irecv) take the pending
// state of their request (PendVar) and their waits go through the wait
// templates, where analysis/WaitPairing.h proves the waits complete them on
// every path. Collectives (MPI_Bcast, MPI_Gather, MPI_Scatter,
// MPI_Alltoall) take both sides' compiled shapes, or both sides' shadows,
// and are chosen by their own profile families ("templates.bcast", ...).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_TEMPLATEPLAN_H
#define OMPI_TOOL_ANALYSIS_TEMPLATEPLAN_H

#include "analysis/CallAnalysis.h"
#include "analysis/DerivedTypes.h"
#include "mpi/MachineProfile.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace ompi {

/// The table of a run list's block displacements (bytes from the buffer,
/// in typemap order) that a call through an _ix template reads: declared
/// once per function, at the start of its body (static const MPI_Aint
/// Name[] = {Values}).
struct RunTable {
  const clang::CompoundStmt *Body = nullptr;
  std::string Name, Var; ///< the table's, the datatype variable's
  std::vector<int64_t> Values;
};

/// A call the plan replaces: rename the callee, append the shape before the
/// closing parenthesis.
struct TemplatedCall {
  clang::SourceLocation Callee, RParen;
  std::string To;     ///< the template's name
  std::string Append; ///< ", 256, 1, 4096, ..." (the shape arguments)
  ChangeNote Note;
  std::vector<RunTable> Tables; ///< the run lists' tables it reads
};

/// A datatype variable whose shape is recorded at run time.
struct ShadowVar {
  const clang::VarDecl *Decl = nullptr;
  std::string Name;
  std::vector<const clang::CallExpr *> Constructions;
  /// For each construction, the variable it builds from (a resized type
  /// of a variable: its wrapper also takes that variable's shadow), or "".
  std::vector<std::string> Olds;
};

/// A request variable (or array of requests: Size elements) some
/// nonblocking template may start: its pending state (struct mpiopt_dpend
/// mpiopt_pend_NAME, or an array of Size of them) is declared after it.
struct PendVar {
  const clang::VarDecl *Decl = nullptr;
  std::string Name;
  int64_t Size = -1;
};

struct TemplatePlan {
  std::vector<TemplatedCall> Calls;
  std::vector<ChangeNote> Declined;
  /// Variables whose shape is recorded at run time: each gets a shadow
  /// (struct mpiopt_dshape mpiopt_shape_NAME) after its declaration and its
  /// constructions go through the mpiopt_type_*_rt wrappers.
  std::vector<ShadowVar> Shadows;
  std::vector<PendVar> Pends;
};

TemplatePlan planDatatypeTemplates(clang::ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived,
                                   const FileResult &Calls, const MachineProfile *Profile);

} // namespace ompi

#endif
