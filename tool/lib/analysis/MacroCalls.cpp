//===- MacroCalls.cpp - MPI calls that are a function-like macro's body ----===//
//
// graph500's aml.h:
//
//   #define aml_long_allsum(p) MPI_Allreduce(MPI_IN_PLACE,p,1,MPI_LONG_LONG,MPI_SUM,MPI_COMM_WORLD)
//
// A use of such a macro, aml_long_allsum(&n), is the call its body spells
// with the arguments put in: writing that text where the macro is used
// gives the preprocessor the same tokens at the same point of the file, so
// the same call (Wrappers.h inlines it like a call of a forwarding wrapper).
//
// What it proves: the call is all of the expansion of one use of a
// function-like macro, written in the main file; the macro (the definition
// in force at the use) is not variadic, uses neither # nor ##, does not
// name itself, and has as many non-empty arguments as parameters. Each
// argument is put in between blanks, so that no token of it joins one of
// the body's.
//
//===----------------------------------------------------------------------===//
#include "analysis/Wrappers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace ompi;

namespace {

/// The arguments of the use of a function-like macro in Text (from its
/// name to its closing parenthesis), as written; none when they cannot be
/// read (no parenthesis, unbalanced).
std::optional<std::vector<std::string>> useArguments(const SourceManager &SM, const LangOptions &LO,
                                                     SourceLocation Begin, llvm::StringRef Text) {
  Lexer L(Begin, LO, Text.begin(), Text.begin(), Text.end());
  Token T;
  L.LexFromRawLexer(T); // the macro's name
  L.LexFromRawLexer(T);
  if (T.isNot(tok::l_paren))
    return std::nullopt;
  std::vector<std::string> Args;
  int Depth = 1;
  size_t Start = size_t(SM.getFileOffset(T.getLocation()) - SM.getFileOffset(Begin)) + 1;
  // (LexFromRawLexer says true already with the last token: stop at eof.)
  for (L.LexFromRawLexer(T); T.isNot(tok::eof); L.LexFromRawLexer(T)) {
    size_t At = size_t(SM.getFileOffset(T.getLocation()) - SM.getFileOffset(Begin));
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace) && --Depth == 0) {
      Args.push_back(Text.slice(Start, At).trim().str());
      return At + 1 == Text.size() ? std::optional(Args) : std::nullopt;
    } else if (T.is(tok::comma) && Depth == 1) {
      Args.push_back(Text.slice(Start, At).trim().str());
      Start = At + 1;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<InlinedCall> ompi::macroInlinedCall(ASTContext &Ctx, Preprocessor &PP, const CallExpr *CE) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation B = CE->getBeginLoc(), E = CE->getRParenLoc(), UseB, UseE;
  if (!B.isMacroID() || !Lexer::isAtStartOfMacroExpansion(B, SM, LO, &UseB) ||
      !Lexer::isAtEndOfMacroExpansion(E, SM, LO, &UseE) || !UseB.isFileID() || !UseE.isFileID() ||
      !SM.isWrittenInMainFile(UseB) || !SM.isWrittenInMainFile(UseE))
    return std::nullopt;
  // The use of one macro whose body is the call (not a macro inside one).
  CharSourceRange Use = SM.getImmediateExpansionRange(B);
  if (Use.getBegin() != UseB || SM.getImmediateExpansionRange(E).getEnd() != UseE)
    return std::nullopt;
  llvm::StringRef Name = Lexer::getImmediateMacroName(B, SM, LO);
  IdentifierInfo *II = PP.getIdentifierInfo(Name);
  const MacroInfo *MI = II ? PP.getMacroDefinitionAtLoc(II, UseB).getMacroInfo() : nullptr;
  if (!MI || !MI->isFunctionLike() || MI->isVariadic() || MI->getNumParams() == 0)
    return std::nullopt;
  unsigned Begin = SM.getFileOffset(UseB), End = SM.getFileOffset(UseE) + 1;
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  llvm::StringRef Text = Buf.slice(Begin, End);
  std::optional<std::vector<std::string>> Args = useArguments(SM, LO, UseB, Text);
  if (!Args || Args->size() != MI->getNumParams() ||
      llvm::any_of(*Args, [](const std::string &A) { return A.empty(); }))
    return std::nullopt;
  std::string Out;
  for (const Token &T : MI->tokens()) {
    if (T.isOneOf(tok::hash, tok::hashhash, tok::hashat))
      return std::nullopt;
    IdentifierInfo *TI = T.getIdentifierInfo();
    if (TI == II)
      return std::nullopt;
    int P = TI ? MI->getParameterNum(TI) : -1;
    if (P >= 0)
      Out += " " + (*Args)[P] + " ";
    else
      Out += (T.hasLeadingSpace() && !Out.empty() ? " " : "") + PP.getSpelling(T);
  }
  size_t Lost = Text.count('\n') - std::min(Text.count('\n'), llvm::StringRef(Out).count('\n'));
  InlinedCall C;
  C.Begin = Begin;
  C.End = End;
  C.Text = Out + std::string(Lost, '\n');
  C.Original = Text.str();
  C.Line = SM.getSpellingLineNumber(UseB);
  C.Column = SM.getSpellingColumnNumber(UseB);
  C.Wrapper = Name.str();
  C.DefinedAt = llvm::sys::path::filename(SM.getFilename(MI->getDefinitionLoc())).str() + ":" +
                std::to_string(SM.getSpellingLineNumber(MI->getDefinitionLoc()));
  C.MPIFunction = CE->getDirectCallee()->getName().str();
  C.Macro = true;
  return C;
}
