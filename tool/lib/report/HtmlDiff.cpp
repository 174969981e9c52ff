//===- HtmlDiff.cpp - Compiler-explorer-style side-by-side diff pages -----===//
#include "report/HtmlDiff.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "report/Diff.h"
#include "support/FileOutput.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace llvm;

namespace ompi {

/// "1 change", "2 changes".
static std::string counted(size_t N, StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

static std::string esc(StringRef S) {
  std::string R;
  R.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      R += "&amp;";
      break;
    case '<':
      R += "&lt;";
      break;
    case '>':
      R += "&gt;";
      break;
    case '"':
      R += "&quot;";
      break;
    case '\t':
      R += "    ";
      break;
    default:
      R += C;
    }
  }
  return R;
}

namespace {
/// A C token of one line, for highlighting and for counting calls.
struct Token {
  char Kind; // k keyword, t type, s string, c comment, n number, p preprocessor, m MPI name, o mpiopt name, i
             // identifier, ' ' other
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
        static const StringSet<> Keywords = {"if",     "else",     "for",      "while",    "do",    "return", "switch",
                                             "case",   "default",  "break",    "continue", "goto",  "sizeof", "static",
                                             "const",  "extern",   "volatile", "struct",   "union", "enum",   "typedef",
                                             "inline", "restrict", "register", "auto"};
        static const StringSet<> Types = {"void",   "char",   "short",    "int",    "long",  "float",
                                          "double", "signed", "unsigned", "size_t", "_Bool", "bool"};
        char K = Keywords.contains(W)                                   ? 'k'
                 : Types.contains(W)                                    ? 't'
                 : W.starts_with(mpi::Prefix)                           ? 'm'
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

