//===- HtmlDiff.cpp - Compiler-explorer-style side-by-side diff pages -----===//
#include "HtmlDiff.h"
#include "Diff.h"
#include "MPIModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace llvm;

namespace ompi {

static std::string esc(StringRef S) {
  std::string R;
  R.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&': R += "&amp;"; break;
    case '<': R += "&lt;"; break;
    case '>': R += "&gt;"; break;
    case '"': R += "&quot;"; break;
    case '\t': R += "    "; break;
    default: R += C;
    }
  }
  return R;
}

namespace {
/// A C token of one line, for highlighting and for counting calls.
struct Token {
  char Kind; // k keyword, t type, s string, c comment, n number, p preprocessor, m MPI name, o mpiopt name, i identifier, ' ' other
  StringRef Text;
};

/// Splits lines into tokens; remembers an open block comment between lines.
class Lexer {
public:
  std::vector<Token> line(StringRef L) {
    std::vector<Token> Out;
    size_t I = 0;
    if (InComment) {
      size_t E = L.find("*/");
      size_t End = E == StringRef::npos ? L.size() : E + 2;
      Out.push_back({'c', L.substr(0, End)});
      InComment = E == StringRef::npos;
      I = End;
    } else if (L.ltrim().starts_with("#")) {
      Out.push_back({'p', L});
      return Out;
    }
    while (I < L.size()) {
      char C = L[I];
      size_t J = I + 1;
      if (C == '/' && I + 1 < L.size() && L[I + 1] == '/') {
        Out.push_back({'c', L.substr(I)});
        break;
      }
      if (C == '/' && I + 1 < L.size() && L[I + 1] == '*') {
        size_t E = L.find("*/", I + 2);
        J = E == StringRef::npos ? L.size() : E + 2;
        InComment = E == StringRef::npos;
        Out.push_back({'c', L.slice(I, J)});
        I = J;
        continue;
      }
      if (C == '"' || C == '\'') {
        while (J < L.size() && L[J] != C)
          J += L[J] == '\\' ? 2 : 1;
        J = std::min(J + 1, L.size());
        Out.push_back({'s', L.slice(I, J)});
      } else if (isDigit(C)) {
        while (J < L.size() && (isAlnum(L[J]) || L[J] == '.'))
          ++J;
        Out.push_back({'n', L.slice(I, J)});
      } else if (isAlpha(C) || C == '_') {
        while (J < L.size() && (isAlnum(L[J]) || L[J] == '_'))
          ++J;
        StringRef W = L.slice(I, J);
        static const StringSet<> Keywords = {"if", "else", "for", "while", "do", "return", "switch", "case",
                                             "default", "break", "continue", "goto", "sizeof", "static", "const",
                                             "extern", "volatile", "struct", "union", "enum", "typedef", "inline",
                                             "restrict", "register", "auto"};
        static const StringSet<> Types = {"void", "char", "short", "int", "long", "float", "double", "signed",
                                          "unsigned", "size_t", "_Bool", "bool"};
        char K = Keywords.contains(W) ? 'k'
                 : Types.contains(W)  ? 't'
                 : W.starts_with("MPI_") ? 'm'
                 : W.starts_with("mpiopt_") || W.starts_with("MPIOPT_") ? 'o'
                                                                         : 'i';
        Out.push_back({K, W});
      } else {
        Out.push_back({' ', L.slice(I, J)});
      }
      I = J;
    }
    return Out;
  }

private:
  bool InComment = false;
};

std::string highlight(const std::vector<Token> &Toks) {
  std::string R;
  for (const Token &T : Toks) {
    if (T.Kind == ' ' || T.Kind == 'i') {
      R += esc(T.Text);
      continue;
    }
    R += "<span class=";
    R += T.Kind;
    R += ">" + esc(T.Text) + "</span>";
  }
  return R;
}

/// Calls of MPI_* and mpiopt_* functions in a text, by name (outside
/// comments, strings and preprocessor lines).
std::map<std::string, unsigned> countCalls(const std::vector<StringRef> &Ls) {
  std::map<std::string, unsigned> N;
  Lexer Lx;
  for (StringRef L : Ls) {
    std::vector<Token> T = Lx.line(L);
    for (size_t I = 0; I < T.size(); ++I) {
      if (T[I].Kind != 'm' && T[I].Kind != 'o')
        continue;
      size_t J = I + 1;
      while (J < T.size() && T[J].Kind == ' ' && T[J].Text.trim().empty())
        ++J;
      if (J < T.size() && T[J].Text == "(")
        ++N[T[I].Text.str()];
    }
  }
  return N;
}
} // namespace

