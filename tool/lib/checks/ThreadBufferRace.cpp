//===- ThreadBufferRace.cpp - Check: thread-buffer-race ----------------------===//
//
// A data race between the threads of an OpenMP parallel region (parsed with
// -fopenmp) on a buffer an MPI call reads or writes: the call's buffer is
// memory the threads share, and another thread may write it (a store, a
// function given a pointer to it that is not const, another MPI call that
// receives into it) or, where the call writes it, use it, at the same time.
// Two accesses of a region run at the same time when no barrier lies between
// them (an explicit one, or the end of single, for or sections without
// nowait) and different threads may run them: code every thread runs beside
// anything, different sections of one sections construct, a task beside the
// code around it (no depend clause), master beside single or a section;
// not two accesses of one master, single, section or task block, nor two
// critical sections of one name. The same call run by every thread is a race
// with itself when it writes memory whose address does not depend on the
// thread (omp_get_thread_num(), a variable of the region, a worksharing
// loop's counter). Silent: regions of one thread, a barrier inside a loop or
// branch of the region (the phases are not followed), accesses in functions
// the region calls, byte ranges known to be disjoint.
//
// Handles the threads share race the same way: an MPI call that frees or
// sets one (passed by address, or MPI_Info_set's info) beside another
// thread's call that names it, or run by every thread into one variable.
//
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/OpenMP.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;

namespace ompi {

namespace {

/// The variable whose memory an address or lvalue reaches: x, &x, a[i],
/// &a[i], p, p[i], *p, p + k, s.f (through casts).
const VarDecl *baseVar(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
      E = U->getSubExpr();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
      E = M->getBase();
    else if (const auto *B = dyn_cast<BinaryOperator>(E);
             B && B->isAdditiveOp() && B->getLHS()->getType()->isPointerType())
      E = B->getLHS();
    else
      return nullptr;
  }
  return nullptr;
}

/// Who runs an access: every thread, or the one thread of a master,
/// single, section or task block (Block).
enum class Runner { All, Master, Single, Section, Task };

struct Access {
  const Expr *At = nullptr;
  const VarDecl *V = nullptr;
  bool Write = false;
  const CallExpr *MPI = nullptr; ///< the MPI call whose buffer it is; null for the program's own access
  std::string What;              ///< "MPI_Send", "a store", "fill(...)"
  Runner By = Runner::All;
  const Stmt *Block = nullptr;     ///< the master, single, section or task block
  const Stmt *Construct = nullptr; ///< a section's sections construct
  const Stmt *Critical = nullptr;  ///< the critical directive around it
  std::string CriticalName;
  bool Depend = false; ///< in a task with a depend clause
  /// A handle variable an MPI call names (by value: a use; by address: the
  /// call creates, frees or sets it), not a buffer.
  bool Handle = false;
  bool ThreadDependent = false; ///< its address depends on the thread
  /// An RMA call's access of its target's window V: its target rank and
  /// displacement as written ("" for a buffer).
  std::string Target;
  int Phase = 0;
  /// The conditions around it within the region that compare a variable
  /// with a constant: (v, k, whether v == k holds there).
  std::vector<std::tuple<const VarDecl *, int64_t, bool>> Facts;
};

/// Whether the conditions around two accesses cannot both hold (rank == 0
/// around one, rank == 1 around the other: the two never run in one
/// process). The variables are shared and their comparisons evaluate
/// alike on every thread.
bool exclusive(const Access &A, const Access &B) {
  for (auto &[V, K, Eq] : A.Facts)
    for (auto &[W, L, Eq2] : B.Facts)
      if (V == W && ((Eq && Eq2 && K != L) || (Eq != Eq2 && K == L)))
        return true;
  return false;
}

class RegionWalk {
public:
  RegionWalk(ASTContext &Ctx, const OMPExecutableDirective *Region) : Ctx(Ctx), Region(Region) {
    if (const Stmt *Body = ompBody(Region))
      Range = Body->getSourceRange();
  }
  std::vector<Access> Accesses;
  bool Unsupported = false;

