//===- Calls.cpp - Which calls a rank's run looks at ----------------------===//
#include "analysis/Effects.h"
#include "analysis/Evaluator.h"
#include "analysis/ProgramFacts.h"
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace clang;

namespace ompi::ranks {

/// OMPI_OPT_DEBUG_RUNS=1 prints why a function's runs are not followed
/// (for those who extend the interpreter).
void debugUndecided(const FunctionDecl *F, llvm::StringRef Kind, llvm::StringRef Why) {
  static const bool On = std::getenv("OMPI_OPT_DEBUG_RUNS") != nullptr;
  if (On)
    llvm::errs() << "ompi-opt: " << Kind << " runs of " << F->getName() << " not followed: " << Why << "\n";
}

const FunctionDecl *definedCallee(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  return F && F->hasBody(Def) && Def ? Def : nullptr;
}

} // namespace ompi::ranks

std::optional<std::string> ompi::unseenCallee(const CallExpr *CE, const Evaluator &Ev) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F)
    return isa<CXXPseudoDestructorExpr>(CE->getCallee()) ? std::nullopt
                                                         : std::optional<std::string>("a call through a pointer");
  if (ranks::definedCallee(CE) || F->getBuiltinID() || !F->getIdentifier() || isMPIFunctionName(F->getName()) ||
      Effects::isLibrary(F))
    return std::nullopt;
  const ProgramFacts *P = Ev.options().Program.get();
  if (P && P->program() && !P->mayCommunicate(F->getName()))
    return std::nullopt;
  return llvm::formatv("{0} is defined in another file, and may communicate{1}", F->getName(),
                       P && P->program() ? "" : " (no whole-program facts: --whole-program)")
      .str();
}

namespace ompi::ranks {

/// Whether two events may be the same collective: equal keys, where an
/// argument the evaluation could not decide ("root=?") matches any value.
bool sameKey(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 6> PA, PB;
  A.split(PA, ' ');
  B.split(PB, ' ');
  if (PA.size() != PB.size())
    return false;
  for (size_t I = 0; I < PA.size(); ++I)
    if (PA[I] != PB[I] && !PA[I].ends_with("=?") && !PB[I].ends_with("=?"))
      return false;
  return true;
}

/// The window calls every process of the window's group makes together:
/// its creation, MPI_Win_fence and MPI_Win_free.
static bool isWindowCollective(llvm::StringRef Name) {
  return Name.starts_with(mpi::MPI_Win_create) || Name.starts_with(mpi::MPI_Win_allocate) ||
         Name == mpi::MPI_Win_fence || Name == mpi::MPI_Win_free;
}

bool isCollectiveCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return (M && M->isCollective()) || calleeName(CE) == mpi::MPI_Finalize || isWindowCollective(calleeName(CE));
}

/// The window variable a window call names (by value, or by address for
/// the creating calls and MPI_Win_free).
const VarDecl *windowVar(const CallExpr *CE, const FunctionModel &M) {
  std::optional<unsigned> I = M.find(Role::Win);
  if (!I)
    I = M.find(Role::WinOut);
  if (const HandleCallModel *H = I ? nullptr : lookupHandleCall(M.Name); H && H->Kind == HandleCallModel::Free)
    I = unsigned(H->Out); // MPI_Win_free(&win)
  if (!I || *I >= CE->getNumArgs())
    return nullptr;
  const Expr *E = CE->getArg(*I)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(E);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// Point-to-point calls, probes and completions.
bool isMessageCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return M && (M->Cat == Category::PointToPoint || M->Cat == Category::Probe || M->Cat == Category::Completion);
}

/// One-sided calls: window creation, synchronisation, RMA, MPI_Win_free.
bool isOneSidedCall(const CallExpr *CE) {
  const FunctionModel *M = lookupFunction(calleeName(CE));
  return M && M->Cat == Category::OneSided;
}

