//===- CallAnalysis.h - Per-call classification of MPI arguments -----------===//
//
// Finds every MPI call in the main file, classifies each argument with the
// Evaluator, and derives the OMPI paper's communication sets:
//   CommNode  the peer (dest, source or root) and the communicator,
//   CommSize  count x datatype size, in bytes when both are static,
//   Buffer    the buffer(s) the call reads or writes,
//   Tag       the message tag(s).
// The results are plain data: reports and rewrites read them; they hold a
// pointer to the call only so that a rewrite can find it in the AST.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_CALLANALYSIS_H
#define OMPI_TOOL_CALLANALYSIS_H

#include "analysis/Evaluator.h"
#include "mpi/MPIModel.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace ompi {

struct ArgResult {
  unsigned Index = 0;
  std::string Name; ///< parameter name from the model ("count")
  Role R = Role::Other;
  ArgClass Class = ArgClass::Dynamic;
  std::string Value;          ///< canonical value when static or rank-relative
  std::string Text;           ///< the argument as written
  std::string Reason;         ///< why it is dynamic
  std::string Note;           ///< how a static value was derived, when not obvious
  std::optional<int64_t> Int; ///< the integer value, when it is one
  SymValue Sym;               ///< the symbolic value itself
};

/// Whether argument T names a predefined datatype (MPI_DOUBLE, ...; not
/// MPI_DATATYPE_NULL): its data lies in its buffer, where a derived
/// datatype may reach memory outside the buffer's object.
inline bool predefinedDatatype(const ArgResult *T) {
  const HandleModel *H = T && T->Sym.K == SymValue::Handle ? lookupHandle(T->Sym.Name) : nullptr;
  return H && H->Kind == HandleKind::Datatype && !isNullHandle(H->Name);
}

/// A loop around a call and what of the call stays the same in every
/// iteration of it.
struct LoopFact {
  const clang::Stmt *Loop = nullptr;
  unsigned Line = 0;
  /// Per argument: why its value may differ between iterations ("": it
  /// cannot).
  std::vector<std::string> Varies;
  /// Per argument naming an array of counts or displacements: why its
  /// contents may change during the loop ("": they cannot, or no array).
  std::vector<std::string> Written;
  bool invariant(unsigned Arg) const { return Arg < Varies.size() && Varies[Arg].empty(); }
  bool unchanged(unsigned Arg) const { return invariant(Arg) && Arg < Written.size() && Written[Arg].empty(); }
};

/// One communication set: its class and a rendering of its value.
struct SetResult {
  bool Present = false;
  ArgClass Class = ArgClass::Static;
  std::string Value;
  std::optional<int64_t> Bytes; ///< CommSize only, when static
};

struct CallResult {
  std::string Function;
  const FunctionModel *Model = nullptr; ///< null when the function is not modelled
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string EnclosingFunction;
  /// A call of a forwarding wrapper, parsed as its MPI call (Wrappers.h):
  /// "the wrapper's name (file:line of its MPI call)".
  std::string Via;
  unsigned LoopLine = 0;       ///< line of the innermost loop around the call, 0 if none
  unsigned LoopEndLine = 0;    ///< the line where that loop ends
  std::vector<LoopFact> Loops; ///< the loops around the call in its function, innermost first
  CommId Comm;                 ///< the communicator the call runs on
  std::vector<ArgResult> Args;
  SetResult CommNode, CommSize, Buffer, Tag;
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Caller = nullptr;

  /// The expression passed as the first argument with role R, if any.
  const clang::Expr *expr(Role R) const;
  /// The expression passed as argument A of this call.
  const clang::Expr *expr(const ArgResult &A) const;

  /// The first argument with role R, if the call has one.
  const ArgResult *arg(Role R) const {
    for (const ArgResult &A : Args)
      if (A.R == R)
        return &A;
    return nullptr;
  }
};

/// What a note records; readers decide by this, never by a note's wording.
enum class NoteKind {
  Declined,   ///< a candidate the transformation looked at and left alone
  Fused,      ///< reductions fused into one collective (static fusion)
  Deferred,   ///< a reduction handed to the lazy runtime
  ForcePoint, ///< a wait inserted where a deferred result is needed
  Template,   ///< a call replaced by a specialised template
  Planned,    ///< a collective handed to the runtime's planned or large-vector forms
  Moved,      ///< a call moved within its block (communication-overlap)
};

/// A change a transformation made, or one it looked at and declined.
struct ChangeNote {
  std::string Transform;
  NoteKind Kind = NoteKind::Declined;
  bool Applied = true;
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string What;              ///< what was done (or what was considered)
  std::string Why;               ///< why it is safe (or why it was not done)
  std::string Saves;             ///< what it saves per execution, when applied
  unsigned CollectivesSaved = 0; ///< collectives removed per execution (static fusion)
  /// The other calls (line, column) the change covers besides the one it is
  /// reported at: the other members of a fused group, a pair's second call.
  std::vector<std::pair<unsigned, unsigned>> Also;

  /// A note; one that is Applied gets its Kind from the caller.
  static ChangeNote at(std::string Transform, bool Applied, std::string File, unsigned Line, unsigned Column,
                       std::string What, std::string Why) {
    ChangeNote N;
    N.Transform = std::move(Transform);
    N.Applied = Applied;
    N.Kind = NoteKind::Declined;
    N.File = std::move(File);
    N.Line = Line;
    N.Column = Column;
    N.What = std::move(What);
    N.Why = std::move(Why);
    return N;
  }
};

/// A loop, as plain data: its function and lines.
struct LoopSpan {
  std::string Function;
  unsigned Line = 0, EndLine = 0;
};

/// A function the main file defines: its lines and the loops that run it
/// through the file's functions (LoopInvariance.h's CallerLoops: one entry
/// per call site in a loop, call sites in no loop followed to their callers).
struct FunctionSpan {
  std::string Name;
  unsigned Begin = 0, End = 0;
  std::vector<LoopSpan> RunBy;
};

struct FileResult {
  std::string File;
  std::vector<CallResult> Calls;
  std::vector<FunctionSpan> Functions; ///< filled only for the HTML page (functionSpans)
  std::vector<ChangeNote> Notes;       ///< filled by the transformations
};

/// Classify every MPI call in the main file of Ctx.
FileResult analyzeCalls(clang::ASTContext &Ctx, Evaluator &Ev);

/// The functions the main file of Ctx defines, with the loops that run
/// them (what the HTML page's loop table needs; no other output reads it).
std::vector<FunctionSpan> functionSpans(clang::ASTContext &Ctx);

/// Drop every pointer into the AST from R (calls, callers, loops, objects),
/// before R outlives the parse it came from: the outputs read only plain data.
void detachFromAST(FileResult &R);

} // namespace ompi

#endif
