//===- Lint.cpp - Rendering the findings of ompi-opt --check --------------===//
#include "report/Lint.h"
#include "support/FileOutput.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace ompi {

static StringRef lineOf(StringRef Text, unsigned Line) {
  for (unsigned L = 1; L < Line && !Text.empty(); ++L)
    Text = Text.split('\n').second;
  return Text.split('\n').first.rtrim('\r');
}

unsigned writeDiagnostics(raw_ostream &OS, ArrayRef<LintFile> Files, bool AsErrors) {
  unsigned N = 0;
  for (const LintFile &F : Files)
    for (const Finding &D : F.Findings) {
      ++N;
      OS << displayPath(D.File) << ":" << D.Line << ":" << D.Column << ": " << (AsErrors ? "error" : "warning") << ": "
         << D.Message << " [ompi-" << D.Check << "]\n";
      StringRef Src = lineOf(F.Original, D.Line);
      OS << Src << "\n";
      std::string Caret;
      for (unsigned I = 1; I < D.Column && I <= Src.size(); ++I)
        Caret += Src[I - 1] == '\t' ? '\t' : ' ';
      OS << Caret << "^\n";
      for (const FixIt &X : D.Fixes)
        if (X.Line == D.Line) {
          std::string Pad;
          for (unsigned I = 1; I < X.Column && I <= Src.size(); ++I)
            Pad += Src[I - 1] == '\t' ? '\t' : ' ';
          OS << Pad << X.Text << "\n";
        }
    }
  if (N)
    OS << N << (N == 1 ? (AsErrors ? " error" : " warning") : (AsErrors ? " errors" : " warnings")) << " generated.\n";
  return N;
}

static std::string uriOf(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  std::string U = "file://";
  for (char C : Abs)
    U += C == ' ' ? std::string("%20") : std::string(1, C);
  return U;
}

void writeSarif(raw_ostream &OS, ArrayRef<LintFile> Files, StringRef Version, bool AsErrors) {
  json::Array Rules;
  for (const CheckInfo &K : checks())
    Rules.push_back(json::Object{{"id", std::string("ompi-") + K.Name},
                                 {"name", K.Name},
                                 {"shortDescription", json::Object{{"text", K.Summary}}},
                                 {"properties", json::Object{{"tags", json::Array{K.Kind, "MPI"}}}},
                                 {"defaultConfiguration", json::Object{{"level", "warning"}}}});
  json::Array Results;
  for (const LintFile &F : Files)
    for (const Finding &D : F.Findings) {
      json::Object Loc{{"physicalLocation",
                        json::Object{{"artifactLocation", json::Object{{"uri", uriOf(D.File)}}},
                                     {"region", json::Object{{"startLine", D.Line}, {"startColumn", D.Column}}}}}};
      size_t RuleIndex = 0;
      for (size_t I = 0; I < checks().size(); ++I)
        if (D.Check == checks()[I].Name)
          RuleIndex = I;
      json::Object R{{"ruleId", "ompi-" + D.Check},
                     {"ruleIndex", int64_t(RuleIndex)},
                     {"level", AsErrors ? "error" : "warning"},
                     {"message", json::Object{{"text", D.Message}}},
                     {"locations", json::Array{std::move(Loc)}}};
      if (!D.Fixes.empty()) {
        json::Array Reps;
        for (const FixIt &X : D.Fixes)
          Reps.push_back(json::Object{{"deletedRegion", json::Object{{"startLine", X.Line},
                                                                     {"startColumn", X.Column},
                                                                     {"endLine", X.EndLine},
                                                                     {"endColumn", X.EndColumn}}},
                                      {"insertedContent", json::Object{{"text", X.Text}}}});
        R["fixes"] = json::Array{json::Object{
            {"description", json::Object{{"text", "apply the fix-it of ompi-" + D.Check}}},
            {"artifactChanges", json::Array{json::Object{{"artifactLocation", json::Object{{"uri", uriOf(D.File)}}},
                                                         {"replacements", std::move(Reps)}}}}}};
      }
      Results.push_back(std::move(R));
    }
  json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{json::Object{{"tool", json::Object{{"driver", json::Object{{"name", "ompi-opt"},
                                                                                      {"version", Version.str()},
                                                                                      {"rules", std::move(Rules)}}}}},
                                        {"results", std::move(Results)}}}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

} // namespace ompi
