//===- RewriteSites.cpp - Where a rewrite can be written ------------------===//
#include "analysis/RewriteSites.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

unsigned lineOf(const SourceManager &SM, SourceLocation L) { return SM.getExpansionLineNumber(L); }

bool inside(const SourceManager &SM, SourceLocation L, const Stmt *S) {
  auto Off = [&](SourceLocation X) { return SM.getFileOffset(SM.getExpansionLoc(X)); };
  return Off(S->getBeginLoc()) <= Off(L) && Off(L) <= Off(S->getEndLoc());
}

/// Whether CE is MPI_Finalize, or a call of a function of the file that
/// calls it (through at most Depth calls).
bool finalizes(const CallExpr *CE, unsigned Depth) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F)
    return false;
  if (F->getIdentifier() && (F->getName() == mpi::MPI_Finalize || F->getName() == mpi::PMPI_Finalize))
    return true;
  const FunctionDecl *Def = nullptr;
  if (!Depth || !F->hasBody(Def) || !Def->getBody())
    return false;
  return anyNode(Def->getBody(), [&](const Stmt *N) {
    const auto *Sub = dyn_cast<CallExpr>(N);
    return Sub && finalizes(Sub, Depth - 1);
  });
}

} // namespace

std::string macroProblem(const ASTContext &Ctx, const CallExpr *Call, const FileResult &Calls) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = Call->getBeginLoc();
  if (!B.isMacroID())
    return "";
  if (!SM.isMacroArgExpansion(B))
    return "the call is written in a macro's body (only a call written as a macro's argument, as in "
           "CHECK(MPI_Alltoallv(...)), is rewritten)";
  CharSourceRange R =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Call->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "part of the call is written in a macro's body";
  SourceLocation Spelled = SM.getFileLoc(B);
  for (const CallResult &O : Calls.Calls)
    if (O.Call && O.Call != Call && O.Call->getBeginLoc().isMacroID() &&
        SM.getFileLoc(O.Call->getBeginLoc()) == Spelled)
      return "the macro around the call expands its argument more than once";
  return "";
}

LoopLifetime
loopLifetime(const CallResult &C,
             llvm::function_ref<std::optional<std::string>(const CallResult &, const LoopFact &)> Changes) {
  LoopLifetime L;
  for (const LoopFact &F : C.Loops) {
    if (std::optional<std::string> Change = Changes(C, F)) {
      if (!L.Loop)
        L.Why = llvm::formatv("in the loop at line {0}, {1}", F.Line, *Change).str();
      break;
    }
    L.Loop = F.Loop;
    L.Line = F.Line;
    ++L.Level;
  }
  return L;
}

std::optional<std::string> wrapBlocker(ASTContext &Ctx, const Stmt *Loop, const CallExpr *Call,
                                       std::vector<const ReturnStmt *> &Returns) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loop->getBeginLoc().isMacroID() || !SM.isInMainFile(Loop->getBeginLoc()) || stmtEnd(Ctx, Loop).isInvalid())
    return std::string("the loop is written through a macro");
  if (const Stmt *Body = loopBody(Loop); !Body || Body->getBeginLoc().isMacroID() || stmtEnd(Ctx, Body).isInvalid())
    return std::string("the loop's body is written through a macro");
  std::optional<std::string> Why;
  anyNode(Loop, [&](const Stmt *N) {
    if (const auto *L = dyn_cast<LabelStmt>(N))
      Why = llvm::formatv("the label {0} at line {1} lets a goto enter the loop", L->getName(),
                          lineOf(SM, L->getBeginLoc()));
    else if (const auto *G = dyn_cast<GotoStmt>(N);
             G && G->getLabel()->getStmt() && !inside(SM, G->getLabel()->getStmt()->getBeginLoc(), Loop))
      Why = llvm::formatv("the goto at line {0} leaves the loop", lineOf(SM, G->getBeginLoc()));
    else if (isa<IndirectGotoStmt>(N))
      Why = llvm::formatv("the computed goto at line {0} may leave the loop", lineOf(SM, N->getBeginLoc()));
    else if (isa<SwitchCase>(N)) {
      const Stmt *P = parentStmt(Ctx, N);
      while (P && !isa<SwitchStmt>(P))
        P = parentStmt(Ctx, P);
      if (!P || !inside(SM, P->getBeginLoc(), Loop))
        Why = llvm::formatv("the case at line {0} of a switch around the loop jumps into it",
                            lineOf(SM, N->getBeginLoc()));
    } else if (const auto *CE = dyn_cast<CallExpr>(N); CE && finalizes(CE, 3)) {
      Why = llvm::formatv("MPI_Finalize may run in the loop (the call at line {0}), after which nothing could be "
                          "released",
                          lineOf(SM, CE->getBeginLoc()));
    } else if (const auto *R = dyn_cast<ReturnStmt>(N)) {
      if (R->getBeginLoc().isMacroID() || stmtEnd(Ctx, R).isInvalid())
        Why = llvm::formatv("the return at line {0} is written through a macro", lineOf(SM, R->getBeginLoc()));
      else if (anyNode(R, [&](const Stmt *X) { return X == Call; }))
        Why = llvm::formatv("the call is part of the return at line {0}", lineOf(SM, R->getBeginLoc()));
      else
        Returns.push_back(R);
    }
    return Why.has_value();
  });
  return Why;
}

} // namespace ompi
