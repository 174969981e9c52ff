//===- Selection.cpp - Which checks run, which are errors, NOLINT ---------===//
#include "checks/Selection.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace ompi {

bool matchesCheck(StringRef Pattern, const CheckInfo &K) {
  Pattern = Pattern.trim();
  if (Pattern == "all" || Pattern == "*")
    return true;
  Pattern.consume_front("ompi-");
  std::string Grouped = std::string(K.Kind) + "-" + K.Name;
  if (Pattern == K.Name || Pattern == K.Kind || Pattern == Grouped)
    return true;
  Expected<GlobPattern> G = GlobPattern::create(Pattern);
  if (!G) {
    consumeError(G.takeError());
    return false;
  }
  return G->match(K.Name) || G->match(Grouped);
}

CheckSet CheckSet::all() {
  CheckSet S;
  S.In.assign(checks().size(), true);
  return S;
}

CheckSet CheckSet::correctness() {
  CheckSet S;
  for (const CheckInfo &K : checks())
    S.In.push_back(StringRef(K.Kind) == "correctness");
  return S;
}

Expected<CheckSet> CheckSet::parse(StringRef List, StringRef Option) {
  CheckSet S;
  SmallVector<StringRef, 8> Items;
  List.split(Items, ',', -1, false);
  bool StartAll = !Items.empty() && Items.front().trim().starts_with("-");
  S.In.assign(checks().size(), StartAll);
  for (StringRef Item : Items) {
    Item = Item.trim();
    bool Remove = Item.consume_front("-");
    if (Item.empty())
      continue;
    bool Glob = Item.find_first_of("*?[") != StringRef::npos;
    bool Any = Item == "none";
    for (size_t I = 0; I < checks().size(); ++I)
      if (Item == "none" || matchesCheck(Item, checks()[I])) {
        S.In[I] = Item == "none" ? false : !Remove;
        Any = true;
      }
    if (!Any && !Glob)
      return createStringError(inconvertibleErrorCode(), "%s: unknown check '%s' (see --list-checks)",
                               Option.str().c_str(), Item.str().c_str());
  }
  return S;
}

Error emptyRunError(StringRef List, StringRef Where) {
  return createStringError(inconvertibleErrorCode(),
                           "%s: '%s' enables no check, so nothing would run (see --list-checks)", Where.str().c_str(),
                           List.str().c_str());
}

bool CheckSet::contains(StringRef Check) const {
  for (size_t I = 0; I < checks().size() && I < In.size(); ++I)
    if (Check == checks()[I].Name)
      return In[I];
  return false;
}

std::vector<std::string> CheckSet::names() const {
  std::vector<std::string> Out;
  for (size_t I = 0; I < checks().size() && I < In.size(); ++I)
    if (In[I])
      Out.push_back(checks()[I].Name);
  return Out;
}

/// Text holds Marker, bare or with a list of checks one of which is Check.
static bool marks(StringRef Text, StringRef Marker, StringRef Check) {
  for (size_t At = Text.find(Marker); At != StringRef::npos; At = Text.find(Marker, At + 1)) {
    StringRef Rest = Text.substr(At + Marker.size());
    if (Marker == "NOLINT" && Rest.starts_with("NEXTLINE"))
      continue; // NOLINTNEXTLINE is about the next line
    if (!Rest.starts_with("("))
      return true;
    StringRef Inside = Rest.drop_front().split(')').first;
    SmallVector<StringRef, 4> Names;
    Inside.split(Names, ',', -1, false);
    for (const CheckInfo &K : checks())
      if (Check == K.Name)
        for (StringRef N : Names)
          if (matchesCheck(N, K))
            return true;
  }
  return false;
}

bool suppressedByNolint(StringRef Line, StringRef Previous, StringRef Check) {
  return marks(Line, "NOLINT", Check) || marks(Previous, "NOLINTNEXTLINE", Check);
}

Expected<std::vector<int>> parseProcessCounts(StringRef List, StringRef Where) {
  std::vector<int> Out;
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, ',');
  for (StringRef P : Parts) {
    int N = 0;
    if (P.trim().getAsInteger(10, N) || N < 1 || N > 64)
      return createStringError(inconvertibleErrorCode(), "%s: '%s' is not a process count from 1 to 64",
                               Where.str().c_str(), P.trim().str().c_str());
    Out.push_back(N);
  }
  return Out;
}

/// The scalar value of a YAML node, or an error naming Path.
static Expected<std::string> scalar(yaml::Node *N, StringRef Path, StringRef Key) {
  SmallString<64> Storage;
  if (auto *S = dyn_cast_or_null<yaml::ScalarNode>(N))
    return S->getValue(Storage).str();
  return createStringError(inconvertibleErrorCode(), "%s: %s takes a string", Path.str().c_str(), Key.str().c_str());
}

static Expected<LintConfig> readLintConfig(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read %s: %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  LintConfig C;
  C.Path = Path.str();
  SourceMgr SM;
  std::string Diag;
  SM.setDiagHandler([](const SMDiagnostic &D, void *Ctx) { *static_cast<std::string *>(Ctx) = D.getMessage().str(); },
                    &Diag);
  yaml::Stream Stream((*Buf)->getBuffer(), SM);
  for (yaml::Document &Doc : Stream) {
    yaml::Node *Root = Doc.getRoot();
    if (isa_and_nonnull<yaml::NullNode>(Root))
      continue;
    auto *Map = dyn_cast_or_null<yaml::MappingNode>(Root);
    if (!Map)
      return createStringError(inconvertibleErrorCode(), "%s: expected 'Key: value' lines%s%s", Path.str().c_str(),
                               Diag.empty() ? "" : ": ", Diag.c_str());
    for (yaml::KeyValueNode &KV : *Map) {
      SmallString<32> KeyStorage;
      auto *KeyNode = dyn_cast_or_null<yaml::ScalarNode>(KV.getKey());
      StringRef Key = KeyNode ? KeyNode->getValue(KeyStorage) : "";
      if (Key != "Checks" && Key != "WarningsAsErrors" && Key != "NProcs")
        return createStringError(inconvertibleErrorCode(), "%s: unknown key '%s' (Checks, WarningsAsErrors, NProcs)",
                                 Path.str().c_str(), Key.str().c_str());
      Expected<std::string> V = scalar(KV.getValue(), Path, Key);
      if (!V)
        return V.takeError();
      if (Key == "NProcs") {
        Expected<std::vector<int>> N = parseProcessCounts(*V, (Path + ": NProcs").str());
        if (!N)
          return N.takeError();
        C.NProcs = std::move(*N);
        continue;
      }
      (Key == "Checks" ? C.Checks : C.WarningsAsErrors) = *V;
    }
  }
  if (!Diag.empty())
    return createStringError(inconvertibleErrorCode(), "%s: %s", Path.str().c_str(), Diag.c_str());
  return C;
}

Expected<LintConfig> findLintConfig(StringRef Source) {
  SmallString<256> Dir(Source);
  sys::fs::make_absolute(Dir);
  sys::path::remove_filename(Dir);
  for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> P(D);
    sys::path::append(P, ".ompi-opt");
    if (sys::fs::is_regular_file(P))
      return readLintConfig(P);
  }
  return LintConfig{};
}

} // namespace ompi