/// The local handle array (not of requests or windows, whose lives other
/// analyses follow) whose element's address E is: &a[k].
const VarDecl *handleArrayOf(const Expr *E, const Expr **Index) {
  const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
  const auto *AS =
      U && U->getOpcode() == UO_AddrOf ? dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()) : nullptr;
  const VarDecl *V = AS ? namedVar(AS->getBase()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getType()->isArrayType())
    return nullptr;
  auto C = handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
  if (!C || *C == HandleClass::Request || *C == HandleClass::Win)
    return nullptr;
  if (Index)
    *Index = AS->getIdx();
  return V;
}

/// The argument of MPI call CE that is &a[k] of a local handle array, which
/// the call creates or frees; -1 if none.
int handleElementArg(const CallExpr *CE) {
  if (!isMPIFunctionName(calleeName(CE)))
    return -1;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (const VarDecl *V = handleArrayOf(CE->getArg(I))) {
      auto C = *handleClassOf(V->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString());
      HandleEvent::Kind K = handleAddressEvent(CE, I, C);
      if (K == HandleEvent::Create || K == HandleEvent::Free)
        return int(I);
    }
  return -1;
}

/// The argument of call CE in role R under its model M (null: none).
const Expr *argOf(const CallExpr *CE, const FunctionModel *M, Role R) {
  auto I = M ? M->find(R) : std::nullopt;
  return I && *I < CE->getNumArgs() ? CE->getArg(*I) : nullptr;
}

/// F and the functions of the file it calls, directly or through others.
std::set<const FunctionDecl *> reachable(const FunctionDecl *F) {
  std::set<const FunctionDecl *> Seen{F};
  std::vector<const FunctionDecl *> Work{F};
  while (!Work.empty()) {
    const FunctionDecl *G = Work.back();
    Work.pop_back();
    anyNode(G->getBody(), [&](const Stmt *N) {
      const auto *CE = dyn_cast<CallExpr>(N);
      const FunctionDecl *H = CE ? definedCallee(CE) : nullptr;
      if (H && Seen.insert(H).second)
        Work.push_back(H);
      return false;
    });
  }
  return Seen;
}

bool Relevance::collectives(const Stmt *S) {
  return S && anyNode(S, [&](const Stmt *N) {
           const auto *CE = dyn_cast<CallExpr>(N);
           if (!CE)
             return false;
           if (Handles ? handleElementArg(CE) >= 0
               : Split ? calleeName(CE) == mpi::MPI_Comm_split || isMessageCall(CE)
               : Rma   ? isOneSidedCall(CE)
                       : isCollectiveCall(CE) || (P2P && isMessageCall(CE)))
             return true;
           const FunctionDecl *F = definedCallee(CE);
           return F ? calls(F) : sequenceOf(CE) != nullptr;
         });
}

const std::vector<SequenceCall> *Relevance::sequenceOf(const CallExpr *CE) const {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!Program || !F || !F->getIdentifier() || definedCallee(CE))
    return nullptr;
  return Program->callSequence(F->getName());
}

bool Relevance::calls(const FunctionDecl *F) {
  auto [It, New] = Memo.try_emplace(F, false);
  if (New)
    It->second = collectives(F->getBody());
  return It->second;
}

/// The functions of the main file no other function of it calls and that
/// issue what Rel looks for.
std::vector<const FunctionDecl *> entries(ASTContext &Ctx, Relevance &Rel) {
  std::set<const FunctionDecl *> Called;
  std::vector<const FunctionDecl *> Fs;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *F = dyn_cast<FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody() ||
        !Ctx.getSourceManager().isInMainFile(Ctx.getSourceManager().getExpansionLoc(F->getBeginLoc())))
      continue;
    Fs.push_back(F);
    anyNode(F->getBody(), [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N))
        if (const FunctionDecl *G = definedCallee(CE))
          Called.insert(G);
      return false;
    });
  }
  std::vector<const FunctionDecl *> Out;
  for (const FunctionDecl *F : Fs)
    if (!Called.count(F) && Rel.collectives(F->getBody()))
      Out.push_back(F);
  return Out;
}

} // namespace ompi::ranks
