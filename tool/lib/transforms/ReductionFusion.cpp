//===- ReductionFusion.cpp - Rewrite: fuse independent reductions ---------===//
//
// Rewrites the fusion groups of the reduction plan (analysis/FusionPlan.h
// states what is proved): each earlier call becomes the packing of its input
// into one buffer; the last becomes the packing of its own, one collective
// on the packed buffer and the unpacking of every result.
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "mpi/Names.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {

/// Where member I's elements go in the packed buffer and how many there
/// are: element offsets of the group's C type, or for a composite byte
/// offsets (Bytes: the member's byte count, static).
struct Slot {
  std::string Off, Count;
  int64_t Bytes = 0;
};

std::vector<Slot> slots(const FusionGroup &G, const FusionLayout &Lay) {
  std::vector<Slot> S;
  std::vector<int64_t> Fill(G.Lanes.size(), 0);
  for (size_t I = 0; I < G.Members.size(); ++I) {
    const FusionMember &M = G.Members[I];
    if (G.Kind != FusionKind::Composite) {
      S.push_back({Lay.Offsets[I], Lay.Counts[I], 0});
      continue;
    }
    const FusionLane &L = G.Lanes[M.Lane];
    int64_t Off = L.Offset + Fill[M.Lane] * L.Size;
    Fill[M.Lane] += M.Count;
    S.push_back({std::to_string(Off), std::to_string(M.Count), M.Count * L.Size});
  }
  return S;
}

/// The C type member M's elements are cast to when encoded or decoded.
std::string memberType(const FusionGroup &G, const FusionMember &M) {
  return M.Enc == Encoding::Widen ? builtinInteger(M.CType, M.Size) : G.CType;
}

/// "Dst(i) = Value(i)" for each element i of Count: one assignment for one
/// element, else a loop.
template <typename D, typename V>
std::string elementwise(const std::string &P, const std::string &Count, D Dst, V Value) {
  if (Count == "1")
    return Dst("0") + " = " + Value("0");
  std::string I = P + "_i";
  return llvm::formatv("for (long {0} = 0; {0} < (long){1}; {0}++) ", I, Count).str() + Dst(I) + " = " + Value(I);
}

/// Element Idx of the packed buffer from offset Off.
std::string bufAt(const std::string &P, const std::string &Off, const std::string &Idx) {
  return P + "_buf[" + (Idx == "0" ? Off : Off == "0" ? Idx : Off + " + " + Idx) + "]";
}

/// Element Idx of the T array at Addr.
std::string arrayAt(const std::string &T, const std::string &Addr, const std::string &Idx) {
  return Idx == "0" ? "*(" + T + " *)(" + Addr + ")" : "((" + T + " *)(" + Addr + "))[" + Idx + "]";
}

/// X as its encoding E stores it in the buffer or reads it back, converted
/// to To: ~X, -X, or X itself (for Widen, only converted).
std::string coded(Encoding E, const std::string &To, const std::string &X) {
  switch (E) {
  case Encoding::Complement:
    return "(" + To + ")~" + X;
  case Encoding::Negate:
    return "-" + X;
  case Encoding::Widen:
    return "(" + To + ")" + X;
  case Encoding::Plain:
    break;
  }
  return X;
}

/// The packing of member I's input (an expression, or a loop statement
/// when an encoding needs one, Loop then set).
std::string pack(const FusionGroup &G, const Slot &S, const std::string &P, size_t I, bool &Loop,
                 const std::string &Value) {
  const FusionMember &M = G.Members[I];
  Loop = false;
  if (!Value.empty()) // a helper's contribution, one element
    return bufAt(P, S.Off, "0") + " = " + (M.Enc == Encoding::Plain ? Value : coded(M.Enc, G.CType, "(" + Value + ")"));
  if (G.Kind == FusionKind::Composite)
    return llvm::formatv("__builtin_memcpy(&{0}_buf[{1}], {2}, {3})", P, S.Off, M.InputText, S.Bytes).str();
  if (M.Enc == Encoding::Plain)
    return llvm::formatv("__builtin_memcpy(&{0}_buf[{1}], {2}, {3} * sizeof({4}))", P, S.Off, M.InputText, S.Count,
                         G.CType)
        .str();
  std::string T = memberType(G, M);
  auto Enc = [&](const std::string &Idx) { return coded(M.Enc, G.CType, arrayAt("const " + T, M.InputText, Idx)); };
  Loop = S.Count != "1";
  return elementwise(P, S.Count, [&](const std::string &Idx) { return bufAt(P, S.Off, Idx); }, Enc);
}

