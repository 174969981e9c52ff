//===- Interpreter.cpp - One rank's run, statement by statement -----------===//
#include "analysis/ranks/Interpreter.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/OpenMP.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/OpenMPKinds.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi::ranks {

Flow RankRun::function(const FunctionDecl *F, std::map<const VarDecl *, std::optional<int64_t>> Args) {
  if (Frames.size() > 6 || llvm::any_of(Frames, [&](const Frame &Fr) { return Fr.F == F; }))
    throw Undecided{llvm::formatv("{0} is called recursively or too deeply", F->getName()).str()};
  Frames.push_back({F, std::move(Args), {}, {}});
  Flow R = exec(F->getBody());
  if (R == Flow::Jumped)
    throw Undecided{llvm::formatv("the goto to {0} jumps into a block", JumpTo->getName()).str()};
  if (R == Flow::Normal && Frames.size() == 1)
    EndLine = line(F->getBody()->getEndLoc());
  Frames.pop_back();
  return R == Flow::Returned ? Flow::Normal : R;
}

Flow RankRun::calls(const Stmt *S) {
  std::vector<const CallExpr *> Cs;
  anyNode(S, [&](const Stmt *N) {
    if (const auto *CE = dyn_cast<CallExpr>(N))
      Cs.push_back(CE);
    return false;
  });
  // Arguments run before the call: the innermost call first.
  for (auto It = Cs.rbegin(); It != Cs.rend(); ++It)
    if (Flow F = call(*It); F != Flow::Normal)
      return F;
  return Flow::Normal;
}

Flow RankRun::call(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  if (endsProcess(Name) || Name == "abort")
    return Flow::Aborted;
  if (Name == "exit" || Name == "_Exit") {
    auto Code = CE->getNumArgs() ? value(CE->getArg(0)) : std::nullopt;
    EndLine = line(CE->getBeginLoc());
    return Code && *Code == 0 ? Flow::Exited : Flow::Aborted;
  }
  if (Threads != 1 && Rel.collectives(CE))
    throw Undecided{llvm::formatv("{0} at line {1} may be called by {2} threads of an OpenMP region", Name,
                                  line(CE->getBeginLoc()), Threads ? std::to_string(Threads) : "several")
                        .str()};
  commCall(CE);
  if (Rel.Rma && (isOneSidedCall(CE) || isCollectiveCall(CE) || isMessageCall(CE))) {
    if (isOneSidedCall(CE))
      window(CE);
    else if (Name == mpi::MPI_Barrier)
      barrier(CE);
    return Flow::Normal; // the other calls are the other runs' business
  }
  if (Rel.Handles) {
    if (int I = handleElementArg(CE); I >= 0)
      handleElement(CE, unsigned(I));
    return Flow::Normal; // the other calls are the other runs' business
  }
  if (Rel.Split && isMPIFunctionName(Name)) {
    splitCall(CE);
    return Flow::Normal; // the other calls are the other runs' business
  }
  if (Rel.P2P && isMessageCall(CE)) {
    message(CE);
    return Flow::Normal;
  }
  if (isCollectiveCall(CE)) {
    record(CE);
    return Flow::Normal;
  }
  const FunctionDecl *F = definedCallee(CE);
  const std::vector<SequenceCall> *Seq = F ? nullptr : Rel.sequenceOf(CE);
  // Another file's sends and receives: the point-to-point runs match them,
  // the collective runs pass them by; the one-sided, split and handle runs
  // do not follow them (a message orders what those runs judge).
  if (Seq && (Rel.P2P || (!Rel.Rma && !Rel.Split && !Rel.Handles) ||
              llvm::none_of(*Seq, [](const SequenceCall &S) { return S.message(); }))) {
    for (const SequenceCall &S : *Seq)
      if (!S.message())
        recordSequence(CE, S);
      else if (Rel.P2P)
        recordSequenceMessage(CE, S);
    return Flow::Normal;
  }
  if (!F)
    if (std::optional<std::string> Why = unseenCallee(CE, Ev))
      throw Undecided{
          llvm::formatv("line {0} calls code the run cannot see: {1}", line(CE->getBeginLoc()), *Why).str()};
  if (!F || !Rel.collectives(F->getBody())) {
    if (F)
      unplacedBarriersIn(F->getBody());
    return Flow::Normal;
  }
  std::map<const VarDecl *, std::optional<int64_t>> Args;
  for (unsigned I = 0; I < CE->getNumArgs() && I < F->getNumParams(); ++I)
    if (F->getParamDecl(I)->getType()->isIntegralOrEnumerationType())
      Args[F->getParamDecl(I)] = value(CE->getArg(I));
  const Stmt *Saved = Cur;
  Cur = nullptr;
  if (Frames.size() == 1)
    Site = CE;
  Flow R = function(F, std::move(Args));
  Cur = Saved;
  return R;
}

