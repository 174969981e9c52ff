//===- Rewrite.cpp - What the rewrites share ------------------------------===//
#include "transforms/Rewrite.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <climits>

using namespace ompi;

FreshNames::FreshNames(clang::ASTContext &Ctx) {
  for (const auto &KV : Ctx.Idents)
    if (KV.getKey().starts_with("mpiopt_"))
      Used.insert(KV.getKey().str());
}

std::string FreshNames::next(llvm::StringRef Base) {
  unsigned &N = Last[Base.str()];
  for (;;) {
    std::string P = Base.str() + std::to_string(++N);
    auto It = Used.lower_bound(P);
    bool Clash = It != Used.end() && (*It == P || llvm::StringRef(*It).starts_with(P + "_"));
    // lower_bound(P) may land on P1... before P_: look at every name with prefix P.
    for (; !Clash && It != Used.end() && llvm::StringRef(*It).starts_with(P); ++It)
      Clash = *It == P || llvm::StringRef(*It).starts_with(P + "_");
    if (!Clash)
      return P;
  }
}

bool ompi::changedAt(const clang::tooling::Replacements &Out, unsigned Off) {
  for (const clang::tooling::Replacement &R : Out)
    if (R.getOffset() <= Off && Off <= R.getOffset() + R.getLength())
      return true;
  return false;
}

static thread_local OptOutScope *CurrentScope = nullptr;

OptOutScope::OptOutScope(clang::ASTContext &Ctx, const OptOuts &Opt, llvm::StringRef Transform)
    : Ctx(Ctx), Opt(Opt), Transform(Transform.str()), Outer(CurrentScope) {
  CurrentScope = this;
}

OptOutScope::~OptOutScope() { CurrentScope = Outer; }

const OptOutMark *OptOutScope::keeps(clang::ASTContext &Ctx, const clang::CallExpr *Call) {
  for (OptOutScope *S = CurrentScope; S; S = S->Outer)
    if (&S->Ctx == &Ctx)
      return S->Opt.find(Ctx.getSourceManager(), Call, S->Transform);
  return nullptr;
}

bool ompi::callChanged(clang::ASTContext &Ctx, const clang::tooling::Replacements &Out, const clang::CallExpr *Call) {
  if (OptOutScope::keeps(Ctx, Call))
    return true;
  // Where the call is written: inside a macro's argument (CHECK(MPI_...)),
  // its spelling there, which is where the rewrites rename it; else where
  // the macro (or the call) is expanded.
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation L = Call->getCallee()->getBeginLoc();
  return changedAt(Out, SM.getFileOffset(SM.getExpansionLoc(L))) || changedAt(Out, SM.getFileOffset(SM.getFileLoc(L)));
}

unsigned LoopBlocks::offset(clang::SourceLocation L) const {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  return SM.getFileOffset(SM.getExpansionLoc(L));
}

bool LoopBlocks::writable(const clang::Stmt *Loop, llvm::ArrayRef<const clang::ReturnStmt *> Rets) const {
  std::vector<unsigned> Touch = {offset(Loop->getBeginLoc()), offset(stmtEnd(Ctx, Loop)),
                                 offset(loopBody(Loop)->getBeginLoc())}; // where braces may go
  for (const clang::ReturnStmt *R : Rets)
    Touch.insert(Touch.end(), {offset(R->getBeginLoc()), offset(stmtEnd(Ctx, R))});
  return llvm::none_of(Touch, [&](unsigned O) { return changedAt(Out, O); });
}

void LoopBlocks::add(const clang::Stmt *Loop, llvm::StringRef Type, llvm::ArrayRef<std::string> Vars,
                     llvm::StringRef Init, llvm::StringRef Free, llvm::ArrayRef<const clang::ReturnStmt *> Rets) {
  std::string Decl = Type.str() + " ", Release;
  for (const std::string &V : Vars) {
    Decl += (Release.empty() ? "" : ", ") + V + " = " + Init.str();
    Release += Free.str() + "(&" + V + "); ";
  }
  Block &B = Loops[Loop];
  B.Decls.push_back(Decl);
  B.Release += Release;
  for (const clang::ReturnStmt *R : Rets)
    Returns[R] += Release;
}