  void walk(const Stmt *S, Access Where, bool InLoop) {
    if (!S || Unsupported)
      return;
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      directive(D, Where, InLoop);
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      expression(E, Where);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *X : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(X); V && V->getInit())
          expression(V->getInit(), Where);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getCond(), Where, InLoop);
      auto Fact = comparison(If->getCond());
      for (bool Then : {true, false}) {
        Access In = Where;
        if (Fact)
          In.Facts.push_back({std::get<0>(*Fact), std::get<1>(*Fact), std::get<2>(*Fact) == Then});
        walk(Then ? If->getThen() : If->getElse(), In, true);
      }
      return;
    }
    bool Loop = isa<ForStmt, WhileStmt, DoStmt, SwitchStmt>(S);
    for (const Stmt *C : S->children())
      walk(C, Where, InLoop || Loop);
  }

private:
  ASTContext &Ctx;
  const OMPExecutableDirective *Region;
  SourceRange Range;
  int Phase = 0;

  bool inRegion(const VarDecl *V) const {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation L = V->getLocation();
    return Range.isValid() && !SM.isBeforeInTranslationUnit(L, Range.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Range.getEnd(), L);
  }

  /// Whether a variable is private to each thread: declared in the region
  /// (not static), or named by a private, firstprivate, lastprivate,
  /// reduction or linear clause of the region or a construct in it.
  bool isPrivate(const VarDecl *V) const {
    if (inRegion(V))
      return !V->isStaticLocal();
    return Private.count(V);
  }
  std::set<const VarDecl *> Private;

  void privates(const OMPExecutableDirective *D) {
    auto add = [&](auto Vars) {
      for (const Expr *E : Vars)
        if (const VarDecl *V = namedVar(E))
          Private.insert(V);
    };
    for (const auto *C : D->getClausesOfKind<OMPPrivateClause>())
      add(C->varlists());
    for (const auto *C : D->getClausesOfKind<OMPFirstprivateClause>())
      add(C->varlists());
    for (const auto *C : D->getClausesOfKind<OMPLastprivateClause>())
      add(C->varlists());
    for (const auto *C : D->getClausesOfKind<OMPReductionClause>())
      add(C->varlists());
    for (const auto *C : D->getClausesOfKind<OMPLinearClause>())
      add(C->varlists());
  }

public:
  void start() {
    privates(Region);
    if (const auto *L = dyn_cast<OMPLoopDirective>(Region)) // parallel for: its counters are the threads' own
      for (const Expr *C : L->counters())
        if (const VarDecl *V = namedVar(C))
          Private.insert(V);
    Access Where;
    if (isa<OMPParallelSectionsDirective>(Region)) {
      sections(Region, Where, false);
      return;
    }
    if (isa<OMPParallelMasterDirective, OMPParallelMaskedDirective>(Region))
      Where.By = Runner::Master, Where.Block = Region;
    walk(ompBody(Region), Where, false);
  }

