//===- Summary.cpp - The whole program's reach, by what happened ----------===//
//
// --summary: every communication call site of the files processed, once,
// by what happened to it: changed (by the transformations that changed it),
// declined (by the class of each reason given), or not considered (by MPI
// function). The classes group the same obstacle met at many sites, so a
// user sees what to change in the code to let the optimiser work.
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <map>
#include <set>

using namespace ompi;

namespace {

/// The calls the summary counts: those that communicate, complete or
/// synchronise (not queries, the environment or the set-up calls the model
/// does not describe: MPI_Comm_dup, MPI_Type_commit, ...).
bool communicates(const CallResult &C) {
  if (!C.Model)
    return false;
  switch (C.Model->Cat) {
  case Category::PointToPoint:
  case Category::Probe:
  case Category::Completion:
  case Category::Collective:
  case Category::Local:
  case Category::OneSided:
    return true;
  case Category::Query:
  case Category::Environment:
    return false;
  }
  return false;
}

using SiteKey = std::tuple<std::string, unsigned, unsigned>;

struct Site {
  const CallResult *C = nullptr;
  std::set<std::string> Changed;  ///< transformations that changed it
  std::set<std::string> Declined; ///< "transform: reason class"
};

/// Text with every balanced parenthesised group removed.
std::string withoutParens(llvm::StringRef S) {
  std::string R;
  int Depth = 0;
  for (char Ch : S) {
    if (Ch == '(')
      ++Depth;
    else if (Ch == ')' && Depth > 0)
      --Depth;
    else if (!Depth)
      R += Ch;
  }
  return R;
}

/// Replace whole-word occurrences of Word in S with By.
void replaceWord(std::string &S, llvm::StringRef Word, llvm::StringRef By) {
  if (Word.empty())
    return;
  auto IsIdent = [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_' || Ch == '/' || Ch == '.'; };
  for (size_t P = S.find(Word); P != std::string::npos; P = S.find(Word, P)) {
    bool Start = P == 0 || !IsIdent(S[P - 1]);
    bool End = P + Word.size() >= S.size() || !IsIdent(S[P + Word.size()]);
    if (Start && End) {
      S.replace(P, Word.size(), By.str());
      P += By.size();
    } else {
      P += Word.size();
    }
  }
}

std::string location(const CallResult &C) {
  return llvm::sys::path::filename(C.File).str() + ":" + std::to_string(C.Line);
}

/// One table row: a count, its share, a label, and the first sites.
void row(llvm::raw_ostream &OS, llvm::StringRef Label, const std::vector<const Site *> &Sites, size_t Total) {
  std::vector<std::string> First;
  for (const Site *S : Sites) {
    if (First.size() == 3) {
      First.push_back("...");
      break;
    }
    First.push_back(location(*S->C));
  }
  OS << llvm::formatv("  {0,5} {1,5:P0}  {2}\n", Sites.size(), Total ? double(Sites.size()) / Total : 0.0, Label);
  OS << "                " << llvm::join(First, ", ") << "\n";
}

/// Groups in decreasing size, then by name.
template <typename Map> std::vector<typename Map::const_iterator> bySize(const Map &M) {
  std::vector<typename Map::const_iterator> V;
  for (auto It = M.begin(); It != M.end(); ++It)
    V.push_back(It);
  std::stable_sort(V.begin(), V.end(), [](auto A, auto B) { return A->second.size() > B->second.size(); });
  return V;
}

} // namespace

std::string ompi::reasonClass(const std::string &Why, const CallResult *C) {
  std::string S = Why;
  // "not fused with the call at line 12: different op": the reason is after.
  static const llvm::Regex With("^not [a-z ]+ with the call at line [0-9]+: ");
  S = With.sub("", S);
  S = withoutParens(S);
  static const llvm::Regex Path("(^| )/[^ ]+"); // an absolute path: a profile's
  while (Path.match(S))
    S = Path.sub("\\1FILE", S);
  if (C)
    replaceWord(S, C->EnclosingFunction, "the function");
  // The first clause, numbers as N.
  size_t Cut = S.find_first_of(":;");
  if (Cut != std::string::npos)
    S = S.substr(0, Cut);
  static const llvm::Regex Num("[0-9]+");
  while (Num.match(S))
    S = Num.sub("N", S);
  std::string R;
  for (char Ch : S)
    if (!(Ch == ' ' && (R.empty() || R.back() == ' ')))
      R += Ch;
  while (!R.empty() && (R.back() == ' ' || R.back() == ','))
    R.pop_back();
  if (R.size() > 110)
    R = R.substr(0, 107) + "...";
  return R;
}

void ompi::writeSummary(llvm::raw_ostream &OS, const std::vector<FileResult> &Files, unsigned Failed) {
  std::map<SiteKey, Site> Sites;
  std::vector<SiteKey> Order;
  for (const FileResult &F : Files)
    for (const CallResult &C : F.Calls)
      if (communicates(C)) {
        SiteKey K{C.File, C.Line, C.Column};
        if (Sites.emplace(K, Site{&C, {}, {}}).second)
          Order.push_back(K);
      }
  for (const FileResult &F : Files)
    for (const ChangeNote &N : F.Notes) {
      if (N.Kind == NoteKind::ForcePoint)
        continue;
      auto It = Sites.find({N.File, N.Line, N.Column});
      if (It == Sites.end())
        continue;
      if (N.Applied) {
        It->second.Changed.insert(N.Transform);
        for (auto [L, Col] : N.Also)
          if (auto O = Sites.find({N.File, L, Col}); O != Sites.end())
            O->second.Changed.insert(N.Transform);
      } else {
        // A declined group (broadcasts that stay separate) declines each
        // of its calls.
        std::string Reason = N.Transform + ": " + reasonClass(N.Why, It->second.C);
        It->second.Declined.insert(Reason);
        for (auto [L, Col] : N.Also)
          if (auto O = Sites.find({N.File, L, Col}); O != Sites.end())
            O->second.Declined.insert(Reason);
      }
    }
  std::map<std::string, std::vector<const Site *>> Changed, Declined, Untouched;
  size_t NChanged = 0, NDeclined = 0, NUntouched = 0;
  for (const SiteKey &K : Order) {
    const Site &S = Sites[K];
    if (!S.Changed.empty()) {
      ++NChanged;
      Changed[llvm::join(S.Changed, " + ")].push_back(&S);
    } else if (!S.Declined.empty()) {
      ++NDeclined;
      for (const std::string &R : S.Declined)
        Declined[R].push_back(&S);
    } else {
      ++NUntouched;
      Untouched[S.C->Function].push_back(&S);
    }
  }
  size_t Total = Order.size();
  OS << llvm::formatv("ompi-opt summary: {0} communication call site{1} in {2} file{3}", Total, Total == 1 ? "" : "s",
                      Files.size(), Files.size() == 1 ? "" : "s");
  if (Failed)
    OS << llvm::formatv(" ({0} more file{1} could not be processed)", Failed, Failed == 1 ? "" : "s");
  OS << "\n";
  OS << llvm::formatv("  {0,5} {1,5:P0}  changed\n", NChanged, Total ? double(NChanged) / Total : 0.0);
  OS << llvm::formatv("  {0,5} {1,5:P0}  declined (a transformation looked and said why not)\n", NDeclined,
                      Total ? double(NDeclined) / Total : 0.0);
  OS << llvm::formatv("  {0,5} {1,5:P0}  not considered (no transformation handles the call)\n", NUntouched,
                      Total ? double(NUntouched) / Total : 0.0);
  size_t NVia = 0, NViaChanged = 0;
  for (const SiteKey &K : Order)
    if (const Site &S = Sites[K]; !S.C->Via.empty()) {
      ++NVia;
      NViaChanged += !S.Changed.empty();
    }
  if (NVia)
    OS << llvm::formatv("  ({0} of the sites are calls of forwarding wrappers or uses of macros, judged as the MPI "
                        "call they make; {1} of them changed)\n",
                        NVia, NViaChanged);
  if (!Changed.empty()) {
    OS << "\nChanged, by transformation:\n";
    for (auto It : bySize(Changed))
      row(OS, It->first, It->second, Total);
  }
  if (!Declined.empty()) {
    OS << "\nDeclined, by reason (a site declined by several transformations counts under each):\n";
    for (auto It : bySize(Declined))
      row(OS, It->first, It->second, Total);
  }
  if (!Untouched.empty()) {
    OS << "\nNot considered, by call:\n";
    for (auto It : bySize(Untouched))
      row(OS, It->first, It->second, Total);
  }
}

namespace {

/// One report document (an object with "files") into Files.
bool readDocument(const llvm::json::Object &Doc, std::vector<FileResult> &Files) {
  const llvm::json::Array *JFiles = Doc.getArray("files");
  if (!JFiles)
    return false;
  for (const llvm::json::Value &JF : *JFiles) {
    const llvm::json::Object *O = JF.getAsObject();
    if (!O)
      return false;
    FileResult F;
    F.File = O->getString("file").value_or("").str();
    if (const llvm::json::Array *Calls = O->getArray("calls"))
      for (const llvm::json::Value &JC : *Calls) {
        const llvm::json::Object *C = JC.getAsObject();
        if (!C)
          return false;
        CallResult R;
        R.Function = C->getString("function").value_or("").str();
        R.File = C->getString("file").value_or("").str();
        R.Line = unsigned(C->getInteger("line").value_or(0));
        R.Column = unsigned(C->getInteger("column").value_or(0));
        R.EnclosingFunction = C->getString("caller").value_or("").str();
        R.Via = C->getString("via").value_or("").str();
        if (C->getBoolean("modelled").value_or(false))
          R.Model = lookupFunction(R.Function);
        F.Calls.push_back(std::move(R));
      }
    if (const llvm::json::Array *Changes = O->getArray("changes"))
      for (const llvm::json::Value &JN : *Changes) {
        const llvm::json::Object *N = JN.getAsObject();
        if (!N)
          return false;
        ChangeNote Note =
            ChangeNote::at(N->getString("transform").value_or("").str(), N->getBoolean("applied").value_or(false),
                           N->getString("file").value_or("").str(), unsigned(N->getInteger("line").value_or(0)),
                           unsigned(N->getInteger("column").value_or(0)), N->getString("what").value_or("").str(),
                           N->getString("why").value_or("").str());
        if (N->getString("kind").value_or("") == "force-point")
          Note.Kind = NoteKind::ForcePoint;
        if (const llvm::json::Array *Also = N->getArray("also"))
          for (const llvm::json::Value &A : *Also)
            if (const llvm::json::Array *P = A.getAsArray(); P && P->size() == 2)
              Note.Also.push_back(
                  {unsigned((*P)[0].getAsInteger().value_or(0)), unsigned((*P)[1].getAsInteger().value_or(0))});
        F.Notes.push_back(std::move(Note));
      }
    Files.push_back(std::move(F));
  }
  return true;
}

} // namespace

std::optional<std::string> ompi::readJSONReports(const std::vector<std::string> &Paths,
                                                 std::vector<FileResult> &Files) {
  for (const std::string &P : Paths) {
    auto Buf = llvm::MemoryBuffer::getFile(P);
    if (!Buf)
      return P + ": cannot be read (" + Buf.getError().message() + ")";
    llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
    if (!V)
      return P + ": not JSON (" + llvm::toString(V.takeError()) + ")";
    bool Ok = false;
    if (const llvm::json::Object *O = V->getAsObject()) {
      Ok = readDocument(*O, Files);
    } else if (const llvm::json::Array *A = V->getAsArray()) {
      Ok = true;
      for (const llvm::json::Value &D : *A)
        Ok = Ok && D.getAsObject() && readDocument(*D.getAsObject(), Files);
    }
    if (!Ok)
      return P + ": not an ompi-opt JSON report (--report=json)";
  }
  return std::nullopt;
}
