//===- OptOut.cpp - Per-call opt-outs written in comments -----------------===//
#include "support/OptOut.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cstring>

using namespace clang;
using namespace ompi;

bool OptOutMark::covers(llvm::StringRef Transform) const {
  return All || Transform.empty() || llvm::is_contained(Names, Transform);
}

/// Add what Comment (one comment's text) says to M; false when it says nothing.
static bool parseComment(llvm::StringRef Comment, OptOutMark &M) {
  bool Any = false;
  if (Comment.contains("ompi: off") || Comment.contains("ompi:off")) {
    M.All = Any = true;
  }
  for (size_t At = Comment.find("OMPI-NOOPT"); At != llvm::StringRef::npos; At = Comment.find("OMPI-NOOPT", At + 1)) {
    Any = true;
    llvm::StringRef Rest = Comment.substr(At + strlen("OMPI-NOOPT"));
    if (!Rest.starts_with("(")) {
      M.All = true;
      continue;
    }
    llvm::SmallVector<llvm::StringRef, 4> Names;
    Rest.drop_front().split(')').first.split(Names, ',', -1, false);
    for (llvm::StringRef N : Names)
      if (!N.trim().empty() && !llvm::is_contained(M.Names, N.trim().str()))
        M.Names.push_back(N.trim().str());
  }
  return Any;
}

OptOuts OptOuts::read(const SourceManager &SM, const LangOptions &LO) {
  OptOuts Out;
  FileID FID = SM.getMainFileID();
  llvm::StringRef Buf = SM.getBufferData(FID);
  Lexer L(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin(), Buf.end());
  L.SetCommentRetentionState(true);
  Token T;
  bool End = false;
  while (!End) {
    End = L.LexFromRawLexer(T);
    if (!T.is(tok::comment))
      continue;
    llvm::StringRef Text(SM.getCharacterData(T.getLocation()), T.getLength());
    unsigned Line = SM.getSpellingLineNumber(T.getLocation());
    OptOutMark M = Out.Marks.count(Line) ? Out.Marks[Line] : OptOutMark{};
    if (!parseComment(Text, M))
      continue;
    M.Line = Line;
    std::string S = Text.split('\n').first.rtrim().str();
    M.Spelling = M.Spelling.empty() ? S : M.Spelling + " " + S;
    Out.Marks[Line] = std::move(M);
  }
  return Out;
}

std::pair<unsigned, unsigned> OptOuts::callLines(const SourceManager &SM, const CallExpr *Call) {
  unsigned First = 0, Last = 0;
  for (SourceLocation L : {Call->getBeginLoc(), Call->getRParenLoc()})
    for (SourceLocation F : {SM.getFileLoc(L), SM.getExpansionLoc(L)}) {
      if (F.isInvalid() || SM.getFileID(F) != SM.getMainFileID())
        continue;
      unsigned Line = SM.getSpellingLineNumber(F);
      First = First ? std::min(First, Line) : Line;
      Last = std::max(Last, Line);
    }
  return {First, Last};
}

const OptOutMark *OptOuts::find(const SourceManager &SM, const CallExpr *Call, llvm::StringRef Transform) const {
  if (Marks.empty() || !Call)
    return nullptr;
  auto [First, Last] = callLines(SM, Call);
  if (!First)
    return nullptr;
  for (auto It = Marks.lower_bound(First); It != Marks.end() && It->first <= Last; ++It)
    if (It->second.covers(Transform))
      return &It->second;
  return nullptr;
}
