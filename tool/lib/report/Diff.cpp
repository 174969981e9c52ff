//===- Diff.cpp - Line diffs of a source and its transformed text ---------===//
#include "report/Diff.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cstdint>

using namespace llvm;

namespace ompi {

std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    if (End == StringRef::npos) {
      Lines.push_back(Text);
      break;
    }
    Lines.push_back(Text.substr(0, End).rtrim('\r'));
    Text = Text.substr(End + 1);
  }
  return Lines;
}

/// Myers' greedy algorithm on A[0..N) and B[0..M): the edit script (' ',
/// '-', '+') appended to Out. Its trace grows with the edit distance, so
/// past a bound it gives up on a minimal script and replaces the range.
template <typename LA, typename LB> static void myers(LA a, LB b, long N, long M, std::string &Out) {
  long Max = N + M, Off = Max + 1;
  std::vector<long> V(2 * Max + 3, 0);
  std::vector<std::vector<long>> Trace;
  long D = 0;
  const size_t Budget = size_t(1) << 24; // longs kept in the trace (128 MiB)
  for (; D <= Max; ++D) {
    if ((size_t(D) + 1) * V.size() > Budget) {
      Out.append(size_t(N), '-');
      Out.append(size_t(M), '+');
      return;
    }
    Trace.push_back(V);
    bool Done = false;
    for (long K = -D; K <= D; K += 2) {
      long X = (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1])) ? V[Off + K + 1] : V[Off + K - 1] + 1;
      long Y = X - K;
      while (X < N && Y < M && a(X) == b(Y))
        ++X, ++Y;
      V[Off + K] = X;
      if (X >= N && Y >= M) {
        Done = true;
        break;
      }
    }
    if (Done)
      break;
  }
  // Walk back through the trace.
  std::string Rev;
  long X = N, Y = M;
  for (long E = D; E > 0; --E) {
    const std::vector<long> &PV = Trace[E];
    long K = X - Y;
    long PK = (K == -E || (K != E && PV[Off + K - 1] < PV[Off + K + 1])) ? K + 1 : K - 1;
    long PX = PV[Off + PK], PY = PX - PK;
    while (X > PX && Y > PY)
      Rev.push_back(' '), --X, --Y;
    Rev.push_back(X == PX ? '+' : '-');
    X = PX, Y = PY;
  }
  while (X > 0 && Y > 0)
    Rev.push_back(' '), --X, --Y;
  Out.append(Rev.rbegin(), Rev.rend());
}

/// Lines unique in A[A0..A1) and in B[B0..B1) and present in both, as
/// (index in A, index in B) pairs, the longest run increasing in both
/// (patience sorting): anchors that split the ranges into small gaps.
static std::vector<std::pair<size_t, size_t>> anchors(const std::vector<StringRef> &A, size_t A0, size_t A1,
                                                      const std::vector<StringRef> &B, size_t B0, size_t B1) {
  DenseMap<StringRef, std::pair<int, size_t>> InA, InB; // count, last index
  for (size_t I = A0; I < A1; ++I) {
    auto &E = InA[A[I]];
    ++E.first, E.second = I;
  }
  for (size_t J = B0; J < B1; ++J) {
    auto &E = InB[B[J]];
    ++E.first, E.second = J;
  }
  std::vector<std::pair<size_t, size_t>> Pairs;
  for (size_t I = A0; I < A1; ++I) {
    auto EA = InA.find(A[I]), EB = InB.find(A[I]);
    if (EA->second.first == 1 && EB != InB.end() && EB->second.first == 1)
      Pairs.push_back({I, EB->second.second});
  }
  // Longest increasing subsequence of the B indices (A indices increase).
  std::vector<size_t> Tails, Prev(Pairs.size(), SIZE_MAX), TailIdx;
  for (size_t P = 0; P < Pairs.size(); ++P) {
    size_t J = Pairs[P].second;
    size_t L = std::lower_bound(Tails.begin(), Tails.end(), J) - Tails.begin();
    if (L == Tails.size())
      Tails.push_back(J), TailIdx.push_back(P);
    else
      Tails[L] = J, TailIdx[L] = P;
    Prev[P] = L ? TailIdx[L - 1] : SIZE_MAX;
  }
  std::vector<std::pair<size_t, size_t>> Out;
  for (size_t P = TailIdx.empty() ? SIZE_MAX : TailIdx.back(); P != SIZE_MAX; P = Prev[P])
    Out.push_back(Pairs[P]);
  std::reverse(Out.begin(), Out.end());
  return Out;
}

