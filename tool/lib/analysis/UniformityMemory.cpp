//===- UniformityMemory.cpp - Memory a pointer variable owns --------------===//
//
// Uniformity's judgement of memory read through pointers: the same on every
// rank only when a pointer variable owns it (OwnedMemory.h) and every store
// into it is (the same value at the same index, at a point every rank
// reaches alike), in this file and, for a global, in every file of the
// program (ProgramFacts' "pointee").
//
//===----------------------------------------------------------------------===//
#include "analysis/OwnedMemory.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RootBroadcast.h"
#include "analysis/Uniformity.h"
#include "mpi/MPIModel.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

OwnedMemory &Uniformity::owned() {
  if (OM)
    return *OM;
  // Another file may define F whether or not this one has main: the closed
  // world (outside()) is about who calls this file's functions.
  auto Fact = [this](const FunctionDecl *F) -> const FunctionFact * {
    const ProgramFacts *P = program();
    if (!P || P->Seed || !F->isExternallyVisible())
      return nullptr;
    auto G = P->Functions.find(F->getName().str());
    return G == P->Functions.end() ? nullptr : &G->second;
  };
  auto Fresh = [this, Fact](const FunctionDecl *F) {
    const ProgramFacts *P = program();
    if (P && P->Seed && F->isExternallyVisible()) // the first round: another file may define it
      return !isMPIFunctionName(F->getName()) && !F->getBuiltinID() &&
             !Ctx.getSourceManager().isInSystemHeader(F->getLocation());
    const FunctionFact *FF = Fact(F);
    return FF && FF->Fresh;
  };
  auto Frees = [Fact](const FunctionDecl *F, unsigned ArgNo) { // the first round knows no frees elsewhere
    const FunctionFact *FF = Fact(F);
    return FF && llvm::is_contained(FF->Frees, ArgNo);
  };
  OM = std::make_unique<OwnedMemory>(Ctx, Fresh, Frees);
  return *OM;
}

std::optional<std::string> Uniformity::readThrough(const Expr *Base, const Expr *Whole) {
  const auto *D = dyn_cast<DeclRefExpr>(Base->IgnoreParenCasts());
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (const OwnedAlias *A = owned().alias(V)) {
    // q = &p[i] (OwnedMemory.h's read alias): p's memory at each i q is given.
    for (const OwnedAlias::Set &S : A->Sets)
      if (std::optional<std::string> R = variesNode(S.Index, func(S.F)))
        return llvm::formatv("line {0} reads through {1}, given the address of an element of {2} at line {3} at an "
                             "index that may differ between ranks: {4}",
                             line(Whole), V->getName(), A->Owner->getName(), line(S.At), *R)
            .str();
    return pointeeVaries(A->Owner);
  }
  if (V && owned().find(V))
    return pointeeVaries(V);
  return llvm::formatv("line {0} reads memory through a pointer", line(Whole)).str();
}

std::optional<std::string> Uniformity::pointeeVaries(const VarDecl *V) {
  if (V->hasGlobalStorage() && outside(V)) {
    const ProgramFacts *P = program();
    if (!P)
      return V->getName().str() + " has external linkage: other files may write the memory it points to";
    auto G = P->Globals.find(V->getName().str());
    if (!P->Seed && (G == P->Globals.end() || !G->second.Defined))
      return V->getName().str() + " is defined in no file of the program (a library may write what it points to)";
    if (G != P->Globals.end() && G->second.Pointee)
      return *G->second.Pointee;
  }
  auto It = VaryingPointees.find(V->getCanonicalDecl());
  if (It != VaryingPointees.end())
    return It->second;
  return std::nullopt;
}

/// Why a store (or a set of the pointer), What, at At in F may happen on
/// some ranks only; Global when the memory outlives F's call.
std::optional<std::string> Uniformity::storeAtVaries(const Stmt *At, const FunctionDecl *F, bool Global,
                                                     llvm::StringRef What) {
  if (!F)
    return std::nullopt; // a file-scope initializer: every rank alike
  if (Global)
    if (std::optional<Divergence> E = entryImpl(F))
      return llvm::formatv("{0} in {1}, which only some ranks may run ({2})", What, F->getName(), E->Why).str();
  Func &Fn = func(F);
  std::optional<unsigned> B = firstBlock(At, Fn);
  if (!B)
    return What.str() + ", where the tool cannot follow the control flow";
  if (std::optional<Divergence> Dv = divergentBlock(Fn, *B, nullptr))
    return llvm::formatv("{0} only on some ranks: {1}", What, Dv->Why).str();
  return std::nullopt;
}

std::optional<std::string> Uniformity::ownedVaries(const OwnedPointer &P) {
  if (std::optional<std::string> R = P.reach())
    return R;
  llvm::StringRef Name = P.Var->getName();
  bool Global = P.Var->hasGlobalStorage();
  // Sets and stores in the root's if of a pack and unpack loop
  // (RootBroadcast.h) leave the memory the same on every rank.
  std::vector<const Stmt *> SetAt, StoreAt;
  for (const OwnedPointer::Set &S : P.Sets)
    SetAt.push_back(S.At);
  for (const OwnedStore &St : P.Stores)
    StoreAt.push_back(St.At);
  auto Packed = [&](const Stmt *At, const FunctionDecl *F) {
    auto Uniform = [this, F](const Expr *E) { return !variesNode(E, func(F)).has_value(); };
    return F && rootBroadcast().packedMemory(P.Var, At, F, StoreAt, SetAt, Uniform).has_value();
  };
  for (const OwnedPointer::Set &S : P.Sets)
    if (!Packed(S.At, S.F))
      if (std::optional<std::string> R = storeAtVaries(
              S.At, S.F, Global, llvm::formatv("{0} is given new memory at line {1}", Name, line(S.At)).str()))
        return R;
  for (const OwnedStore &St : P.Stores) {
    if (Packed(St.At, St.F))
      continue;
    if (!St.Fixed.empty())
      return St.Fixed;
    if (!St.F)
      return llvm::formatv("{0}'s memory is written at file scope", Name).str();
    Func &Fn = func(St.F);
    std::string What = llvm::formatv("{0}'s memory is written at line {1}", Name, line(St.At)).str();
    if (St.Index)
      if (std::optional<std::string> R = variesNode(St.Index, Fn))
        return What + " at an index that may differ between ranks: " + *R;
    for (const Expr *W : St.Within)
      if (std::optional<std::string> R = variesNode(W, Fn))
        return What + " at an index that may differ between ranks: " + *R;
    if (St.Value)
      if (std::optional<std::string> R = variesNode(St.Value, Fn))
        return What + " with a value that may differ between ranks: " + *R;
    if (St.Mpi)
      if (std::optional<std::string> R = collectiveOutVaries(St.Mpi, nullptr, Fn))
        return R;
    if (std::optional<std::string> R = storeAtVaries(St.At, St.F, Global, What))
      return R;
  }
  return std::nullopt;
}

std::optional<std::string> Uniformity::pointeeWritesVary(const VarDecl *V) {
  ensureGlobals();
  auto It = VaryingPointees.find(V->getCanonicalDecl());
  if (It != VaryingPointees.end())
    return It->second;
  return std::nullopt;
}

std::vector<const VarDecl *> Uniformity::ownedGlobals() {
  ensureGlobals();
  std::vector<const VarDecl *> Out;
  for (const OwnedPointer *P : owned().all())
    if (P->Var->hasGlobalStorage() && !P->Var->isStaticLocal())
      Out.push_back(P->Var);
  return Out;
}

bool Uniformity::returnsFresh(const FunctionDecl *F) { return owned().returnsFresh(F); }
