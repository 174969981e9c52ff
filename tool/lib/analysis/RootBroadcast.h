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
// The broadcast may be guarded, `if (G) MPI_Bcast(&V, ...)` in both arms
// (miniAMR's `if (use_time)`), where G holds the root's value by this
// pattern, and every root write of V is followed by `G = c` (c nonzero)
// and G is given nothing else there: when G is 0 no rank wrote V in S
// (flagGuarded in RootBroadcast.cpp).
// A call of a function of another file may write V unless the program's
// facts say what it writes (ProgramFacts::mayWrite) and V is not among it.
//
// Memory a pointer owns (OwnedMemory.h), packed and unpacked by loops
// (miniAMR's objects):
//
//   if (rank == 0) {
//     ... p[o].f = ...;                  // the root fills packed fields
//     for (i = o = 0; o < n; o++) {      // pack
//       b[i++] = (double) p[o].type;
//       b[i++] = p[o].cen[0]; ...
//     }
//     MPI_Bcast(b, 14*n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
//   } else {
//     p = malloc(...);
//     MPI_Bcast(b, 14*n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
//     for (i = o = 0; o < n; o++) {      // unpack, the same fields in order
//       p[o].type = (int) b[i++];
//       p[o].cen[0] = b[i++]; ...
//     }
//   }
//
// After the if, elements 0 to n-1 of p's memory are the same on every rank
// (packedLoops): n holds the root's value (the pattern above for n) and
// nothing after either loop writes it; each loop is `for (I = K = 0; K <
// N; K++)` whose body is its m statements only; each field is packed with
// no conversion but to b's element type and back, which is exact (the same
// type, or float and integers of 32 bits or less through double); both
// broadcasts send m*n elements of b's size from the root on MPI_COMM_WORLD;
// nothing names b or p between the pack and its broadcast, nor b between
// the other broadcast and the unpack; every store into p's memory in the
// if is the root's into a packed field before the pack, or the unpack's;
// p is given memory in the if only before the loops.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_ROOTBROADCAST_H
#define OMPI_TOOL_ANALYSIS_ROOTBROADCAST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
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
  /// The line of the if statement (of F, enclosing At) whose loops pack and
  /// unpack the memory the owner P points to (above), so that the stores
  /// and sets of P in it do not make that memory differ; nullopt if none.
  /// Stores and Sets are P's (OwnedMemory.h), by their statements;
  /// Uniform says whether an expression's value is the same on every rank
  /// by what reaches it (Uniformity), for the loops' bound n.
  using UniformFn = std::function<bool(const clang::Expr *)>;
  std::optional<unsigned> packedMemory(const clang::VarDecl *P, const clang::Stmt *At, const clang::FunctionDecl *F,
                                       llvm::ArrayRef<const clang::Stmt *> Stores,
                                       llvm::ArrayRef<const clang::Stmt *> Sets, UniformFn Uniform);

private:
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  Effects &Eff;
  std::map<std::pair<const clang::IfStmt *, const clang::VarDecl *>, bool> Memo, PackMemo;
  bool packedLoops(const clang::IfStmt *S, const clang::VarDecl *P, const clang::FunctionDecl *F,
                   llvm::ArrayRef<const clang::Stmt *> Stores, llvm::ArrayRef<const clang::Stmt *> Sets,
                   UniformFn Uniform);
  bool namesOrCalls(const clang::Stmt *X, const clang::VarDecl *V);
  bool packBroadcast(const clang::Stmt *X, const clang::VarDecl *B, const clang::VarDecl *N, size_t M,
                     clang::QualType Elem, int64_t Root, const clang::FunctionDecl *F);

  bool holds(const clang::IfStmt *S, const clang::VarDecl *V, const clang::FunctionDecl *F);
  bool holdsOnce(const clang::IfStmt *S, const clang::VarDecl *V, const clang::FunctionDecl *F);
  std::optional<int64_t> rootOf(const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool isWorldRank(const clang::Expr *X, const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool globalRank(const clang::VarDecl *X, const clang::IfStmt *S, const clang::FunctionDecl *F);
  bool onlyThisFileWrites(const clang::VarDecl *X);
  bool otherFilesCannotWrite(const clang::VarDecl *V);
  bool mayWrite(const clang::Stmt *X, const clang::VarDecl *V);
  std::optional<int64_t> intAt(const clang::Expr *E, const clang::FunctionDecl *F);
  struct WorldBroadcast {
    const clang::Expr *Buf, *CountExpr;
    std::optional<int64_t> Count; ///< when CountExpr is a constant
    int64_t TypeSize;
  };
  std::optional<WorldBroadcast> worldBroadcast(const clang::Stmt *X, int64_t Root, const clang::FunctionDecl *F);
  bool broadcastInBoth(const clang::IfStmt *S, llvm::ArrayRef<const clang::Stmt *> Then,
                       llvm::ArrayRef<const clang::Stmt *> Else, const clang::VarDecl *V, int64_t Root,
                       const clang::FunctionDecl *F);
  bool flagGuarded(const clang::IfStmt *S, llvm::ArrayRef<const clang::Stmt *> Then, size_t T,
                   llvm::ArrayRef<const clang::Stmt *> Else, size_t E, const clang::VarDecl *V, const clang::VarDecl *G,
                   const clang::FunctionDecl *F);
  bool otherFilesMayWrite(const clang::FunctionDecl *G, const clang::VarDecl *V);
};

} // namespace ompi

#endif
