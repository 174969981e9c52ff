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
#include "clang/Lex/Lexer.h"
#include <map>

using namespace clang;
using namespace ompi;

/// The note of a call left as it is, for Why.
static ChangeNote declined(const PersistentCall &P, const FileResult &Calls, const std::string &Why) {
  ChangeNote N = P.Note;
  N.Applied = false;
  N.Kind = NoteKind::Declined;
  N.What = "not through a persistent request";
  for (const CallResult &C : Calls.Calls)
    if (C.Call == P.Call)
      N.What = C.Function + " " + N.What;
  N.Why = Why;
  N.Saves.clear();
  return N;
}

llvm::Error ompi::runPersistentRequests(TransformContext &TC) {
  const SourceManager &SM = TC.Ctx.getSourceManager();
  const LangOptions &LO = TC.Ctx.getLangOpts();
  auto Off = [&](SourceLocation L) { return SM.getFileOffset(SM.getExpansionLoc(L)); };
  // A call another transformation rewrote is reported by that one.
  auto Taken = [&](const CallExpr *CE) { return changedAt(TC.Out, Off(CE->getCallee()->getBeginLoc())); };
  PersistentPlan Plan = planPersistent(TC.Ctx, TC.Ev, TC.Uni, TC.Analysis, TC.Profile, Taken, TC.Reassociate);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  std::map<const Stmt *, std::vector<const PersistentCall *>> Groups;
  for (const PersistentCall &P : Plan.Calls)
    Groups[P.Loop].push_back(&P);
  FreshNames Names(TC.Ctx);
  LoopBlocks Blocks(TC.Ctx, TC.Out);
  std::map<const CallExpr *, std::string> VarOf;
  for (const auto &[Loop, Calls] : Groups) {
    if (!Blocks.writable(Loop, Calls.front()->Returns)) {
      for (const PersistentCall *P : Calls)
        TC.Notes.push_back(declined(*P, TC.Analysis,
                                    "another transformation changes the code where the block "
                                    "around its loop would begin or end"));
      continue;
    }
    std::string Decl = "struct mpiopt_persist ", Release;
    for (const PersistentCall *P : Calls) {
      std::string V = Names.next("mpiopt_preq") + "_p";
      Decl += (Release.empty() ? "" : ", ") + V + " = MPIOPT_PERSIST_INIT";
      Release += "mpiopt_persist_free(&" + V + "); ";
      VarOf[P->Call] = V;
    }
    Blocks.add(Loop, Decl, Release, Calls.front()->Returns);
  }
  if (VarOf.empty())
    return llvm::Error::success();
  if (auto E = Blocks.write(TC.Out))
    return E;
  for (const PersistentCall &P : Plan.Calls) {
    auto It = VarOf.find(P.Call);
    if (It == VarOf.end())
      continue;
    // As written: a call in a macro's argument is renamed there.
    SourceLocation Callee = SM.getFileLoc(P.Call->getCallee()->getBeginLoc());
    std::optional<Token> LParen = Lexer::findNextToken(Callee, SM, LO);
    if (!LParen || !LParen->is(tok::l_paren))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "no '(' after the callee of a persistent call");
    CharSourceRange Head = CharSourceRange::getCharRange(Callee, LParen->getEndLoc());
    if (auto E = TC.Out.add(tooling::Replacement(SM, Head, P.To + "(&" + It->second + ", ", LO)))
      return E;
    TC.Notes.push_back(P.Note);
  }
  TC.needs("#include <mpiopt/persist.h>");
  return llvm::Error::success();
}