/// The edit script of A[A0..A1) against B[B0..B1), appended to Out: common
/// ends first, then unique common lines as anchors (patience diff), Myers
/// in the gaps between them. A transformation changes a few lines in many
/// places of a large file: the gaps stay small, and so do time and memory.
static void script(const std::vector<StringRef> &A, size_t A0, size_t A1, const std::vector<StringRef> &B, size_t B0,
                   size_t B1, std::string &Out) {
  size_t Pre = 0;
  while (A0 + Pre < A1 && B0 + Pre < B1 && A[A0 + Pre] == B[B0 + Pre])
    ++Pre;
  Out.append(Pre, ' ');
  A0 += Pre, B0 += Pre;
  size_t Suf = 0;
  while (A1 - Suf > A0 && B1 - Suf > B0 && A[A1 - 1 - Suf] == B[B1 - 1 - Suf])
    ++Suf;
  A1 -= Suf, B1 -= Suf;
  std::vector<std::pair<size_t, size_t>> Anchors;
  if ((A1 - A0) + (B1 - B0) > 64)
    Anchors = anchors(A, A0, A1, B, B0, B1);
  if (Anchors.empty()) {
    myers([&](long I) { return A[A0 + I]; }, [&](long J) { return B[B0 + J]; }, long(A1 - A0), long(B1 - B0), Out);
  } else {
    for (auto [I, J] : Anchors) {
      script(A, A0, I, B, B0, J, Out);
      Out.push_back(' ');
      A0 = I + 1, B0 = J + 1;
    }
    script(A, A0, A1, B, B0, B1, Out);
  }
  Out.append(Suf, ' ');
}

static std::string editScript(const std::vector<StringRef> &A, const std::vector<StringRef> &B) {
  std::string Out;
  Out.reserve(A.size() + B.size());
  script(A, 0, A.size(), B, 0, B.size(), Out);
  return Out;
}