/// The unpacking of member I's result (a statement without ';').
std::string unpack(const FusionGroup &G, const Slot &S, const std::string &P, size_t I) {
  const FusionMember &M = G.Members[I];
  if (!M.ResultVar.empty()) // a helper's result: the variable, converted as the return converted it
    return M.ResultVar + " = " + coded(M.Enc, memberType(G, M), bufAt(P, S.Off, "0"));
  if (G.Kind == FusionKind::Composite)
    return llvm::formatv("__builtin_memcpy({0}, &{1}_buf[{2}], {3})", M.ResultAddr, P, S.Off, S.Bytes).str();
  if (M.Enc == Encoding::Plain)
    return llvm::formatv("__builtin_memcpy({0}, &{1}_buf[{2}], {3} * sizeof({4}))", M.ResultAddr, P, S.Off, S.Count,
                         G.CType)
        .str();
  std::string T = memberType(G, M);
  auto Dec = [&](const std::string &Idx) { return coded(M.Enc, T, bufAt(P, S.Off, Idx)); };
  return elementwise(P, S.Count, [&](const std::string &Idx) { return arrayAt(T, M.ResultAddr, Idx); }, Dec);
}

/// The statements of the fused collective at the last call: pack its input,
/// one collective, unpack every result, hand on return codes, free a heap
/// buffer. Rooted groups unpack at the root only.
std::vector<std::string> collective(const FusionGroup &G, const FusionLayout &Lay, const std::vector<Slot> &Slots,
                                    const std::string &P, const std::string &Pack, const SourceManager &SM) {
  // A variable of a member's arguments can be named at the last call if its
  // block ends after it.
  SourceLocation LastCall = G.Members.back().Expr.getEnd();
  auto inScope = [&](SourceLocation End) {
    SourceLocation F = SM.getFileLoc(End);
    return LastCall.isValid() && F.isValid() && SM.getFileID(F) == SM.getFileID(LastCall) &&
           SM.getFileOffset(F) >= SM.getFileOffset(LastCall);
  };
  std::string Buf = P + "_buf", Rc = P + "_rc", Rank = P + "_rank";
  std::string Count = Lay.Dynamic ? "(int)(" + Lay.Total + ")" : Lay.Total;
  std::string Type = G.TypeText, Op = G.OpText;
  bool Wrapped = G.Members.back().Wrapped;
  bool AnyCode = Wrapped || llvm::any_of(G.Members, [](const FusionMember &M) { return !M.ResultCode.empty(); });
  std::vector<std::string> Code;
  if (!Pack.empty())
    Code.push_back(Pack + ";");
  if (G.Kind == FusionKind::Composite) {
    // One element of the site's contiguous type, reduced by its op.
    Count = "1";
    Type = P + "_type";
    Op = P + "_op";
    Code.push_back("MPI_Datatype " + Type + ";");
    Code.push_back("MPI_Op " + Op + ";");
    Code.push_back(llvm::formatv("mpiopt_fuse_site_get(&{0}_site, {1}, {0}_fn, &{2}, &{3});", P, G.Bytes, Type, Op));
  }
  std::string Call;
  if (!G.Rooted) {
    Call = llvm::formatv("MPI_Allreduce(MPI_IN_PLACE, {0}, {1}, {2}, {3}, {4})", Buf, Count, Type, Op, G.CommText);
  } else {
    Code.push_back("int " + Rank + ";");
    Code.push_back("MPI_Comm_rank(" + G.CommText + ", &" + Rank + ");");
    Call = llvm::formatv("MPI_Reduce({0} == ({1}) ? MPI_IN_PLACE : {2}, {0} == ({1}) ? {2} : (void *)0, {3}, {4}, "
                         "{5}, {1}, {6})",
                         Rank, G.RootText, Buf, Count, Type, Op, G.CommText);
  }
  Code.push_back((AnyCode ? "int " + Rc + " = " : std::string()) + Call + ";");
  std::string Pad = G.Rooted ? "  " : "";
  if (G.Rooted)
    Code.push_back("if (" + Rank + " == (" + G.RootText + ")) {");
  for (size_t I = 0; I < G.Members.size(); ++I)
    Code.push_back(Pad + unpack(G, Slots[I], P, I) + ";");
  if (G.Rooted)
    Code.push_back("}");
  for (const FusionMember &M : G.Members)
    if (!M.ResultCode.empty())
      Code.push_back(M.ResultCode + " = " + Rc + ";");
  std::string All = llvm::join(Code, "\n") + Pack;
  for (const FusionMember &M : G.Members)
    for (const auto &[V, End] : M.ArgVars)
      if (inScope(End) && !llvm::Regex("(^|[^A-Za-z0-9_])" + V + "($|[^A-Za-z0-9_])").match(All)) {
        Code.insert(Code.begin(), "(void)" + V + ";");
        All += "\n(void)" + V + ";";
      }
  if (Lay.Dynamic) {
    Code.push_back("if (" + Buf + " != " + P + "_small)");
    Code.push_back("  __builtin_free(" + Buf + ");");
  }
  return Code;
}

