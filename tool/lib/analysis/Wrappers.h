//===- Wrappers.h - Functions that only forward their parameters to MPI -----===//
//
// A forwarding wrapper is a function whose whole body is one MPI call,
// returned or made as a statement, each of whose arguments is one of the
// wrapper's parameters (each at most once, in their order, through casts
// to the parameter's or the MPI argument's own type) or a constant (a
// predefined handle, an integer, a null pointer):
//
//     HYPRE_Int hypre_MPI_Bcast(void *buffer, HYPRE_Int count,
//                               hypre_MPI_Datatype datatype, ...) {
//       return (HYPRE_Int) MPI_Bcast(buffer, (hypre_int)count, datatype, ...);
//     }
//     void addIntParallel(int *sendBuf, int *recvBuf, int count) {
//       MPI_Allreduce(sendBuf, recvBuf, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
//     }
//
// A call of one is the MPI call with the caller's arguments: the same
// values reach MPI, in the same order, and nothing else happens. So the
// call may be written as that MPI call (inlined) and every transformation
// then judges it with the caller's facts. The driver inlines every such
// call site of a file, parses the result again, and keeps the inlined
// text only where a transformation changed the call (driver/Pipeline.cpp).
//
// What it proves, per call site: the callee is the wrapper this file
// defines, or (whole-program facts) the one the program's other file
// defines; the call is written in the file (not in a macro); each
// argument converts to its parameter as written (the same type, or an
// arithmetic conversion written as a cast to the parameter's type, or a
// pointer that the MPI call takes as a void pointer); an argument the MPI
// call does not use has no side effects; the MPI function and the
// constants are the MPI's own where the call is (not a macro of the
// program's); a wrapper that returns nothing is called as a statement.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_WRAPPERS_H
#define OMPI_TOOL_ANALYSIS_WRAPPERS_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Preprocessor;
} // namespace clang

namespace ompi {

class Evaluator;

/// One argument of the wrapper's MPI call: a parameter of the wrapper, or a
/// constant spelled as it may be written wherever mpi.h is included.
struct WrapperArg {
  int Param = -1;       ///< the wrapper's parameter (from 0), or -1
  std::string Constant; ///< when Param is -1: "MPI_INT", "0", "(-1)"
  bool operator==(const WrapperArg &O) const { return Param == O.Param && Constant == O.Constant; }
};

/// How an argument of a call must convert to a wrapper's parameter.
enum class ParamPass : char {
  Arithmetic = 'a',  ///< an arithmetic type: any arithmetic argument, converted by a cast
  VoidPointer = 'v', ///< a pointer the MPI call takes as a void pointer: any pointer
  Exact = 'x',       ///< anything else: an argument of the same type only
};

struct WrapperFact {
  std::string MPIFunction;             ///< "MPI_Allreduce"
  std::string File;                    ///< the file that defines the wrapper (its name)
  unsigned Line = 0;                   ///< the line of its MPI call
  std::vector<std::string> ParamTypes; ///< each parameter's type, canonical
  std::vector<ParamPass> Pass;         ///< how each parameter is passed
  std::vector<WrapperArg> Args;        ///< the MPI call's arguments
  bool Returns = false;                ///< returns the MPI call's result
  std::string ReturnType;              ///< its canonical type, when Returns
  bool operator==(const WrapperFact &O) const {
    return MPIFunction == O.MPIFunction && File == O.File && Line == O.Line && ParamTypes == O.ParamTypes &&
           Pass == O.Pass && Args == O.Args && Returns == O.Returns && ReturnType == O.ReturnType;
  }
};

/// The wrapper F is, or none.
std::optional<WrapperFact> forwardingWrapper(const clang::FunctionDecl *F, const Evaluator &Ev);

/// The forwarding wrappers the main file of Ctx defines with external
/// linkage, by name (what the program's other files may inline).
std::map<std::string, WrapperFact> externalWrappers(clang::ASTContext &Ctx, const Evaluator &Ev);

/// A call of a wrapper written as its MPI call.
struct InlinedCall {
  unsigned Begin = 0, End = 0; ///< the call's span in the original text
  std::string Text;            ///< the MPI call (as many newlines as the span)
  std::string Original;        ///< the span's original text
  unsigned Line = 0, Column = 0;
  std::string Wrapper;     ///< the wrapper's name
  std::string DefinedAt;   ///< "file:line" of the wrapper's MPI call
  std::string MPIFunction; ///< the MPI function it calls
  /// Where the wrapper's definition begins in the text, when it is a static
  /// function of the file (not inline): with every call inlined it would be
  /// unused, so the driver marks it so (-Wunused-function); else -1.
  long StaticDefinitionAt = -1;
  /// The wrapper's definition, when the file holds it: its span and lines.
  /// Its body is judged by the first parse, which sees every call of it.
  long DefinitionBegin = -1, DefinitionEnd = -1;
  unsigned FirstLine = 0, LastLine = 0;
  /// Not a call: the line "#include <mpi.h>" written in a blank line before
  /// the calls, for a file that does not include mpi.h (kept only with a
  /// call).
  bool Header = false;
  /// The call is a use of a function-like macro whose body is the MPI call
  /// (MacroCalls.cpp), Wrapper the macro's name.
  bool Macro = false;
};

/// Every call of a forwarding wrapper in the main file of Ctx that can be
/// written as its MPI call (the wrappers the file defines, and with
/// whole-program facts those other files define), in order. A file that
/// does not include mpi.h gets it, in a blank line between its top-level
/// declarations after its last #include before the calls (so that no line
/// moves), where none of the names the calls need is the file's own;
/// without such a line, none of its calls is inlined.
std::vector<InlinedCall> inlinableWrapperCalls(clang::ASTContext &Ctx, clang::Preprocessor &PP, const Evaluator &Ev);

/// CE, an MPI call that is all of a use of a function-like macro of the
/// main file, written as the macro's body with the arguments put in.
std::optional<InlinedCall> macroInlinedCall(clang::ASTContext &Ctx, clang::Preprocessor &PP, const clang::CallExpr *CE);

/// Text with every call of Calls written inlined (the calls in order).
std::string applyInlining(llvm::StringRef Text, const std::vector<InlinedCall> &Calls);

} // namespace ompi

#endif
