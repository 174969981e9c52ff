//===- Pipeline.cpp - Parse, analyse, transform one or more sources --------===//
#include "driver/Pipeline.h"
#include "analysis/ReductionPlan.h"
#include "analysis/Wrappers.h"
#include "checks/Selection.h"
#include "driver/Inlining.h"
#include "mpi/MPIModel.h"
#include "mpi/MachineProfile.h"
#include "support/AST.h"
#include "support/LineMap.h"
#include "support/OptOut.h"
#include "transforms/Rewrite.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;
using namespace ompi;

namespace {

/// Path made absolute, without "." and "..": how sources are compared.
std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return Abs.str().str();
}

/// What the sources of one run share: the options, the outcomes, whether
/// one failed, and the machine profiles read so far (each file once).
struct Run {
  Run(const PipelineOptions &Opts, std::vector<FileOutcome> &Outcomes) : Opts(Opts), Outcomes(Outcomes) {}
  const PipelineOptions &Opts;
  std::vector<FileOutcome> &Outcomes;
  bool Failed = false;
  std::map<std::string, std::optional<MachineProfile>> Profiles;
  /// The file being processed: its first error, and the outcomes before it.
  FileFailure Current;
  /// Every file processed, by absolute path: its failure, if it failed.
  std::map<std::string, std::optional<FileFailure>> Processed;
  /// Whether the current file's outcome was stored.
  bool Produced = false;
  /// The first parse: the files with calls of forwarding wrappers to parse
  /// again, inlined (Inlining.h), by absolute path; each has a placeholder
  /// outcome. The later parses: those files (Again), and whether this parse
  std::map<std::string, PendingInline> Pending;
  const std::map<std::string, PendingInline> *Again = nullptr;

  /// The file being parsed again, if this one is.
  const PendingInline *again() const {
    if (!Again)
      return nullptr;
    auto It = Again->find(absolute(Current.Path));
    return It == Again->end() ? nullptr : &It->second;
  }
  void store(FileOutcome O) {
    Produced = true;
    if (const PendingInline *P = again())
      Outcomes[P->Index] = std::move(O);
    else
      Outcomes.push_back(std::move(O));
  }

  /// Keep Message as the current file's error unless it has one already.
  void error(const llvm::Twine &Message) {
    if (Current.Message.empty())
      Current.Message = Message.str();
  }
};

/// Passes every diagnostic on to clang's printer, and keeps the first error
/// of the file being processed (the SARIF log names it).
class RecordingDiagnostics : public DiagnosticConsumer {
public:
  RecordingDiagnostics(DiagnosticConsumer &Next, std::unique_ptr<DiagnosticConsumer> Owned, Run &R)
      : Next(Next), Owned(std::move(Owned)), R(R) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override { Next.BeginSourceFile(LO, PP); }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next.HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !R.Current.Message.empty())
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    R.error(Msg);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid()) {
        R.Current.ErrorFile = P.getFilename();
        R.Current.Line = P.getLine();
        R.Current.Column = P.getColumn();
      }
    }
  }

private:
  DiagnosticConsumer &Next;
  std::unique_ptr<DiagnosticConsumer> Owned; ///< Next, when the engine owned it
  Run &R;
};

/// The declined notes of the calls an opt-out comment keeps as written for
/// one of the transformations that run (Selected; empty: all), and a
/// warning for each name OMPI-NOOPT gives that is no transformation.
void noteOptOuts(const SourceManager &SM, const OptOuts &Opt, const FileResult &Calls,
                 const std::vector<std::string> &Selected, std::vector<ChangeNote> &Notes, llvm::StringRef Path) {
  for (const auto &[Line, M] : Opt.marks())
    for (const std::string &N : M.Names)
      if (llvm::none_of(transforms(), [&](const TransformInfo &T) { return N == T.Name; }))
        llvm::errs() << Path << ":" << Line << ": warning: OMPI-NOOPT names '" << N
                     << "', which is no transformation (see --list-transforms)\n";
  for (const CallResult &C : Calls.Calls)
    if (C.Model && C.Call)
      if (const OptOutMark *M = Opt.find(SM, C.Call, "")) {
        std::vector<std::string> Names;
        for (const std::string &N : M->Names)
          if (Selected.empty() || llvm::is_contained(Selected, N))
            Names.push_back(N);
        if (!M->All && Names.empty())
          continue;
        std::string Which = M->All ? "every transformation" : llvm::join(Names, ", ");
        Notes.push_back(ChangeNote::at(Which, false, C.File, C.Line, C.Column, C.Function,
                                       "kept as written: " + M->Spelling + " at line " + std::to_string(M->Line)));
      }
}

