//===- CommunicationOverlap.cpp - Rewrite: waits later, receives earlier --===//
//
// Moves the statements of the overlap plan (analysis/OverlapPlan.h states
// what is proved) within their blocks: the call's text leaves its place
// (its lines stay, blank) and is written on the line of the statement it
// now precedes, or before the block's closing brace, so no other line
// moves:
//
//   MPI_Wait(&req[0], MPI_STATUS_IGNORE);
//   MPI_Wait(&req[1], MPI_STATUS_IGNORE);
//   for (i = 0; i < n; i++) a[i] = in[i];
// }
//     ->
//
//   MPI_Wait(&req[1], MPI_STATUS_IGNORE);
//   for (i = 0; i < n; i++) a[i] = in[i];
// MPI_Wait(&req[0], MPI_STATUS_IGNORE); }
//
// A function's moves are added together or not at all (when another
// transformation's change meets them, each is reported as declined).
//
//===----------------------------------------------------------------------===//
#include "analysis/OverlapPlan.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {

/// Whether a replacement already made touches the text of S.
bool changedBefore(ASTContext &Ctx, const tooling::Replacements &Out, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
  if (!SM.isWrittenInMainFile(R.getBegin()))
    return true;
  unsigned B = SM.getFileOffset(R.getBegin()),
           E = SM.getFileOffset(stmtEnd(Ctx, S).isValid() ? stmtEnd(Ctx, S) : R.getEnd());
  for (const tooling::Replacement &X : Out)
    if (X.getOffset() <= E && X.getOffset() + X.getLength() >= B)
      return true;
  return false;
}

/// Text on one line: each line break and the indentation after it become
/// one space (the text holds no string or comment; OverlapPlan checks).
std::string oneLine(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '\n' && Text[I] != '\r') {
      Out += Text[I];
      continue;
    }
    while (!Out.empty() && (Out.back() == ' ' || Out.back() == '\t'))
      Out.pop_back();
    while (I + 1 < Text.size() &&
           (Text[I + 1] == ' ' || Text[I + 1] == '\t' || Text[I + 1] == '\n' || Text[I + 1] == '\r'))
      ++I;
    Out += ' ';
  }
  return Out;
}

/// The offset where code put before S goes.
unsigned insertOffset(const SourceManager &SM, const Stmt *S) {
  return SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
}

/// The replacements of one function's moves: each moved statement's text
/// blanked (its newlines kept), and written, on one line (after its
/// prefix), before the statement it now precedes.
llvm::Expected<tooling::Replacements> groupEdits(ASTContext &Ctx, const std::vector<const OverlapMove *> &Moves) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<unsigned, std::string> Inserts;                      // offset -> text
  std::map<unsigned, std::pair<unsigned, std::string>> Deletes; // offset -> (length, newlines)
  auto From = [&](const OverlapMove *M) { return SM.getFileOffset(M->Block->body_begin()[M->From]->getBeginLoc()); };
  std::vector<const OverlapMove *> Sorted(Moves);
  std::sort(Sorted.begin(), Sorted.end(), [&](auto *X, auto *Y) { return From(X) < From(Y); });
  for (const OverlapMove *M : Sorted) {
    const Stmt *S = M->Block->body_begin()[M->From];
    unsigned Begin = From(M), End = SM.getFileOffset(stmtEnd(Ctx, S));
    std::string Text(SM.getCharacterData(S->getBeginLoc()), End - Begin);
    std::string Lines(std::count(Text.begin(), Text.end(), '\n'), '\n');
    const CompoundStmt *TB = M->ToBlock ? M->ToBlock : M->Block;
    unsigned At = M->To < TB->size() ? insertOffset(SM, TB->body_begin()[M->To]) : SM.getFileOffset(TB->getRBracLoc());
    Inserts[At] += oneLine(M->Prefix + Text) + " ";
    Deletes[Begin] = {End - Begin, Lines};
  }
  std::map<unsigned, std::pair<unsigned, std::string>> Edits = Deletes; // offset -> (length, text)
  for (auto &[At, Text] : Inserts) {
    if (auto It = Edits.find(At); It != Edits.end()) {
      It->second.second = Text + It->second.second; // before a statement that moves too
      continue;
    }
    bool Merged = false;
    for (auto &[Off, E] : Edits)
      if (Off + E.first == At && Deletes.count(Off)) {
        E.second += Text; // right after a blanked statement
        Merged = true;
      }
    if (!Merged)
      Edits[At] = {0, Text};
  }
  tooling::Replacements Out;
  StringRef File = SM.getFileEntryRefForID(SM.getMainFileID())->getName();
  for (auto &[Off, E] : Edits)
    if (auto Err = Out.add(tooling::Replacement(File, Off, E.first, E.second)))
      return Err;
  return Out;
}

/// The outermost block around B (its function's body): moves within one
/// are added together.
const CompoundStmt *outermost(ASTContext &Ctx, const CompoundStmt *B) {
  const CompoundStmt *Top = B;
  for (const Stmt *P = parentStmt(Ctx, B); P; P = parentStmt(Ctx, P))
    if (const auto *C = dyn_cast<CompoundStmt>(P))
      Top = C;
  return Top;
}

} // namespace

llvm::Error ompi::runCommunicationOverlap(TransformContext &TC) {
  auto Taken = [&](const CallExpr *CE) { return callChanged(TC.Ctx, TC.Out, CE); };
  auto Changed = [&](const Stmt *S) { return changedBefore(TC.Ctx, TC.Out, S); };
  OverlapPlan Plan = planOverlap(TC.Ctx, TC.Uni.owned(), TC.Analysis, Taken, Changed);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  std::map<const CompoundStmt *, std::vector<const OverlapMove *>> ByFunction; // by function body
  std::vector<const CompoundStmt *> Order;
  for (const OverlapMove &M : Plan.Moves) {
    const CompoundStmt *Top = outermost(TC.Ctx, M.Block);
    if (!ByFunction.count(Top))
      Order.push_back(Top);
    ByFunction[Top].push_back(&M);
  }
  for (const CompoundStmt *B : Order) {
    tooling::Replacements Trial = TC.Out;
    llvm::Expected<tooling::Replacements> Edits = groupEdits(TC.Ctx, ByFunction[B]);
    std::string Failure;
    if (!Edits)
      Failure = llvm::toString(Edits.takeError());
    else
      for (const tooling::Replacement &R : *Edits) {
        // Code another transformation inserts where a call would go (a
        // force point): the two insertions' order is not this rewrite's to
        // choose, so the function's moves are declined.
        for (const tooling::Replacement &X : TC.Out)
          if (X.getLength() == 0 && X.getOffset() >= R.getOffset() && X.getOffset() <= R.getOffset() + R.getLength())
            Failure = "another transformation inserts code where a call would go";
        if (!Failure.empty())
          break;
        if (llvm::Error E = Trial.add(R)) {
          Failure = llvm::toString(std::move(E));
          break;
        }
      }
    if (!Failure.empty()) {
      std::string Why = "its function's text meets another transformation's change (" + Failure + ")";
      for (const OverlapMove *M : ByFunction[B]) {
        ChangeNote N = M->Note;
        N.Applied = false;
        N.Kind = NoteKind::Declined;
        N.Why = Why;
        N.Saves.clear();
        TC.Notes.push_back(N);
      }
      continue;
    }
    TC.Out = std::move(Trial);
    for (const OverlapMove *M : ByFunction[B])
      TC.Notes.push_back(M->Note);
  }
  return llvm::Error::success();
}
