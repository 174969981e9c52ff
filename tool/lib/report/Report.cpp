//===- Report.cpp - Text and JSON reports of the analysis ------------------===//
#include "report/Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace ompi;

static std::string argText(const ArgResult &A) {
  std::string S = A.Name + "=" + argClassName(A.Class).str() + "(";
  if (A.Class == ArgClass::Dynamic)
    S += A.Text + ": " + A.Reason;
  else
    S += A.Value + (A.Note.empty() ? "" : "; " + A.Note);
  return S + ")";
}

static std::string setText(llvm::StringRef Name, const SetResult &S) {
  return " " + Name.str() + "=" + argClassName(S.Class).str() + "(" + S.Value + ")";
}

/// The short line of a call: where, then how many arguments of each class
/// and what the ones that are not static are (values, or the text of
/// dynamic ones; why they are dynamic is in --report=long), that part cut
/// at Width columns whatever the length of the file's path.
static std::string shortLine(const CallResult &C, size_t Width) {
  std::string Where = C.File + ":" + std::to_string(C.Line) + ":" + std::to_string(C.Column) + ": ";
  std::string Line = C.Function;
  if (!C.Model)
    return Where + Line + ": not modelled";
  unsigned Count[3] = {0, 0, 0};
  std::vector<std::string> Detail;
  for (const ArgResult &A : C.Args) {
    ++Count[A.Class == ArgClass::Static ? 0 : A.Class == ArgClass::RankRelative ? 1 : 2];
    if (A.Class == ArgClass::RankRelative)
      Detail.push_back(A.Name + "=" + A.Value);
    else if (A.Class == ArgClass::Dynamic)
      Detail.push_back(A.Name + "=" + A.Text); // why: --report=long
  }
  static const char *Names[3] = {"static", "rank-relative", "dynamic"};
  std::vector<std::string> Classes;
  for (int I = 0; I < 3; ++I)
    if (Count[I])
      Classes.push_back(std::to_string(Count[I]) + " " + Names[I]);
  Line += ": " + (C.Args.empty() ? std::string("no arguments") : llvm::join(Classes, ", "));
  if (!Detail.empty())
    Line += " (" + llvm::join(Detail, "; ") + ")";
  if (Line.size() > Width)
    Line = Line.substr(0, Width - 3) + "...";
  return Where + Line;
}

void ompi::writeTextReport(llvm::raw_ostream &OS, const std::vector<FileResult> &Files, bool Long) {
  for (const FileResult &F : Files)
    for (const CallResult &C : F.Calls) {
      if (!Long) {
        OS << shortLine(C, 120) << "\n";
        continue;
      }
      OS << C.File << ":" << C.Line << ":" << C.Column << ": " << C.Function;
      if (!C.Model) {
        OS << ": not modelled\n";
        continue;
      }
      OS << "(";
      for (size_t I = 0; I < C.Args.size(); ++I)
        OS << (I ? ", " : "") << argText(C.Args[I]);
      OS << ")";
      if (C.CommNode.Present)
        OS << setText("CommNode", C.CommNode);
      if (C.CommSize.Present)
        OS << setText("CommSize", C.CommSize);
      if (C.Buffer.Present)
        OS << setText("Buffer", C.Buffer);
      if (C.Tag.Present)
        OS << setText("Tag", C.Tag);
      OS << "\n";
    }
  for (const FileResult &F : Files)
    for (const ChangeNote &N : F.Notes)
      OS << N.File << ":" << N.Line << ":" << N.Column << ": " << N.Transform << ": " << (N.Applied ? "" : "not done: ")
         << N.What << (N.Why.empty() ? "" : " (" + N.Why + ")") << (N.Saves.empty() ? "" : "; saves " + N.Saves)
         << "\n";
}

static llvm::json::Value setJSON(const SetResult &S) {
  llvm::json::Object O{{"class", argClassName(S.Class)}, {"value", S.Value}};
  if (S.Bytes)
    O["bytes"] = *S.Bytes;
  return O;
}

llvm::StringRef ompi::noteKindName(NoteKind K) {
  switch (K) {
  case NoteKind::Declined:
    return "declined";
  case NoteKind::Fused:
    return "fused";
  case NoteKind::Deferred:
    return "deferred";
  case NoteKind::ForcePoint:
    return "force-point";
  case NoteKind::Template:
    return "template";
  case NoteKind::Planned:
    return "planned";
  case NoteKind::Moved:
    return "moved";
  }
  return "declined";
}

void ompi::writeJSONReport(llvm::raw_ostream &OS, const std::vector<FileResult> &Files) {
  llvm::json::Array JFiles;
  for (const FileResult &F : Files) {
    llvm::json::Array Calls;
    for (const CallResult &C : F.Calls) {
      llvm::json::Object J{{"function", C.Function},
                           {"file", C.File},
                           {"line", C.Line},
                           {"column", C.Column},
                           {"caller", C.EnclosingFunction},
                           {"modelled", C.Model != nullptr}};
      if (!C.Via.empty())
        J["via"] = C.Via;
      if (C.Model) {
        J["category"] = categoryName(C.Model->Cat);
        J["mode"] = modeName(C.Model->M);
        llvm::json::Array Args;
        for (const ArgResult &A : C.Args) {
          llvm::json::Object JA{{"index", A.Index},
                                {"name", A.Name},
                                {"role", roleName(A.R)},
                                {"class", argClassName(A.Class)},
                                {"text", A.Text}};
          if (A.Class != ArgClass::Dynamic)
            JA["value"] = A.Value;
          if (A.Int)
            JA["int"] = *A.Int;
          if (!A.Reason.empty())
            JA["reason"] = A.Reason;
          if (!A.Note.empty())
            JA["note"] = A.Note;
          Args.push_back(std::move(JA));
        }
        J["args"] = std::move(Args);
        llvm::json::Object Sets;
        if (C.CommNode.Present)
          Sets["CommNode"] = setJSON(C.CommNode);
        if (C.CommSize.Present)
          Sets["CommSize"] = setJSON(C.CommSize);
        if (C.Buffer.Present)
          Sets["Buffer"] = setJSON(C.Buffer);
        if (C.Tag.Present)
          Sets["Tag"] = setJSON(C.Tag);
        J["sets"] = std::move(Sets);
      }
      Calls.push_back(std::move(J));
    }
    llvm::json::Array Changes;
    for (const ChangeNote &N : F.Notes) {
      llvm::json::Object J{{"transform", N.Transform}, {"applied", N.Applied}, {"file", N.File}, {"line", N.Line},
                           {"column", N.Column},       {"what", N.What},       {"why", N.Why}};
      if (!N.Saves.empty())
        J["saves"] = N.Saves;
      J["kind"] = noteKindName(N.Kind);
      if (!N.Also.empty()) {
        llvm::json::Array Also;
        for (auto [L, C] : N.Also)
          Also.push_back(llvm::json::Array{L, C});
        J["also"] = std::move(Also);
      }
      Changes.push_back(std::move(J));
    }
    JFiles.push_back(
        llvm::json::Object{{"file", F.File}, {"calls", std::move(Calls)}, {"changes", std::move(Changes)}});
  }
  llvm::json::Object Root{{"tool", "ompi-opt"}, {"schema", 1}, {"files", std::move(JFiles)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}
