//===- DatatypeTemplates.cpp - Rewrite: compiled derived datatypes --------===//
//
// Rewrites the calls of the template plan (analysis/TemplatePlan.h states
// what is proved and when the profile chooses a template): each call is
// renamed to its template and gets the datatype's shape as trailing
// constant arguments; the file includes templates/mpiopt/dtype.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/TemplatePlan.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace ompi;

llvm::Error ompi::runDatatypeTemplates(TransformContext &TC) {
  TemplatePlan Plan = planDatatypeTemplates(TC.Ctx, TC.Ev, TC.Analysis, TC.Profile);
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
  return llvm::Error::success();
}
