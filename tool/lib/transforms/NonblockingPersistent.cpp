//===- NonblockingPersistent.cpp - Rewrite: nonblocking via persistent ----===//
//
// Rewrites the calls of the nonblocking plan (analysis/NonblockingPlan.h
// states what is proved and when the profile chooses it): each start and
// each completion call on the same request variables becomes its template
// (templates/mpiopt/nbpersist.h) with the address of the function's cache,
// a static struct mpiopt_nbcache declared just after the function's
// opening brace, on the brace's line:
//
//   void halo(double *u, int n, int up, MPI_Comm comm) { static struct mpiopt_nbcache mpiopt_nbc1_c;
//     MPI_Request r[2];
//     mpiopt_irecv_nb(&mpiopt_nbc1_c, u, n, MPI_DOUBLE, up, 0, comm, &r[0]);
//     ...
//     mpiopt_waitall_nb(&mpiopt_nbc1_c, 2, r, MPI_STATUSES_IGNORE);
//
// A function where another transformation already inserts at that brace
// keeps its calls as written (the plan declines calls already taken).
//
//===----------------------------------------------------------------------===//
#include "analysis/NonblockingPlan.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"

using namespace clang;
using namespace ompi;

namespace {

/// Rename F's calls to their templates with the cache Var.
llvm::Error rewriteCalls(TransformContext &TC, const NonblockingFunction &F, const std::string &Var) {
  for (const NonblockingCall &C : F.Calls) {
    // As written: a call in a macro's argument is renamed there.
    llvm::Expected<bool> Renamed = renameCall(TC.Ctx, TC.Out, C.Call, C.To + "(&" + Var + ", ");
    if (!Renamed)
      return Renamed.takeError();
    if (!*Renamed)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "no '(' after the callee of a nonblocking call");
    if (C.Start)
      TC.Notes.push_back(C.Note);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error ompi::runNonblockingPersistent(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  NonblockingPlan Plan = planNonblocking(TC.Ctx, TC.Ev, TC.Derived, TC.Uni.owned(), TC.Analysis, TC.Profile, Taken);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  const SourceManager &SM = TC.Ctx.getSourceManager();
  FreshNames Names(TC.Ctx);
  bool Any = false;
  for (const NonblockingFunction &F : Plan.Functions) {
    if (F.Global) {
      if (auto E = rewriteCalls(TC, F, F.Cache))
        return E;
      // One object for every file of the program that uses the global:
      // weak, so the link keeps one (a global of this file only: static).
      TC.needs("#include <mpiopt/nbpersist.h>");
      TC.needs(std::string(F.Global->isExternallyVisible() ? "__attribute__((weak)) " : "static ") +
               "struct mpiopt_nbcache " + F.Cache + ";");
      continue;
    }
    SourceLocation At = cast<CompoundStmt>(F.Function->getBody())->getLBracLoc().getLocWithOffset(1);
    // The plan declined every call another transformation took (Taken); the
    // brace where the cache goes may still be changed by one.
    if (changedAt(TC.Out, SM.getFileOffset(At))) {
      for (const NonblockingCall &C : F.Calls)
        if (C.Start)
          TC.Notes.push_back(declinedNote(C.Note, TC.Analysis, C.Call, "not through a persistent request",
                                          "another transformation changes the code where its function's cache "
                                          "would be declared"));
      continue;
    }
    std::string Var = Names.next("mpiopt_nbc") + "_c";
    if (auto E = TC.Out.add(tooling::Replacement(SM, At, 0, " static struct mpiopt_nbcache " + Var + ";")))
      return E;
    if (auto E = rewriteCalls(TC, F, Var))
      return E;
    Any = true;
  }
  if (Any)
    TC.needs("#include <mpiopt/nbpersist.h>");
  return llvm::Error::success();
}