llvm::Expected<bool> ompi::renameCall(clang::ASTContext &Ctx, clang::tooling::Replacements &Out,
                                      const clang::CallExpr *Call, llvm::StringRef Head) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Callee = SM.getFileLoc(Call->getCallee()->getBeginLoc());
  std::optional<clang::Token> LParen = clang::Lexer::findNextToken(Callee, SM, Ctx.getLangOpts());
  if (!LParen || !LParen->is(clang::tok::l_paren))
    return false;
  clang::CharSourceRange Range = clang::CharSourceRange::getCharRange(Callee, LParen->getEndLoc());
  if (auto E = Out.add(clang::tooling::Replacement(SM, Range, Head, Ctx.getLangOpts())))
    return E;
  return true;
}

const CallResult *ompi::factsOf(const FileResult &Calls, const clang::CallExpr *Call) {
  for (const CallResult &C : Calls.Calls)
    if (C.Call == Call)
      return &C;
  return nullptr;
}

ChangeNote ompi::declinedNote(const ChangeNote &Planned, const FileResult &Calls, const clang::CallExpr *Call,
                              llvm::StringRef What, std::string Why) {
  ChangeNote N = Planned;
  N.Applied = false;
  N.Kind = NoteKind::Declined;
  const CallResult *C = factsOf(Calls, Call);
  N.What = C ? C->Function + " " + What.str() : What.str();
  N.Why = std::move(Why);
  N.Saves.clear();
  return N;
}

llvm::Error LoopBlocks::write(clang::tooling::Replacements &Into) const {
  // Insertions merged per offset; where texts meet, outer before inner where
  // blocks open, inner before outer where they close.
  std::map<unsigned, std::vector<std::pair<long, std::string>>> At;
  auto Add = [&](unsigned Off, long Order, std::string Text) { At[Off].push_back({Order, std::move(Text)}); };
  for (const auto &[Loop, B] : Loops) {
    long Begin = long(offset(Loop->getBeginLoc()));
    // One declaration per statement: declarations of different types.
    std::string Decl = "{ ";
    for (const std::string &D : B.Decls)
      Decl += D + "; ";
    Add(offset(Loop->getBeginLoc()), 2 * Begin + 1, Decl);
    Add(offset(stmtEnd(Ctx, Loop)), -2 * Begin, " " + B.Release + "}");
    // A body without braces gets them: the release after it on the same
    // line would otherwise look guarded by the loop (-Wmisleading-indentation).
    const clang::Stmt *Body = loopBody(Loop);
    if (!llvm::isa<clang::CompoundStmt>(Body)) {
      Add(offset(Body->getBeginLoc()), 2 * Begin, "{ ");
      Add(offset(stmtEnd(Ctx, Body)), -2 * Begin - 1, " }");
    }
  }
  for (const auto &[R, Release] : Returns) {
    Add(offset(R->getBeginLoc()), LONG_MAX, "{ " + Release);
    Add(offset(stmtEnd(Ctx, R)), LONG_MIN, " }");
  }
  const clang::SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef File = SM.getFileEntryRefForID(SM.getMainFileID())->getName();
  for (auto &[O, Parts] : At) {
    llvm::stable_sort(Parts, [](const auto &A, const auto &B) { return A.first < B.first; });
    std::string Text;
    for (const auto &P : Parts)
      Text += P.second;
    if (auto E = Into.add(clang::tooling::Replacement(File, O, 0, Text)))
      return E;
  }
  return llvm::Error::success();
}

clang::tooling::Replacement ompi::spanReplacement(clang::ASTContext &Ctx, const clang::CallExpr *First,
                                                  const clang::CallExpr *Last, llvm::StringRef Text) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Begin = First->getBeginLoc(), End = stmtEnd(Ctx, Last);
  unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
  llvm::StringRef Old(SM.getCharacterData(Begin), To - From);
  return clang::tooling::Replacement(SM, Begin, To - From, Text.str() + std::string(Old.count('\n'), '\n'));
}
