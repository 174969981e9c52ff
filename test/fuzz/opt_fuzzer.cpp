//===- opt_fuzzer.cpp - coverage-guided fuzzing of ompi-opt (libFuzzer) ---===//
//
// ompi-opt-fuzzer (cmake -DOMPI_LIBFUZZER=ON with Clang; scripts/fuzz-tool
// --libfuzzer runs it) feeds each input to the pipeline as one C source, the
// way ompi-cc runs ompi-opt (closed world, #line kept, lint checks on, the
// shipped machine profile), with every layer built for libFuzzer's coverage
// and UndefinedBehaviorSanitizer. An input fails when the pipeline
//   - crashes or trips UndefinedBehaviorSanitizer (libFuzzer reports it),
//   - runs past libFuzzer's -timeout (a hang), or
//   - accepts the source and writes a transformed source that Clang, with
//     the same arguments, rejects (a rewrite that breaks code), or
//   - writes a JSON report, SARIF or HTML summary that is not JSON (every
//     output of ompi-opt is rendered: text and JSON reports, diagnostics,
//     SARIF, and for a changed source the unified diff and HTML page).
// A source Clang rejects is never transformed: the pipeline fails on it
// before writing anything. Clang's diagnostics go to /dev/null unless
// MPIOPT_FUZZ_VERBOSE is set; MPIOPT_FUZZ_MPI_INCLUDE names another MPI's
// include directory (default: MPICH's, as for ompi-opt).
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "driver/Pipeline.h"
#include "report/Diff.h"
#include "report/HtmlDiff.h"
#include "report/Lint.h"
#include "report/Report.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ompi;

namespace {

struct Fuzzer {
  PipelineOptions Opts;
  std::string Dir, Path;
  bool Verbose = false;
};

Fuzzer *F;

/// Runs Body with standard error sent to /dev/null (Clang's diagnostics on
/// broken inputs would bury libFuzzer's own output) unless verbose.
template <typename Fn> auto quietly(Fn Body) {
  int Saved = -1;
  if (!F->Verbose) {
    fflush(stderr);
    Saved = dup(2);
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0) {
      dup2(Null, 2);
      close(Null);
    }
  }
  auto Result = Body();
  if (Saved >= 0) {
    fflush(stderr);
    dup2(Saved, 2);
    close(Saved);
  }
  return Result;
}

/// Whether Clang accepts Text with the pipeline's own arguments.
bool compiles(const std::string &Text) {
  std::vector<std::string> Args{"-std=gnu11"};
  Args.insert(Args.end(), F->Opts.ExtraArgs.begin(), F->Opts.ExtraArgs.end());
  return quietly([&] {
    return clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), Text, Args, F->Path);
  });
}

[[noreturn]] void fail(const char *Why, const std::string &Input, const std::string &Output) {
  llvm::errs() << "ompi-opt-fuzzer: " << Why << "\n--- input ---\n"
               << Input << "\n--- output ---\n"
               << Output << "\n--- end ---\n";
  abort();
}

/// Every output ompi-opt writes from O; the JSON ones must parse.
void renderOutputs(const FileOutcome &O, const std::string &Input) {
  std::vector<FileResult> Files{O.Analysis};
  llvm::raw_null_ostream Null;
  std::string Json, Sarif, Summary;
  writeTextReport(Null, Files, /*Long=*/true);
  {
    llvm::raw_string_ostream OS(Json);
    writeJSONReport(OS, Files);
  }
  LintFile L{O.Original, O.Findings};
  writeDiagnostics(Null, L);
  {
    llvm::raw_string_ostream OS(Sarif);
    writeSarif(OS, L, "fuzz");
  }
  if (O.Transformed != O.Original) {
    writeUnifiedDiff(Null, O.Path, O.Original, O.Transformed, O.Analysis.Notes);
    Summary = renderHtmlDiff(O.Path, O.Original, O.Transformed, O.Analysis).Summary;
  }
  for (auto [What, Text] : {std::pair<const char *, std::string *>{"the JSON report", &Json},
                            {"the SARIF log", &Sarif},
                            {"the HTML page's summary", &Summary}})
    if (!Text->empty())
      if (llvm::Expected<llvm::json::Value> V = llvm::json::parse(*Text); !V) {
        llvm::consumeError(V.takeError());
        fail((std::string(What) + " is not JSON").c_str(), Input, *Text);
      }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  F = new Fuzzer;
  F->Verbose = getenv("MPIOPT_FUZZ_VERBOSE") != nullptr;
  DriverOptions O;
  O.ClosedWorld = O.LineDirectives = O.Check = true;
  const char *Inc = getenv("MPIOPT_FUZZ_MPI_INCLUDE");
  O.MPIInclude = Inc ? Inc : defaultMPIInclude();
  if (auto Msg = pipelineOptions(O, F->Opts)) {
    llvm::errs() << "ompi-opt-fuzzer: " << *Msg << "\n";
    exit(2);
  }
  llvm::SmallString<128> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("ompi-opt-fuzzer", Dir)) {
    llvm::errs() << "ompi-opt-fuzzer: cannot create a scratch directory: " << EC.message() << "\n";
    exit(2);
  }
  F->Dir = Dir.str().str();
  F->Path = F->Dir + "/input.c";
  // The oracle itself: a correct source compiles, a broken one does not.
  if (!compiles("int main(void) { return 0; }\n") || compiles("int main(void) { return }\n")) {
    llvm::errs() << "ompi-opt-fuzzer: Clang's check of a transformed source does not work (see "
                    "MPIOPT_FUZZ_VERBOSE=1)\n";
    exit(2);
  }
  atexit([] {
    llvm::sys::fs::remove(F->Path);
    llvm::sys::fs::remove(F->Dir);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 64 * 1024) // larger inputs only slow the search down
    return -1;
  std::string Input(reinterpret_cast<const char *>(Data), Size);
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(F->Path, EC);
    if (EC) {
      llvm::errs() << "ompi-opt-fuzzer: cannot write " << F->Path << ": " << EC.message() << "\n";
      exit(2);
    }
    Out << Input;
  }
  clang::tooling::FixedCompilationDatabase DB(F->Dir, {"-std=gnu11"});
  std::vector<FileOutcome> Outcomes;
  bool Parsed = quietly([&] { return runPipeline(DB, {F->Path}, F->Opts, Outcomes); });
  if (!Parsed || Outcomes.empty())
    return 0;
  renderOutputs(Outcomes[0], Input);
  if (Outcomes[0].Transformed == Outcomes[0].Original)
    return 0;
  if (Outcomes[0].Original != Input)
    fail("the pipeline parsed another text than the input", Input, Outcomes[0].Original);
  if (!compiles(Outcomes[0].Transformed))
    fail("the transformed source does not compile (the input does)", Input, Outcomes[0].Transformed);
  return 0;
}
