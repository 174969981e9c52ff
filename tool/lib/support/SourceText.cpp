//===- SourceText.cpp - Where rewritten text goes -------------------------===//
#include "support/SourceText.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

std::string ompi::lineIndent(const SourceManager &SM, SourceLocation L) {
  auto [FID, Off] = SM.getDecomposedLoc(SM.getExpansionLoc(L));
  llvm::StringRef Buf = SM.getBufferData(FID);
  unsigned B = Off;
  while (B > 0 && Buf[B - 1] != '\n')
    --B;
  unsigned E = B;
  while (E < Buf.size() && (Buf[E] == ' ' || Buf[E] == '\t'))
    ++E;
  return Buf.substr(B, E - B).str();
}

std::string ompi::blankBefore(const SourceManager &SM, SourceLocation L) {
  auto [FID, Off] = SM.getDecomposedLoc(SM.getExpansionLoc(L));
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t LineStart = Buf.rfind('\n', Off);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Lead = Buf.slice(LineStart, Off);
  return Lead.find_first_not_of(" \t") == llvm::StringRef::npos ? Lead.str() : "";
}

SourceLocation ompi::stmtEnd(ASTContext &Ctx, const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->getRBracLoc().getLocWithOffset(1);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return stmtEnd(Ctx, If->getElse() ? If->getElse() : If->getThen());
  if (const auto *F = dyn_cast<ForStmt>(S))
    return stmtEnd(Ctx, F->getBody());
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return stmtEnd(Ctx, W->getBody());
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return stmtEnd(Ctx, Sw->getBody());
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return stmtEnd(Ctx, L->getSubStmt());
  if (const auto *C = dyn_cast<SwitchCase>(S))
    return stmtEnd(Ctx, C->getSubStmt());
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::findLocationAfterToken(SM.getExpansionLoc(S->getEndLoc()), tok::semi, SM, Ctx.getLangOpts(), false);
}

const Expr *ompi::unmovableArgument(ASTContext &Ctx, const CallExpr *CE) {
  for (const Expr *A : CE->arguments())
    if (A->HasSideEffects(Ctx) || fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), A).empty())
      return A;
  return nullptr;
}

bool ompi::onlyBlanksBetween(ASTContext &Ctx, const Stmt *A, const Stmt *B) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Gap = stmtEnd(Ctx, A), Next = B->getBeginLoc();
  if (Gap.isInvalid() || SM.getFileID(Gap) != SM.getFileID(Next) || SM.getFileOffset(Next) < SM.getFileOffset(Gap))
    return false;
  return llvm::StringRef(SM.getCharacterData(Gap), SM.getFileOffset(Next) - SM.getFileOffset(Gap)).trim().empty();
}

std::pair<SourceLocation, unsigned> ompi::afterIncludeOf(const SourceManager &SM, SourceLocation L) {
  if (L.isInvalid())
    return {};
  FileID F = SM.getFileID(SM.getExpansionLoc(L));
  SourceLocation Inc = SM.getIncludeLoc(F);
  while (Inc.isValid() && !SM.isWrittenInMainFile(Inc))
    Inc = SM.getIncludeLoc(SM.getFileID(Inc));
  if (Inc.isInvalid())
    return {};
  auto [Main, Off] = SM.getDecomposedLoc(Inc);
  llvm::StringRef Buf = SM.getBufferData(Main);
  size_t End = Buf.find('\n', Off);
  if (End == llvm::StringRef::npos)
    return {};
  llvm::StringRef Rest = Buf.slice(Off, End).rtrim(" \t\r");
  size_t Open = Rest.rfind("/*");
  if (Rest.ends_with("\\") || (Open != llvm::StringRef::npos && Rest.find("*/", Open) == llvm::StringRef::npos))
    return {};
  return {SM.getComposedLoc(Main, unsigned(End + 1)), SM.getLineNumber(Main, unsigned(End + 1))};
}

std::string ompi::fileText(const SourceManager &SM, const LangOptions &LO, const Expr *E) {
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  return R.isValid() ? Lexer::getSourceText(R, SM, LO).str() : "";
}

std::string ompi::fileText(ASTContext &Ctx, const Expr *E) {
  return E ? fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), E) : std::string();
}
