//===- Driver.cpp - ompi-opt's output modes --------------------------------===//
#include "driver/Driver.h"
#include "checks/Selection.h"
#include "driver/Pipeline.h"
#include "mpi/MPIModel.h"
#include "mpi/MachineProfile.h"
#include "report/Diff.h"
#include "report/HtmlDiff.h"
#include "report/Lint.h"
#include "report/Report.h"
#include "support/FileOutput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <tuple>

using namespace llvm;
using namespace ompi;

// The build's constants (tool/CMakeLists.txt); no fallbacks, so a build that
// lost one fails here instead of silently running without it.
const char *ompi::toolVersion() { return OMPI_VERSION; }
const char *ompi::defaultMPIInclude() { return OMPI_DEFAULT_MPI_INCLUDE; }

std::string ompi::defaultProfileDir() {
  std::string Exe = sys::fs::getMainExecutable(nullptr, nullptr);
  if (Exe.empty())
    return "";
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, "share", "ompi", "profiles");
  return Dir.str().str();
}

std::string ompi::checksDocDir() {
  std::string Exe = sys::fs::getMainExecutable(nullptr, nullptr);
  std::vector<std::string> Dirs;
  if (!Exe.empty()) {
    StringRef Prefix = sys::path::parent_path(sys::path::parent_path(Exe));  // bin/..
    Dirs.push_back((Prefix + "/share/doc/ompi/checks").str());               // installed
    Dirs.push_back((sys::path::parent_path(Prefix) + "/docs/checks").str()); // <checkout>/build/bin
  }
  Dirs.push_back(OMPI_SOURCE_DIR "/docs/checks");
  for (std::string &D : Dirs) {
    SmallString<256> Abs(D);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, true);
    if (sys::fs::exists(Twine(Abs) + "/index.md"))
      return Abs.str().str();
  }
  return "";
}

std::vector<std::string> ompi::runtimeIncludeDirs() {
  std::vector<std::string> Dirs;
  std::string Exe = sys::fs::getMainExecutable(nullptr, nullptr);
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include", "mpiopt", "lazy.h");
  if (!Exe.empty() && sys::fs::exists(Installed))
    Dirs.push_back(sys::path::parent_path(sys::path::parent_path(Installed)).str());
  else
    for (const char *D : {OMPI_SOURCE_DIR "/runtime/include", OMPI_SOURCE_DIR "/templates"})
      if (sys::fs::is_directory(D))
        Dirs.push_back(D);
  return Dirs;
}

