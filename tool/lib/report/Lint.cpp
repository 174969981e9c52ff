//===- Lint.cpp - Rendering the findings of ompi-opt --check --------------===//
#include "report/Lint.h"
#include "support/FileOutput.h"
#include "llvm/ADT/StringExtras.h"
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

static const char *levelName(FindingLevel L) {
  return L == FindingLevel::Error ? "error" : L == FindingLevel::Warning ? "warning" : "remark";
}

/// The source line and a caret under Column (and Fixes' text under theirs).
static void showLine(raw_ostream &OS, StringRef Src, unsigned Column, ArrayRef<FixIt> Fixes, unsigned Line) {
  auto Pad = [&](unsigned Col) {
    std::string P;
    for (unsigned I = 1; I < Col && I <= Src.size(); ++I)
      P += Src[I - 1] == '\t' ? '\t' : ' ';
    return P;
  };
  OS << Src << "\n" << Pad(Column) << "^\n";
  for (const FixIt &X : Fixes)
    if (X.Line == Line)
      OS << Pad(X.Column) << X.Text << "\n";
}

/// "1 error, 2 warnings and 3 remarks generated."
static std::string summary(const unsigned Counts[3]) {
  static const char *Names[3][2] = {{"error", "errors"}, {"warning", "warnings"}, {"remark", "remarks"}};
  std::vector<std::string> Parts;
  for (int I = 0; I < 3; ++I)
    if (Counts[I])
      Parts.push_back(std::to_string(Counts[I]) + " " + Names[I][Counts[I] != 1]);
  std::string S;
  for (size_t I = 0; I < Parts.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
  return S + " generated.";
}

unsigned writeDiagnostics(raw_ostream &OS, ArrayRef<LintFile> Files) {
  unsigned N = 0, Counts[3] = {0, 0, 0};
  std::string First;
  for (const LintFile &F : Files)
    for (const Finding &D : F.Findings) {
      if (!N++)
        First = D.Check;
      ++Counts[D.Level == FindingLevel::Error ? 0 : D.Level == FindingLevel::Warning ? 1 : 2];
      OS << displayPath(D.File) << ":" << D.Line << ":" << D.Column << ": " << levelName(D.Level) << ": " << D.Message
         << " [ompi-" << D.Check << "]\n";
      showLine(OS, lineOf(F.Original, D.Line), D.Column, D.Fixes, D.Line);
      for (const RelatedNote &R : D.Notes) {
        OS << displayPath(R.File) << ":" << R.Line << ":" << R.Column << ": note: " << R.Message << "\n";
        if (R.File == D.File)
          showLine(OS, lineOf(F.Original, R.Line), R.Column, {}, 0);
      }
    }
  if (N)
    OS << summary(Counts) << "\n"
       << "For more about a check (what it finds, why, how to silence it): ompi-opt --explain <check>, such as "
          "ompi-opt --explain "
       << First << "\n";
  return N;
}

/// Percent-encoding of the characters a URI path cannot hold as they are.
static std::string encode(StringRef Path) {
  std::string U;
  for (unsigned char C : Path)
    if (llvm::isAlnum(C) || StringRef("/-._~").contains(C))
      U += C;
    else
      U += formatv("%{0:X2}", unsigned(C)).str();
  return U;
}

std::string fileUri(StringRef Path) { return "file://" + encode(Path); }

/// The current directory as a file URI ending in '/': %SRCROOT%.
static std::string srcRoot() {
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  std::string U = "file://" + encode(Cwd);
  return StringRef(U).ends_with("/") ? U : U + "/";
}

/// A SARIF artifactLocation: relative to %SRCROOT% (the current directory)
/// where the file is under it, so code-scanning services place it in the
/// repository; else an absolute file URI.
static json::Object artifact(StringRef Path) {
  SmallString<256> Abs(Path), Cwd;
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  sys::fs::current_path(Cwd);
  StringRef Rel = Abs;
  if (Rel.consume_front(Cwd) && Rel.consume_front("/"))
    return json::Object{{"uri", encode(Rel)}, {"uriBaseId", "%SRCROOT%"}};
  return json::Object{{"uri", "file://" + encode(Abs)}};
}

static json::Object location(StringRef File, unsigned Line, unsigned Column) {
  return json::Object{
      {"physicalLocation", json::Object{{"artifactLocation", artifact(File)},
                                        {"region", json::Object{{"startLine", Line}, {"startColumn", Column}}}}}};
}

/// The run's invocations: one per source that failed, its error as a
/// notification; else one that succeeded.
static json::Array invocations(ArrayRef<LintFailure> Failures) {
  json::Array Out;
  for (const LintFailure &F : Failures) {
    json::Object Loc = F.Line
                           ? location(F.ErrorFile.empty() ? F.Path : F.ErrorFile, F.Line, F.Column)
                           : json::Object{{"physicalLocation", json::Object{{"artifactLocation", artifact(F.Path)}}}};
    json::Object Note{{"level", "error"},
                      {"message", json::Object{{"text", displayPath(F.Path) + ": " + F.Message}}},
                      {"locations", json::Array{std::move(Loc)}}};
    Out.push_back(
        json::Object{{"executionSuccessful", false}, {"toolExecutionNotifications", json::Array{std::move(Note)}}});
  }
  if (Out.empty())
    Out.push_back(json::Object{{"executionSuccessful", true}});
  return Out;
}

void writeSarif(raw_ostream &OS, ArrayRef<LintFile> Files, StringRef Version, ArrayRef<LintFailure> Failures,
                StringRef DocsBase) {
  json::Array Rules;
  for (const CheckInfo &K : checks()) {
    json::Object Rule{
        {"id", std::string("ompi-") + K.Name},
        {"name", K.Name},
        {"shortDescription", json::Object{{"text", K.Summary}}},
        {"properties", json::Object{{"tags", json::Array{K.Kind, "MPI"}}}},
        {"defaultConfiguration", json::Object{{"level", StringRef(K.Kind) != "correctness" ? "note" : "warning"}}}};
    if (!DocsBase.empty())
      Rule["helpUri"] = (DocsBase.ends_with("/") ? DocsBase.str() : DocsBase.str() + "/") + K.Name + ".md";
    Rules.push_back(std::move(Rule));
  }
  json::Array Results;
  for (const LintFile &F : Files)
    for (const Finding &D : F.Findings) {
      size_t RuleIndex = 0;
      for (size_t I = 0; I < checks().size(); ++I)
        if (D.Check == checks()[I].Name)
          RuleIndex = I;
      json::Object R{{"ruleId", "ompi-" + D.Check},
                     {"ruleIndex", int64_t(RuleIndex)},
                     {"level", D.Level == FindingLevel::Error     ? "error"
                               : D.Level == FindingLevel::Warning ? "warning"
                                                                  : "note"},
                     {"message", json::Object{{"text", D.Message}}},
                     {"locations", json::Array{location(D.File, D.Line, D.Column)}}};
      if (!D.Notes.empty()) {
        json::Array Related;
        for (size_t I = 0; I < D.Notes.size(); ++I) {
          json::Object L = location(D.Notes[I].File, D.Notes[I].Line, D.Notes[I].Column);
          L["id"] = int64_t(I);
          L["message"] = json::Object{{"text", D.Notes[I].Message}};
          Related.push_back(std::move(L));
        }
        R["relatedLocations"] = std::move(Related);
      }
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
            {"artifactChanges",
             json::Array{json::Object{{"artifactLocation", artifact(D.File)}, {"replacements", std::move(Reps)}}}}}};
      }
      Results.push_back(std::move(R));
    }
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{json::Object{
                                {"tool", json::Object{{"driver", json::Object{{"name", "ompi-opt"},
                                                                              {"version", Version.str()},
                                                                              {"rules", std::move(Rules)}}}}},
                                {"originalUriBaseIds", json::Object{{"%SRCROOT%", json::Object{{"uri", srcRoot()}}}}},
                                {"invocations", invocations(Failures)},
                                {"results", std::move(Results)}}}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

} // namespace ompi
