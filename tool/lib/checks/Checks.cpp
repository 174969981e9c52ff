//===- Checks.cpp - The registry of lint checks ---------------------------===//
#include "checks/Checks.h"
#include "checks/Selection.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <set>

using namespace clang;

namespace ompi {

// One line per check: name, kind, summary, the function that runs it.
static const CheckInfo Registry[] = {
    {"fusable-reductions", "optimisation", "independent reductions that static fusion merges into one collective",
     checkFusableReductions},
    {"deferrable-reductions", "optimisation", "reductions whose results wait: the lazy runtime can fuse them",
     checkDeferrableReductions},
    {"persistent-candidate", "optimisation",
     "point-to-point calls in loops with loop-invariant arguments: persistent requests", checkPersistentCandidates},
    {"alltoallv-plan", "optimisation",
     "MPI_Alltoallv or MPI_Allgatherv in a loop whose counts and displacements do not change", checkAlltoallvPlans},
    {"type-mismatch", "correctness", "buffer element type differs from the MPI datatype", checkTypeMismatch},
    {"count-overflow", "correctness", "count x datatype size exceeds a statically sized buffer", checkCountOverflow},
    {"pointer-to-pointer", "correctness", "a pointer to a pointer passed as the buffer", checkPointerToPointer},
    {"request-never-completed", "correctness", "a nonblocking call's request is never waited, tested or freed",
     checkRequestNeverCompleted},
    {"request-overwritten", "correctness", "a request is reused before the operation it holds completes",
     checkRequestOverwritten},
    {"wait-without-start", "correctness", "a wait or test on a request no nonblocking call started",
     checkWaitWithoutStart},
    {"recv-buffer-in-use", "correctness", "a nonblocking receive's buffer is used before the receive completes",
     checkRecvBufferInUse},
    {"collective-sequence", "correctness",
     "ranks that issue different collectives, or pass different roots, ops or counts, on one communicator",
     checkCollectiveSequences},
    {"rank-dependent-collective", "correctness", "a collective reached only by the ranks a condition selects",
     checkRankDependentCollectives},
    {"invalid-argument", "correctness", "an argument no MPI accepts (null handles, negative counts, tags, ranks)",
     checkInvalidArguments},
    {"unmatched-p2p", "correctness", "a send whose static tag no receive of the program accepts", checkUnmatchedP2P},
    {"handle-lifecycle", "correctness",
     "a handle used after it is freed, an uncommitted datatype in communication, a live handle overwritten",
     checkHandleLifecycle},
    {"handle-leak", "correctness", "a handle created in a function, never freed and never leaving it",
     checkHandleLeaks},
    {"persistent-request", "correctness", "a start of an active persistent request, a wait on one never started",
     checkPersistentRequests},
    {"rma-epoch", "correctness",
     "one-sided calls outside an access epoch, locks inside a fence epoch or on a target already locked",
     checkRmaEpochs},
    {"rma-buffer-in-use", "correctness", "an RMA origin buffer used before the epoch that completes it ends",
     checkRmaBufferInUse},
    {"rma-conflict", "correctness",
     "RMA calls (or a rank's loads and stores of its own window memory) of one epoch that reach the same window bytes "
     "where one of them writes, or accumulates of different datatypes or ops",
     checkRmaConflicts},
    {"portability-type-size", "portability",
     "a buffer type that differs from its datatype's but has the same size here (long and MPI_LONG_LONG on LP64)",
     checkPortabilityTypeSize},
    {"portability-unsafe-buffering", "portability",
     "an exchange that completes only because MPI buffers standard sends (both ranks send first)",
     checkUnsafeBuffering},
    {"portability-unchecked-thread-level", "portability",
     "a thread level asked of MPI_Init_thread that threads of an OpenMP region rely on and the program never checks",
     checkUncheckedThreadLevel},
    {"send-buffer-in-use", "correctness", "a nonblocking send's buffer written before the send completes",
     checkSendBufferInUse},
    {"message-matching", "correctness",
     "point-to-point calls matched rank by rank: deadlocks, receives never sent, type or length mismatches",
     checkMessageMatching},
    {"message-race", "correctness",
     "a wildcard receive whose value the next one overwrites unread: what it holds depends on message order",
     checkMessageRace},
    {"missing-finalize", "correctness", "main starts MPI but no MPI_Finalize follows", checkMissingFinalize},
    {"struct-datatype", "correctness",
     "an MPI_Type_create_struct datatype whose blocks do not match the struct it sends", checkStructDatatypes},
    {"thread-level", "correctness",
     "MPI calls that threads of an OpenMP region may make beyond the thread support the program asks for",
     checkThreadLevel},
    {"thread-buffer-race", "correctness",
     "a buffer or handle an MPI call uses that another thread of an OpenMP region may change or use at the same time",
     checkThreadBufferRace},
    {"thread-private-uninitialized", "correctness",
     "an MPI call that sends an OpenMP private copy before the thread has given it a value",
     checkThreadPrivateUninitialized},
};

llvm::ArrayRef<CheckInfo> checks() { return Registry; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &K : Registry)
    if (Name == K.Name)
      return &K;
  return nullptr;
}

