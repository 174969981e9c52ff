//===- main.cpp - ompi-opt: the command line ------------------------------===//
//
// Parses the options and hands them to the driver (lib/driver/Driver.h),
// which runs the pipeline and writes the outputs.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "clang/Basic/Version.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory OptCategory("ompi-opt options");

static cl::list<std::string> Sources(cl::Positional, cl::desc("<source files>"), cl::cat(OptCategory));
static cl::opt<std::string> Output("o", cl::desc("Write the transformed source to <file> ('-' for standard output)"),
                                   cl::value_desc("file"), cl::cat(OptCategory));
static cl::opt<std::string>
    Report("report", cl::ValueOptional,
           cl::desc("Print the per-call report; format text (default: a line per call), long (every argument) or json"),
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
static cl::opt<bool> Summary(
    "summary",
    cl::desc("Print the whole program's reach: its communication call sites by what happened (changed, by "
             "transformation; declined, by reason; not considered, by call), with the first sites of each (-p DIR "
             "alone: every file of the compilation database); nothing is written"),
    cl::cat(OptCategory));
static cl::list<std::string> SummaryFrom(
    "summary-from", cl::CommaSeparated,
    cl::desc("Print the summary (--summary) of JSON reports written earlier (--report=json; ompi-cc --ompi-summary "
             "keeps one beside each object) instead of analysing sources"),
    cl::value_desc("file,..."), cl::cat(OptCategory));
static cl::opt<bool> WholeProgram(
    "whole-program",
    cl::desc("The input files are every C file of one program (exactly one defines main): decide with what each "
             "tells the others (globals other files write, what callers in other files pass, results of functions "
             "defined elsewhere), solved over rounds of analysis (with -p DIR alone: the database's files)"),
    cl::cat(OptCategory));
static cl::list<std::string> ProgramFactsIn(
    "program-facts", cl::CommaSeparated,
    cl::desc("Decide with these whole-program facts (written by --whole-program --facts-out) instead of assuming "
             "the worst of other files"),
    cl::value_desc("file,..."), cl::cat(OptCategory));
static cl::opt<std::string>
    FactsOut("facts-out",
             cl::desc("Write what the input files tell the others (with --whole-program: the program's settled "
                      "facts) as JSON to <file>; alone, nothing else is written"),
             cl::value_desc("file"), cl::cat(OptCategory));
static cl::opt<bool>
    UniformEnv("uniform-env",
               cl::desc("Treat getenv's result as the same on every rank (MPI does not promise every process the same "
                        "environment; most launchers pass it alike)"),
               cl::cat(OptCategory));
static cl::list<int>
    NProcs("nprocs", cl::CommaSeparated,
           cl::desc("Judge the program's runs at these process counts (the lint's per-rank runs; "
                    "default: a .ompi-opt's NProcs, else 2, 3, 4 and 8, or those main's size guard accepts)"),
           cl::value_desc("N,..."), cl::cat(OptCategory));
static cl::opt<bool> LineDirectives(
    "line-directives",
    cl::desc("Keep every original line's number in the transformed source (#line after inserted lines), for code "
             "compiled in place of the original (ompi-cc sets this)"),
    cl::cat(OptCategory));
static cl::opt<bool> Reassociate(
    "reassociate",
    cl::desc("Let transformations reorder floating-point sums and products (vector-reductions: the runtime's "
             "algorithms associate them differently from the MPI's; the last bits of a result may change)"),
    cl::cat(OptCategory));
static cl::opt<std::string> MPIInclude("mpi-include",
                                       cl::desc("MPI include directory searched after all others ('' for none)"),
                                       cl::init(ompi::defaultMPIInclude()), cl::value_desc("dir"),
                                       cl::cat(OptCategory));
static cl::opt<std::string>
    Profile("profile",
            cl::desc("Machine profile (JSON, from scripts/tune) that decides choices made on performance grounds; "
                     "'none' for no profile. Default: $MPIOPT_PROFILE, else the shipped profile of the MPI whose "
                     "mpi.h the source includes"),
            cl::value_desc("file"), cl::cat(OptCategory));
static cl::opt<bool> ListModel("list-model", cl::desc("Print every modelled MPI function with its argument roles"),
                               cl::cat(OptCategory));
static cl::opt<bool> ListDatatypes("list-datatypes",
                                   cl::desc("Print the size of every predefined MPI datatype for the given source's "
                                            "target and MPI header"),
                                   cl::cat(OptCategory));
static cl::opt<bool> ListTransforms("list-transforms", cl::desc("Print the registered transformations"),
                                    cl::cat(OptCategory));

static cl::opt<std::string>
    TransformList("transforms",
                  cl::desc("Transformations to run: a comma-separated list of names (see --list-transforms), or 'all' "
                           "(default); '-name' removes one, 'none' runs none (report only)"),
                  cl::init("all"), cl::cat(OptCategory));

static cl::opt<std::string> DiffFormat("diff", cl::ValueOptional,
                                       cl::desc("Show what the transformations change with the reason for each "
                                                "change: 'unified' (default) diff, or 'html' side-by-side page "
                                                "(-o FILE.html, or -o DIR/ for a page per file and an index)"),
                                       cl::value_desc("format"), cl::cat(OptCategory));
static cl::opt<bool> Check("check",
                           cl::desc("Lint: report correctness problems and missed optimisations as clang-style "
                                    "diagnostics (or SARIF with --format=sarif); the sources are not changed"),
                           cl::cat(OptCategory));
static cl::opt<std::string>
    CheckList("checks",
              cl::desc("Checks to run with --check, as clang-tidy reads them: names or globs separated by commas, "
                       "with or without 'ompi-', groups 'correctness-*' and 'optimisation-*', '-item' removes; "
                       "default: .ompi-opt's Checks, else all (see --list-checks)"),
              cl::cat(OptCategory));
static cl::opt<std::string> Werror("Werror", cl::ValueOptional,
                                   cl::desc("With --check: findings of the correctness checks are errors (exit "
                                            "status 1); --Werror=LIST for other checks (a --checks list, 'all')"),
                                   cl::value_desc("checks"), cl::cat(OptCategory));
static cl::opt<std::string> Format("format", cl::desc("With --check: 'text' (default) or 'sarif' (SARIF 2.1.0)"),
                                   cl::init("text"), cl::value_desc("format"), cl::cat(OptCategory));
static cl::opt<std::string> DocsUrl("docs-url",
                                    cl::desc("With --check --format=sarif: each rule's helpUri is <base>/<check>.md "
                                             "(default: the installed pages as a file URI)"),
                                    cl::value_desc("base"), cl::cat(OptCategory));
static cl::opt<std::string> Explain("explain",
                                    cl::desc("Print the page of a check (what it finds, why, how to silence it)"),
                                    cl::value_desc("check"), cl::cat(OptCategory));
static cl::opt<bool> Fix("fix", cl::desc("With --check: apply the fix-its to the sources (backups as with --in-place)"),
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

template <typename T> static std::optional<std::string> given(const cl::opt<T> &O) {
  return O.getNumOccurrences() ? std::optional<std::string>(O.getValue()) : std::nullopt;
}

int main(int argc, const char **argv) {
  cl::HideUnrelatedOptions(OptCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "ompi-opt " << ompi::toolVersion() << " (Clang " << CLANG_VERSION_STRING << ")\n"; });

  // Everything after "--" is the compile command.
  ompi::DriverOptions O;
  std::string DBError;
  int Argc = argc;
  O.CommandLineDB = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, argv, DBError);
  // A usage error (an unknown option, a bad value) exits 2, as every other
  // usage error of ompi-opt does.
  if (!cl::ParseCommandLineOptions(
          Argc, argv,
          "ompi-opt: partial evaluation and optimisation of MPI C programs\n\n"
          "  ompi-opt --report FILE.c -- <compile flags>       per-call report\n"
          "  ompi-opt FILE.c -o OUT.c -- <compile flags>       transformed source\n"
          "  ompi-opt --diff FILE.c -- <compile flags>         unified diff with the reasons\n"
          "  ompi-opt --in-place FILES -- <compile flags>      transform the sources (backups FILE.orig)\n"
          "  ompi-opt --dry-run FILES -- <compile flags>       diff; exit 1 when a change is pending\n"
          "  ompi-opt --check FILES -- <compile flags>         lint: clang-style diagnostics (--format=sarif)\n",
          &errs()))
    return 2;

  O.Sources.assign(Sources.begin(), Sources.end());
  O.Output = Output;
  O.Report = given(Report);
  O.ReportFile = ReportFile;
  O.BuildPath = BuildPath;
  O.MPIInclude = MPIInclude;
  O.Profile = given(Profile);
  O.TransformList = TransformList;
  O.DiffFormat = given(DiffFormat);
  O.CheckList = given(CheckList);
  O.Werror = given(Werror);
  O.Format = given(Format);
  O.DocsUrl = given(DocsUrl);
  O.Explain = given(Explain);
  O.HtmlDir = HtmlDir;
  O.BackupSuffix = BackupSuffix;
  O.BackupSuffixGiven = BackupSuffix.getNumOccurrences() > 0;
  O.ClosedWorld = ClosedWorld;
  O.UniformEnv = UniformEnv;
  O.NProcs.assign(NProcs.begin(), NProcs.end());
  O.WholeProgram = WholeProgram;
  O.ProgramFacts.assign(ProgramFactsIn.begin(), ProgramFactsIn.end());
  O.FactsOut = FactsOut;
  O.Summary = Summary;
  O.SummaryFrom.assign(SummaryFrom.begin(), SummaryFrom.end());
  O.LineDirectives = LineDirectives;
  O.Reassociate = Reassociate;
  O.ListModel = ListModel;
  O.ListDatatypes = ListDatatypes;
  O.ListTransforms = ListTransforms;
  O.ListChecks = ListChecks;
  O.Check = Check;
  O.Fix = Fix;
  O.InPlace = InPlace;
  O.DryRun = DryRun;
  return ompi::runDriver(O);
}