private:
  void directive(const OMPExecutableDirective *D, Access Where, bool InLoop) {
    privates(D);
    if (isa<OMPBarrierDirective, OMPTaskwaitDirective>(D)) {
      if (InLoop)
        Unsupported = true; // phases inside a loop or branch are not followed
      ++Phase;
      return;
    }
    if (isOpenMPParallelDirective(D->getDirectiveKind()) || isa<OMPAtomicDirective>(D))
      return; // a nested region (its own walk); atomic accesses are the program's business
    const Stmt *Body = ompBody(D);
    bool Nowait = D->getSingleClause<OMPNowaitClause>() != nullptr;
    if (isa<OMPMasterDirective>(D) || (isa<OMPMaskedDirective>(D) && !D->getSingleClause<OMPFilterClause>())) {
      Where.By = Runner::Master, Where.Block = D;
    } else if (isa<OMPMaskedDirective>(D)) {
      Where.By = Runner::Single, Where.Block = D; // one thread, which the filter names
    } else if (isa<OMPSingleDirective>(D)) {
      Where.By = Runner::Single, Where.Block = D;
    } else if (isa<OMPTaskDirective>(D)) {
      Where.By = Runner::Task, Where.Block = D;
      Where.Depend = !D->getClausesOfKind<OMPDependClause>().empty();
    } else if (const auto *C = dyn_cast<OMPCriticalDirective>(D)) {
      Where.Critical = D;
      Where.CriticalName = C->getDirectiveName().getAsString();
    } else if (isa<OMPSectionsDirective>(D)) {
      sections(D, Where, InLoop);
      return;
    } else if (const auto *L = dyn_cast<OMPLoopDirective>(D)) {
      for (const Expr *C : L->counters())
        if (const VarDecl *V = namedVar(C))
          Private.insert(V);
    } else if (!isa<OMPOrderedDirective, OMPSectionDirective>(D)) {
      Unsupported = true; // a construct the walk does not model
      return;
    }
    walk(Body, Where, InLoop);
    if ((isa<OMPSingleDirective>(D) || isa<OMPLoopDirective>(D)) && !Nowait)
      endOfConstruct(InLoop);
  }

  /// The sections of a sections construct: each run by one thread, at the
  /// same time as the others; a barrier at the end unless nowait.
  void sections(const OMPExecutableDirective *D, const Access &Where, bool InLoop) {
    const Stmt *Body = ompBody(D);
    for (const Stmt *Sec : Body ? subStmts(Body) : llvm::SmallVector<const Stmt *, 4>()) {
      Access In = Where;
      In.By = Runner::Section, In.Block = Sec, In.Construct = D;
      if (const auto *SD = dyn_cast<OMPSectionDirective>(Sec))
        walk(ompBody(SD), In, InLoop);
      else
        walk(Sec, In, InLoop);
    }
    if (!D->getSingleClause<OMPNowaitClause>())
      endOfConstruct(InLoop);
  }

  void endOfConstruct(bool InLoop) {
    if (InLoop)
      Unsupported = true;
    ++Phase;
  }

  /// v == k or v != k (k a constant, v a variable the region does not
  /// assign): (v, k, whether the condition is v == k).
  std::optional<std::tuple<const VarDecl *, int64_t, bool>> comparison(const Expr *C) const {
    const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParenImpCasts());
    if (!B || !B->isEqualityOp())
      return std::nullopt;
    const Expr *L = B->getLHS(), *R = B->getRHS();
    Expr::EvalResult K;
    if (!R->EvaluateAsInt(K, Ctx))
      std::swap(L, R);
    const VarDecl *V = namedVar(L);
    if (!V || !R->EvaluateAsInt(K, Ctx) || isPrivate(V) || assignedInRegion(V))
      return std::nullopt;
    return std::make_tuple(V, K.Val.getInt().getSExtValue(), B->getOpcode() == BO_EQ);
  }

  bool assignedInRegion(const VarDecl *V) const {
    return anyNode(ompBody(Region), [&](const Stmt *N) {
      const Expr *Set = nullptr;
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
        Set = B->getLHS();
      else if (const auto *U = dyn_cast<UnaryOperator>(N);
               U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
        Set = U->getSubExpr();
      return Set && namedVar(Set) == V;
    });
  }

  /// Whether E's value depends on the thread that evaluates it.
  bool threadDependent(const Expr *E) const {
    return anyNode(E, [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N))
        if (const FunctionDecl *F = CE->getDirectCallee();
            F && F->getIdentifier() && F->getName() == "omp_get_thread_num")
          return true;
      const auto *D = dyn_cast<DeclRefExpr>(N);
      const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      return V && isPrivate(V);
    });
  }

  void add(const Expr *Addr, const Expr *At, bool Write, const CallExpr *MPI, std::string What, const Access &Where) {
    const VarDecl *V = baseVar(Addr);
    if (!V || isPrivate(V) || V->getTLSKind() != VarDecl::TLS_None)
      return;
    // A store to a pointer variable itself is not one to the memory it points to.
    if (!MPI && !isa<CallExpr>(At) && V->getType()->isPointerType() && namedVar(Addr) == V)
      return;
    Access A = Where;
    A.At = At, A.V = V, A.Write = Write, A.MPI = MPI, A.What = std::move(What), A.Phase = Phase;
    A.ThreadDependent = threadDependent(Addr);
    Accesses.push_back(A);
  }

  void expression(const Expr *E, const Access &Where) {
    anyNode(E, [&](const Stmt *N) {
      if (const auto *CE = dyn_cast<CallExpr>(N)) {
        call(CE, Where);
        return false;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
        add(B->getLHS(), B, true, nullptr, "a store", Where);
      else if (const auto *U = dyn_cast<UnaryOperator>(N); U && U->isIncrementDecrementOp())
        add(U->getSubExpr(), U, true, nullptr, "a store", Where);
      return false;
    });
  }

  /// MPI_Put and MPI_Get (and their request forms) reach their target's
  /// window at a rank and displacement; accumulates are atomic with respect
  /// to each other (rma-conflict judges their datatypes and ops).
  void rmaTarget(const CallExpr *CE, const FunctionModel &M, const Access &Where) {
    llvm::StringRef Fn = M.Name;
    bool Put = Fn == mpi::MPI_Put || Fn == mpi::MPI_Rput, Get = Fn == mpi::MPI_Get || Fn == mpi::MPI_Rget;
    std::optional<unsigned> W = M.find(Role::Win), R = M.find(Role::Dest), D = M.find(Role::TargetDisp);
    if (!(Put || Get) || !W || !R || !D || std::max({*W, *R, *D}) >= CE->getNumArgs())
      return;
    const VarDecl *WV = namedVar(CE->getArg(*W));
    if (!WV)
      return;
    Access A = Where;
    A.At = CE, A.V = WV, A.Write = Put, A.MPI = CE, A.What = Fn.str(), A.Phase = Phase;
    A.Target = "rank " + text(CE->getArg(*R)) + ", displacement " + text(CE->getArg(*D));
    A.ThreadDependent = threadDependent(CE->getArg(*R)) || threadDependent(CE->getArg(*D));
    Accesses.push_back(A);
  }

  std::string text(const Expr *E) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                                Ctx.getLangOpts())
        .str();
  }

  /// The handle class of a parameter type, and whether the parameter is a
  /// pointer to a handle.
  static std::optional<std::pair<HandleClass, bool>> handleParam(QualType T) {
    // The handle itself first: Open MPI's MPI_Comm is itself a pointer.
    if (auto C = handleClassOfType(T))
      return std::make_pair(*C, false);
    if (T->isPointerType())
      if (auto C = handleClassOfType(T->getPointeeType()))
        return std::make_pair(*C, true);
    return std::nullopt;
  }

  /// The handles an MPI call names: a use where passed by value (a set for
  /// MPI_Info_set's info), a write where passed by address (the call
  /// creates, frees, completes or sets it). Returns the arguments taken.
  std::set<unsigned> handles(const CallExpr *CE, const FunctionDecl *F, const Access &Where) {
    std::set<unsigned> Taken;
    for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
      auto H = handleParam(F->getParamDecl(I)->getType());
      if (!H)
        continue;
      Taken.insert(I);
      if (anyNode(CE->getArg(I), [&](const Stmt *N) {
            const auto *D = dyn_cast<DeclRefExpr>(N);
            return D && isPredefinedHandleObject(D, Ctx.getSourceManager(), Ctx.getLangOpts());
          }))
        continue; // MPI_COMM_WORLD as Open MPI spells it: &ompi_mpi_comm_world
      bool Write = H->second || (H->first == HandleClass::Info && infoSetArgs(F->getName()));
      size_t Before = Accesses.size();
      add(CE->getArg(I), CE, Write, CE, F->getName().str(), Where);
      if (Accesses.size() > Before)
        Accesses.back().Handle = true;
    }
    return Taken;
  }

  void call(const CallExpr *CE, const Access &Where) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier())
      return;
    bool MPI = isMPIFunctionName(F->getName());
    std::set<unsigned> Taken;
    if (MPI)
      Taken = handles(CE, F, Where);
    if (const FunctionModel *M = MPI ? lookupFunction(F->getName()) : nullptr) {
      for (unsigned I = 0; I < M->Args.size() && I < CE->getNumArgs(); ++I) {
        Role R = M->Args[I].R;
        if (R == Role::SendBuf || R == Role::RecvBuf || R == Role::Buf)
          add(CE->getArg(I), CE, R != Role::SendBuf, CE, F->getName().str(), Where);
      }
      rmaTarget(CE, *M, Where);
      return;
    }
    // Another function given a pointer to memory it may write (not const).
    for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I) {
      QualType T = F->getParamDecl(I)->getType();
      if (T->isPointerType() && !T->getPointeeType().isConstQualified() && !Taken.count(I))
        add(CE->getArg(I), CE, true, nullptr, F->getName().str() + "()", Where);
    }
  }
};

