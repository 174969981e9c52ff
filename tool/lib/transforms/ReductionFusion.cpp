//===- ReductionFusion.cpp - Rewrite: fuse independent reductions ---------===//
//
// Rewrites the fusion groups of the reduction plan (analysis/FusionPlan.h
// states what is proved): each earlier call becomes the packing of its input
// into one buffer; the last becomes the packing of its own, one collective
// on the packed buffer and the unpacking of every result.
//
//===----------------------------------------------------------------------===//
#include "analysis/ReductionPlan.h"
#include "transforms/Rewrite.h"
#include "transforms/Transforms.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

/// The statements of the fused collective at the last call: pack its input,
/// one collective, unpack every result, hand on return codes, free a heap
/// buffer. Rooted groups unpack at the root only.
std::vector<std::string> collective(const FusionGroup &G, const FusionLayout &Lay, const std::string &P,
                                    const std::string &Pack) {
  std::string Buf = P + "_buf", Rc = P + "_rc", Rank = P + "_rank";
  std::string Count = Lay.Dynamic ? "(int)(" + Lay.Total + ")" : Lay.Total;
  bool Wrapped = G.Members.back().Wrapped;
  bool AnyCode = Wrapped || llvm::any_of(G.Members, [](const FusionMember &M) { return !M.ResultCode.empty(); });
  std::vector<std::string> Code{Pack + ";"};
  std::string Call;
  if (!G.Rooted) {
    Call = llvm::formatv("MPI_Allreduce(MPI_IN_PLACE, {0}, {1}, {2}, {3}, {4})", Buf, Count, G.TypeText, G.OpText,
                         G.CommText);
  } else {
    Code.push_back("int " + Rank + ";");
    Code.push_back("MPI_Comm_rank(" + G.CommText + ", &" + Rank + ");");
    Call = llvm::formatv("MPI_Reduce({0} == ({1}) ? MPI_IN_PLACE : {2}, {0} == ({1}) ? {2} : (void *)0, {3}, {4}, "
                         "{5}, {1}, {6})",
                         Rank, G.RootText, Buf, Count, G.TypeText, G.OpText, G.CommText);
  }
  Code.push_back((AnyCode ? "int " + Rc + " = " : std::string()) + Call + ";");
  std::string Pad = G.Rooted ? "  " : "";
  if (G.Rooted)
    Code.push_back("if (" + Rank + " == (" + G.RootText + ")) {");
  for (size_t I = 0; I < G.Members.size(); ++I)
    Code.push_back(llvm::formatv("{0}__builtin_memcpy({1}, &{2}[{3}], {4} * sizeof({5}));", Pad,
                                 G.Members[I].ResultAddr, Buf, Lay.Offsets[I], Lay.Counts[I], G.CType));
  if (G.Rooted)
    Code.push_back("}");
  for (const FusionMember &M : G.Members)
    if (!M.ResultCode.empty())
      Code.push_back(M.ResultCode + " = " + Rc + ";");
  if (Lay.Dynamic) {
    Code.push_back("if (" + Buf + " != " + P + "_small)");
    Code.push_back("  __builtin_free(" + Buf + ");");
  }
  return Code;
}

/// The packed buffer's declaration, followed by the first statement's
/// indentation: an array, or for run-time counts a small array or, when too
/// small, the heap.
std::string declaration(const FusionGroup &G, const FusionLayout &Lay, const std::string &P) {
  const std::string &Indent = G.Members.front().Indent;
  if (!Lay.Dynamic)
    return llvm::formatv("{0} {1}_buf[{2}];\n{3}", G.CType, P, Lay.Fixed ? Lay.Fixed : 1, Indent).str();
  return llvm::formatv("{0} {1}_small[256];\n{2}{0} *{1}_buf = ({3}) <= 256 ? {1}_small : ({0} *)__builtin_malloc("
                       "sizeof({0}) * (unsigned long)({3}));\n{2}if (!{1}_buf)\n{2}  MPI_Abort({4}, 1);\n{2}",
                       G.CType, P, Indent, Lay.Total, G.CommText)
      .str();
}

llvm::Error rewriteGroup(const FusionGroup &G, const std::string &P, const SourceManager &SM, const LangOptions &LO,
                         tooling::Replacements &Out) {
  FusionLayout Lay = fusionLayout(G);
  auto Pack = [&](size_t I) {
    return llvm::formatv("__builtin_memcpy(&{0}_buf[{1}], {2}, {3} * sizeof({4}))", P, Lay.Offsets[I],
                         G.Members[I].InputText, Lay.Counts[I], G.CType)
        .str();
  };
  std::string Decl = declaration(G, Lay, P);
  const FusionMember &First = G.Members.front(), &Last = G.Members.back();
  // The declaration goes before the first statement. When a macro wraps the
  // first call, the declaration replaces the statement's first token (the
  // macro's name) with itself and that token, so a wait another
  // transformation inserts before the statement can still go first.
  if (First.Wrapped) {
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
    std::string Text = M.Wrapped ? "(" + Pack(I) + ", MPI_SUCCESS)" : (I == 0 ? Decl : "") + Pack(I);
    if (auto E = Out.add(tooling::Replacement(SM, M.Expr, Text, LO)))
      return E;
  }
  std::string Comment = llvm::formatv("/* ompi-opt: {0} {1} calls (lines {2}) fused into one */", G.Members.size(),
                                      G.Function, fusionLines(G))
                            .str();
  std::vector<std::string> Code = collective(G, Lay, P, Pack(G.Members.size() - 1));
  if (Last.Wrapped) {
    // One expression on the call's line, its value the fused call's code.
    std::string Expr = "__extension__({ " + Comment;
    for (const std::string &L : Code)
      Expr += " " + L;
    Expr += " " + P + "_rc; })";
    return Out.add(tooling::Replacement(SM, Last.Expr, Expr, LO));
  }
  std::string Block = "{ " + Comment + "\n";
  for (const std::string &L : Code)
    Block += Last.Indent + "  " + L + "\n";
  Block += Last.Indent + "}";
  return Out.add(tooling::Replacement(SM, Last.Stmt, Block, LO));
}

llvm::Error rewrite(const FusionPlan &Plan, ASTContext &Ctx, tooling::Replacements &Out,
                    std::vector<ChangeNote> &Notes) {
  const SourceManager &SM = Ctx.getSourceManager();
  FreshNames Names(Ctx);
  for (const FusionGroup &G : Plan.Groups) {
    if (auto E = rewriteGroup(G, Names.next("mpiopt_fuse"), SM, Ctx.getLangOpts(), Out))
      return E;
    const FusionMember &Last = G.Members.back();
    Notes.push_back(fusionNote(G, SM.getFilename(SM.getExpansionLoc(Last.Stmt.getBegin())).str()));
  }
  for (const ChangeNote &N : Plan.Declined)
    Notes.push_back(N);
  return llvm::Error::success();
}

} // namespace

llvm::Error ompi::runReductionFusion(TransformContext &TC) {
  const ReductionPlan &P = TC.Plans.get(true, TC.enabled("lazy-deferral"));
  return rewrite(P.Fusion, TC.Ctx, TC.Out, TC.Notes);
}
