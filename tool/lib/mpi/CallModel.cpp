//===- CallModel.cpp - The model of what a call's arguments name ----------===//
#include "mpi/CallModel.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

bool ompi::isPredefinedHandleObject(const DeclRefExpr *D, const SourceManager &SM, const LangOptions &LO) {
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || !V->hasExternalStorage() || SM.isInMainFile(SM.getExpansionLoc(V->getLocation())))
    return false;
  if (lookupHandle(V->getName()))
    return true; // SMPI's MPI_COMM_WORLD
  // Up the macro expansions the reference is written in, innermost first:
  // Open MPI's MPI_INT is OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_int).
  SourceLocation L = D->getLocation();
  for (int Level = 0; Level < 32 && L.isMacroID(); ++Level) {
    if (lookupHandle(Lexer::getImmediateMacroName(L, SM, LO)))
      return true;
    L = SM.getImmediateMacroCallerLoc(L);
  }
  return false;
}
