//===- RootBroadcast.h - Values the root packs, broadcasts and others unpack ===//
//
// The way most MPI programs share their input: the root reads it into
// variables, packs them into a buffer and broadcasts it; every other rank
// receives the buffer and unpacks it into the same variables:
//
//   if (rank == 0) {                     // (or !rank; the world rank)
//     n = atoi(argv[1]); ...             // writes of n on the root only
//     buf[3] = n;                        // pack
//     MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
//   } else {
//     MPI_Bcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD);
//     n = buf[3];                        // unpack
//   }
//
// After the if, n holds the root's value on every rank. The writes of n in
// either arm are then not a reason for n to differ between ranks. What is
// proved, for variable V and the if statement S:
//  - S's condition is `X == R`, `R == X` or `!X` (R = 0) with R a constant
//    and X the world rank: a local the evaluator knows as the rank of
//    MPI_COMM_WORLD, or a global that only MPI_Comm_rank(MPI_COMM_WORLD, &X)
//    writes (in every file of the program), called at the top of the
//    function before S, in a function with no label (no jump skips the
//    call); so exactly the root runs the then arm;
//  - the then arm has, as statements of its own, `B[k] = V` (k constant,
//    B an array whose elements have V's type) and after it MPI_Bcast of B
//    from root R on MPI_COMM_WORLD (count > k, a datatype of the elements'
//    size), with no write of B[k] in between, and nothing after the pack
//    writes V (or calls code that may: code of another file may not when
//    no other file writes the global V and no function of this file that
//    may write it is called from another file or through a pointer);
//  - the else arm has the same MPI_Bcast (same buffer, root, communicator)
//    and after it `V = B[k]`, with nothing in between that writes B or
//    jumps (return, break, continue, goto: V would stay unpacked), and
//    nothing after the unpack that writes V.
// Or, the second shape, the root broadcasts V itself:
//
//   if (rank == 0) {
//     n = atoi(argv[1]);
//     MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
//   } else {
//     MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
//   }
//
//  - each arm has, as a statement of its own, MPI_Bcast(&V, 1, T, R,
//    MPI_COMM_WORLD) with T of V's size, no jump before it in the arm and
//    nothing after it in the arm that writes V.
// A call of a function of another file may write V unless the program's
// facts say what it writes (ProgramFacts::mayWrite) and V is not among it.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_ROOTBROADCAST_H
#define OMPI_TOOL_ANALYSIS_ROOTBROADCAST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <optional>
#include <utility>

namespace ompi {

class Evaluator;
class Effects;
class ProgramFacts;

class RootBroadcast {
public:
  RootBroadcast(clang::ASTContext &Ctx, Evaluator &Ev, Effects &Eff) : Ctx(Ctx), Ev(Ev), Eff(Eff) {}
  /// The line of the if statement (of F, enclosing At) at whose end V holds
  /// the root's value on every rank by the pattern above; nullopt if none.
  std::optional<unsigned> reconciles(const clang::VarDecl *V, const clang::Stmt *At, const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  Effects &Eff;
  std::map<std::pair<const clang::IfStmt *, const clang::VarDecl *>, bool> Memo;

  bool holds(const clang::IfStmt *S, const clang::VarDecl *V, const clang::FunctionDecl *F);
  std::optional<int64_t> rootOf(const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool isWorldRank(const clang::Expr *X, const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool globalRank(const clang::VarDecl *X, const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool onlyThisFileWrites(const clang::VarDecl *X);
  bool otherFilesCannotWrite(const clang::VarDecl *V);
  bool mayWrite(const clang::Stmt *X, const clang::VarDecl *V);
  std::optional<int64_t> intAt(const clang::Expr *E, const clang::FunctionDecl *F);
  struct WorldBroadcast {
    const clang::Expr *Buf;
    int64_t Count, TypeSize;
  };
  std::optional<WorldBroadcast> worldBroadcast(const clang::Stmt *X, int64_t Root, const clang::FunctionDecl *F);
  bool broadcastInBoth(llvm::ArrayRef<const clang::Stmt *> Then, llvm::ArrayRef<const clang::Stmt *> Else,
                       const clang::VarDecl *V, int64_t Root, const clang::FunctionDecl *F);
  bool otherFilesMayWrite(const clang::FunctionDecl *G, const clang::VarDecl *V);
};

} // namespace ompi

#endif