std::string htmlPageName(StringRef Path) {
  std::string N;
  for (char C : Path)
    N += (C == '/' || C == '\\' || C == ':') ? '_' : C;
  while (!N.empty() && N[0] == '.')
    N.erase(0, 1);
  return N + ".html";
}

static const char *Style = R"CSS(
body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#fafafa;color:#222}
header{padding:10px 16px;background:#263238;color:#fff}
header h1{font-size:18px;margin:0}
header p{margin:4px 0 0;color:#cfd8dc}
#summary{display:flex;flex-wrap:wrap;gap:16px;padding:12px 16px}
#summary section{background:#fff;border:1px solid #ddd;border-radius:4px;padding:8px 12px}
#summary h2{font-size:14px;margin:0 0 6px}
#summary table{border-collapse:collapse}
#summary td,#summary th{padding:1px 8px;text-align:right}
#summary td:first-child,#summary th:first-child{text-align:left;font-family:monospace}
.better{color:#1b5e20;font-weight:bold}
table.diff{border-collapse:collapse;width:100%;table-layout:fixed;background:#fff;font:12.5px/1.45 ui-monospace,Menlo,Consolas,monospace}
table.diff col.ln{width:3.5em}
table.diff th{position:sticky;top:0;background:#eceff1;text-align:left;padding:4px 8px;font-family:system-ui,sans-serif;z-index:1}
td.ln{color:#90a4ae;text-align:right;padding:0 6px;user-select:none;border-right:1px solid #eee;vertical-align:top}
td.code{white-space:pre-wrap;word-break:break-all;padding:0 8px;vertical-align:top}
td.code.l{border-right:2px solid #cfd8dc}
tr.chg td.code.l,tr.chg td.ln.l{background:#ffebee}
tr.chg td.code.r,tr.chg td.ln.r{background:#e8f5e9}
tr.chg td.empty{background:#f5f5f5 !important}
tr.note td{background:#fff8e1;border-top:1px solid #ffe082;border-bottom:1px solid #ffe082;padding:6px 12px;font-family:system-ui,sans-serif;white-space:normal}
.note b{color:#e65100}
.note .why,.note .saves{display:block;color:#555;margin-left:1em}
tr.fold td{background:#eceff1;color:#546e7a;text-align:center;cursor:pointer;font-family:system-ui,sans-serif}
.k{color:#0d47a1;font-weight:bold}.t{color:#00695c}.s{color:#b71c1c}.c{color:#78909c;font-style:italic}
.n{color:#6a1b9a}.p{color:#795548}.m{color:#1565c0;font-weight:bold}.o{color:#2e7d32;font-weight:bold}
)CSS";

// Folds long unchanged runs; checks that the panes line up (the browser
// test reads the result from body[data-check]); n / p jump between changes.
static const char *Script = R"JS(
document.querySelectorAll('tr.fold').forEach(function(f){
  f.addEventListener('click',function(){
    var b=document.getElementById(f.dataset.body); b.hidden=!b.hidden;
    f.querySelector('td').textContent=(b.hidden?'\u25b8 ':'\u25be ')+f.dataset.label;});});
(function(){
  var rows=document.querySelectorAll('table.diff tbody:not([hidden]) tr.line'), bad=0;
  rows.forEach(function(r){var l=r.querySelector('td.code.l'), g=r.querySelector('td.code.r');
    if(!l||!g||Math.abs(l.getBoundingClientRect().top-g.getBoundingClientRect().top)>0.5) bad++;});
  var notes=document.querySelectorAll('tr.note'), orphan=0;
  notes.forEach(function(n){var p=n.previousElementSibling; if(!p||!p.classList.contains('chg')) orphan++;});
  var panes=document.querySelectorAll('table.diff th.pane').length;
  document.body.dataset.check=(bad||orphan||panes!=2?'fail':'ok')+' panes='+panes+' rows='+rows.length+
    ' misaligned='+bad+' notes='+notes.length+' orphan-notes='+orphan;
})();
var chg=[].slice.call(document.querySelectorAll('tr.chg.first')), at=-1;
document.addEventListener('keydown',function(e){
  if(e.key!='n'&&e.key!='p'||!chg.length) return;
  at=e.key=='n'?Math.min(at+1,chg.length-1):Math.max(at-1,0);
  chg[at].scrollIntoView({block:'center'});});
)JS";

void writeHtmlDiff(raw_ostream &OS, StringRef Path, StringRef Old, StringRef New, const FileResult &Analysis) {
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<DiffHunk> Blocks = computeDiff(Old, New, Analysis.Notes, 0);
  std::map<std::string, unsigned> Before = countCalls(A), After = countCalls(B);
  unsigned NBefore = 0, NAfter = 0;
  for (auto &[F, N] : Before)
    NBefore += StringRef(F).starts_with("MPI_") ? N : 0;
  for (auto &[F, N] : After)
    NAfter += StringRef(F).starts_with("MPI_") ? N : 0;

  // Collectives per loop iteration: the analysis knows each call's loop;
  // static fusion removes CollectivesSaved of them, deferral hands them to
  // the runtime (fused at run time, up to one per force point).
  struct LoopInfo {
    std::string Function;
    unsigned Before = 0, Saved = 0, Deferred = 0;
  };
  std::map<unsigned, LoopInfo> Loops;
  std::map<unsigned, unsigned> LoopOfLine;
  for (const CallResult &C : Analysis.Calls) {
    if (!C.LoopLine || !C.Model || !C.Model->isCollective())
      continue;
    LoopInfo &L = Loops[C.LoopLine];
    L.Function = C.EnclosingFunction;
    ++L.Before;
    LoopOfLine[C.Line] = C.LoopLine;
  }
  unsigned Applied = 0;
  std::vector<const ChangeNote *> Templates;
  for (const ChangeNote &N : Analysis.Notes) {
    if (!N.Applied)
      continue;
    ++Applied;
    if (StringRef(N.Transform).contains("template"))
      Templates.push_back(&N);
    auto It = LoopOfLine.find(N.Line);
    if (It == LoopOfLine.end())
      continue;
    Loops[It->second].Saved += N.CollectivesSaved;
    if (N.Transform == "lazy-deferral" && !N.Saves.empty())
      ++Loops[It->second].Deferred;
  }

  OS << "<!doctype html>\n<html lang=en><head><meta charset=utf-8>\n<title>ompi-opt: " << esc(Path)
     << "</title>\n<meta name=\"ompi-opt-page\" content=\"" << esc(Path) << "\t" << Blocks.size() << "\t" << Applied
     << "\t" << NBefore << "\t" << NAfter << "\">\n<style>" << Style << "</style></head>\n<body>\n";
  OS << "<header><h1>ompi-opt: " << esc(Path) << "</h1><p>" << Blocks.size()
     << (Blocks.size() == 1 ? " changed block, " : " changed blocks, ") << Applied
     << (Applied == 1 ? " change" : " changes") << " explained below; MPI calls " << NBefore << " &rarr; " << NAfter
     << ". Keys: n / p jump to the next / previous change.</p></header>\n";

  // Summary panel.
  OS << "<div id=summary>\n<section><h2>Calls by function</h2><table><tr><th>function</th><th>before</th>"
        "<th>after</th></tr>\n";
  std::set<std::string> Names;
  for (auto &[F, N] : Before)
    Names.insert(F);
  for (auto &[F, N] : After)
    Names.insert(F);
  for (const std::string &F : Names) {
    unsigned X = Before.count(F) ? Before[F] : 0, Y = After.count(F) ? After[F] : 0;
    OS << "<tr><td>" << esc(F) << "</td><td>" << X << "</td><td" << (Y < X ? " class=better" : "") << ">" << Y
       << "</td></tr>\n";
  }
  OS << "</table></section>\n<section><h2>Collectives per loop iteration</h2>";
  if (Loops.empty()) {
    OS << "<p>no collective inside a loop</p>";
  } else {
    OS << "<table><tr><th>loop</th><th>before</th><th>after</th></tr>\n";
    for (auto &[Line, L] : Loops) {
      unsigned Static = L.Before - std::min(L.Before, L.Saved);
      OS << "<tr><td>" << esc(L.Function) << ", line " << Line << "</td><td>" << L.Before << "</td><td"
         << (Static < L.Before || L.Deferred ? " class=better" : "") << ">";
      if (L.Deferred)
        OS << Static - std::min(Static, L.Deferred) << " + " << L.Deferred << " deferred (fused at run time)";
      else
        OS << Static;
      OS << "</td></tr>\n";
    }
    OS << "</table>";
  }
  OS << "</section>\n<section><h2>Templates chosen</h2>";
  if (Templates.empty())
    OS << "<p>none</p>";
  for (const ChangeNote *N : Templates)
    OS << "<p>line " << N->Line << ": " << esc(N->What) << "</p>";
  OS << "</section>\n</div>\n";

  // The two panes in one table: a row per line pair, changed blocks aligned
  // row by row, each followed by its notes; long unchanged runs folded.
  OS << "<table class=diff><colgroup><col class=ln><col><col class=ln><col></colgroup>\n"
     << "<thead><tr><th class=pane colspan=2>original: " << esc(Path) << "</th><th class=pane colspan=2>"
     << "transformed</th></tr></thead>\n";
  Lexer LA, LB;
  std::vector<std::string> HA, HB;
  for (StringRef L : A)
    HA.push_back(highlight(LA.line(L)));
  for (StringRef L : B)
    HB.push_back(highlight(LB.line(L)));
  unsigned Fold = 0;
  auto context = [&](unsigned I0, unsigned I1, unsigned J0) { // old lines [I0, I1), new from J0 (0-based)
    const unsigned Keep = 4;
    unsigned N = I1 - I0;
    auto row = [&](unsigned I, unsigned J) {
      OS << "<tr class=line><td class=\"ln l\">" << I + 1 << "</td><td class=\"code l\">" << HA[I]
         << "</td><td class=\"ln r\">" << J + 1 << "</td><td class=\"code r\">" << HB[J] << "</td></tr>\n";
    };
    bool First = I0 == 0, Last = I1 == A.size();
    unsigned Head = First ? 0 : std::min(Keep, N), Tail = Last ? 0 : std::min(Keep, N - Head);
    if (N <= Head + Tail + 3) {
      OS << "<tbody>";
      for (unsigned K = 0; K < N; ++K)
        row(I0 + K, J0 + K);
      OS << "</tbody>\n";
      return;
    }
    OS << "<tbody>";
    for (unsigned K = 0; K < Head; ++K)
      row(I0 + K, J0 + K);
    unsigned Hidden = N - Head - Tail;
    std::string Label = std::to_string(Hidden) + " unchanged lines";
    OS << "<tr class=fold data-body=f" << Fold << " data-label=\"" << Label << "\"><td colspan=4>&#9656; " << Label
       << "</td></tr></tbody>\n<tbody id=f" << Fold << " hidden>";
    ++Fold;
    for (unsigned K = Head; K < Head + Hidden; ++K)
      row(I0 + K, J0 + K);
    OS << "</tbody>\n<tbody>";
    for (unsigned K = Head + Hidden; K < N; ++K)
      row(I0 + K, J0 + K);
    OS << "</tbody>\n";
  };
  unsigned I = 0, J = 0, Id = 0;
  for (const DiffHunk &H : Blocks) {
    // Where the block starts (0-based); an empty side starts after its Start line.
    unsigned BI = H.OldCount ? H.OldStart - 1 : H.OldStart, BJ = H.NewCount ? H.NewStart - 1 : H.NewStart;
    context(I, BI, J);
    OS << "<tbody id=c" << ++Id << ">";
    std::vector<const DiffLine *> Del, Add;
    for (const DiffLine &L : H.Lines)
      (L.Kind == '-' ? Del : Add).push_back(&L);
    for (size_t K = 0; K < std::max(Del.size(), Add.size()); ++K) {
      OS << "<tr class=\"line chg" << (K == 0 ? " first" : "") << "\">";
      if (K < Del.size())
        OS << "<td class=\"ln l\">" << Del[K]->OldLine << "</td><td class=\"code l\">" << HA[Del[K]->OldLine - 1]
           << "</td>";
      else
        OS << "<td class=\"ln l empty\"></td><td class=\"code l empty\"></td>";
      if (K < Add.size())
        OS << "<td class=\"ln r\">" << Add[K]->NewLine << "</td><td class=\"code r\">" << HB[Add[K]->NewLine - 1]
           << "</td>";
      else
        OS << "<td class=\"ln r empty\"></td><td class=\"code r empty\"></td>";
      OS << "</tr>\n";
    }
    for (const ChangeNote *N : H.Notes) {
      OS << "<tr class=note><td colspan=4><div class=note><b>" << esc(N->Transform) << "</b> (line " << N->Line
         << "): " << esc(N->What);
      if (!N->Why.empty())
        OS << "<span class=why>why it is safe: " << esc(N->Why) << "</span>";
      if (!N->Saves.empty())
        OS << "<span class=saves>saves: " << esc(N->Saves) << "</span>";
      OS << "</div></td></tr>\n";
    }
    OS << "</tbody>\n";
    I = BI + H.OldCount;
    J = BJ + H.NewCount;
  }
  context(I, unsigned(A.size()), J);
  OS << "</table>\n<script>" << Script << "</script>\n</body></html>\n";
}

bool writeHtmlIndex(StringRef Dir, std::string &Error) {
  struct Page {
    std::string File, Path;
    unsigned Blocks, Changes, Before, After;
  };
  std::vector<Page> Pages;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(".html") || Name == "index.html")
      continue;
    auto Buf = MemoryBuffer::getFile(It->path());
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    size_t At = Text.find("<meta name=\"ompi-opt-page\" content=\"");
    if (At == StringRef::npos)
      continue;
    StringRef Meta = Text.substr(At + 36);
    Meta = Meta.substr(0, Meta.find('"'));
    SmallVector<StringRef, 5> F;
    Meta.split(F, '\t');
    if (F.size() != 5)
      continue;
    Page P{Name.str(), F[0].str(), 0, 0, 0, 0};
    F[1].getAsInteger(10, P.Blocks);
    F[2].getAsInteger(10, P.Changes);
    F[3].getAsInteger(10, P.Before);
    F[4].getAsInteger(10, P.After);
    Pages.push_back(P);
  }
  if (EC) {
    Error = EC.message();
    return false;
  }
  llvm::sort(Pages, [](const Page &X, const Page &Y) { return X.Path < Y.Path; });
  std::string Text;
  raw_string_ostream OS(Text);
  unsigned TB = 0, TA = 0, TC = 0;
  for (const Page &P : Pages)
    TB += P.Before, TA += P.After, TC += P.Changes;
  OS << "<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>ompi-opt: project report</title>\n<style>"
     << Style << "table.idx{border-collapse:collapse;margin:12px 16px;background:#fff}"
     << "table.idx td,table.idx th{border:1px solid #ddd;padding:3px 10px;text-align:right}"
     << "table.idx td:first-child,table.idx th:first-child{text-align:left}</style></head>\n<body>\n"
     << "<header><h1>ompi-opt: project report</h1><p>" << Pages.size() << " files, " << TC
     << " changes; MPI calls " << TB << " &rarr; " << TA << "</p></header>\n"
     << "<table class=idx><tr><th>file</th><th>changed blocks</th><th>changes</th><th>MPI calls before</th>"
     << "<th>after</th></tr>\n";
  for (const Page &P : Pages)
    OS << "<tr><td><a href=\"" << esc(P.File) << "\">" << esc(P.Path) << "</a></td><td>" << P.Blocks << "</td><td>"
       << P.Changes << "</td><td>" << P.Before << "</td><td" << (P.After < P.Before ? " class=better" : "") << ">"
       << P.After << "</td></tr>\n";
  OS << "</table>\n</body></html>\n";
  OS.flush();
  // Written to a temporary file and renamed: parallel builds (ompi-cc under
  // make -j) rewrite the index concurrently, each from every page present.
  SmallString<256> Index(Dir), Tmp;
  sys::path::append(Index, "index.html");
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(Index + ".tmp-%%%%%%", FD, Tmp)) {
    Error = EC.message();
    return false;
  }
  {
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      Error = Out.error().message();
      sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Index)) {
    Error = EC.message();
    sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

} // namespace ompi
