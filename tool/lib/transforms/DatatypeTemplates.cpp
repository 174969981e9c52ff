//===- DatatypeTemplates.cpp - Rewrite: compiled derived datatypes --------===//
//
// Rewrites the calls of the template plan (analysis/TemplatePlan.h states
// what is proved and when the profile chooses a template): each call is
// renamed to its template and gets the datatype's shape as trailing
// constant arguments, or the address of its shadow where the shape is
// recorded at run time; such a variable gets its shadow declared after its
// declaration and its constructions renamed to the recording wrappers. A
// request variable a nonblocking template starts gets its pending state
// declared after its declaration, and its waits renamed. A call through a
// run-list template reads its table, declared at the start of the
// function's body. The file includes templates/mpiopt/dtype.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/TemplatePlan.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

/// Where a declaration can follow V's: after the ';' that ends it.
static llvm::Expected<SourceLocation> afterDeclaration(TransformContext &TC, const VarDecl *V) {
  const SourceManager &SM = TC.Ctx.getSourceManager();
  SourceLocation Semi = V->getEndLoc();
  std::optional<Token> Tok;
  while ((Tok = Lexer::findNextToken(Semi, SM, TC.Ctx.getLangOpts())) && !Tok->is(tok::semi))
    Semi = Tok->getLocation();
  if (!Tok)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no ';' after the declaration of " + V->getNameAsString());
  return Tok->getEndLoc();
}

/// The shadow declared after the variable's declaration, and each
/// construction through its recording wrapper.
static llvm::Error addShadow(TransformContext &TC, const ShadowVar &V, std::map<SourceLocation, std::string> &Decls) {
  const SourceManager &SM = TC.Ctx.getSourceManager();
  const LangOptions &LO = TC.Ctx.getLangOpts();
  llvm::Expected<SourceLocation> At = afterDeclaration(TC, V.Decl);
  if (!At)
    return At.takeError();
  std::string Decl = (V.Decl->hasGlobalStorage() ? " static" : "") +
                     std::string(" struct mpiopt_dshape mpiopt_shape_") + V.Name + " = {0};";
  Decls[*At] += Decl; // one insertion per declaration
  for (size_t I = 0; I < V.Constructions.size(); ++I) {
    const CallExpr *CE = V.Constructions[I];
    const std::string &Old = V.Olds[I];
    SourceLocation Callee = CE->getCallee()->getBeginLoc();
    std::string To = "mpiopt_" + llvm::StringRef(CE->getDirectCallee()->getName()).drop_front(4).lower() +
                     (Old.empty() ? "_rt" : "_of_rt");
    std::string Shadows = ", &mpiopt_shape_" + V.Name + (Old.empty() ? "" : ", &mpiopt_shape_" + Old);
    if (auto E = TC.Out.add(tooling::Replacement(SM, CharSourceRange::getTokenRange(Callee, Callee), To, LO)))
      return E;
    if (auto E = TC.Out.add(tooling::Replacement(SM, CE->getRParenLoc(), 0, Shadows)))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error ompi::runDatatypeTemplates(TransformContext &TC) {
  TemplatePlan Plan = planDatatypeTemplates(TC.Ctx, TC.Ev, TC.Derived, TC.Analysis, TC.Profile);
  for (const ChangeNote &N : Plan.Declined)
    TC.Notes.push_back(N);
  if (Plan.Calls.empty())
    return llvm::Error::success();
  TC.needs("#include <mpiopt/dtype.h>");
  const SourceManager &SM = TC.Ctx.getSourceManager();
  const LangOptions &LO = TC.Ctx.getLangOpts();
  for (const TemplatedCall &T : Plan.Calls) {
    if (auto E = TC.Out.add(tooling::Replacement(SM, CharSourceRange::getTokenRange(T.Callee, T.Callee), T.To, LO)))
      return E;
    if (auto E = TC.Out.add(tooling::Replacement(SM, T.RParen, 0, T.Append)))
      return E;
    TC.Notes.push_back(T.Note);
  }
  std::map<SourceLocation, std::string> Decls;
  std::set<std::pair<const CompoundStmt *, std::string>> Tables;
  for (const TemplatedCall &T : Plan.Calls) // a run list's table, once per function, at the start of its body
    for (const RunTable &Table : T.Tables)
      if (Tables.insert({Table.Body, Table.Name}).second)
        Decls[Table.Body->getLBracLoc().getLocWithOffset(1)] +=
            llvm::formatv(" static const MPI_Aint {0}[{1}] = {2};", Table.Name, Table.Values.size(),
                          bracedInts(Table.Values))
                .str();
  for (const ShadowVar &V : Plan.Shadows)
    if (auto E = addShadow(TC, V, Decls))
      return E;
  for (const PendVar &V : Plan.Pends) { // the pending state of a nonblocking template's request
    llvm::Expected<SourceLocation> At = afterDeclaration(TC, V.Decl);
    if (!At)
      return At.takeError();
    Decls[*At] += " struct mpiopt_dpend mpiopt_pend_" + V.Name +
                  (V.Size < 0 ? std::string(" = {0};") : "[" + std::to_string(V.Size) + "] = {{0}};");
  }
  for (const auto &[Loc, Text] : Decls)
    if (auto E = TC.Out.add(tooling::Replacement(TC.Ctx.getSourceManager(), Loc, 0, Text)))
      return E;
  return llvm::Error::success();
}