  bool inComment() const { return InComment; }

private:
  bool InComment = false;
};

/// A code cell's contents: the line's text, escaped. The page's script
/// highlights it (the same tokens as Lexer); a line that begins inside a
/// block comment is marked (class ic), as the script sees one line at a time.
struct CodeCell {
  std::string Text;
  bool InComment = false;
  bool Directive = false; ///< a #line the transformation wrote (shown dimmed)
};

/// "#line N" (and "# N"): what --line-directives and the prologue write.
bool isLineDirective(StringRef L) {
  L = L.ltrim();
  if (!L.consume_front("#"))
    return false;
  L = L.ltrim();
  L.consume_front("line");
  L = L.ltrim();
  return !L.empty() && isDigit(L.front());
}

/// Transformed: the right pane, whose #line directives are dimmed.
std::vector<CodeCell> codeCells(const std::vector<StringRef> &Lines, bool Transformed) {
  std::vector<CodeCell> R;
  Lexer Lex;
  for (StringRef L : Lines) {
    bool In = Lex.inComment();
    Lex.line(L);
    R.push_back({esc(L), In, Transformed && !In && isLineDirective(L)});
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
tr.line>td:nth-child(odd){color:#90a4ae;text-align:right;padding:0 6px;user-select:none;border-right:1px solid #eee;vertical-align:top}
tr.line>td:nth-child(even){white-space:pre-wrap;overflow-wrap:anywhere;padding:0 8px;vertical-align:top}
tr.line>td.ld{opacity:.4}
tr.line>td:nth-child(2){border-right:2px solid #cfd8dc}
tr.chg>td:nth-child(-n+2){background:#ffebee}
tr.chg>td:nth-child(n+3){background:#e8f5e9}
tr.chg>td.e{background:#f5f5f5 !important}
tr.note td{background:#fff8e1;border-top:1px solid #ffe082;border-bottom:1px solid #ffe082;padding:6px 12px;font-family:system-ui,sans-serif;white-space:normal}
.note b{color:#e65100}
.note .why,.note .saves{display:block;color:#555;margin-left:1em}
tr.fold td{background:#eceff1;color:#546e7a;text-align:center;cursor:pointer;font-family:system-ui,sans-serif}
.k{color:#0d47a1;font-weight:bold}.t{color:#00695c}.s{color:#b71c1c}.c{color:#78909c;font-style:italic}
.n{color:#6a1b9a}.p{color:#795548}.m{color:#1565c0;font-weight:bold}.o{color:#2e7d32;font-weight:bold}
)CSS";

// Highlights the code cells (the page holds their plain text: C tokens as
// Lexer above splits them), with a break opportunity after ',', ';', '('
// and '{', so a long line wraps between tokens (inside a name only when the name alone
// is wider than the pane); fills the right pane of unchanged lines from
// the left (the page holds their text once); folds long unchanged runs,
// building their rows from the plain text the first time they open; checks
// that the panes line up (the browser test reads the result from
// body[data-check]); n / p jump between changes.
static const char *Script = R"JS(
var KW=new Set('if else for while do return switch case default break continue goto sizeof static const extern volatile struct union enum typedef inline restrict register auto'.split(' ')),
  TY=new Set('void char short int long float double signed unsigned size_t _Bool bool'.split(' '));
function esc(t){return t.replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;');}
function sp(k,t){return '<span class='+k+'>'+esc(t)+'</span>';}
function hl(L,inc){
  var o='',i=0,n=L.length;
  if(inc){var e=L.indexOf('*/'),z=e<0?n:e+2; o=sp('c',L.slice(0,z)); i=z;}
  else if(/^\s*#/.test(L)) return sp('p',L);
  while(i<n){
    var c=L[i],j=i+1;
    if(c=='/'&&L[i+1]=='/'){o+=sp('c',L.slice(i)); break;}
    if(c=='/'&&L[i+1]=='*'){var f=L.indexOf('*/',i+2); j=f<0?n:f+2; o+=sp('c',L.slice(i,j)); i=j; continue;}
    if(c=='"'||c=="'"){while(j<n&&L[j]!=c) j+=L[j]=='\\'?2:1; j=Math.min(j+1,n); o+=sp('s',L.slice(i,j));}
    else if(/[0-9]/.test(c)){while(j<n&&/[A-Za-z0-9.]/.test(L[j])) j++; o+=sp('n',L.slice(i,j));}
    else if(/[A-Za-z_]/.test(c)){
      while(j<n&&/[A-Za-z0-9_]/.test(L[j])) j++;
      var w=L.slice(i,j), k=KW.has(w)?'k':TY.has(w)?'t':/^MPI_/.test(w)?'m':/^(mpiopt_|MPIOPT_)/.test(w)?'o':'';
      o+=k?sp(k,w):w;
    } else o+=esc(c)+(/[,;({]/.test(c)?'<wbr>':'');
    i=j;}
  return o;}
document.querySelectorAll('tr.line>td:nth-child(even):not(.same)').forEach(function(c){
  if(c.textContent) c.innerHTML=hl(c.textContent,c.classList.contains('ic'));});
document.querySelectorAll('tr.line>td.same').forEach(function(c){c.innerHTML=c.parentNode.children[1].innerHTML;});
function cell(text){var d=document.createElement('td'); d.innerHTML=esc(String(text)).replace(/([,;(])/g,'$1<wbr>'); return d;}
function unfold(b){
  var raw=b.querySelector('tr.raw'); if(!raw) return;
  var i=+raw.dataset.i, j=+raw.dataset.j;
  raw.firstChild.textContent.split('\n').forEach(function(t,k){
    var r=document.createElement('tr'); r.className='line';
    r.append(cell(i+k),cell(t),cell(j+k),cell(t)); b.insertBefore(r,raw);});
  raw.remove();}
document.querySelectorAll('tr.fold').forEach(function(f){
  f.addEventListener('click',function(){
    var b=document.getElementById(f.dataset.body); unfold(b); b.hidden=!b.hidden;
    f.querySelector('td').textContent=(b.hidden?'\u25b8 ':'\u25be ')+f.dataset.label;});});
if(location.hash=='#unfold') document.querySelectorAll('tr.fold').forEach(function(f){f.click();});
(function(){
  var rows=document.querySelectorAll('table.diff tbody:not([hidden]) tr.line'), bad=0;
  document.querySelectorAll('tr.line>td:nth-child(4)').forEach(function(c){if(!c.textContent&&c.parentNode.children[1].textContent) bad++;});
  rows.forEach(function(r){var l=r.children[1], g=r.children[3];
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

namespace {

/// Collectives per loop iteration: the analysis knows each call's loop;
/// static fusion removes CollectivesSaved of them, deferral hands them to
/// the runtime (fused at run time, up to one per force point).
struct LoopInfo {
  std::string Function;
  unsigned End = 0; ///< the line where the loop ends
  unsigned Before = 0, Saved = 0, Deferred = 0;
};

/// One file's page: the numbers of its header and summary panel, then the
/// side-by-side table.
class PageWriter {
public:
  PageWriter(raw_ostream &OS, StringRef Path, StringRef Old, StringRef New, const FileResult &Analysis)
      : OS(OS), Path(Path), Analysis(Analysis), A(splitLines(Old)), B(splitLines(New)),
        Blocks(computeDiff(Old, New, Analysis.Notes, 0)), Before(countCalls(A)), After(countCalls(B)) {
    count();
  }

  void write() {
    OS << "<!doctype html>\n<html lang=en><head><meta charset=utf-8>\n<title>ompi-opt: " << esc(Path)
       << "</title>\n<style>" << Style << "</style></head>\n<body>\n";
    OS << "<header><h1>ompi-opt: " << esc(Path) << "</h1><p>" << counted(Blocks.size(), "changed block") << ", "
       << counted(Applied, "change") << " explained below; MPI calls " << NBefore << " &rarr; " << NAfter << " ("
       << callCounts() << "). Keys: n / p jump to the next / previous change.</p></header>\n";
    summary();
    table();
    OS << "<script>" << Script << "</script>\n</body></html>\n";
  }

  /// The index's row for this page, as JSON.
  std::string summaryJSON() const {
    json::Object J{{"path", Path.str()},
                   {"blocks", int64_t(Blocks.size())},
                   {"changes", int64_t(Applied)},
                   {"mpi_calls_before", NBefore},
                   {"mpi_calls_after", NAfter},
                   {"removed", int64_t(Removed)},
                   {"fused", int64_t(Fused)},
                   {"deferred", int64_t(Deferred)},
                   {"templates", int64_t(Templates.size())},
                   {"planned", int64_t(Planned.size())},
                   {"declined", int64_t(Declined.size())}};
    std::string Text;
    raw_string_ostream S(Text);
    S << json::Value(std::move(J)) << "\n";
    return Text;
  }

private:
  raw_ostream &OS;
  StringRef Path;
  const FileResult &Analysis;
  std::vector<StringRef> A, B;
  std::vector<DiffHunk> Blocks;
  std::map<std::string, unsigned> Before, After;
  int64_t NBefore = 0, NAfter = 0;
  unsigned Applied = 0;
  unsigned Fused = 0, Removed = 0, Deferred = 0; ///< calls fused, collectives removed, calls deferred
  std::map<unsigned, LoopInfo> Loops;
  std::vector<const ChangeNote *> Templates, Planned, Declined;
  std::vector<CodeCell> HA, HB; ///< the code cells of each side's lines
  unsigned Fold = 0;

  void count();
  const FunctionSpan *functionAt(unsigned Line) const;
  std::vector<unsigned> loopsAt(unsigned Line) const;
  std::string callCounts() const;
  void summary();
  void declinedList();
  void callTable();
  void loopTable();
  void table();
  void row(unsigned I, unsigned J);
  /// A code cell (the columns' styles come from their position).
  static std::string code(const CodeCell &C) {
    if (C.Directive)
      return "<td class=ld title=\"#line: keeps the original line numbers\">" + C.Text + "</td>";
    return std::string(C.InComment ? "<td class=ic>" : "<td>") + C.Text + "</td>";
  }
  void rawRows(unsigned I0, unsigned J0, unsigned N);
  void context(unsigned I0, unsigned I1, unsigned J0);
  void block(const DiffHunk &H, unsigned Id);
};

void PageWriter::count() {
  for (auto &[F, N] : Before)
    NBefore += StringRef(F).starts_with(mpi::Prefix) ? N : 0;
  // A collective counts for its innermost loop; one in no loop of its own
  // function, for each loop that runs that function through the file's.
  std::map<unsigned, std::vector<unsigned>> LoopsOfLine;
  for (const CallResult &C : Analysis.Calls) {
    if (!C.Model || !C.Model->isCollective())
      continue;
    std::vector<LoopSpan> Run;
    if (C.LoopLine)
      Run.push_back({C.EnclosingFunction, C.LoopLine, C.LoopEndLine});
    else if (const FunctionSpan *F = functionAt(C.Line))
      Run = F->RunBy;
    for (const LoopSpan &CL : Run) {
      LoopInfo &L = Loops[CL.Line];
      L.Function = CL.Function;
      L.End = std::max(L.End, CL.EndLine);
      ++L.Before;
      LoopsOfLine[C.Line].push_back(CL.Line);
    }
  }
  for (const ChangeNote &N : Analysis.Notes) {
    if (!N.Applied) {
      Declined.push_back(&N);
      continue;
    }
    ++Applied;
    if (N.Kind == NoteKind::Template)
      Templates.push_back(&N);
    if (N.Kind == NoteKind::Planned)
      Planned.push_back(&N);
    if (N.Kind == NoteKind::Fused)
      Fused += N.CollectivesSaved + 1, Removed += N.CollectivesSaved;
    if (N.Kind == NoteKind::Deferred)
      ++Deferred;
    auto It = LoopsOfLine.find(N.Line);
    for (unsigned Loop : It != LoopsOfLine.end() ? It->second : loopsAt(N.Line)) {
      Loops[Loop].Saved += N.CollectivesSaved;
      if (N.Kind == NoteKind::Deferred)
        ++Loops[Loop].Deferred;
    }
  }
  NAfter = NBefore - std::min<int64_t>(NBefore, Removed); // deferred and template calls still run
}

/// The function of the main file that holds Line, if any.
const FunctionSpan *PageWriter::functionAt(unsigned Line) const {
  for (const FunctionSpan &F : Analysis.Functions)
    if (F.Begin <= Line && Line <= F.End)
      return &F;
  return nullptr;
}

/// The loops a change at Line (not a call's: helpers fused at their
/// caller) belongs to: the innermost counted loop around it, else the loops
/// that run its function.
std::vector<unsigned> PageWriter::loopsAt(unsigned Line) const {
  std::vector<unsigned> R;
  for (auto &[Start, L] : Loops)
    if (Start <= Line && Line <= L.End)
      R.assign(1, Start);
  if (R.empty())
    if (const FunctionSpan *F = functionAt(Line))
      for (const LoopSpan &CL : F->RunBy)
        R.push_back(CL.Line);
  return R;
}

/// "2 removed by fusing 3 into 1, 2 deferred to the lazy runtime, 1
/// through a template" (or "none changed"): removed, fused and deferred
/// calls are counted apart (a deferred call still runs, at a flush).
std::string PageWriter::callCounts() const {
  std::vector<std::string> Parts;
  if (Fused)
    Parts.push_back(std::to_string(Removed) + " removed by fusing " + std::to_string(Fused) + " into " +
                    std::to_string(Fused - Removed));
  if (Deferred)
    Parts.push_back(std::to_string(Deferred) + " deferred to the lazy runtime");
  if (!Templates.empty())
    Parts.push_back(std::to_string(Templates.size()) + " through " +
                    (Templates.size() == 1 ? "a template" : "templates"));
  if (!Planned.empty())
    Parts.push_back(std::to_string(Planned.size()) + " through the runtime's planned collectives");
  if (Parts.empty())
    return "none changed";
  return join(Parts, ", ");
}

void PageWriter::summary() {
  OS << "<div id=summary>\n";
  callTable();
  loopTable();
  OS << "<section><h2>Templates chosen</h2>";
  if (Templates.empty())
    OS << "<p>none</p>";
  for (const ChangeNote *N : Templates)
    OS << "<p>line " << N->Line << ": " << esc(N->What) << "</p>";
  OS << "</section>\n";
  OS << "<section><h2>Planned collectives</h2>";
  if (Planned.empty())
    OS << "<p>none</p>";
  for (const ChangeNote *N : Planned)
    OS << "<p>line " << N->Line << ": " << esc(N->What) << (N->Saves.empty() ? "" : "; saves " + esc(N->Saves))
       << "</p>";
  OS << "</section>\n";
  declinedList();
  OS << "</div>\n";
}

/// Every candidate a transformation looked at and left alone, with why.
void PageWriter::declinedList() {
  OS << "<section><h2>Declined (" << Declined.size() << ")</h2>";
  if (Declined.empty())
    OS << "<p>none</p>";
  else
    OS << "<ul class=declined>";
  for (const ChangeNote *N : Declined)
    OS << "<li>line " << N->Line << ", " << esc(N->Transform) << ": " << esc(N->What)
       << (N->Why.empty() ? "" : " <span class=why>(" + esc(N->Why) + ")</span>") << "</li>";
  OS << (Declined.empty() ? "" : "</ul>") << "</section>\n";
}

void PageWriter::callTable() {
  OS << "<section><h2>Calls by function</h2><table><tr><th>function</th><th>before</th><th>after</th></tr>\n";
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
  OS << "</table></section>\n";
}

void PageWriter::loopTable() {
  OS << "<section><h2>Collectives per loop iteration</h2>";
  if (Loops.empty()) {
    OS << "<p>no collective inside a loop (directly or through the file's functions)</p></section>\n";
    return;
  }
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
  OS << "</table></section>\n";
}

/// The two panes in one table: a row per line pair, changed blocks aligned
/// row by row, each followed by its notes; long unchanged runs folded.
void PageWriter::table() {
  OS << "<table class=diff><colgroup><col class=ln><col><col class=ln><col></colgroup>\n"
     << "<thead><tr><th class=pane colspan=2>original: " << esc(Path) << "</th><th class=pane colspan=2>"
     << "transformed</th></tr></thead>\n";
  HA = codeCells(A, false);
  HB = codeCells(B, true);
  unsigned I = 0, J = 0, Id = 0;
  for (const DiffHunk &H : Blocks) {
    // Where the block starts (0-based); an empty side starts after its Start line.
    unsigned BI = H.OldCount ? H.OldStart - 1 : H.OldStart, BJ = H.NewCount ? H.NewStart - 1 : H.NewStart;
    context(I, BI, J);
    block(H, ++Id);
    I = BI + H.OldCount;
    J = BJ + H.NewCount;
  }
  context(I, unsigned(A.size()), J);
  OS << "</table>\n";
}

/// An unchanged line. The right pane repeats the left one, so the page
/// holds its text once: the script fills the right cell (class same). A row's
/// cells are the old line number, old code, new line number, new code; the
/// style sheet tells them apart by position (no class per cell: the page of
/// a 21,500-line file with dense changes was 8x its source).
void PageWriter::row(unsigned I, unsigned J) {
  OS << "<tr class=line><td>" << I + 1 << "</td>" << code(HA[I]) << "<td>" << J + 1 << "</td>";
  if (A[I] == B[J])
    OS << "<td class=same></td></tr>\n";
  else
    OS << code(HB[J]) << "</tr>\n";
}

/// Folded unchanged lines [I0, I0 + N) (new from J0): their plain text once,
/// in one row the script turns into rows when the fold first opens.
void PageWriter::rawRows(unsigned I0, unsigned J0, unsigned N) {
  OS << "<tr class=raw data-i=" << I0 + 1 << " data-j=" << J0 + 1 << "><td colspan=4>";
  for (unsigned K = 0; K < N; ++K)
    OS << (K ? "\n" : "") << esc(A[I0 + K]);
  OS << "</td></tr>";
}

/// Unchanged lines: old [I0, I1), new from J0 (0-based); a long run folds
/// all but Keep lines at each end that touches a change.
void PageWriter::context(unsigned I0, unsigned I1, unsigned J0) {
  const unsigned Keep = 4;
  unsigned N = I1 - I0;
  bool First = I0 == 0, Last = I1 == A.size();
  unsigned Head = First ? 0 : std::min(Keep, N), Tail = Last ? 0 : std::min(Keep, N - Head);
  OS << "<tbody>";
  if (N <= Head + Tail + 3) {
    for (unsigned K = 0; K < N; ++K)
      row(I0 + K, J0 + K);
    OS << "</tbody>\n";
    return;
  }
  for (unsigned K = 0; K < Head; ++K)
    row(I0 + K, J0 + K);
  unsigned Hidden = N - Head - Tail;
  std::string Label = std::to_string(Hidden) + " unchanged lines";
  OS << "<tr class=fold data-body=f" << Fold << " data-label=\"" << Label << "\"><td colspan=4>&#9656; " << Label
     << "</td></tr></tbody>\n<tbody id=f" << Fold << " hidden>";
  ++Fold;
  rawRows(I0 + Head, J0 + Head, Hidden);
  OS << "</tbody>\n<tbody>";
  for (unsigned K = Head + Hidden; K < N; ++K)
    row(I0 + K, J0 + K);
  OS << "</tbody>\n";
}

/// A changed block: deleted and added lines side by side, then its notes.
void PageWriter::block(const DiffHunk &H, unsigned Id) {
  OS << "<tbody id=c" << Id << ">";
  std::vector<const DiffLine *> Del, Add;
  for (const DiffLine &L : H.Lines)
    (L.Kind == '-' ? Del : Add).push_back(&L);
  for (size_t K = 0; K < std::max(Del.size(), Add.size()); ++K) {
    OS << "<tr class=\"line chg" << (K == 0 ? " first" : "") << "\">";
    if (K < Del.size())
      OS << "<td>" << Del[K]->OldLine << "</td>" << code(HA[Del[K]->OldLine - 1]);
    else
      OS << "<td class=e></td><td class=e></td>";
    if (K < Add.size())
      OS << "<td>" << Add[K]->NewLine << "</td>" << code(HB[Add[K]->NewLine - 1]);
    else
      OS << "<td class=e></td><td class=e></td>";
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
}

struct IndexRow {
  std::string File, Path;
  int64_t Blocks = 0, Changes = 0, Before = 0, After = 0;
};

/// The rows of the index: one per page of Dir with a readable summary
/// (PAGE.html.json, written beside the page).
std::vector<IndexRow> indexRows(StringRef Dir, std::error_code &EC) {
  std::vector<IndexRow> Rows;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(".html.json"))
      continue;
    auto Buf = MemoryBuffer::getFile(It->path());
    Expected<json::Value> V = Buf ? json::parse((*Buf)->getBuffer()) : Expected<json::Value>(json::Value(nullptr));
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (!V)
      consumeError(V.takeError());
    if (!O || !O->getString("path"))
      continue;
    IndexRow R{Name.drop_back(5).str(), O->getString("path")->str()};
    R.Blocks = O->getInteger("blocks").value_or(0);
    R.Changes = O->getInteger("changes").value_or(0);
    R.Before = O->getInteger("mpi_calls_before").value_or(0);
    R.After = O->getInteger("mpi_calls_after").value_or(0);
    Rows.push_back(std::move(R));
  }
  llvm::sort(Rows, [](const IndexRow &X, const IndexRow &Y) { return X.Path < Y.Path; });
  return Rows;
}

} // namespace

HtmlPage renderHtmlDiff(StringRef Path, StringRef Old, StringRef New, const FileResult &Analysis) {
  HtmlPage Page;
  raw_string_ostream OS(Page.Html);
  PageWriter W(OS, Path, Old, New, Analysis);
  W.write();
  OS.flush();
  Page.Summary = W.summaryJSON();
  return Page;
}

bool writeHtmlIndex(StringRef Dir, std::string &Error) {
  std::error_code EC;
  std::vector<IndexRow> Rows = indexRows(Dir, EC);
  if (EC) {
    Error = EC.message();
    return false;
  }
  std::string Text;
  raw_string_ostream OS(Text);
  int64_t TB = 0, TA = 0, TC = 0;
  for (const IndexRow &P : Rows)
    TB += P.Before, TA += P.After, TC += P.Changes;
  OS << "<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>ompi-opt: project report</title>\n<style>"
     << Style << "table.idx{border-collapse:collapse;margin:12px 16px;background:#fff}"
     << "table.idx td,table.idx th{border:1px solid #ddd;padding:3px 10px;text-align:right}"
     << "table.idx td:first-child,table.idx th:first-child{text-align:left}</style></head>\n<body>\n"
     << "<header><h1>ompi-opt: project report</h1><p>" << counted(Rows.size(), "file") << ", " << counted(TC, "change")
     << "; MPI calls " << TB << " &rarr; " << TA << "</p></header>\n"
     << "<table class=idx><tr><th>file</th><th>changed blocks</th><th>changes</th><th>MPI calls before</th>"
     << "<th>after</th></tr>\n";
  for (const IndexRow &P : Rows)
    OS << "<tr><td><a href=\"" << esc(P.File) << "\">" << esc(P.Path) << "</a></td><td>" << P.Blocks << "</td><td>"
       << P.Changes << "</td><td>" << P.Before << "</td><td" << (P.After < P.Before ? " class=better" : "") << ">"
       << P.After << "</td></tr>\n";
  OS << "</table>\n</body></html>\n";
  OS.flush();
  // Atomic: parallel builds (ompi-cc under make -j) rewrite the index
  // concurrently, each from every summary present.
  SmallString<256> Index(Dir);
  sys::path::append(Index, "index.html");
  return writeFileAtomic(Index, Text, Error);
}

} // namespace ompi