/// The body of one composite segment's kernel: y[i] = x[i] op y[i].
std::string combine(const FusionLane &L) {
  const std::string &T = L.KernelType;
  auto Mod = [&](const char *Sym) {
    return "b = (" + T + ")((unsigned long long)a " + Sym + " (unsigned long long)b);";
  };
  if (L.Op == mpi::MPI_SUM)
    return Mod("+");
  if (L.Op == mpi::MPI_PROD)
    return Mod("*");
  if (L.Op == mpi::MPI_MAX)
    return "if (a > b) b = a;";
  if (L.Op == mpi::MPI_MIN)
    return "if (a < b) b = a;";
  if (L.Op == mpi::MPI_BAND)
    return "b = (" + T + ")(a & b);";
  if (L.Op == mpi::MPI_BOR)
    return "b = (" + T + ")(a | b);";
  if (L.Op == mpi::MPI_BXOR)
    return "b = (" + T + ")(a ^ b);";
  if (L.Op == mpi::MPI_LAND)
    return "b = (" + T + ")(a && b);";
  if (L.Op == mpi::MPI_LOR)
    return "b = (" + T + ")(a || b);";
  return "b = (" + T + ")(!a != !b);"; // MPI_LXOR
}

/// File-scope code of a composite group: the site's cache and its op, which
/// applies each segment's op to the segment (offsets and counts constant).
std::string compositeOp(const FusionGroup &G, const std::string &P) {
  std::string S = llvm::formatv("/* ompi-opt: the op of the reductions fused at lines {0} */\n"
                                "static mpiopt_fuse_site {1}_site;\n"
                                "static void {1}_fn(void *in, void *inout, int *len, MPI_Datatype *type) {{\n"
                                "  const unsigned char *x = (const unsigned char *)in;\n"
                                "  unsigned char *y = (unsigned char *)inout;\n"
                                "  (void)type;\n"
                                "  for (int e = 0; e < *len; e++, x += {2}, y += {2}) {{\n",
                                fusionLines(G), P, G.Bytes)
                      .str();
  for (const FusionLane &L : G.Lanes)
    S += llvm::formatv("    for (int i = 0; i < {0}; i++) {{ /* {1} of {2} */\n"
                       "      {3} a, b;\n"
                       "      __builtin_memcpy(&a, x + {4} + i * {5}, {5});\n"
                       "      __builtin_memcpy(&b, y + {4} + i * {5}, {5});\n"
                       "      {6}\n"
                       "      __builtin_memcpy(y + {4} + i * {5}, &b, {5});\n"
                       "    }\n",
                       L.Count, L.Op, L.Type, L.KernelType, L.Offset, L.Size, combine(L))
             .str();
  return S + "  }\n}";
}

/// The packed buffer's declaration, followed by the first statement's
/// indentation: an array, or for run-time counts a small array or, when too
/// small, the heap.
std::string declaration(const FusionGroup &G, const FusionLayout &Lay, const std::string &P) {
  const std::string &Indent = G.Members.front().Indent;
  if (G.Kind == FusionKind::Composite)
    return llvm::formatv("unsigned char {0}_buf[{1}];\n{2}", P, G.Bytes, Indent).str();
  if (!Lay.Dynamic)
    return llvm::formatv("{0} {1}_buf[{2}];\n{3}", G.CType, P, Lay.Fixed ? Lay.Fixed : 1, Indent).str();
  return llvm::formatv("{0} {1}_small[256];\n{2}{0} *{1}_buf = ({3}) <= 256 ? {1}_small : ({0} *)__builtin_malloc("
                       "sizeof({0}) * (unsigned long)({3}));\n{2}if (!{1}_buf)\n{2}  MPI_Abort({4}, 1);\n{2}",
                       G.CType, P, Indent, Lay.Total, G.CommText)
      .str();
}