using Snapshot = std::set<std::tuple<unsigned, unsigned, std::string>>;

/// Whether a replacement of Out not in Before changes the text of Call
/// (where it is written, or where its macro is expanded); an insertion
/// just before or after it does not.
bool rewrites(const SourceManager &SM, const tooling::Replacements &Out, const Snapshot &Before, const CallExpr *Call) {
  std::vector<std::pair<unsigned, unsigned>> Spans;
  auto Span = [&](SourceLocation B, SourceLocation E) {
    if (B.isValid() && E.isValid() && SM.isWrittenInMainFile(B) && SM.isWrittenInMainFile(E) &&
        SM.getFileOffset(B) <= SM.getFileOffset(E))
      Spans.push_back({SM.getFileOffset(B), SM.getFileOffset(E) + 1});
  };
  Span(SM.getFileLoc(Call->getBeginLoc()), SM.getFileLoc(Call->getRParenLoc()));
  Span(SM.getExpansionLoc(Call->getBeginLoc()), SM.getExpansionRange(Call->getEndLoc()).getEnd());
  for (const tooling::Replacement &R : Out) {
    if (Before.count({R.getOffset(), R.getLength(), R.getReplacementText().str()}))
      continue;
    unsigned At = R.getOffset(), End = At + R.getLength();
    for (auto [B, E] : Spans)
      if (R.getLength() ? At < E && End > B : B < At && At < E)
        return true;
  }
  return false;
}