std::vector<DiffHunk> computeDiff(StringRef Old, StringRef New, const std::vector<ChangeNote> &Notes,
                                  unsigned Context) {
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::string Script = editScript(A, B);
  std::vector<DiffLine> All;
  unsigned I = 0, J = 0;
  for (char C : Script) {
    if (C == ' ')
      All.push_back({' ', A[I], I + 1, J + 1}), ++I, ++J;
    else if (C == '-')
      All.push_back({'-', A[I], I + 1, 0}), ++I;
    else
      All.push_back({'+', B[J], 0, J + 1}), ++J;
  }
  std::vector<DiffHunk> Hunks;
  size_t K = 0;
  while (K < All.size()) {
    if (All[K].Kind == ' ') {
      ++K;
      continue;
    }
    // A change at K: extend while the next change is within 2 * Context.
    size_t Begin = K >= Context ? K - Context : 0, End = K;
    while (End < All.size()) {
      size_t Next = End;
      while (Next < All.size() && All[Next].Kind != ' ')
        ++Next;
      size_t After = Next;
      while (After < All.size() && All[After].Kind == ' ' && After - Next < 2 * Context)
        ++After;
      End = Next;
      if (After < All.size() && All[After].Kind != ' ')
        End = After;
      else
        break;
    }
    End = std::min(All.size(), End + Context);
    DiffHunk H;
    H.Lines.assign(All.begin() + Begin, All.begin() + End);
    // Line numbers where the hunk starts on each side (for an empty side, the line before).
    unsigned OldPrev = 0, NewPrev = 0;
    for (size_t L = 0; L < Begin; ++L) {
      if (All[L].OldLine)
        OldPrev = All[L].OldLine;
      if (All[L].NewLine)
        NewPrev = All[L].NewLine;
    }
    for (const DiffLine &L : H.Lines) {
      H.OldCount += L.Kind != '+';
      H.NewCount += L.Kind != '-';
    }
    H.OldStart = H.OldCount ? OldPrev + 1 : OldPrev;
    H.NewStart = H.NewCount ? NewPrev + 1 : NewPrev;
    Hunks.push_back(std::move(H));
    K = End;
  }
  // Each applied note to the hunk that contains its line, else the nearest.
  for (const ChangeNote &N : Notes) {
    if (!N.Applied || Hunks.empty())
      continue;
    DiffHunk *Best = nullptr;
    unsigned BestDist = ~0u;
    for (DiffHunk &H : Hunks) {
      unsigned Lo = H.OldStart, Hi = H.OldStart + (H.OldCount ? H.OldCount - 1 : 0);
      unsigned Dist = N.Line < Lo ? Lo - N.Line : N.Line > Hi ? N.Line - Hi : 0;
      if (Dist < BestDist)
        Best = &H, BestDist = Dist;
    }
    Best->Notes.push_back(&N);
  }
  return Hunks;
}

static void range(raw_ostream &OS, unsigned Start, unsigned Count) {
  OS << Start;
  if (Count != 1)
    OS << "," << Count;
}

void writeUnifiedDiff(raw_ostream &OS, StringRef Path, StringRef Old, StringRef New,
                      const std::vector<ChangeNote> &Notes) {
  if (Old == New)
    return;
  std::vector<DiffHunk> Hunks = computeDiff(Old, New, Notes);
  if (Hunks.empty())
    return;
  unsigned OldLines = splitLines(Old).size(), NewLines = splitLines(New).size();
  bool OldNL = Old.empty() || Old.ends_with("\n"), NewNL = New.empty() || New.ends_with("\n");
  // The preamble: every change with its reasons (patch and git apply skip it).
  OS << "# ompi-opt: " << Path << ": " << Hunks.size() << (Hunks.size() == 1 ? " hunk" : " hunks") << "\n";
  for (const DiffHunk &H : Hunks)
    for (const ChangeNote *N : H.Notes) {
      OS << "#   line " << N->Line << " [" << N->Transform << "] " << N->What << "\n";
      if (!N->Why.empty())
        OS << "#     why: " << N->Why << "\n";
      if (!N->Saves.empty())
        OS << "#     saves: " << N->Saves << "\n";
    }
  OS << "--- a/" << Path << "\n+++ b/" << Path << "\n";
  for (const DiffHunk &H : Hunks) {
    OS << "@@ -";
    range(OS, H.OldStart, H.OldCount);
    OS << " +";
    range(OS, H.NewStart, H.NewCount);
    OS << " @@";
    if (!H.Notes.empty()) {
      OS << " " << H.Notes.front()->Transform << ": " << H.Notes.front()->What;
      if (H.Notes.size() > 1)
        OS << " (+" << H.Notes.size() - 1 << " more)";
    }
    OS << "\n";
    for (const DiffLine &L : H.Lines) {
      OS << L.Kind << L.Text << "\n";
      // The last line of a side without a final newline is marked.
      bool OldLast = L.OldLine && L.OldLine == OldLines && !OldNL,
           NewLast = L.NewLine && L.NewLine == NewLines && !NewNL;
      if ((L.Kind == '-' && OldLast) || (L.Kind == '+' && NewLast) || (L.Kind == ' ' && OldLast && NewLast))
        OS << "\\ No newline at end of file\n";
    }
  }
}

} // namespace ompi
