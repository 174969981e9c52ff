//===- main.cpp - ompi-opt driver ------------------------------------------===//
//
// Parses the command line, runs the pipeline (parse, analyse, transform) and
// writes what was asked for: the transformed source, the report, a diff, or
// (--in-place) the transformed sources over the inputs with backups. Without
// --in-place the inputs are never modified; on any error nothing is written.
//
//===----------------------------------------------------------------------===//
#include "lib/Diff.h"
#include "lib/HtmlDiff.h"
#include "lib/Lint.h"
#include "lib/MPIModel.h"
#include "lib/Pipeline.h"
#include "lib/Report.h"
#include "lib/Transforms.h"
#include "clang/Basic/Version.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <tuple>

using namespace llvm;
using namespace ompi;

#ifndef OMPI_VERSION
#define OMPI_VERSION "0.1.0"
#endif
#ifndef OMPI_CLANG_RESOURCE_DIR
#define OMPI_CLANG_RESOURCE_DIR ""
#endif
#ifndef OMPI_DEFAULT_MPI_INCLUDE
#define OMPI_DEFAULT_MPI_INCLUDE ""
#endif

static cl::OptionCategory OptCategory("ompi-opt options");

static cl::list<std::string> Sources(cl::Positional, cl::desc("<source files>"), cl::cat(OptCategory));
static cl::opt<std::string> Output("o", cl::desc("Write the transformed source to <file> ('-' for standard output)"),
                                   cl::value_desc("file"), cl::cat(OptCategory));
static cl::opt<std::string> Report("report", cl::ValueOptional,
                                   cl::desc("Print the per-call report; format text (default) or json"),
                                   cl::value_desc("format"), cl::cat(OptCategory));
static cl::opt<std::string> ReportFile("report-file", cl::desc("Write the report to <file> instead of standard output"),
                                       cl::value_desc("file"), cl::cat(OptCategory));
static cl::opt<std::string> BuildPath("p", cl::desc("Build directory containing compile_commands.json"),
                                      cl::value_desc("dir"), cl::cat(OptCategory));
static cl::opt<bool> ClosedWorld(
    "closed-world",
    cl::desc("The program is this one file: when it defines main(), no other file calls its functions or writes "
             "its globals (ompi-cc sets this for single-source programs)"),
    cl::cat(OptCategory));
static cl::opt<bool> LineDirectives(
    "line-directives",
    cl::desc("Keep every original line's number in the transformed source (#line after inserted lines), for code "
             "compiled in place of the original (ompi-cc sets this)"),
    cl::cat(OptCategory));
static cl::opt<std::string> MPIInclude("mpi-include",
                                       cl::desc("MPI include directory searched after all others ('' for none)"),
                                       cl::init(OMPI_DEFAULT_MPI_INCLUDE), cl::value_desc("dir"), cl::cat(OptCategory));
static cl::opt<bool> ListModel("list-model", cl::desc("Print every modelled MPI function with its argument roles"),
                               cl::cat(OptCategory));
static cl::opt<bool> ListDatatypes("list-datatypes",
                                   cl::desc("Print the size of every predefined MPI datatype for the given source's "
                                            "target and MPI header"),
                                   cl::cat(OptCategory));
static cl::opt<bool> ListTransforms("list-transforms", cl::desc("Print the registered transformations"),
                                    cl::cat(OptCategory));

static cl::opt<std::string> TransformList(
    "transforms",
    cl::desc("Transformations to run: a comma-separated list of names (see --list-transforms), or 'all' "
             "(default); '-name' removes one, 'none' runs none (report only)"),
    cl::init("all"), cl::cat(OptCategory));

static int usage(const Twine &Msg) {
  errs() << "ompi-opt: error: " << Msg << "\n";
  return 2;
}

/// Write Text to Path atomically: a temporary file beside it, then rename.
static cl::opt<std::string> DiffFormat("diff", cl::ValueOptional,
                                       cl::desc("Show what the transformations change with the reason for each "
                                                "change: 'unified' (default) diff, or 'html' side-by-side page "
                                                "(-o FILE.html, or -o DIR/ for a page per file and an index)"),
                                       cl::value_desc("format"), cl::cat(OptCategory));