/// "{ Comment", the statements one level deeper than Indent, "}".
std::string block(const std::string &Comment, const std::vector<std::string> &Code, const std::string &Indent) {
  std::string Block = "{ " + Comment + "\n";
  for (const std::string &L : Code)
    Block += Indent + "  " + L + "\n";
  return Block + Indent + "}";
}

llvm::Error rewriteGroup(const FusionGroup &G, const std::string &P, const SourceManager &SM, const LangOptions &LO,
                         tooling::Replacements &Out, const std::map<std::string, std::string> &Variants) {
  FusionLayout Lay = fusionLayout(G);
  std::vector<Slot> Slots = slots(G, Lay);
  bool Loop = false;
  auto Pack = [&](size_t I) {
    const FusionMember &M = G.Members[I];
    std::string Value = M.Helper.empty() ? "" : Variants.at(M.Helper) + M.HelperArgs;
    return pack(G, Slots[I], P, I, Loop, Value);
  };
  std::string Decl = declaration(G, Lay, P);
  const FusionMember &First = G.Members.front(), &Last = G.Members.back();
  // The declaration goes before the first statement. When a macro wraps the
  // first call, the declaration replaces the statement's first token (the
  // macro's name) with itself and that token, so a wait another
  // transformation inserts before the statement can still go first.
  if (First.Wrapped || First.DeclForm) {
    SourceLocation B = First.Stmt.getBegin();
    unsigned Len = Lexer::MeasureTokenLength(B, SM, LO);
    StringRef Tok(SM.getCharacterData(B), Len);
    if (auto E = Out.add(tooling::Replacement(SM, B, Len, Decl + Tok.str())))
      return E;
  }
  // Earlier calls become the packing of their input (their code, read by
  // a macro at once, MPI_SUCCESS: a failure surfaces at the fused call).
  for (size_t I = 0; I + 1 < G.Members.size(); ++I) {
    const FusionMember &M = G.Members[I];
    std::string Code = Pack(I);
    if (M.Wrapped && Loop)
      Code = "__extension__({ " + Code + "; })";
    // A declaration's initializer: the packing, then 0 (the fused call
    // assigns the variable).
    std::string Text = M.Wrapped    ? "(" + Code + ", MPI_SUCCESS)"
                       : M.DeclForm ? "(" + Code + ", 0)"
                                    : (I == 0 ? Decl : "") + Code;
    if (auto E = Out.add(tooling::Replacement(SM, M.Expr, Text, LO)))
      return E;
  }
  std::string Comment = llvm::formatv("/* ompi-opt: {0} {1} calls (lines {2}) fused into one */", G.Members.size(),
                                      G.Function, fusionLines(G))
                            .str();
  if (Last.DeclForm) {
    // The declaration stays (its variable lives on); the collective follows it.
    if (auto E = Out.add(tooling::Replacement(SM, Last.Expr, "(" + Pack(G.Members.size() - 1) + ", 0)", LO)))
      return E;
    std::string Block = block(Comment, collective(G, Lay, Slots, P, "", SM), Last.Indent);
    return Out.add(tooling::Replacement(SM, Last.Stmt.getEnd(), 0, "\n" + Last.Indent + Block));
  }
  std::vector<std::string> Code = collective(G, Lay, Slots, P, Pack(G.Members.size() - 1), SM);
  if (Last.Wrapped) {
    // One expression on the call's line, its value the fused call's code.
    std::string Expr = "__extension__({ " + Comment;
    for (const std::string &L : Code)
      Expr += " " + L;
    Expr += " " + P + "_rc; })";
    return Out.add(tooling::Replacement(SM, Last.Expr, Expr, LO));
  }
  return Out.add(tooling::Replacement(SM, Last.Stmt, block(Comment, Code, Last.Indent), LO));
}

