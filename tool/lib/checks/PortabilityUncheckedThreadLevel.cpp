//===- PortabilityUncheckedThreadLevel.cpp - Check: portability-unchecked-thread-level ===//
//
// MPI_Init_thread may provide less than the level asked for. Where main
// asks for more than MPI_THREAD_SINGLE, threads of an OpenMP region call
// MPI, and the `provided` output is never read afterwards (any use of the
// variable counts, as does MPI_Query_thread), the program relies on the
// level without checking it: it works where the MPI provides the level and
// is erroneous where it does not (a portability remark).
//
//===----------------------------------------------------------------------===//
#include "checks/ThreadRegions.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/OpenMP.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// MPI_Init_thread may provide less than the level asked for: where
/// threads of a region call MPI (InRegion, the first such call), a
/// `provided` the program never reads afterwards (nor MPI_Query_thread) is
/// a finding at MPI_Init_thread.
void checkProvided(CheckContext &C, const Requested &Req, llvm::StringRef Level, const CallExpr *InRegion) {
  const FunctionModel *M = lookupFunction(mpi::MPI_Init_thread);
  std::optional<unsigned> I = M ? M->find(Role::Out) : std::nullopt;
  const VarDecl *V = I && *I < Req.At->getNumArgs() ? addressedVar(Req.At->getArg(*I)) : nullptr;
  const FunctionDecl *Main = nullptr;
  for (const CallResult &CR : C.Analysis.Calls)
    if (CR.Call == Req.At)
      Main = CR.Caller;
  if (!V || !Main)
    return;
  const Expr *Given = Req.At->getArg(*I)->IgnoreParenImpCasts();
  bool Read = anyNode(Main->getBody(), [&](const Stmt *N) {
    if (const auto *CE = dyn_cast<CallExpr>(N))
      if (const FunctionDecl *F = CE->getDirectCallee();
          F && F->getIdentifier() && F->getName() == mpi::MPI_Query_thread)
        return true;
    const auto *D = dyn_cast<DeclRefExpr>(N);
    return D && D->getDecl() == V && !anyNode(Given, [&](const Stmt *X) { return X == D; });
  });
  if (Read)
    return;
  const SourceManager &SM = C.Ctx.getSourceManager();
  if (Finding *F = C.report("portability-unchecked-thread-level", Req.At->getBeginLoc(),
                            llvm::formatv("the program asks for {0} but never reads '{1}': MPI may provide less, "
                                          "and threads of an OpenMP region call MPI (line {2}) as only {0} "
                                          "allows (compare '{1}' with the level asked for, and stop or fall "
                                          "back when it is lower)",
                                          Level, V->getName(), SM.getExpansionLineNumber(InRegion->getBeginLoc()))
                                .str()))
    C.note(*F, InRegion->getBeginLoc(), "a call threads of a region make");
}

} // namespace

void checkUncheckedThreadLevel(CheckContext &C) {
  std::optional<Requested> Req = requestedThreadLevel(C);
  if (!Req || Req->Level == ThreadLevel::Single)
    return;
  for (const CallResult &CR : C.Analysis.Calls) {
    // The first call threads of a region make (MPI_Finalize in a region is
    // thread-level's finding of its own).
    if (!CR.Call || !CR.Model || CR.Model->Cat == Category::Environment || CR.Model->Cat == Category::Query)
      continue;
    Placement P = ompPlacement(C.Ctx, CR.Call);
    if (P.Region && ompNumThreads(C.Ctx, P.Region) != 1) {
      checkProvided(C, *Req, threadLevelName(Req->Level), CR.Call);
      return;
    }
  }
}

} // namespace ompi