static cl::opt<bool> Check("check",
                           cl::desc("Lint: report correctness problems and missed optimisations as clang-style "
                                    "diagnostics (or SARIF with --format=sarif); the sources are not changed"),
                           cl::cat(OptCategory));
static cl::opt<std::string> CheckList("checks",
                                      cl::desc("Checks to run with --check: names separated by commas, 'all' "
                                               "(default); '-name' leaves one out (see --list-checks)"),
                                      cl::init("all"), cl::cat(OptCategory));
static cl::opt<bool> Werror("Werror", cl::desc("With --check: findings are errors (exit status 1)"),
                            cl::cat(OptCategory));
static cl::opt<std::string> Format("format", cl::desc("With --check: 'text' (default) or 'sarif' (SARIF 2.1.0)"),
                                   cl::init("text"), cl::value_desc("format"), cl::cat(OptCategory));
static cl::opt<bool> Fix("fix",
                         cl::desc("With --check: apply the fix-its to the sources (backups as with --in-place)"),
                         cl::cat(OptCategory));
static cl::opt<bool> ListChecks("list-checks", cl::desc("Print the checks of --check"), cl::cat(OptCategory));
static cl::opt<std::string> HtmlDir("html-dir",
                                    cl::desc("Also write each file's side-by-side HTML page to <dir> and update "
                                             "<dir>/index.html (what ompi-cc --ompi-diff=DIR uses)"),
                                    cl::value_desc("dir"), cl::cat(OptCategory));
static cl::opt<bool> InPlace("in-place",
                             cl::desc("Write the transformed sources over the inputs (only those that change), "
                                      "keeping the originals as FILE<backup suffix>"),
                             cl::cat(OptCategory));
static cl::opt<std::string> BackupSuffix("backup-suffix",
                                         cl::desc("Suffix of --in-place backups ('' for none; default .orig)"),
                                         cl::init(".orig"), cl::value_desc("suffix"), cl::cat(OptCategory));
static cl::opt<bool> DryRun("dry-run",
                            cl::desc("Print the unified diff of every pending change and write nothing; exit 1 "
                                     "when a change is pending, 0 when none, 3 when a file cannot be processed"),
                            cl::cat(OptCategory));

static bool writeFile(StringRef Path, StringRef Text);