/// Why two accesses of one phase may run at the same time on different
/// threads ("" when they may not).
std::string concurrent(const Access &A, const Access &B) {
  if (A.Phase != B.Phase)
    return "";
  if ((A.Critical && B.Critical && A.CriticalName == B.CriticalName) || exclusive(A, B))
    return "";
  if (&A == &B)
    return A.By == Runner::All && !A.ThreadDependent ? "every thread of the region runs it" : "";
  if ((A.By == Runner::Task && A.Depend) || (B.By == Runner::Task && B.Depend))
    return ""; // depend clauses may order them
  if (A.By == Runner::All && B.By == Runner::All && A.ThreadDependent && B.ThreadDependent)
    return ""; // each thread its own part (&buf[omp_get_thread_num() * n])
  if (A.By == Runner::All || B.By == Runner::All)
    return "every thread of the region runs one of them";
  if (A.Block == B.Block || (A.By == Runner::Master && B.By == Runner::Master))
    return ""; // one thread runs both, in order
  if (A.By == Runner::Section && B.By == Runner::Section)
    return A.Construct == B.Construct ? "they are in different sections of one sections construct" : "";
  if (A.By == Runner::Task || B.By == Runner::Task)
    return "a task runs one of them, which may run while its creator goes on (no depend clause, taskwait or "
           "barrier between them)";
  return "they are in blocks that different threads may run (no barrier between them)";
}