/// Run T with the opt-outs in force: the calls kept as written for T count
/// as taken (callChanged, transforms/Rewrite.h), so a group with one of them
/// is declined whole. A transformation whose plan does not ask callChanged
/// may still rewrite one: then all its changes to this file are undone
/// (never part of a group), and a note says why.
llvm::Error runKeeping(const TransformInfo &T, TransformContext &TC, const OptOuts &Opt) {
  if (Opt.empty())
    return T.Run(TC);
  Snapshot Before;
  for (const tooling::Replacement &R : TC.Out)
    Before.insert({R.getOffset(), R.getLength(), R.getReplacementText().str()});
  tooling::Replacements Saved = TC.Out;
  size_t Notes = TC.Notes.size(), Prologue = TC.Prologue.size();
  {
    OptOutScope Scope(TC.Ctx, Opt, T.Name);
    if (llvm::Error E = T.Run(TC))
      return E;
  }
  const SourceManager &SM = TC.Ctx.getSourceManager();
  for (const CallResult &C : TC.Analysis.Calls) {
    const OptOutMark *M = C.Call ? Opt.find(SM, C.Call, T.Name) : nullptr;
    if (!M || !rewrites(SM, TC.Out, Before, C.Call))
      continue;
    TC.Out = std::move(Saved);
    TC.Prologue.resize(Prologue);
    TC.Notes.erase(
        std::remove_if(TC.Notes.begin() + Notes, TC.Notes.end(), [](const ChangeNote &N) { return N.Applied; }),
        TC.Notes.end());
    TC.Notes.push_back(ChangeNote::at(T.Name, false, C.File, C.Line, C.Column, "every change in this file",
                                      "it would rewrite " + C.Function + " at line " + std::to_string(C.Line) +
                                          ", kept as written: " + M->Spelling + " at line " + std::to_string(M->Line)));
    break;
  }
  return llvm::Error::success();
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, Run &R) : CI(CI), R(R), Opts(R.Opts), Outcomes(R.Outcomes), Failed(R.Failed) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return; // clang has printed why; nothing is written
    limitTraversalToCode(Ctx);
    const SourceManager &SM = Ctx.getSourceManager();
    FileOutcome O;
    if (auto FE = SM.getFileEntryRefForID(SM.getMainFileID()))
      O.Path = FE->getName().str();
    O.Original = SM.getBufferData(SM.getMainFileID()).str();
    EvalOptions EO = Opts.Eval;
    if (const PendingInline *P = R.again())
      EO.UnseenCallers = P->definedHere();
    if (Opts.RunChecks && EO.NProcs.empty()) { // the lint: the counts of the file's .ompi-opt, unless --nprocs
      if (Expected<LintConfig> C = findLintConfig(O.Path))
        EO.NProcs = C->NProcs;
      else
        consumeError(C.takeError()); // reported with the findings (selectFindings)
    }
    Evaluator Ev(Ctx, EO);
    if (Opts.ListDatatypes) {
      for (const HandleModel &H : allHandles())
        if (H.Kind == HandleKind::Datatype)
          if (auto S = Ev.datatypeSize(H.Name))
            O.Datatypes.push_back({H.Name, *S});
      R.store(std::move(O));
      return;
    }
    if (Opts.FactsOnly) {
      Uniformity Uni(Ctx, Ev);
      O.Facts = ProgramFacts::ofFile(Ctx, Ev, Uni, O.Path);
      R.store(std::move(O));
      return;
    }
    const PendingInline *Again = R.again();
    O.Analysis = analyzeCalls(Ctx, Ev);
    if (Opts.FunctionSpans)
      O.Analysis.Functions = functionSpans(Ctx);
    tooling::Replacements Reps;
    std::vector<ChangeNote> Notes;
    Uniformity Uni(Ctx, Ev);
    const MachineProfile *Profile = profile();
    if (Profile)
      O.Profile = Profile->Path;
    ReductionPlans Plans(Ctx, Ev, Uni, O.Analysis, Profile);
    LazyDerivedTypes Derived(Ctx, Ev);
    TransformContext TC{Ctx, Ev, Derived, Uni, Plans, O.Analysis, Reps, Notes, Opts.Transforms};
    TC.Profile = Profile;
    TC.Reassociate = Opts.Reassociate;
    OptOuts Opt = OptOuts::read(SM, Ctx.getLangOpts());
    if (Opts.Transforms != std::vector<std::string>{"none"})
      noteOptOuts(SM, Opt, O.Analysis, Opts.Transforms, Notes, O.Path);
    for (const TransformInfo &T : transforms())
      if (!Opts.Transforms.empty() &&
          std::find(Opts.Transforms.begin(), Opts.Transforms.end(), T.Name) == Opts.Transforms.end())
        continue;
      else if (llvm::Error E = runKeeping(T, TC, Opt)) {
        std::string Msg = "transformation " + std::string(T.Name) + " failed: " + llvm::toString(std::move(E));
        llvm::errs() << O.Path << ": error: " << Msg << "\n";
        R.error(Msg);
        Failed = true;
        return;
      }
    if (llvm::Error E = addPrologue(TC)) {
      std::string Msg = "could not add the code the changes need: " + llvm::toString(std::move(E));
      llvm::errs() << O.Path << ": error: " << Msg << "\n";
      R.error(Msg);
      Failed = true;
      return;
    }
    tooling::Replacements Applied = Opts.LineDirectives ? keepLineNumbers(O.Original, Reps) : Reps;
    auto Text = tooling::applyAllReplacements(O.Original, Applied);
    if (!Text) {
      std::string Msg = "could not apply the changes: " + llvm::toString(Text.takeError());
      llvm::errs() << O.Path << ": error: " << Msg << "\n";
      R.error(Msg);
      Failed = true;
      return;
    }
    O.Transformed = std::move(*Text);
    O.Analysis.Notes = std::move(Notes);
    if (Again && !finishInlined(*Again, Applied, O))
      return; // the first parse's outcome stays
    if (Opts.RunChecks) {
      // Every check runs; the driver keeps what each file's selection asks for.
      CheckContext CC{Ctx, Ev, Derived, Uni, Plans, O.Analysis, O.Findings};
      CC.Receives = &O.Receives;
      for (const CheckInfo &K : checks())
        K.Run(CC);
      llvm::sort(O.Findings, [](const Finding &A, const Finding &B) {
        return std::tie(A.Line, A.Column, A.Check) < std::tie(B.Line, B.Column, B.Check);
      });
    }
    if (Opts.CollectFacts && !Again)
      O.Facts = ProgramFacts::ofFile(Ctx, Ev, Uni, O.Path);
    if (!R.Again)
      planInlining(Ctx, Ev, Applied);
    detachFromAST(O.Analysis);
    R.store(std::move(O));
  }