/// A --transforms / --checks list: names separated by commas, 'all' or
/// 'none', '-name' removing one (a leading '-x' means all but x); the
/// registries run in their own order whatever the list's. "none" stands for
/// the empty selection. Returns the first unknown name, if any.
static std::optional<std::string> parseSelection(StringRef List, ArrayRef<StringRef> Names,
                                                 std::vector<std::string> &Out) {
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

/// --check --fix: every fix-it applied to its file (the original kept as
/// FILE<backup suffix>, never overwriting an existing backup).
static bool applyFixIts(const std::vector<FileOutcome> &Outcomes) {
  for (const FileOutcome &O : Outcomes) {
    // Offsets of line starts, to turn line:column into offsets.
    std::vector<size_t> Starts{0};
    for (size_t I = 0; I < O.Original.size(); ++I)
      if (O.Original[I] == '\n')
        Starts.push_back(I + 1);
    auto at = [&](unsigned L, unsigned C) { return L >= 1 && L <= Starts.size() ? Starts[L - 1] + C - 1 : 0; };
    std::vector<std::tuple<size_t, size_t, std::string>> Edits;
    for (const Finding &F : O.Findings)
      for (const FixIt &X : F.Fixes)
        Edits.push_back({at(X.Line, X.Column), at(X.EndLine, X.EndColumn), X.Text});
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
    if (!BackupSuffix.empty()) {
      if (sys::fs::exists(O.Path + BackupSuffix)) {
        errs() << "ompi-opt: error: " << P << BackupSuffix
               << " exists: remove it or choose another --backup-suffix; the fix-its were not applied\n";
        return false;
      }
      if (!writeFile(O.Path + BackupSuffix, O.Original))
        return false;
    }
    if (!writeFile(O.Path, Text))
      return false;
    errs() << "ompi-opt: applied " << Edits.size() << (Edits.size() == 1 ? " fix-it to " : " fix-its to ") << P
           << "\n";
  }
  return true;
}

static bool writeFile(StringRef Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return true;
  }
  SmallString<256> Tmp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(Path + ".ompi-tmp-%%%%%%", FD, Tmp)) {
    errs() << "ompi-opt: error: cannot write " << Path << ": " << EC.message() << "\n";
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      errs() << "ompi-opt: error: cannot write " << Path << ": " << OS.error().message() << "\n";
      sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path)) {
    errs() << "ompi-opt: error: cannot write " << Path << ": " << EC.message() << "\n";
    sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

static void printModel(raw_ostream &OS) {
  for (const FunctionModel &F : allFunctions()) {
    OS << F.Name << " [" << categoryName(F.Cat) << ", " << modeName(F.M) << "]";
    for (const ArgModel &A : F.Args)
      OS << " " << A.Name << ":" << roleName(A.R);
    OS << "\n";
  }
}

int main(int argc, const char **argv) {
  cl::HideUnrelatedOptions(OptCategory);
  cl::SetVersionPrinter([](raw_ostream &OS) { OS << "ompi-opt " << OMPI_VERSION << " (Clang " << CLANG_VERSION_STRING << ")\n"; });

  // Everything after "--" is the compile command.
  std::string DBError;
  int Argc = argc;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, argv, DBError);
  cl::ParseCommandLineOptions(
      Argc, argv,
      "ompi-opt: partial evaluation and optimisation of MPI C programs\n\n"
      "  ompi-opt --report FILE.c -- <compile flags>       per-call report\n"
      "  ompi-opt FILE.c -o OUT.c -- <compile flags>       transformed source\n"
      "  ompi-opt --diff FILE.c -- <compile flags>         unified diff with the reasons\n"
      "  ompi-opt --in-place FILES -- <compile flags>      transform the sources (backups FILE.orig)\n"
      "  ompi-opt --dry-run FILES -- <compile flags>       diff; exit 1 when a change is pending\n"
      "  ompi-opt --check FILES -- <compile flags>         lint: clang-style diagnostics (--format=sarif)\n");

  if (ListModel) {
    printModel(outs());
    return 0;
  }
  if (ListTransforms) {
    for (const TransformInfo &T : transforms())
      outs() << T.Name << ": " << T.Summary << "\n";
    return 0;
  }
  if (ListChecks) {
    for (const CheckInfo &K : checks())
      outs() << K.Name << " (" << K.Kind << "): " << K.Summary << "\n";
    return 0;
  }
  if (Sources.empty() && !BuildPath.empty()) {
    // A whole project: every file of the compilation database.
    std::string Err;
    if (auto PDB = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Err))
      for (const std::string &F : PDB->getAllFiles())
        if (StringRef(F).ends_with(".c"))
          Sources.push_back(F);
  }
  if (Sources.empty())
    return usage("no input files (see --help)");
  if (Format != "text" && Format != "sarif")
    return usage("--format takes 'text' or 'sarif', not '" + Format + "'");
  if ((Format.getNumOccurrences() || Werror || Fix) && !Check)
    return usage(Twine(Werror ? "--Werror" : Fix ? "--fix" : "--format") + " goes with --check");
  if (Check && (InPlace || DryRun || DiffFormat.getNumOccurrences()))
    return usage("--check does not change or diff the sources; run it separately from --in-place, --dry-run "
                 "and --diff");
  if (Report.getNumOccurrences() && Report != "" && Report != "text" && Report != "json")
    return usage("--report takes 'text' or 'json', not '" + Report + "'");
  bool WantHtml = DiffFormat == "html";
  bool WantDiff = (DiffFormat.getNumOccurrences() > 0 && !WantHtml) || DryRun;
  if (DiffFormat.getNumOccurrences() && DiffFormat != "" && DiffFormat != "unified" && !WantHtml)
    return usage("--diff takes 'unified' or 'html', not '" + DiffFormat + "'");
  bool HtmlToDir = WantHtml && !Output.empty() && (StringRef(Output).ends_with("/") || sys::fs::is_directory(Output));
  if (WantHtml && Sources.size() > 1 && !HtmlToDir)
    return usage("--diff=html with several files writes a page per file: give -o DIR/");
  if (InPlace && !Output.empty())
    return usage("--in-place writes over the inputs; it does not take -o");
  if (InPlace && BackupSuffix.getNumOccurrences() && BackupSuffix.find('/') != std::string::npos)
    return usage("--backup-suffix must not contain '/'");
  if (!Output.empty() && Sources.size() > 1 && !WantDiff && !WantHtml && !Check)
    return usage("-o takes one input file; " + Twine(Sources.size()) + " were given");
  for (const std::string &S : Sources) {
    if (!sys::fs::exists(S))
      return usage("no such file: " + S);
    if (!Output.empty() && Output != "-" && sys::fs::exists(Output.getValue()) && sys::fs::equivalent(S, Output.getValue()))
      return usage("refusing to overwrite the input file " + S + " (-o names the input)");
  }

  if (!BuildPath.empty()) {
    std::string Err;
    DB = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Err);
    if (!DB)
      return usage("cannot load the compilation database from " + BuildPath + ": " + Err);
  }
  if (!DB)
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{});

  PipelineOptions Opts;
  {
    std::vector<StringRef> Names;
    for (const TransformInfo &T : transforms())
      Names.push_back(T.Name);
    if (auto Err = parseSelection(TransformList, Names, Opts.Transforms))
      return usage("--transforms: unknown transformation '" + *Err + "' (see --list-transforms)");
  }
  if (Check) {
    Opts.RunChecks = true;
    std::vector<StringRef> Names;
    for (const CheckInfo &K : checks())
      Names.push_back(K.Name);
    if (auto Err = parseSelection(CheckList, Names, Opts.Checks))
      return usage("--checks: unknown check '" + *Err + "' (see --list-checks)");
  }
  Opts.Eval.ClosedWorld = ClosedWorld;
  Opts.LineDirectives = LineDirectives;
  Opts.ListDatatypes = ListDatatypes;
  std::string ResourceDir = OMPI_CLANG_RESOURCE_DIR;
  if (auto Env = sys::Process::GetEnv("MPIOPT_RESOURCE_DIR"))
    ResourceDir = *Env;
  if (!ResourceDir.empty())
    Opts.ExtraArgs.push_back("-resource-dir=" + ResourceDir);
  if (!MPIInclude.empty()) {
    Opts.ExtraArgs.push_back("-idirafter");
    Opts.ExtraArgs.push_back(MPIInclude);
  }
  // The user's warnings are the real compiler's business; errors still stop
  // us. Legacy C that GCC accepts with a warning but Clang rejects by default
  // (implicit declarations, implicit int, int/pointer conversions) is
  // accepted too: ompi-opt must parse whatever mpicc compiles.
  for (const char *W : {"implicit-function-declaration", "implicit-int", "int-conversion",
                        "incompatible-pointer-types", "incompatible-function-pointer-types", "return-type"})
    Opts.ExtraArgs.push_back(std::string("-Wno-error=") + W);
  Opts.ExtraArgs.push_back("-w");
  Opts.ExtraArgs.push_back("-Qunused-arguments");

  std::vector<FileOutcome> Outcomes;
  if (!runPipeline(*DB, Sources, Opts, Outcomes)) {
    errs() << "ompi-opt: error: could not process "
           << (Sources.size() == 1 ? Sources.front() : std::string("the input files")) << "; nothing was written\n";
    return DryRun ? 3 : 1;
  }

  if (ListDatatypes) {
    for (const FileOutcome &O : Outcomes)
      for (auto &[Name, Size] : O.Datatypes)
        outs() << Name << " " << Size << "\n";
    return 0;
  }

  if (Check) {
    std::string Text;
    raw_string_ostream OS(Text);
    unsigned N = 0;
    for (const FileOutcome &O : Outcomes)
      N += O.Findings.size();
    if (Format == "sarif")
      writeSarif(OS, Outcomes, OMPI_VERSION, Werror);
    else
      writeDiagnostics(OS, Outcomes, Werror);
    OS.flush();
    if (!writeFile(Output.empty() ? "-" : Output.getValue(), Text))
      return 1;
    if (Fix && !applyFixIts(Outcomes))
      return 1;
    return Werror && N ? 1 : 0;
  }

  bool WantReport = Report.getNumOccurrences() > 0;
  if (WantReport) {
    std::vector<FileResult> Files;
    for (const FileOutcome &O : Outcomes)
      Files.push_back(O.Analysis);
    std::string Text;
    raw_string_ostream OS(Text);
    if (Report == "json")
      writeJSONReport(OS, Files);
    else
      writeTextReport(OS, Files);
    OS.flush();
    if (!writeFile(ReportFile.empty() ? "-" : ReportFile.getValue(), Text))
      return 1;
  }
  // HTML pages: to -o (a file or DIR/) with --diff=html, and to --html-dir.
  auto page = [](const FileOutcome &O) {
    std::string Text;
    raw_string_ostream OS(Text);
    writeHtmlDiff(OS, displayPath(O.Path), O.Original, O.Transformed, O.Analysis);
    OS.flush();
    return Text;
  };
  auto writePages = [&](StringRef Dir) {
    if (std::error_code EC = sys::fs::create_directories(Dir)) {
      errs() << "ompi-opt: error: cannot create " << Dir << ": " << EC.message() << "\n";
      return false;
    }
    for (const FileOutcome &O : Outcomes) {
      SmallString<256> Page(Dir);
      sys::path::append(Page, htmlPageName(displayPath(O.Path)));
      if (!writeFile(Page, page(O)))
        return false;
    }
    std::string Err;
    if (!writeHtmlIndex(Dir, Err)) {
      errs() << "ompi-opt: error: cannot write " << Dir << "/index.html: " << Err << "\n";
      return false;
    }
    return true;
  };
  if (!HtmlDir.empty() && !writePages(HtmlDir))
    return 1;
  if (WantHtml) {
    if (HtmlToDir)
      return writePages(Output) ? 0 : 1;
    return writeFile(Output.empty() ? "-" : Output.getValue(), page(Outcomes.front())) ? 0 : 1;
  }
  if (WantDiff) {
    std::string Text;
    raw_string_ostream OS(Text);
    for (const FileOutcome &O : Outcomes)
      writeUnifiedDiff(OS, displayPath(O.Path), O.Original, O.Transformed, O.Analysis.Notes);
    OS.flush();
    if (!writeFile(Output.empty() || DryRun ? "-" : Output.getValue(), Text))
      return 1;
    if (DryRun) // nothing is written: a pipeline gates on the exit status
      return llvm::any_of(Outcomes, [](const FileOutcome &O) { return O.Original != O.Transformed; }) ? 1 : 0;
    if (!InPlace)
      return 0;
  }
  if (InPlace) {
    // Every file was processed; an old backup is never overwritten (it may
    // be the only copy of the original); then back up and replace.
    if (!BackupSuffix.empty())
      for (const FileOutcome &O : Outcomes)
        if (O.Original != O.Transformed && sys::fs::exists(O.Path + BackupSuffix)) {
          errs() << "ompi-opt: error: " << displayPath(O.Path) << BackupSuffix
                 << " exists: remove it or choose another --backup-suffix; nothing was written\n";
          return 1;
        }
    for (const FileOutcome &O : Outcomes) {
      if (O.Original == O.Transformed)
        continue;
      if (!BackupSuffix.empty() && !writeFile(O.Path + BackupSuffix, O.Original))
        return 1;
      if (!writeFile(O.Path, O.Transformed))
        return 1;
      std::string P = displayPath(O.Path);
      errs() << "ompi-opt: rewrote " << P
             << (BackupSuffix.empty() ? std::string() : " (original in " + P + BackupSuffix + ")") << "\n";
    }
    return 0;
  }
  if (!Output.empty())
    return writeFile(Output, Outcomes.front().Transformed) ? 0 : 1;
  if (!WantReport)
    for (const FileOutcome &O : Outcomes)
      if (!writeFile("-", O.Transformed))
        return 1;
  return 0;
}