/// The finding for two RMA calls (or one run by every thread) that reach
/// the same bytes of a target's window, one of them writing.
std::string targetMessage(const Access &A, const Access &B, const std::string &Why, unsigned Line,
                          unsigned RegionLine) {
  const char *Tail = "conflicting accesses to a window location are erroneous (the value there is undefined)";
  if (&A == &B)
    return llvm::formatv("every thread of the OpenMP parallel region at line {0} runs this {1}, which writes the "
                         "same bytes of window '{2}' ({3}) on each thread at the same time: {4}",
                         RegionLine, A.What, A.V->getName(), A.Target, Tail)
        .str();
  return llvm::formatv("this {0} {1} the bytes of window '{2}' ({3}) that {4} (line {5}) {6} on another thread: {7} "
                       "in the OpenMP parallel region at line {8}, and nothing orders them; {9}",
                       A.What, A.Write ? "writes" : "reads", A.V->getName(), A.Target, B.What, Line,
                       B.Write ? "writes" : "reads", Why, RegionLine, Tail)
      .str();
}

/// How a call treats the handle it names: "frees", "sets" or "uses".
std::string handleVerb(const Access &A) {
  if (!A.Write)
    return "uses";
  return llvm::StringRef(A.What).ends_with("_free") ? "frees" : "sets";
}