private:
  CompilerInstance &CI;
  Run &R;
  const PipelineOptions &Opts;
  std::vector<FileOutcome> &Outcomes;
  bool &Failed;

  /// On the second parse of a file with inlined calls (P): the calls no
  /// change touched written back, the wrappers named, the first parse's
  /// judgement of the wrappers' bodies and its facts kept. False (and the
  /// first parse's outcome stays) where a change touched such a body.
  bool finishInlined(const PendingInline &P, const tooling::Replacements &Applied, FileOutcome &O) {
    if (changesWrapperBody(P, Applied)) {
      R.error("the second parse changed a wrapper's body, which it judges without the calls of it");
      return false;
    }
    std::vector<bool> Kept;
    O.WrapperCallsInlined = restoreUnchanged(P, Applied, O.Transformed, Kept);
    noteWrappers(P, Kept, O.Analysis);
    const FileOutcome &First = Outcomes[P.Index];
    keepFirstParse(P, First.Analysis, O.Analysis);
    O.Original = P.Original;
    O.Facts = First.Facts; // what the file tells the others: of its text as written
    return true;
  }

  /// On the first parse: the calls of forwarding wrappers a transformation
  /// may want as MPI calls, to parse again inlined (not for the lint, whose
  /// findings are of the calls as written). A wrapper of this file whose
  /// body this parse changed keeps its calls (the second parse, which does
  /// not see them, could not judge its body).
  void planInlining(ASTContext &Ctx, Evaluator &Ev, const tooling::Replacements &Applied) {
    if (Opts.RunChecks || Opts.Transforms == std::vector<std::string>{"none"})
      return;
    std::vector<InlinedCall> Calls = inlinableWrapperCalls(Ctx, CI.getPreprocessor(), Ev);
    llvm::erase_if(Calls, [&](const InlinedCall &C) {
      return C.DefinitionBegin >= 0 && llvm::any_of(Applied, [&](const tooling::Replacement &X) {
               return long(X.getOffset()) < C.DefinitionEnd && long(X.getOffset() + X.getLength()) >= C.DefinitionBegin;
             });
    });
    if (llvm::none_of(Calls, [](const InlinedCall &C) { return !C.Header; }))
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    R.Pending.try_emplace(absolute(R.Current.Path), SM.getBufferData(SM.getMainFileID()).str(), std::move(Calls),
                          Outcomes.size());
  }

  /// The machine profile: the one named, or the default of the MPI whose
  /// mpi.h this source includes (Open MPI's defines OPEN_MPI, SimGrid's
  /// SMPI_H; none ships for SMPI, so by default nothing that needs one).
  const MachineProfile *profile() {
    if (Opts.Profile == "none")
      return nullptr;
    std::string Path = Opts.Profile;
    if (Path.empty()) {
      if (Opts.ProfileDir.empty())
        return nullptr;
      Preprocessor &PP = CI.getPreprocessor();
      Path = Opts.ProfileDir + "/" + profileFileName(PP.isMacroDefined("OPEN_MPI"), PP.isMacroDefined("SMPI_H"));
      if (!llvm::sys::fs::exists(Path))
        return nullptr;
    }
    auto [It, New] = R.Profiles.try_emplace(Path);
    if (New) {
      if (auto P = loadProfile(Path))
        It->second = std::move(*P);
      else
        llvm::errs() << "warning: " << llvm::toString(P.takeError()) << "; no machine profile used\n";
    }
    return It->second ? &*It->second : nullptr;
  }
};