std::vector<const FunctionDecl *> CheckContext::functionsWithCalls() const {
  std::vector<const FunctionDecl *> Fs;
  for (const CallResult &C : Analysis.Calls)
    if (C.Caller && C.Caller->hasBody() && !llvm::is_contained(Fs, C.Caller))
      Fs.push_back(C.Caller);
  return Fs;
}

const std::vector<SequenceResult> &CheckContext::sequences() {
  if (!Sequences)
    Sequences = collectiveSequences(Ctx, Ev, Uni);
  return *Sequences;
}

const std::vector<P2PTraces> &CheckContext::p2p() {
  if (!P2P)
    P2P = p2pTraces(Ctx, Ev, Uni);
  return *P2P;
}

bool CheckContext::sequencesAgree(const FunctionDecl *F) {
  if (!Agreeing) {
    // A function agrees when every entry reaching it was followed to its end
    // and found no divergence.
    Agreeing.emplace();
    for (const SequenceResult &R : sequences()) {
      bool Ok = R.Decided && !R.Divergence;
      for (const FunctionDecl *G : R.Reaches)
        if (auto [It, New] = Agreeing->try_emplace(G, Ok); !New)
          It->second = It->second && Ok;
    }
  }
  auto It = Agreeing->find(F);
  return It != Agreeing->end() && It->second;
}

bool CheckContext::sequenceDivergesAt(const Stmt *S) {
  auto at = [&](const std::optional<CollectiveEvent> &E) { return E && (E->At == S || E->Call == S); };
  for (const SequenceResult &R : sequences())
    if (R.Divergence && (at(R.Divergence->A) || at(R.Divergence->B)))
      return true;
  return false;
}

const DerivedTypes &CheckContext::derived() { return Derived.get(); }

std::optional<CheckContext::DatatypeInfo> CheckContext::datatype(const Expr *E) {
  if (auto H = Ev.spelledHandle(E))
    return DatatypeInfo{*H, *H, nullptr};
  const DatatypeVar *V = derived().of(E);
  if (!V || !V->Shape)
    return std::nullopt;
  return DatatypeInfo{V->Name, V->Shape->Base, &*V->Shape};
}

const std::vector<HandleVar> &CheckContext::handles(const FunctionDecl *F) {
  auto [It, New] = HandleFlows.try_emplace(F);
  if (New)
    It->second = handleFlow(Ctx, Ev, F);
  return It->second;
}

const std::vector<RequestVar> &CheckContext::requests(const FunctionDecl *F) {
  auto [It, New] = RequestFlows.try_emplace(F);
  if (New)
    It->second = requestFlow(Ctx, Ev, F);
  return It->second;
}