Flow RankRun::exec(const Stmt *S) {
  if (!S)
    return Flow::Normal;
  if (++Steps > StepLimit)
    throw Undecided{"the run is too long to follow statement by statement"};
  Cur = S;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return block(llvm::ArrayRef<const Stmt *>(C->body_begin(), C->body_end()), 0);
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    for (const Decl *X : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(X); V && V->getType()->isIntegralOrEnumerationType()) {
        if (Rel.Rma)
          localAccesses(V->getInit());
        if (const Expr *Init = V->getInit())
          if (Flow F = calls(Init); F != Flow::Normal)
            return F;
        frame().Env[V] = V->getInit() ? value(V->getInit()) : std::nullopt;
        frame().Handles[V] = V->getInit() ? handle(V->getInit()) : std::nullopt;
        if (V->getInit()) // MPICH's handles are integers
          alias(V, V->getInit());
      } else if (V && V->getInit()) {
        if (Rel.Rma)
          localAccesses(V->getInit());
        if (Flow F = calls(V->getInit()); F != Flow::Normal)
          return F;
        frame().Handles[V] = handle(V->getInit());
        alias(V, V->getInit());
      }
    return Flow::Normal;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (Rel.Rma)
      localAccesses(E);
    Flow F = calls(E);
    effects(E);
    return F;
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return branch(If);
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return choose(Sw);
  if (const auto *SC = dyn_cast<SwitchCase>(S)) // a label reached by falling through
    return exec(SC->getSubStmt());
  if (const auto *Fo = dyn_cast<ForStmt>(S)) {
    if (Flow F = exec(Fo->getInit()); F != Flow::Normal)
      return F;
    return loop(Fo, Fo->getCond(), Fo->getBody(), Fo->getInc());
  }
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return loop(W, W->getCond(), W->getBody());
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    if (auto C = value(D->getCond()); C && !*C) { // do { ... } while (0): a block (macros)
      Flow F = exec(D->getBody());
      return F == Flow::Broke || F == Flow::Continued ? Flow::Normal : F;
    }
    return loop(D, D->getCond(), D->getBody());
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Flow F = R->getRetValue() ? calls(R->getRetValue()) : Flow::Normal;
    if (R->getRetValue() && Frames.size() > 1)
      frame().Ret = value(R->getRetValue());
    if (Frames.size() == 1)
      EndLine = line(R->getBeginLoc());
    return F == Flow::Normal ? Flow::Returned : F;
  }
  if (isa<BreakStmt>(S))
    return Flow::Broke;
  if (const auto *G = dyn_cast<GotoStmt>(S)) {
    JumpTo = G->getLabel();
    return Flow::Jumped;
  }
  if (isa<ContinueStmt>(S))
    return Flow::Continued;
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return exec(L->getSubStmt());
  if (isa<NullStmt>(S))
    return Flow::Normal;
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S); D && Rel.collectives(S))
    return omp(D);
  if (Rel.collectives(S) || anyNode(S, [](const Stmt *N) { return isa<ReturnStmt>(N) || isa<GotoStmt>(N); }))
    throw Undecided{
        llvm::formatv("the {0} at line {1} is not followed", S->getStmtClassName(), line(S->getBeginLoc())).str()};
  unplacedBarriersIn(S);
  forget(S);
  return Flow::Normal;
}

/// Env's entries that differ from (or are missing in) Arm become unknown;
/// whether any did.
template <typename Map> bool mergeInto(Map &Env, const Map &Arm) {
  bool Differ = false;
  for (auto &[V, X] : Arm)
    if (auto It = Env.find(V); It == Env.end() || It->second != X) {
      Differ = true;
      Env[V] = std::nullopt;
    }
  for (auto &[V, X] : Env)
    if (!Arm.count(V) && X) {
      Differ = true;
      X = std::nullopt;
    }
  return Differ;
}

