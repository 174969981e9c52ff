//===- ThreadLevel.cpp - Check: thread-level ---------------------------------===//
//
// MPI calls in an OpenMP parallel region (parsed with -fopenmp) beyond the
// thread support the program asks for: main's MPI_Init asks for
// MPI_THREAD_SINGLE and MPI_Init_thread for its `required` level (spelled
// MPI_THREAD_*). Under SINGLE no other thread may run while MPI is used:
// any call in a region of more than one thread is a finding. Under
// FUNNELED only the main thread may call MPI: a call in a region outside
// `master` (or `masked` without a filter) is a finding. Under SERIALIZED
// no two threads may call MPI at once: a call outside master, masked,
// single, critical, ordered or a section is a finding, and one in a
// section when another section of the construct calls MPI too (sections
// run at the same time). Under MULTIPLE any thread may call MPI, but collectives on one
// communicator must be issued in the same order on every process, which
// threads of one region calling them concurrently cannot ensure: a
// collective outside those constructs is a finding. Silent: regions of one
// thread (num_threads(1)), calls in functions called from a region (not
// followed), a level the check cannot read, a file whose main does not
// start MPI. At every level, MPI_Finalize in a region outside master is a
// finding: the thread that initialized MPI must finalize it.
//
//===----------------------------------------------------------------------===//
#include "checks/ThreadRegions.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/OpenMP.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

/// The level E names: Open MPI's levels are enumerators, MPICH's macros
/// (through the user's own macros: -DLEVEL=MPI_THREAD_FUNNELED).
std::optional<ThreadLevel> spelledLevel(ASTContext &Ctx, const Expr *E) {
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    if (std::optional<ThreadLevel> L = threadLevelOf(D->getDecl()->getName()))
      return L;
    // const int required = MPI_THREAD_MULTIPLE;
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (V && V->getType().isConstQualified() && V->getInit())
      return spelledLevel(Ctx, V->getInit());
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation L = E->getBeginLoc(); L.isMacroID(); L = SM.getImmediateExpansionRange(L).getBegin())
    if (std::optional<ThreadLevel> Level = threadLevelOf(Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts())))
      return Level;
  return std::nullopt;
}

} // namespace

std::optional<Requested> requestedThreadLevel(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Call || !CR.Caller || !CR.Caller->isMain() || !CR.Model || CR.Model->Cat != Category::Environment)
      continue;
    if (CR.Function == mpi::MPI_Init)
      return Requested{ThreadLevel::Single, CR.Call};
    std::optional<unsigned> I = requiredThreadLevelArg(*CR.Model);
    if (!I || *I >= CR.Call->getNumArgs())
      continue;
    if (std::optional<ThreadLevel> L = spelledLevel(C.Ctx, CR.Call->getArg(*I)))
      return Requested{*L, CR.Call};
    return std::nullopt; // asked for a level the check cannot read
  }
  return std::nullopt;
}

namespace {

/// Whether more than one section of the sections construct around the
/// section Sec calls MPI: sections run at the same time, on their threads.
bool concurrentSections(ASTContext &Ctx, const Stmt *Sec) {
  for (const Stmt *X = parentStmt(Ctx, Sec); X; X = parentStmt(Ctx, X)) {
    if (!isa<OMPSectionsDirective, OMPParallelSectionsDirective>(X))
      continue;
    const Stmt *Body = ompBody(cast<OMPExecutableDirective>(X));
    unsigned Calling = 0;
    for (const Stmt *Child : Body ? subStmts(Body) : llvm::SmallVector<const Stmt *, 4>())
      Calling += anyNode(Child, [](const Stmt *N) {
        const auto *CE = dyn_cast<CallExpr>(N);
        const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
        return F && F->getIdentifier() && isMPIFunctionName(F->getName());
      });
    return Calling > 1;
  }
  return false;
}

} // namespace