class Action : public ASTFrontendAction {
public:
  explicit Action(Run &R) : R(R) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    return std::make_unique<Consumer>(CI, R);
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    R.Current = FileFailure{getCurrentFile().str(), "", "", 0, 0};
    R.Produced = false;
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (DiagnosticConsumer *Next = D.getClient()) {
      std::unique_ptr<DiagnosticConsumer> Owned = D.ownsClient() ? D.takeClient() : nullptr;
      D.setClient(new RecordingDiagnostics(*Next, std::move(Owned), R), /*ShouldOwnClient=*/true);
    }
    return true;
  }

  void EndSourceFileAction() override {
    // (While ClangTool runs, the current directory is the command's.)
    std::optional<FileFailure> &F = R.Processed[absolute(R.Current.Path)];
    if (!R.Produced) // clang, or a transformation, said why
      F = R.Current;
    else
      F.reset();
  }

private:
  Run &R;
};

class Factory : public tooling::FrontendActionFactory {
public:
  explicit Factory(Run &R) : R(R) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(R); }

private:
  Run &R;
};

} // namespace

namespace {

/// Run the pipeline's action over Sources with R; Mapped: texts to parse
/// in place of files (absolute path -> text), whose diagnostics are not
/// printed again.
int runTool(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Sources, Run &R,
            const std::map<std::string, std::string> &Mapped) {
  tooling::ClangTool Tool(DB, Sources);
  // A compilation database written by a build that used ompi-cc holds its
  // own options (--ompi-report, ...): they are not the compiler's.
  Tool.appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, llvm::StringRef) {
    tooling::CommandLineArguments Out;
    for (const std::string &A : Args)
      if (!llvm::StringRef(A).starts_with("--ompi-"))
        Out.push_back(A);
    return Out;
  });
  Tool.appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster(R.Opts.ExtraArgs, tooling::ArgumentInsertPosition::END));
  IgnoringDiagConsumer Quiet;
  if (!Mapped.empty())
    Tool.setDiagnosticConsumer(&Quiet);
  for (const auto &[Path, Text] : Mapped)
    Tool.mapVirtualFile(Path, Text);
  Factory F(R);
  return Tool.run(&F);
}

/// The sources among Sources that Pending holds.
std::vector<std::string> pendingSources(const std::vector<std::string> &Sources,
                                        const std::map<std::string, PendingInline> &Pending) {
  std::vector<std::string> Out;
  for (const std::string &S : Sources)
    if (Pending.count(absolute(S)) && !llvm::is_contained(Out, S))
      Out.push_back(S);
  return Out;
}

/// Parse the files with calls of forwarding wrappers again, inlined. Their
/// outcomes replace the first parse's; a file whose second parse fails
/// (it should not: the inlined calls mean what the calls did) keeps the
/// first.
void parseAgain(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Sources, Run &First) {
  std::map<std::string, std::string> Mapped;
  for (const auto &[Path, P] : First.Pending)
    Mapped[Path] = P.Text;
  Run R(First.Opts, First.Outcomes);
  R.Profiles = First.Profiles;
  R.Again = &First.Pending;
  runTool(DB, pendingSources(Sources, First.Pending), R, Mapped);
  for (const auto &[Path, F] : R.Processed)
    if (F)
      llvm::errs() << "ompi-opt: warning: " << Path
                   << ": its calls of forwarding wrappers could not be judged as MPI calls (" << F->Message
                   << "); the file is decided as written\n";
}

} // namespace

bool ompi::runPipeline(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Sources,
                       const PipelineOptions &Opts, std::vector<FileOutcome> &Outcomes,
                       std::vector<FileFailure> *Failures) {
  Run R(Opts, Outcomes);
  int RC = runTool(DB, Sources, R, {});
  if (!R.Pending.empty())
    parseAgain(DB, Sources, R);
  if (Failures) {
    // Every source without an outcome failed: with the error recorded while
    // it was processed, or none (ClangTool skipped it: no compile command).
    for (const std::string &S : Sources) {
      auto It = R.Processed.find(absolute(S));
      if (It != R.Processed.end() && !It->second)
        continue;
      FileFailure F = It != R.Processed.end() ? *It->second : FileFailure{};
      F.Path = S;
      if (F.Message.empty())
        F.Message = "could not be processed (no compile command, or clang stopped without an error)";
      Failures->push_back(std::move(F));
    }
  }
  return RC == 0 && !R.Failed;
}