namespace {

int usage(const Twine &Msg) {
  errs() << "ompi-opt: error: " << Msg << "\n";
  return 2;
}

/// A --transforms list (--checks has its clang-tidy form, checks/Selection.h): names separated by commas, 'all' or
/// 'none', '-name' removing one (a leading '-x' means all but x); the
/// registries run in their own order whatever the list's. "none" stands for
/// the empty selection. Returns the first unknown name, if any.
std::optional<std::string> parseSelection(StringRef List, ArrayRef<StringRef> Names, std::vector<std::string> &Out) {
  std::vector<std::string> Selected;
  SmallVector<StringRef, 8> Items;
  List.split(Items, ',', -1, false);
  if (!Items.empty() && Items.front().trim().starts_with("-"))
    Items.insert(Items.begin(), "all");
  for (StringRef Item : Items) {
    Item = Item.trim();
    bool Remove = Item.consume_front("-");
    if (Item == "all" || Item == "none") {
      Selected.clear();
      if (Item == "all")
        for (StringRef N : Names)
          Selected.push_back(N.str());
      continue;
    }
    if (!llvm::is_contained(Names, Item))
      return Item.str();
    llvm::erase(Selected, Item.str());
    if (!Remove)
      Selected.push_back(Item.str());
  }
  Out = Selected.empty() ? std::vector<std::string>{"none"} : Selected;
  return std::nullopt;
}

/// --explain CHECK: the check's page, as rustc --explain prints an error's.
int explain(StringRef Name) {
  StringRef Check = StringRef(Name).trim();
  Check.consume_front("ompi-");
  const CheckInfo *K = findCheck(Check);
  if (!K)
    return usage("--explain: unknown check '" + Name + "' (see --list-checks)");
  std::string Dir = checksDocDir();
  auto Page = MemoryBuffer::getFile(Dir + "/" + K->Name + ".md");
  if (Dir.empty() || !Page) {
    errs() << "ompi-opt: error: --explain: the page of " << K->Name
           << " is not installed (looked for share/doc/ompi/checks beside bin/ and docs/checks in the checkout)\n";
    return 1;
  }
  outs() << (*Page)->getBuffer();
  return 0;
}

/// --list-model, --list-transforms, --list-checks: true when one was given
/// (and printed).
bool printListings(const DriverOptions &O) {
  if (O.ListModel) {
    for (const FunctionModel &F : allFunctions()) {
      outs() << F.Name << " [" << categoryName(F.Cat) << ", " << modeName(F.M) << "]";
      for (const ArgModel &A : F.Args)
        outs() << " " << A.Name << ":" << roleName(A.R);
      outs() << "\n";
    }
  } else if (O.ListTransforms) {
    for (const TransformInfo &T : transforms())
      outs() << T.Name << ": " << T.Summary << "\n";
  } else if (O.ListChecks) {
    for (const CheckInfo &K : checks())
      outs() << K.Name << " (" << K.Kind << "): " << K.Summary << "\n";
  } else {
    return false;
  }
  return true;
}

bool wantsHtml(const DriverOptions &O) { return O.DiffFormat && *O.DiffFormat == "html"; }
bool wantsDiff(const DriverOptions &O) { return (O.DiffFormat && !wantsHtml(O)) || O.DryRun; }
bool htmlToDir(const DriverOptions &O) {
  return wantsHtml(O) && !O.Output.empty() && (StringRef(O.Output).ends_with("/") || sys::fs::is_directory(O.Output));
}

/// The combinations of options that make no sense: an error message, if any.
std::optional<std::string> conflict(const DriverOptions &O) {
  std::string Format = O.Format.value_or("text");
  if (Format != "text" && Format != "sarif")
    return "--format takes 'text' or 'sarif', not '" + Format + "'";
  if ((O.Format || O.Werror || O.Fix || O.CheckList || O.DocsUrl) && !O.Check)
    return std::string(O.Werror      ? "--Werror"
                       : O.Fix       ? "--fix"
                       : O.CheckList ? "--checks"
                       : O.DocsUrl   ? "--docs-url"
                                     : "--format") +
           " goes with --check";
  if (O.Check && (O.InPlace || O.DryRun || O.DiffFormat))
    return std::string("--check does not change or diff the sources; run it separately from --in-place, "
                       "--dry-run and --diff");
  if (O.Summary && (O.Check || O.InPlace || O.DryRun || O.DiffFormat || O.Report || !O.Output.empty()))
    return std::string("--summary prints the summary alone; run it separately from --check, --in-place, --dry-run, "
                       "--diff, --report and -o (--report-file names where it goes)");
  if (O.Report && *O.Report != "" && *O.Report != "text" && *O.Report != "long" && *O.Report != "json")
    return "--report takes 'text', 'long' or 'json', not '" + *O.Report + "'";
  if (O.DiffFormat && *O.DiffFormat != "" && *O.DiffFormat != "unified" && !wantsHtml(O))
    return "--diff takes 'unified' or 'html', not '" + *O.DiffFormat + "'";
  if (wantsHtml(O) && O.Sources.size() > 1 && !htmlToDir(O))
    return std::string("--diff=html with several files writes a page per file: give -o DIR/");
  if (O.WholeProgram && O.ClosedWorld)
    return std::string("--closed-world is for a program of one file; --whole-program decides over several");
  if (O.WholeProgram && !O.ProgramFacts.empty())
    return std::string("--whole-program solves the program's facts itself; it does not take --program-facts");
  if (O.InPlace && !O.Output.empty())
    return std::string("--in-place writes over the inputs; it does not take -o");
  if (O.InPlace && O.BackupSuffixGiven && O.BackupSuffix.find('/') != std::string::npos)
    return std::string("--backup-suffix must not contain '/'");
  if (!O.Output.empty() && O.Sources.size() > 1 && !wantsDiff(O) && !wantsHtml(O) && !O.Check)
    return "-o takes one input file; " + std::to_string(O.Sources.size()) + " were given";
  for (const std::string &S : O.Sources) {
    if (!sys::fs::exists(S))
      return "no such file: " + S;
    if (!O.Output.empty() && O.Output != "-" && sys::fs::exists(O.Output) && sys::fs::equivalent(S, O.Output))
      return "refusing to overwrite the input file " + S + " (-o names the input)";
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> ompi::pipelineOptions(const DriverOptions &O, PipelineOptions &Opts) {
  std::vector<StringRef> Names;
  for (const TransformInfo &T : transforms())
    Names.push_back(T.Name);
  if (auto Err = parseSelection(O.TransformList, Names, Opts.Transforms))
    return "--transforms: unknown transformation '" + *Err + "' (see --list-transforms)";
  if (O.Check) {
    // Every check runs; each file's selection (--checks, else its
    // .ompi-opt) picks its findings (writeLint). The lists are checked here.
    Opts.RunChecks = true;
    for (auto [List, Name] : {std::pair{O.CheckList, "--checks"}, std::pair{O.Werror, "--Werror"}})
      if (List && !List->empty()) {
        Expected<CheckSet> S = CheckSet::parse(*List, Name);
        if (!S)
          return toString(S.takeError());
        if (StringRef(Name) == "--checks" && S->empty()) // clang-tidy's "no checks enabled"
          return toString(emptyRunError(*List, Name));
      }
  }
  // The machine profile: --profile, else MPIOPT_PROFILE, else the default
  // of the MPI each source is compiled with.
  std::optional<std::string> Profile = O.Profile;
  if (!Profile)
    if (auto Env = sys::Process::GetEnv("MPIOPT_PROFILE"); Env && !Env->empty())
      Profile = *Env;
  if (Profile && *Profile != "none") {
    if (Profile->empty())
      return "--profile: a file name (or 'none') is required";
    if (auto P = loadProfile(*Profile); !P)
      return llvm::toString(P.takeError());
    Opts.Profile = *Profile;
  } else if (Profile) {
    Opts.Profile = "none";
  }
  Opts.ProfileDir = defaultProfileDir();
  Opts.Eval.ClosedWorld = O.ClosedWorld;
  Opts.Eval.UniformEnv = O.UniformEnv;
  for (int N : O.NProcs)
    if (N < 1 || N > 64)
      return "--nprocs: " + std::to_string(N) + " is not a process count from 1 to 64";
  Opts.Eval.NProcs = O.NProcs;
  Opts.LineDirectives = O.LineDirectives;
  Opts.Reassociate = O.Reassociate;
  Opts.FunctionSpans = wantsHtml(O) || !O.HtmlDir.empty();
  Opts.ListDatatypes = O.ListDatatypes;
  std::string ResourceDir = OMPI_CLANG_RESOURCE_DIR;
  if (auto Env = sys::Process::GetEnv("MPIOPT_RESOURCE_DIR"))
    ResourceDir = *Env;
  if (!ResourceDir.empty())
    Opts.ExtraArgs.push_back("-resource-dir=" + ResourceDir);
  if (!O.MPIInclude.empty()) {
    Opts.ExtraArgs.push_back("-idirafter");
    Opts.ExtraArgs.push_back(O.MPIInclude);
  }
  // The runtime's and templates' headers (mpiopt/lazy.h, ...), so a file
  // ompi-opt already rewrote still parses without -I: include/ beside bin/
  // when installed, the source tree's directories in a build tree.
  for (const std::string &Dir : runtimeIncludeDirs()) {
    Opts.ExtraArgs.push_back("-idirafter");
    Opts.ExtraArgs.push_back(Dir);
  }
  // The user's warnings are the real compiler's business; errors still stop
  // us. Legacy C that GCC accepts with a warning but Clang rejects by default
  // (implicit declarations, implicit int, int/pointer conversions) is
  // accepted too: ompi-opt must parse whatever mpicc compiles.
  for (const char *W : {"implicit-function-declaration", "implicit-int", "int-conversion", "incompatible-pointer-types",
                        "incompatible-function-pointer-types", "return-type"})
    Opts.ExtraArgs.push_back(std::string("-Wno-error=") + W);
  Opts.ExtraArgs.push_back("-w");
  Opts.ExtraArgs.push_back("-Qunused-arguments");
  return std::nullopt;
}

namespace {

/// A compilation database whose commands name their source by its absolute
/// path. Clang's file manager, which ClangTool shares between the files it
/// runs, caches what a relative path names under the first file's
/// directory: with relative "file" entries in several directories, a
/// quoted include looked up beside a source ("./uh.h") was found, or not,
/// in another entry's directory (AMG's utilities/ after parcsr_ls/).
class AbsoluteSources : public clang::tooling::CompilationDatabase {
public:
  explicit AbsoluteSources(std::unique_ptr<clang::tooling::CompilationDatabase> Inner) : Inner(std::move(Inner)) {}
  std::vector<clang::tooling::CompileCommand> getCompileCommands(StringRef File) const override {
    return absolute(Inner->getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override {
    return absolute(Inner->getAllCompileCommands());
  }

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
  static std::vector<clang::tooling::CompileCommand> absolute(std::vector<clang::tooling::CompileCommand> Cmds) {
    for (clang::tooling::CompileCommand &C : Cmds) {
      if (C.Filename.empty() || llvm::sys::path::is_absolute(C.Filename) || C.Directory.empty())
        continue;
      SmallString<256> Abs(C.Directory);
      llvm::sys::path::append(Abs, C.Filename);
      llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
      for (std::string &A : C.CommandLine)
        if (A == C.Filename)
          A = std::string(Abs);
      C.Filename = std::string(Abs);
    }
    return Cmds;
  }
};

/// -p DIR: the sources of its compilation database when none were named,
/// and the database itself; else the command after "--", else none.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(DriverOptions &O, std::string &Error) {
  if (O.BuildPath.empty()) {
    if (O.CommandLineDB)
      return std::move(O.CommandLineDB);
    return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{});
  }
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  if (auto Found = clang::tooling::CompilationDatabase::autoDetectFromDirectory(O.BuildPath, Error))
    DB = std::make_unique<AbsoluteSources>(std::move(Found));
  if (DB && O.Sources.empty()) {
    for (const std::string &F : DB->getAllFiles())
      if (StringRef(F).ends_with(".c"))
        O.Sources.push_back(F);
    // The whole database: decided as one program, as ompi-cc's link does,
    // when it is one (else each file alone, quietly). Not for the lint,
    // whose findings are each file's.
    if (!O.Check && !O.ClosedWorld && O.ProgramFacts.empty() && !O.WholeProgram)
      O.WholeProgram = O.WholeProgramImplied = true;
  }
  return DB;
}

/// --check --fix: every fix-it applied to its file (the original kept as
/// FILE<backup suffix>, never overwriting an existing backup).
bool applyFixIts(const std::vector<FileOutcome> &Outcomes, StringRef Suffix) {
  for (const FileOutcome &O : Outcomes) {
    // Offsets of line starts, to turn line:column into offsets.
    std::vector<size_t> Starts{0};
    for (size_t I = 0; I < O.Original.size(); ++I)
      if (O.Original[I] == '\n')
        Starts.push_back(I + 1);
    auto At = [&](unsigned L, unsigned C) { return L >= 1 && L <= Starts.size() ? Starts[L - 1] + C - 1 : 0; };
    std::vector<std::tuple<size_t, size_t, std::string>> Edits;
    for (const Finding &F : O.Findings)
      for (const FixIt &X : F.Fixes)
        Edits.push_back({At(X.Line, X.Column), At(X.EndLine, X.EndColumn), X.Text});
    if (Edits.empty())
      continue;
    llvm::sort(Edits);
    std::string Text;
    size_t Pos = 0;
    for (auto &[B, E, T] : Edits) {
      if (B < Pos || E < B || E > O.Original.size())
        continue; // overlapping: the first wins
      Text += O.Original.substr(Pos, B - Pos) + T;
      Pos = E;
    }
    Text += O.Original.substr(Pos);
    std::string P = displayPath(O.Path);
    if (backupExists(O.Path, Suffix)) {
      errs() << "ompi-opt: error: " << P << Suffix
             << " exists: remove it or choose another --backup-suffix; the fix-its were not applied\n";
      return false;
    }
    if (!replaceWithBackup(O.Path, O.Original, Text, Suffix))
      return false;
    errs() << "ompi-opt: applied " << Edits.size() << (Edits.size() == 1 ? " fix-it to " : " fix-its to ") << P << "\n";
  }
  return true;
}

/// One file's findings as its selection keeps them (--checks, else its
/// .ompi-opt's Checks, else all), at their levels (optimisation: remark,
/// correctness: warning; an error where --Werror, else WarningsAsErrors,
/// selects the check). False (with a message) for an unreadable config.
bool selectFindings(const DriverOptions &O, FileOutcome &F) {
  Expected<LintConfig> Config = findLintConfig(F.Path);
  if (!Config) {
    errs() << "ompi-opt: error: " << toString(Config.takeError()) << "\n";
    return false;
  }
  auto SetOf = [&](const std::optional<std::string> &List, StringRef Name, CheckSet Default) -> Expected<CheckSet> {
    if (!List)
      return Default;
    return List->empty() ? CheckSet::correctness() : CheckSet::parse(*List, Name);
  };
  std::string Where = Config->Path.empty() ? "" : Config->Path + ": ";
  Expected<CheckSet> Run = O.CheckList ? SetOf(O.CheckList, "--checks", CheckSet::all())
                                       : SetOf(Config->Checks, Where + "Checks", CheckSet::all());
  Expected<CheckSet> Err = O.Werror ? SetOf(O.Werror, "--Werror", CheckSet())
                                    : SetOf(Config->WarningsAsErrors, Where + "WarningsAsErrors", CheckSet());
  if (!Run || !Err) {
    errs() << "ompi-opt: error: " << toString(Run ? Err.takeError() : Run.takeError()) << "\n";
    return false;
  }
  if (!O.CheckList && Config->Checks && Run->empty()) { // a .ompi-opt that runs nothing
    errs() << "ompi-opt: error: " << toString(emptyRunError(*Config->Checks, Where + "Checks")) << "\n";
    return false;
  }
  llvm::erase_if(F.Findings, [&](const Finding &D) {
    return !Run->contains(D.Check) || (!D.CoveredBy.empty() && Run->contains(D.CoveredBy));
  });
  for (Finding &D : F.Findings) {
    const CheckInfo *K = findCheck(D.Check);
    D.Level = Err->contains(D.Check)                     ? FindingLevel::Error
              : K && StringRef(K->Kind) != "correctness" ? FindingLevel::Remark
                                                         : FindingLevel::Warning;
  }
  return true;
}

/// A run over several files checks one program: a send that a receive of
/// another file may accept is not unmatched; one whose tag other files
/// accept only from other sources is reported as such.
void matchAcrossFiles(std::vector<FileOutcome> &Outcomes) {
  for (FileOutcome &F : Outcomes)
    llvm::erase_if(F.Findings, [&](Finding &D) {
      if (!D.UnmatchedSend)
        return false;
      bool Tagged = false;
      for (const FileOutcome &G : Outcomes)
        if (&G != &F)
          for (const P2PEnd &R : G.Receives) {
            if (P2PEnd::mayMatch(*D.UnmatchedSend, R, true))
              return true;
            Tagged |= P2PEnd::mayMatch(*D.UnmatchedSend, R, false);
          }
      if (Tagged && !D.ByShift && !D.ShiftMessage.empty()) {
        D.Message = D.ShiftMessage;
        D.ByShift = true;
        D.Notes.clear(); // they named this file's receives of other tags
      }
      return false;
    });
}

/// The base of the SARIF rules' helpUri: --docs-url, else the checks'
/// pages found beside the executable as a file URI ("" when none).
std::string docsBase(const DriverOptions &O) {
  if (O.DocsUrl)
    return *O.DocsUrl;
  std::string Dir = checksDocDir();
  return Dir.empty() ? "" : fileUri(Dir) + "/";
}

/// --check: diagnostics or SARIF (with an invocation per file in Failures),
/// then the fix-its with --fix. Exit status: 1 when a finding is an error
/// (or an output fails), 2 for a bad .ompi-opt, else 0.
int writeLint(const DriverOptions &O, std::vector<FileOutcome> &Outcomes, ArrayRef<FileFailure> Failures) {
  std::vector<LintFile> Files;
  bool Errors = false;
  matchAcrossFiles(Outcomes);
  for (FileOutcome &F : Outcomes) {
    if (!selectFindings(O, F))
      return 2;
    for (const Finding &D : F.Findings)
      Errors |= D.Level == FindingLevel::Error;
  }
  for (const FileOutcome &F : Outcomes)
    Files.push_back({F.Original, F.Findings});
  std::string Text;
  raw_string_ostream OS(Text);
  if (O.Format.value_or("text") == "sarif") {
    std::vector<LintFailure> Failed;
    for (const FileFailure &F : Failures)
      Failed.push_back({F.Path, F.Message, F.ErrorFile, F.Line, F.Column});
    writeSarif(OS, Files, toolVersion(), Failed, docsBase(O));
  } else {
    writeDiagnostics(OS, Files);
  }
  OS.flush();
  if (!writeFileOrReport(O.Output.empty() ? "-" : O.Output, Text))
    return 1;
  if (O.Fix && !applyFixIts(Outcomes, O.BackupSuffix))
    return 1;
  return Errors ? 1 : 0;
}

/// The analysis of each file processed.
std::vector<FileResult> analyses(const std::vector<FileOutcome> &Outcomes) {
  std::vector<FileResult> Files;
  for (const FileOutcome &F : Outcomes)
    Files.push_back(F.Analysis);
  return Files;
}

/// --report[=json] to standard output or --report-file.
bool writeReport(const DriverOptions &O, const std::vector<FileOutcome> &Outcomes) {
  std::vector<FileResult> Files = analyses(Outcomes);
  std::string Text;
  raw_string_ostream OS(Text);
  if (*O.Report == "json")
    writeJSONReport(OS, Files);
  else
    writeTextReport(OS, Files, *O.Report == "long");
  OS.flush();
  return writeFileOrReport(O.ReportFile.empty() ? "-" : O.ReportFile, Text);
}

/// --summary (of the files processed, or of --summary-from's reports) to
/// standard output or --report-file.
bool writeSummaryOut(const DriverOptions &O, const std::vector<FileResult> &Files, unsigned Failed) {
  std::string Text;
  raw_string_ostream OS(Text);
  writeSummary(OS, Files, Failed);
  OS.flush();
  return writeFileOrReport(O.ReportFile.empty() ? "-" : O.ReportFile, Text);
}

/// A page per file in Dir, each with its JSON summary, and the index.
bool writeHtmlPages(StringRef Dir, const std::vector<FileOutcome> &Outcomes) {
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    errs() << "ompi-opt: error: cannot create " << Dir << ": " << EC.message() << "\n";
    return false;
  }
  for (const FileOutcome &F : Outcomes) {
    HtmlPage Page = renderHtmlDiff(displayPath(F.Path), F.Original, F.Transformed, F.Analysis);
    SmallString<256> Path(Dir);
    sys::path::append(Path, htmlPageName(displayPath(F.Path)));
    if (!writeFileOrReport(Path, Page.Html) || !writeFileOrReport((Path + ".json").str(), Page.Summary))
      return false;
  }
  std::string Err;
  if (!writeHtmlIndex(Dir, Err)) {
    errs() << "ompi-opt: error: cannot write " << Dir << "/index.html: " << Err << "\n";
    return false;
  }
  return true;
}

/// --diff / --dry-run: the unified diff; with --dry-run, the exit status
/// says whether a change is pending. Returns -1 to go on (--in-place).
int writeDiff(const DriverOptions &O, const std::vector<FileOutcome> &Outcomes) {
  std::string Text;
  raw_string_ostream OS(Text);
  for (const FileOutcome &F : Outcomes)
    writeUnifiedDiff(OS, displayPath(F.Path), F.Original, F.Transformed, F.Analysis.Notes);
  OS.flush();
  if (!writeFileOrReport(O.Output.empty() || O.DryRun ? "-" : O.Output, Text))
    return 1;
  if (O.DryRun) // nothing is written: a pipeline gates on the exit status
    return llvm::any_of(Outcomes, [](const FileOutcome &F) { return F.Original != F.Transformed; }) ? 1 : 0;
  return O.InPlace ? -1 : 0;
}

/// --in-place: every changed file replaced, its original kept as a backup.
int writeInPlace(const DriverOptions &O, const std::vector<FileOutcome> &Outcomes) {
  // Every file was processed; an old backup is never overwritten (it may
  // be the only copy of the original); then back up and replace.
  for (const FileOutcome &F : Outcomes)
    if (F.Original != F.Transformed && backupExists(F.Path, O.BackupSuffix)) {
      errs() << "ompi-opt: error: " << displayPath(F.Path) << O.BackupSuffix
             << " exists: remove it or choose another --backup-suffix; nothing was written\n";
      return 1;
    }
  for (const FileOutcome &F : Outcomes) {
    if (F.Original == F.Transformed)
      continue;
    if (!replaceWithBackup(F.Path, F.Original, F.Transformed, O.BackupSuffix))
      return 1;
    std::string P = displayPath(F.Path);
    errs() << "ompi-opt: rewrote " << P
           << (O.BackupSuffix.empty() ? std::string() : " (original in " + P + O.BackupSuffix + ")") << "\n";
  }
  return 0;
}

/// Everything but --check: report, HTML, diff, in-place or the source.
int writeOutputs(const DriverOptions &O, const std::vector<FileOutcome> &Outcomes) {
  if (O.Report && !writeReport(O, Outcomes))
    return 1;
  if (!O.HtmlDir.empty() && !writeHtmlPages(O.HtmlDir, Outcomes))
    return 1;
  if (wantsHtml(O)) {
    if (htmlToDir(O))
      return writeHtmlPages(O.Output, Outcomes) ? 0 : 1;
    const FileOutcome &F = Outcomes.front();
    return writeFileOrReport(O.Output.empty() ? "-" : O.Output,
                             renderHtmlDiff(displayPath(F.Path), F.Original, F.Transformed, F.Analysis).Html)
               ? 0
               : 1;
  }
  if (wantsDiff(O))
    if (int R = writeDiff(O, Outcomes); R >= 0)
      return R;
  if (O.InPlace)
    return writeInPlace(O, Outcomes);
  if (!O.Output.empty())
    return writeFileOrReport(O.Output, Outcomes.front().Transformed) ? 0 : 1;
  if (!O.Report)
    for (const FileOutcome &F : Outcomes)
      if (!writeFileOrReport("-", F.Transformed))
        return 1;
  return 0;
}

/// Only the facts are asked for (--facts-out and no other output).
bool factsAlone(const DriverOptions &O) {
  return !O.FactsOut.empty() && O.Output.empty() && !O.Report && !O.DiffFormat && !O.Summary && !O.Check &&
         !O.InPlace && !O.DryRun && !O.ListDatatypes && O.HtmlDir.empty();
}

/// --whole-program: the least fixpoint of the sources' facts
/// (analysis/ProgramFacts.h), or why there is none.
Expected<std::shared_ptr<const ProgramFacts>> solveProgram(const clang::tooling::CompilationDatabase &DB,
                                                           const std::vector<std::string> &Sources,
                                                           PipelineOptions Opts) {
  const unsigned MaxRounds = 8;
  Opts.FactsOnly = true;
  Opts.RunChecks = false;
  // Which functions make a collective on every call is not a taint: when
  // a round learns more of them, the taint starts again from the seed.
  auto Cur = std::make_shared<ProgramFacts>(ProgramFacts::seed({}));
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    Opts.Eval.Program = Cur;
    std::vector<FileOutcome> Outs;
    if (!runPipeline(DB, Sources, Opts, Outs))
      return createStringError(inconvertibleErrorCode(), "a file could not be parsed");
    auto Next = std::make_shared<ProgramFacts>(Cur->Seed ? ProgramFacts() : *Cur);
    // Whether a function returns a fresh object is not a taint: the first
    // round assumes every other file's function does (so the answers only
    // shrink), and each round's answer is this round's alone. Kept from an
    // earlier round, a wrapper of another file's function that returns a
    // static object would stay fresh for good.
    for (auto &KV : Next->Functions)
      KV.second.Fresh = false;
    for (const FileOutcome &F : Outs)
      Next->merge(F.Facts);
    if (Round == 0 && Next->MainFiles.size() != 1)
      return createStringError(inconvertibleErrorCode(),
                               Twine(Next->MainFiles.size()) + " of the files define main (a program has one)");
    if (Next->collectives() != Cur->collectives()) {
      Cur = std::make_shared<ProgramFacts>(ProgramFacts::seed(Next->collectives()));
      continue;
    }
    if (!Cur->Seed && *Next == *Cur)
      return Next;
    Cur = Next;
  }
  return createStringError(inconvertibleErrorCode(),
                           Twine("the facts did not settle in ") + Twine(MaxRounds) + " rounds");
}

/// --program-facts or --whole-program: what the other files of the
/// program do (Opts.Eval.Program). False on an error (printed).
bool programFacts(const DriverOptions &O, const clang::tooling::CompilationDatabase &DB, PipelineOptions &Opts) {
  if (!O.ProgramFacts.empty()) {
    Expected<ProgramFacts> P = ProgramFacts::read(O.ProgramFacts);
    if (!P) {
      errs() << "ompi-opt: error: --program-facts: " << toString(P.takeError()) << "\n";
      return false;
    }
    if (!P->program())
      errs() << "ompi-opt: warning: --program-facts: " << P->MainFiles.size()
             << " of its files define main (a program has one); not used\n";
    else
      Opts.Eval.Program = std::make_shared<ProgramFacts>(std::move(*P));
  }
  if (O.WholeProgram) {
    Expected<std::shared_ptr<const ProgramFacts>> P = solveProgram(DB, O.Sources, Opts);
    if (!P && !O.WholeProgramImplied)
      errs() << "ompi-opt: warning: --whole-program: " << toString(P.takeError()) << "; each file decided alone\n";
    else if (!P)
      consumeError(P.takeError());
    else
      Opts.Eval.Program = *P;
  }
  return true;
}

/// --facts-out: the program's facts, else the merged facts of the files.
bool writeFacts(const DriverOptions &O, const PipelineOptions &Opts, const std::vector<FileOutcome> &Outcomes) {
  ProgramFacts All;
  if (Opts.Eval.Program && !Opts.Eval.Program->Seed && O.WholeProgram)
    All = *Opts.Eval.Program;
  else
    for (const FileOutcome &F : Outcomes)
      All.merge(F.Facts);
  return writeFileOrReport(O.FactsOut, All.toJSON());
}

} // namespace

int ompi::runDriver(DriverOptions &O) {
  if (O.Explain)
    return explain(*O.Explain);
  if (printListings(O))
    return 0;
  if (!O.SummaryFrom.empty()) {
    std::vector<FileResult> Files;
    if (auto Err = readJSONReports(O.SummaryFrom, Files)) {
      errs() << "ompi-opt: error: " << *Err << "\n";
      return 1;
    }
    return writeSummaryOut(O, Files, 0) ? 0 : 1;
  }
  std::string DBError;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB = loadDatabase(O, DBError);
  if (O.Sources.empty())
    return usage("no input files (see --help)");
  if (auto Msg = conflict(O))
    return usage(*Msg);
  if (!DB)
    return usage("cannot load the compilation database from " + O.BuildPath + ": " + DBError);
  PipelineOptions Opts;
  if (auto Msg = pipelineOptions(O, Opts))
    return usage(*Msg);
  if (!programFacts(O, *DB, Opts))
    return 1;
  if (factsAlone(O) && O.WholeProgram && Opts.Eval.Program)
    return writeFacts(O, Opts, {}) ? 0 : 1;

  std::vector<FileOutcome> Outcomes;
  std::vector<FileFailure> Failures;
  Opts.CollectFacts = !O.FactsOut.empty();
  Opts.FactsOnly = factsAlone(O);
  bool Processed = runPipeline(*DB, O.Sources, Opts, Outcomes, &Failures);
  if (!O.FactsOut.empty() && Processed && !writeFacts(O, Opts, Outcomes))
    return 1;
  if (Opts.FactsOnly)
    return Processed ? 0 : 1;
  if (O.Summary) {
    // A file that cannot be parsed (clang said why) does not hide the
    // others' reach; it is counted, and the status is 3.
    unsigned Failed = unsigned(O.Sources.size() - Outcomes.size());
    if (!writeSummaryOut(O, analyses(Outcomes), Failed))
      return 1;
    if (Failed)
      errs() << "ompi-opt: error: " << Failed << " of " << O.Sources.size() << " files could not be processed\n";
    return Failed ? 3 : 0;
  }
  if (!Processed && O.Check) {
    // --check: a file that cannot be parsed (clang said why) does not hide
    // the others' findings, and the output is written all the same (SARIF:
    // an invocation per failed file), never left stale; status 3.
    int RC = writeLint(O, Outcomes, Failures);
    size_t Failed = O.Sources.size() - Outcomes.size();
    if (O.Sources.size() == 1)
      errs() << "ompi-opt: error: could not process " << O.Sources.front() << "\n";
    else
      errs() << "ompi-opt: error: " << Failed << " of " << O.Sources.size() << " files could not be processed\n";
    return RC == 2 ? 2 : 3;
  }
  if (!Processed) {
    errs() << "ompi-opt: error: could not process "
           << (O.Sources.size() == 1 ? O.Sources.front() : std::string("the input files")) << "; nothing was written\n";
    return O.DryRun ? 3 : 1;
  }
  if (O.ListDatatypes) {
    for (const FileOutcome &F : Outcomes)
      for (auto &[Name, Size] : F.Datatypes)
        outs() << Name << " " << Size << "\n";
    return 0;
  }
  if (O.Check)
    return writeLint(O, Outcomes, Failures);
  return writeOutputs(O, Outcomes);
}