Placement ompPlacement(ASTContext &Ctx, const Stmt *S) {
  Placement P;
  for (const Stmt *X = parentStmt(Ctx, S); X; X = parentStmt(Ctx, X)) {
    const auto *D = dyn_cast<OMPExecutableDirective>(X);
    if (!D)
      continue;
    OpenMPDirectiveKind K = D->getDirectiveKind();
    if (isa<OMPMasterDirective, OMPParallelMasterDirective>(D) ||
        (isa<OMPMaskedDirective, OMPParallelMaskedDirective>(D) && !D->getSingleClause<OMPFilterClause>()))
      P.MainThread = P.OneAtATime = true;
    else if (isa<OMPSingleDirective, OMPCriticalDirective, OMPOrderedDirective>(D) ||
             (isa<OMPSectionDirective>(D) && !concurrentSections(Ctx, D)))
      P.OneAtATime = true;
    if (isOpenMPParallelDirective(K)) {
      P.Region = D;
      return P;
    }
  }
  return P;
}

void checkThreadLevel(CheckContext &C) {
  std::optional<Requested> Req = requestedThreadLevel(C);
  if (!Req)
    return;
  const SourceManager &SM = C.Ctx.getSourceManager();
  unsigned AskedAt = SM.getExpansionLineNumber(Req->At->getBeginLoc());
  llvm::StringRef Level = threadLevelName(Req->Level);
  for (const CallResult &CR : C.Analysis.Calls) {
    bool Finalize = finalizesMPI(CR.Function);
    if (!CR.Call || !CR.Model ||
        (!Finalize && (CR.Model->Cat == Category::Environment || CR.Model->Cat == Category::Query)))
      continue;
    Placement P = ompPlacement(C.Ctx, CR.Call);
    if (!P.Region || ompNumThreads(C.Ctx, P.Region) == 1) // a region of one thread
      continue;
    unsigned RegionLine = SM.getExpansionLineNumber(P.Region->getBeginLoc());
    std::string Why;
    if (Finalize && !P.MainThread)
      Why = llvm::formatv("{0} may be called by a thread of the OpenMP parallel region at line {1} other than the "
                          "main one: MPI must be finalized by the thread that initialized it (line {2}), once "
                          "(call it after the region, or in '#pragma omp master')",
                          CR.Function, RegionLine, AskedAt);
    else if (Req->Level == ThreadLevel::Single)
      Why = llvm::formatv("{0} is called in the OpenMP parallel region at line {1}, but the program asks for {2} "
                          "(line {3}): no other thread may run while MPI is used (ask for MPI_THREAD_FUNNELED to "
                          "call MPI from '#pragma omp master', or a higher level)",
                          CR.Function, RegionLine, Level, AskedAt);
    else if (Req->Level == ThreadLevel::Funneled && !P.MainThread)
      Why = llvm::formatv("{0} may be called by any thread of the OpenMP parallel region at line {1}, but the "
                          "program asks for {2} (line {3}): only the main thread may call MPI (call it in "
                          "'#pragma omp master', or ask for a higher level)",
                          CR.Function, RegionLine, Level, AskedAt);
    else if (Req->Level == ThreadLevel::Serialized && !P.OneAtATime)
      Why = llvm::formatv("{0} may be called by several threads of the OpenMP parallel region at line {1} at "
                          "once, but the program asks for {2} (line {3}): no two threads may call MPI at the "
                          "same time (call it in master, single or critical, or ask for MPI_THREAD_MULTIPLE)",
                          CR.Function, RegionLine, Level, AskedAt);
    else if (Req->Level == ThreadLevel::Multiple && !P.OneAtATime && CR.Model->isCollective())
      Why = llvm::formatv("{0} may be called by several threads of the OpenMP parallel region at line {1} at "
                          "once: collectives on one communicator must be called in the same order on every "
                          "process, which concurrent threads do not ensure (call it in master or single)",
                          CR.Function, RegionLine);
    if (!Why.empty())
      if (Finding *F = C.report("thread-level", CR.Call->getBeginLoc(), Why); F && Req->Level != ThreadLevel::Multiple)
        C.note(*F, Req->At->getBeginLoc(), llvm::formatv("the program asks for {0} here", Level));
  }
}

} // namespace ompi