/// A loop of 1-element reductions: one reduction of the range, the counter
/// left as the loop leaves it; over 2^31 - 1 elements, the original loop.
llvm::Error rewriteLoop(const LoopFusion &L, const std::string &P, const SourceManager &SM, const LangOptions &LO,
                        tooling::Replacements &Out) {
  std::string Original = Lexer::getSourceText(L.Loop, SM, LO).str();
  std::string First = P + "_first", End = P + "_end", In = L.Indent + "  ";
  auto At = [&](const std::string &Base) { return "&(" + Base + ")[" + First + "]"; };
  std::string Count = "(int)(" + End + " - " + First + ")";
  std::string Call = L.Function == mpi::MPI_Reduce
                         ? llvm::formatv("MPI_Reduce({0}, {1}, {2}, {3}, {4}, {5}, {6})", At(L.SendBase),
                                         At(L.RecvBase), Count, L.TypeText, L.OpText, L.RootText, L.CommText)
                               .str()
                         : llvm::formatv("MPI_Allreduce({0}, {1}, {2}, {3}, {4}, {5})",
                                         L.SendBase.empty() ? mpi::MPI_IN_PLACE.str() : At(L.SendBase), At(L.RecvBase),
                                         Count, L.TypeText, L.OpText, L.CommText)
                               .str();
  // The original loop, two levels deeper.
  std::string Fallback;
  for (char C : Original)
    Fallback += C == '\n' ? "\n    " : std::string(1, C);
  std::string T =
      llvm::formatv("{ /* ompi-opt: the {0} of each iteration (line {1}) fused into one on the range */\n"
                    "{2}long long {3} = ({4})({5}), {6} = {7};\n"
                    "{2}if ({6} > {3} && (unsigned long long){6} - (unsigned long long){3} > 2147483647u) {{\n"
                    "{2}  {8}\n"
                    "{2}} else if ({3} < {6}) {{\n"
                    "{2}  {9};\n"
                    "{2}}\n",
                    L.Function, L.Line, In, First, L.CounterType, L.First, End, L.End, Fallback, Call)
          .str();
  if (!L.CounterScoped)
    T += llvm::formatv("{0}if (!({1} > {2} && (unsigned long long){1} - (unsigned long long){2} > 2147483647u))\n"
                       "{0}  {3} = ({4})({2} < {1} ? {1} : {2});\n",
                       In, End, First, L.Counter, L.CounterType)
             .str();
  T += L.Indent + "}";
  return Out.add(tooling::Replacement(SM, L.Loop, T, LO));
}

llvm::Error rewrite(const FusionPlan &Plan, TransformContext &TC) {
  ASTContext &Ctx = TC.Ctx;
  tooling::Replacements &Out = TC.Out;
  std::vector<ChangeNote> &Notes = TC.Notes;
  const SourceManager &SM = Ctx.getSourceManager();
  FreshNames Names(Ctx);
  // Each reduction helper a group calls gets its variant, after it.
  std::map<std::string, std::string> Variants;
  for (const HelperVariant &H : Plan.Helpers) {
    std::string Name = Names.next("mpiopt_part") + "_" + H.Helper;
    Variants[H.Helper] = Name;
    std::string Text = llvm::formatv("\n\n/* ompi-opt: {0} up to its reduction, returning this rank's contribution "
                                     "(the fused reductions deliver the result) */\nstatic {1} {2}{3} {4}",
                                     H.Helper, H.ValueType, Name, H.Params, H.Body)
                           .str();
    if (auto E = Out.add(tooling::Replacement(SM, H.After, 0, Text)))
      return E;
    if (H.Proto.isValid()) // the helper's prototype: callers before its definition
      if (auto E =
              Out.add(tooling::Replacement(SM, H.Proto, 0, "\nstatic " + H.ValueType + " " + Name + H.Params + ";")))
        return E;
  }
  for (const FusionGroup &G : Plan.Groups) {
    std::string P = Names.next("mpiopt_fuse");
    if (G.Kind == FusionKind::Composite) {
      TC.needs("#include <mpiopt/fuse.h>");
      TC.needs(compositeOp(G, P));
    }
    if (auto E = rewriteGroup(G, P, SM, Ctx.getLangOpts(), Out, Variants))
      return E;
    const FusionMember &Last = G.Members.back();
    Notes.push_back(fusionNote(G, SM.getFilename(SM.getExpansionLoc(Last.Stmt.getBegin())).str()));
  }
  for (const LoopFusion &L : Plan.Loops) {
    if (auto E = rewriteLoop(L, Names.next("mpiopt_loop"), SM, Ctx.getLangOpts(), Out))
      return E;
    Notes.push_back(loopFusionNote(L, SM.getFilename(SM.getExpansionLoc(L.Loop.getBegin())).str()));
  }
  for (const ChangeNote &N : Plan.Declined)
    Notes.push_back(N);
  return llvm::Error::success();
}

} // namespace

llvm::Error ompi::runReductionFusion(TransformContext &TC) {
  const ReductionPlan &P = TC.Plans.get(true, TC.enabled("lazy-deferral"));
  return rewrite(P.Fusion, TC);
}
