//===- Effects.cpp - What code may touch: calls, globals, addresses -------===//
#include "analysis/Effects.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include <functional>

using namespace clang;
using namespace ompi;

/// Library functions that touch no memory but their arguments' values.
bool Effects::isPureLibraryFunction(llvm::StringRef N) {
  static const llvm::StringSet<> Pure = {"sqrt", "sqrtf", "fabs", "fabsf", "exp", "expf", "log",   "logf",  "log10",
                                         "pow",  "powf",  "sin",  "cos",   "tan", "atan", "atan2", "floor", "ceil",
                                         "fmin", "fmax",  "fmod", "round", "abs", "labs", "llabs"};
  return Pure.contains(N);
}

/// A C library function: it neither communicates nor names the program's
/// variables.
bool Effects::isLibrary(const FunctionDecl *F) {
  return (F->getIdentifier() && isPureLibraryFunction(F->getName())) ||
         F->getASTContext().getSourceManager().isInSystemHeader(F->getLocation());
}

/// Whether F, or what it calls, makes an MPI call (or might: unknown code).
bool Effects::callsMPI(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (F->getIdentifier() && isMPIFunctionName(F->getName()))
    return true;
  if (!F->hasBody(Def))
    return !isLibrary(F);
  auto It = MPIMemo.find(Def);
  if (It != MPIMemo.end())
    return It->second;
  MPIMemo[Def] = false; // recursion adds nothing new
  bool R = anyNode(Def->getBody(), [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    return CE && (!CE->getDirectCallee() || callsMPI(CE->getDirectCallee()));
  });
  MPIMemo[Def] = R;
  return R;
}

/// Whether F (or what it calls) may read or write the global V.
bool Effects::touchesGlobal(const FunctionDecl *F, const VarDecl *V) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def))
    return true; // unknown code
  auto It = Busy.find(Def);
  if (It != Busy.end())
    return false; // already being looked at: recursion adds nothing new
  Busy[Def] = true;
  bool R = touches(Def->getBody(), V);
  Busy.erase(Def);
  return R;
}

bool Effects::touches(const Stmt *S, const VarDecl *V) {
  return anyNode(S, [&](const Stmt *X) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      return DRE->getDecl()->getCanonicalDecl() == V->getCanonicalDecl();
    const auto *CE = dyn_cast<CallExpr>(X);
    if (!CE)
      return false;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    // An MPI call touches V only through its arguments, visited anyway.
    return Callee->getIdentifier() && !isLibrary(Callee) && !isMPIFunctionName(Callee->getName()) &&
           touchesGlobal(Callee, V);
  });
}

/// The line where the address of V is stored or passed anywhere but to a
/// blocking MPI call (where it cannot outlive the call), if it is.
std::optional<unsigned> Effects::escapes(const VarDecl *V, const FunctionDecl *F) {
  auto Memo = EscapeMemo.find(V);
  if (Memo != EscapeMemo.end())
    return Memo->second;
  const Stmt *Scope = V->hasGlobalStorage() ? nullptr : F->getBody();
  std::optional<unsigned> Found;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    const Expr *Taken = nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
      Taken = U->getSubExpr();
    else if (const auto *IC = dyn_cast<ImplicitCastExpr>(S); IC && IC->getCastKind() == CK_ArrayToPointerDecay)
      Taken = IC->getSubExpr();
    if (Taken && rootVar(Taken) == V && !harmlessUse(cast<Expr>(S)))
      Found = Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
    for (const Stmt *Child : subStmts(S))
      Walk(Child);
  };
  if (Scope) {
    Walk(Scope);
  } else {
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
        Walk(FD->getBody());
  }
  EscapeMemo[V] = Found;
  return Found;
}

/// Whether a pointer to an object, made by E, is used only where it cannot
/// be kept: subscripted, or passed to a blocking MPI call.
bool Effects::harmlessUse(const Expr *E) {
  const Expr *Cur = E;
  const Stmt *P = parentThroughCasts(Ctx, E, &Cur);
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P))
    return AS->getBase()->IgnoreParenImpCasts() == Cur->IgnoreParenImpCasts() || AS->getBase() == Cur;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(P)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return false;
    const FunctionModel *M = lookupFunction(Callee->getName());
    return M && (M->M == Mode::Blocking || M->M == Mode::None) && M->Cat != Category::Completion;
  }
  return false;
}