/// The finding for two calls of which one frees or sets a handle the other
/// names (or one run by every thread that sets it).
std::string handleMessage(const Access &A, const Access &B, const std::string &Why, unsigned Line,
                          unsigned RegionLine) {
  if (&A == &B)
    return llvm::formatv("every thread of the OpenMP parallel region at line {0} runs this {1}, which {2} the handle "
                         "'{3}' that the threads share: the threads' calls write it at the same time",
                         RegionLine, A.What, handleVerb(A), A.V->getName())
        .str();
  return llvm::formatv("this {0} {1} the handle '{2}' while {3} (line {4}) {5} it on another thread: {6} in the "
                       "OpenMP parallel region at line {7}, and nothing orders them; no thread may free or set a "
                       "handle while another thread's MPI call uses it",
                       A.What, handleVerb(A), A.V->getName(), B.What, Line, handleVerb(B), Why, RegionLine)
      .str();
}

} // namespace

void checkThreadBufferRace(CheckContext &C) {
  const SourceManager &SM = C.Ctx.getSourceManager();
  std::set<const CallExpr *> Reported;
  for (const FunctionDecl *F : C.functionsWithCalls()) {
    anyNode(F->getBody(), [&](const Stmt *N) {
      const auto *D = dyn_cast<OMPExecutableDirective>(N);
      if (!D || !isOpenMPParallelDirective(D->getDirectiveKind()) || ompNumThreads(C.Ctx, D) == 1)
        return false;
      RegionWalk W(C.Ctx, D);
      W.start();
      if (W.Unsupported)
        return false;
      unsigned RegionLine = SM.getExpansionLineNumber(D->getBeginLoc());
      std::set<const VarDecl *> RacedHandles;
      for (const Access &A : W.Accesses) {
        if (!A.MPI || Reported.count(A.MPI) || (A.Handle && RacedHandles.count(A.V)))
          continue;
        for (const Access &B : W.Accesses) {
          if (B.V != A.V || B.Target != A.Target || !(A.Write || B.Write) || (&B != &A && B.MPI == A.MPI))
            continue;
          std::string Why = concurrent(A, B);
          if (Why.empty())
            continue;
          unsigned Line = SM.getExpansionLineNumber(B.At->getBeginLoc());
          std::string Msg;
          if (!A.Target.empty())
            Msg = targetMessage(A, B, Why, Line, RegionLine);
          else if (A.Handle || B.Handle)
            Msg = handleMessage(A, B, Why, Line, RegionLine);
          else if (&A == &B)
            Msg = llvm::formatv("every thread of the OpenMP parallel region at line {0} runs this {1}, which writes "
                                "'{2}' at an address that does not depend on the thread: the threads' calls write "
                                "the same memory at the same time",
                                RegionLine, A.What, A.V->getName())
                      .str();
          else
            Msg = llvm::formatv("this {0} {1} '{2}' while {3} (line {4}) {5} it on another thread: {6} in the OpenMP "
                                "parallel region at line {7}, and nothing orders them; no other thread may change "
                                "the buffer of an MPI call while the call uses it, nor use it while the call writes it",
                                A.What, A.Write ? "writes" : "reads", A.V->getName(), B.What, Line,
                                B.Write ? "writes" : "reads", Why, RegionLine)
                      .str();
          Finding *Fd = C.report("thread-buffer-race", A.MPI->getBeginLoc(), Msg);
          if (Fd && &A != &B)
            C.note(*Fd, B.At->getBeginLoc(), llvm::formatv("{0} on another thread", B.What).str());
          Reported.insert(A.MPI);
          if (A.Handle)
            RacedHandles.insert(A.V); // one finding per handle and region: the first call, naming the other
          break;
        }
      }
      return false;
    });
  }
}

} // namespace ompi
