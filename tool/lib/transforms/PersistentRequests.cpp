//===- PersistentRequests.cpp - Rewrite: persistent point-to-point --------===//
//
// Rewrites the calls of the persistent plan (analysis/PersistentPlan.h
// states what is proved and when the profile chooses it): each call becomes
// its template (templates/mpiopt/persist.h) with the address of a struct
// mpiopt_persist declared, zeroed, in a block opened just before the loop
// its request lives through; the block frees the request after the loop
// and before each return inside it (transforms/Rewrite.h, LoopBlocks):
//
//   { struct mpiopt_persist mpiopt_preq1_p = MPIOPT_PERSIST_INIT; for (...) {
//       ... mpiopt_send_persistent(&mpiopt_preq1_p, buf, n, MPI_DOUBLE, right, 0, comm) ...
//   } mpiopt_persist_free(&mpiopt_preq1_p); }
//
// A call whose requests live in a per-site cache becomes its cached
// template with the address of a static struct mpiopt_pcache declared just
// after the opening brace of its function (all of a function's caches in
// one declaration, on the brace's line):
//
//   void exchange(double *u, int n, int right, MPI_Comm comm) { static struct mpiopt_pcache mpiopt_pcache1_c;
//     mpiopt_send_cached(&mpiopt_pcache1_c, u, n, MPI_DOUBLE, right, 0, comm);
//
// A call another transformation already rewrote (datatype-templates, the
// reductions' fusion and deferral, the planned collectives) is no
// candidate (that transformation reports it); one whose loop another
// transformation already wraps stays as it is.
//
//===----------------------------------------------------------------------===//
#include "analysis/PersistentPlan.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include <map>

using namespace clang;
using namespace ompi;

/// Each function's per-site caches, declared after its opening brace; a
/// function where another transformation already inserts there keeps its
/// calls generic.
static llvm::Error declareCaches(TransformContext &TC,
                                 const std::map<const FunctionDecl *, std::vector<const PersistentCall *>> &Caches,
                                 FreshNames &Names, std::map<const CallExpr *, std::string> &VarOf) {
  const SourceManager &SM = TC.Ctx.getSourceManager();
  for (const auto &[FD, Calls] : Caches) {
    SourceLocation At = cast<CompoundStmt>(FD->getBody())->getLBracLoc().getLocWithOffset(1);
    if (changedAt(TC.Out, SM.getFileOffset(At))) {
      for (const PersistentCall *P : Calls)
        TC.Notes.push_back(declinedNote(P->Note, TC.Analysis, P->Call, "not through a persistent request",
                                        "another transformation changes the code where its per-site cache would "
                                        "be declared"));
      continue;
    }
    std::string Decl = " static struct mpiopt_pcache";
    for (const PersistentCall *P : Calls) {
      VarOf[P->Call] = Names.next("mpiopt_pcache") + "_c";
      Decl += (P == Calls.front() ? " " : ", ") + VarOf[P->Call];
    }
    if (auto E = TC.Out.add(tooling::Replacement(SM, At, 0, Decl + ";")))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error ompi::runPersistentRequests(TransformContext &TC) {
  // A call another transformation rewrote is reported by that one.
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  PersistentPlan Plan =
      planPersistent(TC.Ctx, TC.Ev, TC.Derived, TC.Uni, TC.Analysis, TC.Profile, Taken, TC.Reassociate);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  std::map<const Stmt *, std::vector<const PersistentCall *>> Groups;
  std::map<const FunctionDecl *, std::vector<const PersistentCall *>> Caches;
  for (const PersistentCall &P : Plan.Calls)
    if (P.CacheIn)
      Caches[P.CacheIn].push_back(&P);
    else
      Groups[P.Loop].push_back(&P);
  FreshNames Names(TC.Ctx);
  LoopBlocks Blocks(TC.Ctx, TC.Out);
  std::map<const CallExpr *, std::string> VarOf;
  for (const auto &[Loop, Calls] : Groups) {
    if (!Blocks.writable(Loop, Calls.front()->Returns)) {
      for (const PersistentCall *P : Calls)
        TC.Notes.push_back(declinedNote(P->Note, TC.Analysis, P->Call, "not through a persistent request",
                                        "another transformation changes the code where the block around its "
                                        "loop would begin or end"));
      continue;
    }
    std::vector<std::string> Vars;
    for (const PersistentCall *P : Calls) {
      Vars.push_back(Names.next("mpiopt_preq") + "_p");
      VarOf[P->Call] = Vars.back();
    }
    Blocks.add(Loop, "struct mpiopt_persist", Vars, "MPIOPT_PERSIST_INIT", "mpiopt_persist_free",
               Calls.front()->Returns);
  }
  if (auto E = Blocks.write(TC.Out))
    return E;
  if (auto E = declareCaches(TC, Caches, Names, VarOf))
    return E;
  if (VarOf.empty())
    return llvm::Error::success();
  for (const PersistentCall &P : Plan.Calls) {
    auto It = VarOf.find(P.Call);
    if (It == VarOf.end())
      continue;
    // As written: a call in a macro's argument is renamed there.
    llvm::Expected<bool> Renamed = renameCall(TC.Ctx, TC.Out, P.Call, P.To + "(&" + It->second + ", ");
    if (!Renamed)
      return Renamed.takeError();
    if (!*Renamed)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "no '(' after the callee of a persistent call");
    TC.Notes.push_back(P.Note);
  }
  TC.needs("#include <mpiopt/persist.h>");
  return llvm::Error::success();
}