Flow RankRun::branch(const IfStmt *If) {
  if (If->getInit() || If->getConditionVariable())
    throw Undecided{llvm::formatv("the if at line {0} declares a variable", line(If->getBeginLoc())).str()};
  if (Flow F = calls(If->getCond()); F != Flow::Normal)
    return F;
  bool MayFork = Frames.size() == 1 && LoopDepth == 0;
  if (auto C = value(If->getCond())) {
    if (Fixed && MayFork && !Uni.varies(If->getCond(), frame().F))
      Decided.insert(Ev.text(If->getCond()));
    return exec(*C ? If->getThen() : If->getElse());
  }
  bool Forkable = MayFork && !Uni.varies(If->getCond(), frame().F);
  std::string Text = Forkable ? Ev.text(If->getCond()) : "";
  // Without Fixed the run only notes that a job with choices would differ.
  auto fork = [&] {
    if (Fixed)
      throw NeedChoice{Text};
    if (WouldFork)
      *WouldFork = true;
  };
  if (Forkable && Fixed)
    if (auto It = Fixed->find(Text); It != Fixed->end()) {
      Chosen.emplace(Text, If->getCond());
      return exec(It->second ? If->getThen() : If->getElse());
    }
  // Undecided condition: both arms must issue the same collectives and end alike.
  auto SavedEvents = Events;
  auto SavedMessages = Messages;
  auto SavedFrames = Frames;
  Flow A = exec(If->getThen());
  const LabelDecl *JumpA = JumpTo;
  auto EventsA = Events;
  auto MessagesA = Messages;
  Events = SavedEvents;
  Messages = SavedMessages;
  auto FramesA = Frames;
  Frames = SavedFrames;
  Flow B = exec(If->getElse());
  // Which arm runs is not known: their loads and stores of window memory
  // are not kept.
  // In the one-sided runs the same goes for barriers, which leave a mark
  // that the run could not place one.
  bool Dropped = false;
  auto dropLocals = [&](std::vector<P2PEvent> &M) {
    auto Drop = [&](const P2PEvent &E) {
      bool Barrier = Rel.Rma && E.K == P2PEvent::Collective;
      Dropped |= Barrier;
      return E.K == P2PEvent::Local || Barrier;
    };
    M.erase(std::remove_if(M.begin() + SavedMessages.size(), M.end(), Drop), M.end());
  };
  dropLocals(MessagesA);
  dropLocals(Messages);
  if (Dropped) {
    unplacedBarrier();
    MessagesA.push_back(Messages.back());
  }
  bool Same = A == B && (A != Flow::Jumped || JumpA == JumpTo) && EventsA.size() == Events.size() &&
              MessagesA.size() == Messages.size();
  for (size_t I = 0; Same && I < Events.size(); ++I)
    Same = sameKey(EventsA[I].Key, Events[I].Key);
  for (size_t I = 0; Same && I < Messages.size(); ++I)
    Same = MessagesA[I].Call == Messages[I].Call;
  if (!Same && !(A == Flow::Aborted && B == Flow::Aborted)) {
    if (A == Flow::Aborted) // the ranks that take the aborting arm stop the job: follow the other
      return B;
    if (B == Flow::Aborted) {
      Events = EventsA;
      Messages = MessagesA;
      Frames = FramesA;
      JumpTo = JumpA;
      return A;
    }
    if (Forkable)
      fork();
    throw Undecided{llvm::formatv("the branch at line {0} is not decided by the rank and size, and its arms differ",
                                  line(If->getBeginLoc()))
                        .str()};
  }
  // Variables the arms set differently become unknown.
  bool Differ = mergeInto(frame().Env, FramesA.back().Env) | mergeInto(frame().Handles, FramesA.back().Handles) |
                mergeInto(frame().TypeOf, FramesA.back().TypeOf);
  if (Differ && Forkable && A != Flow::Aborted)
    fork();
  return A;
}

/// The index of the statement of Body that is Target, a label or a case
/// label, or holds it behind other labels (`a: case 1: ...`).
static std::optional<size_t> holding(llvm::ArrayRef<const Stmt *> Body, const Stmt *Target) {
  auto Inner = [](const Stmt *X) -> const Stmt * {
    if (const auto *L = dyn_cast<LabelStmt>(X))
      return L->getSubStmt();
    if (const auto *C = dyn_cast<SwitchCase>(X))
      return C->getSubStmt();
    return nullptr;
  };
  for (size_t J = 0; J < Body.size(); ++J)
    for (const Stmt *X = Body[J]; X; X = Inner(X))
      if (X == Target)
        return J;
  return std::nullopt;
}

/// Where the goto being run (JumpTo) lands in Body, if it does.
static std::optional<size_t> labelIn(llvm::ArrayRef<const Stmt *> Body, const LabelDecl *L) {
  return holding(Body, L->getStmt());
}

