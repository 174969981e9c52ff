//===- Inlining.cpp - Calls of forwarding wrappers parsed as their MPI calls ===//
#include "driver/Inlining.h"
#include "llvm/ADT/STLExtras.h"
#include <set>
#include <tuple>

using namespace ompi;

PendingInline::PendingInline(std::string Orig, std::vector<InlinedCall> Cs, size_t I)
    : Original(std::move(Orig)), Calls(std::move(Cs)), Index(I) {
  Text = applyInlining(Original, Calls);
}

namespace {

/// Offset At of P.Original (outside every inlined call) in P.Text: moved
/// by the calls before it.
unsigned inInlinedText(const PendingInline &P, long At) {
  long Shift = 0;
  for (const InlinedCall &C : P.Calls)
    if (long(C.End) <= At)
      Shift += long(C.Text.size()) - long(C.End - C.Begin);
  return unsigned(At + Shift);
}

/// The span of each inlined call in P.Text.
std::vector<std::pair<unsigned, unsigned>> inlinedSpans(const PendingInline &P) {
  std::vector<std::pair<unsigned, unsigned>> Out;
  for (const InlinedCall &C : P.Calls) {
    unsigned B = inInlinedText(P, C.Begin);
    Out.push_back({B, B + unsigned(C.Text.size())});
  }
  return Out;
}

bool touches(const clang::tooling::Replacements &Reps, unsigned B, unsigned E) {
  return llvm::any_of(Reps, [&](const clang::tooling::Replacement &R) {
    unsigned At = R.getOffset(), End = At + R.getLength();
    return R.getLength() ? At < E && End > B : B < At && At < E;
  });
}

} // namespace

unsigned ompi::restoreUnchanged(const PendingInline &P, const clang::tooling::Replacements &Applied,
                                std::string &Transformed, std::vector<bool> &Kept) {
  std::vector<std::pair<unsigned, unsigned>> Spans = inlinedSpans(P);
  Kept.assign(P.Calls.size(), false);
  struct Edit {
    unsigned At, Length;
    std::string Text;
  };
  std::vector<Edit> Edits;
  std::set<long> Marked;
  unsigned N = 0;
  auto Restore = [&](size_t I) {
    auto [B, E] = Spans[I];
    unsigned NB = Applied.getShiftedCodePosition(B), NE = Applied.getShiftedCodePosition(E - 1) + 1;
    // Left as written unless a replacement touched it (or it is not where
    // it should be: then the inlined text, which means the same, stays).
    if (!touches(Applied, B, E) && NB <= NE && NE <= Transformed.size() &&
        Transformed.compare(NB, NE - NB, P.Calls[I].Text) == 0) {
      Edits.push_back({NB, NE - NB, P.Calls[I].Original});
      return true;
    }
    return false;
  };
  for (size_t I = 0; I < P.Calls.size(); ++I) {
    if (P.Calls[I].Header)
      continue;
    if (Restore(I))
      continue;
    Kept[I] = true;
    ++N;
    long D = P.Calls[I].StaticDefinitionAt;
    if (D < 0 || !Marked.insert(D).second)
      continue;
    Edits.push_back({Applied.getShiftedCodePosition(inInlinedText(P, D)), 0, "__attribute__((unused)) "});
  }
  for (size_t I = 0; I < P.Calls.size(); ++I)
    if (P.Calls[I].Header && (N > 0 || !Restore(I)))
      Kept[I] = true;
  llvm::sort(Edits, [](const Edit &A, const Edit &B) { return A.At > B.At; });
  for (const Edit &X : Edits)
    Transformed.replace(X.At, X.Length, X.Text);
  return N;
}

void ompi::noteWrappers(const PendingInline &P, const std::vector<bool> &Kept, FileResult &R) {
  for (size_t I = 0; I < P.Calls.size(); ++I) {
    const InlinedCall &C = P.Calls[I];
    if (C.Header)
      continue;
    std::string Via = C.Wrapper + " (" + C.DefinedAt + ")";
    std::string Of = (C.Macro ? "a use of the macro " : "a call of the wrapper ") + Via;
    for (CallResult &Call : R.Calls)
      if (Call.Line == C.Line && Call.Column == C.Column && Call.Function == C.MPIFunction)
        Call.Via = Via;
    std::string How = Kept[I] ? "; " + Of + ", written here as its MPI call"
                              : "; " + Of + ", judged as its MPI call and left as written";
    for (ChangeNote &N : R.Notes)
      if (N.Line == C.Line && N.Column == C.Column && N.Kind != NoteKind::ForcePoint)
        N.Why += How;
  }
}

std::vector<std::string> PendingInline::definedHere() const {
  std::vector<std::string> Out;
  for (const InlinedCall &C : Calls)
    if (C.DefinitionBegin >= 0 && !llvm::is_contained(Out, C.Wrapper))
      Out.push_back(C.Wrapper);
  return Out;
}

void ompi::keepFirstParse(const PendingInline &P, const FileResult &First, FileResult &R) {
  std::vector<std::pair<unsigned, unsigned>> Lines;
  for (const InlinedCall &C : P.Calls)
    if (C.DefinitionBegin >= 0)
      Lines.push_back({C.FirstLine, C.LastLine});
  auto In = [&](unsigned L) { return llvm::any_of(Lines, [&](auto S) { return S.first <= L && L <= S.second; }); };
  llvm::erase_if(R.Calls, [&](const CallResult &C) { return In(C.Line); });
  llvm::erase_if(R.Notes, [&](const ChangeNote &N) { return In(N.Line); });
  for (const CallResult &C : First.Calls)
    if (In(C.Line))
      R.Calls.push_back(C);
  for (const ChangeNote &N : First.Notes)
    if (In(N.Line))
      R.Notes.push_back(N);
  llvm::stable_sort(R.Calls, [](const CallResult &A, const CallResult &B) {
    return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
  });
}

bool ompi::changesWrapperBody(const PendingInline &P, const clang::tooling::Replacements &Applied) {
  return llvm::any_of(P.Calls, [&](const InlinedCall &C) {
    return C.DefinitionBegin >= 0 &&
           touches(Applied, inInlinedText(P, C.DefinitionBegin), inInlinedText(P, C.DefinitionEnd));
  });
}
