//===- MissingFinalize.cpp - Check: missing-finalize -------------------------===//
//
// main starts MPI (MPI_Init, MPI_Init_thread) but no MPI_Finalize can
// follow: neither main nor any function of the file it calls or names (an
// atexit handler) calls MPI_Finalize. Every process must call it before it
// exits. The check stays silent when main calls a function it cannot see
// (declared outside the system headers and not defined in the file: it may
// finalize), calls through a pointer, or ends in MPI_Abort.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ompi {

namespace {

enum class Finalizes { No, Yes, Unknown };

/// Whether F, or a function of the file it calls or names, calls
/// MPI_Finalize (or MPI_Abort, which ends the job), or a function the
/// check cannot see.
Finalizes finalizes(ASTContext &Ctx, const FunctionDecl *Main) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<const FunctionDecl *> Seen{Main};
  std::vector<const FunctionDecl *> Work{Main};
  bool Unknown = false;
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    bool Found = anyNode(F->getBody(), [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N); CE && !CE->getDirectCallee())
        Unknown = true; // through a pointer
      const auto *DRE = dyn_cast<DeclRefExpr>(N);
      const auto *G = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
      if (!G)
        return false;
      llvm::StringRef Name = G->getName();
      if (Name == mpi::MPI_Finalize || Name == mpi::PMPI_Finalize || endsProcess(Name))
        return true;
      if (const FunctionDecl *Def = G->getDefinition()) {
        if (Seen.insert(Def).second)
          Work.push_back(Def);
      } else if (!Name.starts_with(mpi::Prefix) && !Name.starts_with(mpi::ProfilingPrefix) &&
                 !SM.isInSystemHeader(SM.getExpansionLoc(G->getLocation()))) {
        Unknown = true;
      }
      return false;
    });
    if (Found)
      return Finalizes::Yes;
  }
  return Unknown ? Finalizes::Unknown : Finalizes::No;
}

} // namespace

void checkMissingFinalize(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Call || !CR.Caller || !CR.Caller->isMain() || !CR.Caller->hasBody() ||
        (CR.Function != mpi::MPI_Init && CR.Function != mpi::MPI_Init_thread))
      continue;
    if (finalizes(C.Ctx, CR.Caller) == Finalizes::No)
      C.report("missing-finalize", CR.Call->getBeginLoc(),
               CR.Function + " starts MPI here, but neither main nor any function of the file it calls calls "
                             "MPI_Finalize: every process must call MPI_Finalize before it exits");
    return;
  }
}

} // namespace ompi