/// A switch on a value the run knows (the rank, the size, what follows
/// from them): from the case label that matches (or default) on, falling
/// through labels as C does, to the first break. Not followed: a label
/// nested inside another statement of the body (Duff's device), and a
/// switch on a value the run does not know whose body communicates.
Flow RankRun::choose(const SwitchStmt *Sw) {
  unsigned L = line(Sw->getBeginLoc());
  if (Sw->getInit() || Sw->getConditionVariable())
    throw Undecided{llvm::formatv("the switch at line {0} declares a variable", L).str()};
  if (Flow F = calls(Sw->getCond()); F != Flow::Normal)
    return F;
  std::optional<int64_t> C = value(Sw->getCond());
  if (!C) {
    if (Rel.collectives(Sw) || anyNode(Sw, [](const Stmt *N) { return isa<ReturnStmt, GotoStmt>(N); }))
      throw Undecided{llvm::formatv("the switch at line {0} is not decided by the rank and size", L).str()};
    forget(Sw);
    return Flow::Normal;
  }
  const SwitchCase *Target = nullptr, *Default = nullptr;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    const auto *CS = dyn_cast<CaseStmt>(SC);
    if (!CS) {
      Default = SC;
      continue;
    }
    int64_t Lo = CS->getLHS()->EvaluateKnownConstInt(Ctx).getExtValue();
    int64_t Hi = CS->getRHS() ? CS->getRHS()->EvaluateKnownConstInt(Ctx).getExtValue() : Lo; // case 1 ... 3:
    if (Lo <= *C && *C <= Hi)
      Target = CS;
  }
  if (!Target)
    Target = Default;
  if (!Target)
    return Flow::Normal;
  std::vector<const Stmt *> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(Sw->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Sw->getBody());
  std::optional<size_t> Start = holding(Body, Target);
  if (!Start)
    throw Undecided{llvm::formatv("the switch at line {0} jumps into a statement of its body", L).str()};
  Flow F = exec(Target);
  size_t Next = *Start + 1;
  if (std::optional<size_t> To = F == Flow::Jumped ? labelIn(Body, JumpTo) : std::nullopt) {
    JumpTo = nullptr; // a goto to a label of the body
    F = Flow::Normal;
    Next = *To;
  }
  if (F == Flow::Normal)
    F = block(Body, Next);
  return F == Flow::Broke ? Flow::Normal : F;
}

/// The statements of a block from From on. A goto to a label among them
/// (forward, or back: the step budget bounds a loop made of gotos) goes on
/// from the label; one to a label elsewhere leaves the block.
Flow RankRun::block(llvm::ArrayRef<const Stmt *> Body, size_t From) {
  for (size_t I = From; I < Body.size();) {
    Flow F = exec(Body[I]);
    if (F == Flow::Normal) {
      ++I;
      continue;
    }
    std::optional<size_t> To = F == Flow::Jumped ? labelIn(Body, JumpTo) : std::nullopt;
    if (!To)
      return F;
    JumpTo = nullptr;
    I = *To;
  }
  return Flow::Normal;
}

/// A loop run iteration by iteration (point-to-point runs: each message
/// counts), at most 64 times (4,096 in one-sided runs, whose events are
/// cheap to follow), its condition decided in each.
Flow RankRun::unroll(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  unsigned L = line(Loop->getBeginLoc());
  ++LoopDepth;
  auto Leave = llvm::make_scope_exit([&] { --LoopDepth; });
  for (int It = 0;; ++It) {
    // A do loop's condition is first tested after its body.
    std::optional<int64_t> C = !Cond || (isa<DoStmt>(Loop) && It == 0) ? std::optional<int64_t>(1) : value(Cond);
    if (It > (Rel.longRuns() ? 4096 : 64) || !C)
      throw Undecided{llvm::formatv("the loop at line {0} is not followed message by message", L).str()};
    if (!*C)
      return Flow::Normal;
    Flow F = exec(Body);
    if (F == Flow::Broke)
      return Flow::Normal;
    if (F != Flow::Normal && F != Flow::Continued)
      return F;
    if (Inc) {
      Cur = Inc;
      if (Flow G = calls(Inc); G != Flow::Normal)
        return G;
      effects(Inc);
    }
  }
}

