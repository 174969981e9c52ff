//===- Driver.h - ompi-opt's output modes ----------------------------------===//
//
// Runs the pipeline (parse, analyse, transform, check) over the sources and
// writes what the options ask for: the transformed source, the report, a
// unified or HTML diff, lint diagnostics or SARIF, or (--in-place) the
// transformed sources over the inputs with backups. Without --in-place or
// --fix the inputs are never modified; on any error nothing is written.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_DRIVER_DRIVER_H
#define OMPI_TOOL_DRIVER_DRIVER_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// ompi-opt's version (the project's, from CMake).
const char *toolVersion();
/// The MPI include directory --mpi-include defaults to: MPICH's, as
/// `mpicc.mpich -show` named it when the tool was configured.
const char *defaultMPIInclude();
/// Where the default machine profiles are: share/ompi/profiles beside the
/// directory of the ompi-opt executable.
std::string defaultProfileDir();
/// The directory of the checks' pages (docs/checks): share/doc/ompi/checks
/// beside bin/ when installed, else <checkout>/docs/checks for a binary in
/// <checkout>/build/bin, else the source tree's; "" when none exists.
std::string checksDocDir();
/// The runtime's and templates' include directories (searched after all
/// others): include/ beside bin/ when installed, else the source tree's.
std::vector<std::string> runtimeIncludeDirs();

/// The command line, as main.cpp parsed it. An optional value is absent
/// when its option was not given (and empty when given without a value).
struct DriverOptions {
  std::vector<std::string> Sources;
  std::string Output;                    ///< -o
  std::optional<std::string> Report;     ///< --report[=text|json]
  std::string ReportFile;                ///< --report-file
  std::string BuildPath;                 ///< -p
  std::string MPIInclude;                ///< --mpi-include
  std::optional<std::string> Profile;    ///< --profile
  std::string TransformList = "all";     ///< --transforms
  std::optional<std::string> DiffFormat; ///< --diff[=unified|html]
  std::optional<std::string> CheckList;  ///< --checks (else .ompi-opt's Checks, else all)
  std::optional<std::string> Werror;     ///< --Werror[=checks] ("": the correctness checks)
  std::optional<std::string> Format;     ///< --format=text|sarif
  std::optional<std::string> DocsUrl;    ///< --docs-url (SARIF helpUri base)
  std::optional<std::string> Explain;    ///< --explain CHECK
  std::string HtmlDir;                   ///< --html-dir
  std::string BackupSuffix = ".orig";    ///< --backup-suffix
  bool BackupSuffixGiven = false;
  bool ClosedWorld = false, LineDirectives = false, Reassociate = false, UniformEnv = false;
  std::vector<int> NProcs; ///< --nprocs
  bool ListModel = false, ListDatatypes = false, ListTransforms = false, ListChecks = false;
  bool Check = false, Fix = false, InPlace = false, DryRun = false, Summary = false;
  std::vector<std::string> SummaryFrom;  ///< --summary-from: JSON reports to summarise
  bool WholeProgram = false;             ///< --whole-program
  bool WholeProgramImplied = false;      ///< -p DIR alone: the whole database, when it is one program
  std::vector<std::string> ProgramFacts; ///< --program-facts
  std::string FactsOut;                  ///< --facts-out
  /// The compile command after "--", if one was given.
  std::unique_ptr<clang::tooling::CompilationDatabase> CommandLineDB;
};

struct PipelineOptions;

/// What the pipeline runs for these options: the selections, the
/// evaluator's options and the compiler arguments every command gets
/// (resource directory, MPI and runtime include directories, legacy C
/// accepted). An error message, if any.
std::optional<std::string> pipelineOptions(const DriverOptions &O, PipelineOptions &Opts);

/// Run ompi-opt; returns its exit status (docs/user-guide.md lists them).
int runDriver(DriverOptions &O);

} // namespace ompi

#endif