/// Line (1-based) of FID's text, "" when there is none.
static llvm::StringRef lineText(const SourceManager &SM, FileID FID, unsigned Line) {
  if (Line == 0)
    return "";
  bool Invalid = false;
  SourceLocation L = SM.translateLineCol(FID, Line, 1);
  const char *P = SM.getCharacterData(L, &Invalid);
  if (Invalid || !P)
    return "";
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  llvm::StringRef Rest = Buffer.substr(P - Buffer.data());
  return Rest.substr(0, Rest.find('\n'));
}

Finding *CheckContext::report(llvm::StringRef Name, SourceLocation Loc, std::string Message) {
  const SourceManager &SM = Ctx.getSourceManager();
  // As clang does: a call written as a macro's argument (CHECK(MPI_Bcast(...)))
  // is reported where it is written; one inside a macro's body where the
  // macro is used, with a note at the macro's definition.
  SourceLocation E = SM.getFileLoc(Loc);
  Finding *F =
      report(Name, SM.getFilename(E), SM.getSpellingLineNumber(E), SM.getSpellingColumnNumber(E), std::move(Message));
  if (F && Loc.isMacroID() && !SM.isMacroArgExpansion(Loc)) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    SourceLocation Def = SM.getSpellingLoc(Loc);
    if (!Macro.empty() && Def.isValid() && SM.getFileID(Def).isValid())
      F->Notes.push_back({SM.getFilename(Def).str(), SM.getSpellingLineNumber(Def), SM.getSpellingColumnNumber(Def),
                          "expanded from macro '" + Macro.str() + "'"});
  }
  return F;
}

Finding *CheckContext::report(llvm::StringRef Name, llvm::StringRef File, unsigned Line, unsigned Column,
                              std::string Message) {
  // // NOLINT on the line, // NOLINTNEXTLINE on the line before.
  const SourceManager &SM = Ctx.getSourceManager();
  if (auto FE = SM.getFileManager().getOptionalFileRef(File)) {
    FileID FID = SM.translateFile(*FE);
    if (FID.isValid() && suppressedByNolint(lineText(SM, FID, Line), lineText(SM, FID, Line - 1), Name))
      return nullptr;
  }
  Finding F;
  F.Check = Name.str();
  F.File = File.str();
  F.Line = Line;
  F.Column = Column;
  F.Message = std::move(Message);
  // One finding per check and place.
  for (Finding &G : Out)
    if (G.Check == F.Check && G.File == F.File && G.Line == F.Line && G.Column == F.Column)
      return nullptr;
  Out.push_back(std::move(F));
  return &Out.back();
}

void CheckContext::note(Finding &F, SourceLocation Loc, std::string Message) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation E = SM.getExpansionLoc(Loc);
  if (E.isInvalid())
    return;
  F.Notes.push_back(
      {SM.getFilename(E).str(), SM.getExpansionLineNumber(E), SM.getExpansionColumnNumber(E), std::move(Message)});
}

void CheckContext::fix(Finding &F, SourceRange R, std::string Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto InArg = [&](SourceLocation L) { return L.isFileID() || SM.isMacroArgExpansion(L); };
  if (!InArg(R.getBegin()) || !InArg(R.getEnd()))
    return;                                                                // not mechanical inside a macro's body
  R = SourceRange(SM.getFileLoc(R.getBegin()), SM.getFileLoc(R.getEnd())); // a macro argument: where it is written
  SourceLocation End = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts());
  FixIt X;
  X.Line = SM.getSpellingLineNumber(R.getBegin());
  X.Column = SM.getSpellingColumnNumber(R.getBegin());
  X.EndLine = SM.getSpellingLineNumber(End);
  X.EndColumn = SM.getSpellingColumnNumber(End);
  X.Text = std::move(Text);
  F.Fixes.push_back(std::move(X));
}

} // namespace ompi