Flow RankRun::loop(const Stmt *Loop, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
  if (!Rel.collectives(Loop)) {
    unplacedBarriersIn(Loop);
    forget(Loop);
    return Flow::Normal;
  }
  if (Rel.P2P || Rel.Rma || Rel.Split || Rel.Handles)
    return unroll(Loop, Cond, Body, Inc);
  // A loop whose condition the run decides on every iteration (at most 64)
  // is run iteration by iteration: ranks that run it a different number of
  // times issue different sequences.
  {
    auto SavedEvents = Events;
    auto SavedFrames = Frames;
    unsigned SavedSteps = Steps, SavedLimit = StepLimit;
    StepLimit = std::min(StepLimit, Steps + 2000); // a short try: long loops stay one block
    try {
      Flow F = unroll(Loop, Cond, Body, Inc);
      StepLimit = SavedLimit;
      return F;
    } catch (const Undecided &) {
      Events = std::move(SavedEvents);
      Frames = std::move(SavedFrames);
      Steps = SavedSteps;
      StepLimit = SavedLimit;
    }
  }
  if (Cond && Uni.varies(Cond, frame().F))
    throw Undecided{
        llvm::formatv("the condition of the loop at line {0} may differ between ranks", line(Loop->getBeginLoc()))
            .str()};
  forget(Loop);
  auto Saved = Events;
  Events.clear();
  ++LoopDepth;
  Flow F = exec(Body);
  --LoopDepth;
  if (F != Flow::Normal && F != Flow::Continued)
    throw Undecided{
        llvm::formatv("the loop at line {0} leaves early around collectives", line(Loop->getBeginLoc())).str()};
  std::string Key = "loop {";
  for (const CollectiveEvent &E : Events)
    Key += E.Key + "; ";
  Key += "}";
  Events = Saved;
  if (Frames.size() > 1)
    Events.push_back({Site, line(Loop->getBeginLoc()), line(Site->getBeginLoc()), Loop, Key, ""});
  else
    Events.push_back({Loop, line(Loop->getBeginLoc()), 0, Loop, Key, ""});
  forget(Loop);
  return Flow::Normal;
}

/// The threads of a parallel region: num_threads(N) with N constant (and
/// no if clause, which may make the team one thread), else 0 (not known).
static unsigned teamSize(ASTContext &Ctx, const OMPExecutableDirective *D) {
  std::optional<int64_t> N = ompNumThreads(Ctx, D);
  return D->getSingleClause<OMPIfClause>() || !N || *N < 1 ? 0 : unsigned(*N);
}

/// An OpenMP construct whose body communicates (the AST holds them when the
/// file is parsed with -fopenmp). A parallel region's body runs once per
/// thread, concurrently: the run goes through it once with Threads set to
/// the team's size, and a call the run records while more than one thread
/// may make it (directly in the region, in critical, in a worksharing loop)
/// leaves the function undecided (call()). master, masked and single run
/// once, by one thread; a sections construct runs each section once, by
/// one thread, and is followed where at most one of its sections
/// communicates (their order is not known); tasks, which may run later,
/// are not followed.
Flow RankRun::omp(const OMPExecutableDirective *D) {
  unsigned L = line(D->getBeginLoc());
  const Stmt *Body = ompBody(D);
  OpenMPDirectiveKind K = D->getDirectiveKind();
  auto once = [&](unsigned N, const Stmt *S) { // S run with Threads = N
    unsigned Saved = Threads;
    Threads = N;
    auto Restore = llvm::make_scope_exit([&] { Threads = Saved; });
    Flow F = exec(S);
    return F == Flow::Broke || F == Flow::Continued ? Flow::Normal : F;
  };
  if (!Body || isOpenMPTaskingDirective(K) || isOpenMPTargetExecutionDirective(K))
    throw Undecided{
        llvm::formatv("the OpenMP {0} construct at line {1} is not followed", llvm::omp::getOpenMPDirectiveName(K), L)
            .str()};
  unsigned Team = Threads;
  if (isOpenMPParallelDirective(K)) {
    if (Threads != 1)
      throw Undecided{llvm::formatv("the nested OpenMP parallel region at line {0} is not followed", L).str()};
    Team = teamSize(Ctx, D);
  }
  if (isa<OMPMasterDirective, OMPMaskedDirective, OMPSingleDirective, OMPParallelMasterDirective,
          OMPParallelMaskedDirective>(D))
    return once(1, Body);
  if (isa<OMPSectionsDirective, OMPParallelSectionsDirective>(D)) {
    const auto *CS = dyn_cast<CompoundStmt>(Body);
    unsigned Talking = 0;
    for (const Stmt *X : CS ? CS->body() : llvm::ArrayRef<Stmt *>())
      Talking += Rel.collectives(X);
    if (Talking > 1 && Team != 1)
      throw Undecided{llvm::formatv("more than one section of the OpenMP sections at line {0} communicates", L).str()};
    return once(Team, Body);
  }
  if (isa<OMPSectionDirective>(D))
    return once(1, Body);
  return once(Team, Body); // parallel, critical, a worksharing or simd loop: Team threads
}

} // namespace ompi::ranks
