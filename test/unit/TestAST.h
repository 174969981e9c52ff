//===- TestAST.h - Parse a snippet of MPI C for the unit tests ------------===//
//
// The snippets declare the little of MPI they use: handles are recognised
// by spelling, so a macro named MPI_COMM_WORLD is the world communicator
// whatever its value, as under both MPICH's and Open MPI's headers.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TEST_UNIT_TESTAST_H
#define OMPI_TEST_UNIT_TESTAST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <memory>
#include <string>

namespace ompi::test {

inline const char *MiniMPI = R"C(
typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_COMM_SELF ((MPI_Comm)0x44000001)
#define MPI_INT ((MPI_Datatype)0x4c000405)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00080b)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_IN_PLACE ((void *)-1)
int MPI_Comm_rank(MPI_Comm, int *);
int MPI_Comm_size(MPI_Comm, int *);
int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);
int MPI_Comm_free(MPI_Comm *);
int MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Barrier(MPI_Comm);
int MPI_Cart_shift(MPI_Comm, int, int, int *, int *);
int MPI_Type_size(MPI_Datatype, int *);
int MPI_Type_vector(int, int, int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_commit(MPI_Datatype *);
int MPI_Type_free(MPI_Datatype *);
int MPI_Comm_idup(MPI_Comm, MPI_Comm *, int *);
int MPI_Comm_dup(MPI_Comm, MPI_Comm *);
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
)C";

inline std::unique_ptr<clang::ASTUnit> parse(const std::string &Code, std::vector<std::string> Extra = {}) {
  Extra.insert(Extra.begin(), {"-std=c11", "-w"});
  return clang::tooling::buildASTFromCodeWithArgs(std::string(MiniMPI) + Code, Extra, "t.c");
}

/// The definition of function Name.
inline const clang::FunctionDecl *function(clang::ASTContext &Ctx, llvm::StringRef Name) {
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (F->getName() == Name && F->hasBody())
        return F;
  return nullptr;
}

/// The N-th call (0-based, in source order) of Callee in F.
inline const clang::CallExpr *call(const clang::FunctionDecl *F, llvm::StringRef Callee, unsigned N = 0) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Callee;
    unsigned N;
    const clang::CallExpr *Found = nullptr;
    bool VisitCallExpr(clang::CallExpr *CE) {
      const clang::FunctionDecl *G = CE->getDirectCallee();
      if (!Found && G && G->getName() == Callee && N-- == 0)
        Found = CE;
      return true;
    }
  } V;
  V.Callee = Callee;
  V.N = N;
  V.TraverseStmt(F->getBody());
  return V.Found;
}

/// The local variable Name of F.
inline const clang::VarDecl *var(const clang::FunctionDecl *F, llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const clang::VarDecl *Found = nullptr;
    bool VisitVarDecl(clang::VarDecl *V) {
      if (!Found && V->getName() == Name)
        Found = V;
      return true;
    }
  } V;
  V.Name = Name;
  V.TraverseStmt(F->getBody());
  return V.Found;
}

} // namespace ompi::test

#endif
