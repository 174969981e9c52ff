//===- PlannedCollectives.cpp - Rewrite: planned all-to-all ---------------===//
//
// Rewrites the calls of the all-to-all plan (analysis/CollectivePlan.h
// states what is proved): a call whose plan lives through a loop becomes
// the runtime's planned call with the address of a plan variable declared,
// null, in a block opened just before the loop; the block frees the plan
// after the loop, and each return inside the loop frees it first:
//
//   { mpiopt_plan mpiopt_plan1_p = 0; for (...) {
//       ... mpiopt_alltoallv_planned(&mpiopt_plan1_p, sb, sc, ...) ...
//   } mpiopt_plan_free(&mpiopt_plan1_p); }
//
// Other calls are renamed to the plan cache's. Nothing inserted spans a
// line, so every line keeps its number. Where another transformation
// already changes the code at the loop's start or end, its calls go to the
// plan cache (MPI_Alltoall stays as written).
//
//===----------------------------------------------------------------------===//
#include "analysis/CollectivePlan.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <tuple>

using namespace clang;
using namespace ompi;

namespace {

std::string frees(const std::vector<std::string> &Vars) {
  std::string S;
  for (const std::string &V : Vars)
    S += "mpiopt_plan_free(&" + V + "); ";
  return S;
}

/// The plan variables of one loop.
struct Group {
  const Stmt *Loop = nullptr;
  std::vector<PlannedCall *> Calls;
  std::vector<std::string> Vars;
};

} // namespace

llvm::Error ompi::runPlannedCollectives(TransformContext &TC) {
  AllToAllPlan Plan = planAllToAll(TC.Ctx, TC.Ev, TC.Uni, TC.Analysis, TC.Profile);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  if (Plan.Calls.empty())
    return llvm::Error::success();
  const SourceManager &SM = TC.Ctx.getSourceManager();
  auto Off = [&](SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); };
  // A call another transformation already rewrote (an MPI_Alltoall of a
  // derived datatype through datatype-templates) keeps that rewrite.
  llvm::erase_if(Plan.Calls, [&](const PlannedCall &P) {
    if (!changedAt(TC.Out, Off(P.Call->getCallee()->getBeginLoc())))
      return false;
    ChangeNote N = P.Note;
    N.Applied = false;
    N.Kind = NoteKind::Declined;
    N.What = "not planned";
    for (const CallResult &X : TC.Analysis.Calls)
      if (X.Call == P.Call)
        N.What = X.Function + " not planned";
    N.Why = "another transformation (datatype-templates) already rewrites the call";
    N.Saves.clear();
    TC.Notes.push_back(N);
    return true;
  });
  if (Plan.Calls.empty())
    return llvm::Error::success();
  // The loops' blocks, innermost first where two end together.
  std::map<const Stmt *, Group> Groups;
  for (PlannedCall &P : Plan.Calls)
    if (P.Loop) {
      Group &G = Groups[P.Loop];
      G.Loop = P.Loop;
      G.Calls.push_back(&P);
    }
  FreshNames Names(TC.Ctx);
  LoopBlocks Blocks(TC.Ctx, TC.Out);
  std::map<const CallExpr *, std::string> PlanOf;
  for (auto &[Loop, G] : Groups) {
    std::vector<const ReturnStmt *> Returns; // the loop's (every call of the group has them all)
    for (PlannedCall *P : G.Calls)
      for (const ReturnStmt *R : P->Returns)
        if (!llvm::is_contained(Returns, R))
          Returns.push_back(R);
    if (!Blocks.writable(Loop, Returns)) {
      for (PlannedCall *P : G.Calls) { // to the plan cache, or as written (below)
        P->Loop = nullptr;
        P->Returns.clear();
      }
      continue;
    }
    std::string Decl = "mpiopt_plan ";
    for (PlannedCall *P : G.Calls) {
      std::string V = Names.next("mpiopt_plan") + "_p";
      Decl += (G.Vars.empty() ? "" : ", ") + V + " = 0";
      G.Vars.push_back(V);
      PlanOf[P->Call] = V;
    }
    Blocks.add(Loop, Decl, frees(G.Vars), Returns);
  }
  if (auto E = Blocks.write(TC.Out))
    return E;
  bool Any = false;
  for (PlannedCall &P : Plan.Calls) {
    std::string To = P.To;
    std::string Arg;
    if (auto It = PlanOf.find(P.Call); It != PlanOf.end()) {
      Arg = "&" + It->second + ", ";
    } else if (P.Loop == nullptr && To.find("_planned") != std::string::npos) {
      // Its loop's block could not be written: the plan cache, where there is one.
      const CallResult *C = nullptr;
      for (const CallResult &X : TC.Analysis.Calls)
        if (X.Call == P.Call)
          C = &X;
      std::optional<PlannedForms> F = C ? plannedForms(C->Function) : std::nullopt;
      if (!F || F->Cached.empty()) {
        ChangeNote N = P.Note;
        N.Applied = false;
        N.Kind = NoteKind::Declined;
        N.What = C ? C->Function + " not planned" : "not planned";
        N.Why = "another transformation changes the code where the plan's block would begin or end";
        N.Saves.clear();
        TC.Notes.push_back(N);
        continue;
      }
      To = F->Cached.str();
      P.Note.What = C->Function + " handed to the runtime's plan cache (" + To + ")";
      P.Note.Why = "another transformation changes the code where a plan's block around its loop would begin or end; "
                   "the cache keeps a plan per set of counts and displacements, and the ranks agree at each call "
                   "whether theirs still fit (one small MPI_Allreduce)";
    }
    // As written: a call in a macro's argument is renamed there.
    SourceLocation Callee = SM.getFileLoc(P.Call->getCallee()->getBeginLoc());
    std::optional<Token> LParen = Lexer::findNextToken(Callee, SM, TC.Ctx.getLangOpts());
    if (!LParen || !LParen->is(tok::l_paren))
      continue;
    CharSourceRange Head = CharSourceRange::getCharRange(Callee, LParen->getEndLoc());
    if (auto E = TC.Out.add(tooling::Replacement(SM, Head, To + "(" + Arg, TC.Ctx.getLangOpts())))
      return E;
    TC.Notes.push_back(P.Note);
    Any = true;
  }
  if (Any)
    TC.needs("#include <mpiopt/coll_optional.h>");
  return llvm::Error::success();
}
