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
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

llvm::Error rewrite(const FusionPlan &Plan, ASTContext &Ctx, tooling::Replacements &Out,
                    std::vector<ChangeNote> &Notes) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  FreshNames Names(Ctx);
  for (const FusionGroup &G : Plan.Groups) {
    const std::string P = Names.next("mpiopt_fuse");
    std::string Buf = P + "_buf", Small = P + "_small";
    FusionLayout Lay = fusionLayout(G);
    const std::vector<std::string> &Offsets = Lay.Offsets, &Counts = Lay.Counts;
    const std::string &Total = Lay.Total;
    int64_t Fixed = Lay.Fixed;
    bool Dynamic = Lay.Dynamic;
    auto Pack = [&](size_t I) {
      const FusionMember &M = G.Members[I];
      return llvm::formatv("__builtin_memcpy(&{0}[{1}], {2}, {3} * sizeof({4}))", Buf, Offsets[I], M.InputText,
                           Counts[I], G.CType)
          .str();
    };
    const FusionMember &First = G.Members.front(), &Last = G.Members.back();
    // The packed buffer, declared just before the first call: an array, or
    // for run-time counts a small array or, when too small, the heap.
    std::string Decl =
        Dynamic ? llvm::formatv("{0} {1}[256];\n{2}{0} *{3} = ({4}) <= 256 ? {1} : ({0} *)__builtin_malloc(sizeof({0}) "
                                "* (unsigned long)({4}));\n{2}if (!{3})\n{2}  MPI_Abort({5}, 1);\n{2}",
                                G.CType, Small, First.Indent, Buf, Total, G.CommText)
                      .str()
                : llvm::formatv("{0} {1}[{2}];\n{3}", G.CType, Buf, Fixed ? Fixed : 1, First.Indent).str();
    bool AnyCode = llvm::any_of(G.Members, [](const FusionMember &M) { return !M.ResultCode.empty(); });
    std::string LineList = fusionLines(G);
    // Earlier calls become the packing of their input.
    for (size_t I = 0; I + 1 < G.Members.size(); ++I)
      if (auto E = Out.add(tooling::Replacement(SM, G.Members[I].Expr, (I == 0 ? Decl : "") + Pack(I), LO)))
        return E;
    // The last call becomes: pack its input, one collective, unpack all.
    std::string In = Last.Indent + "  ";
    std::string Rc = P + "_rc", Rank = P + "_rank";
    std::string Code = llvm::formatv("{ /* ompi-opt: {0} {1} calls (lines {2}) fused into one */\n", G.Members.size(),
                                     G.Function, LineList)
                           .str();
    Code += In + Pack(G.Members.size() - 1) + ";\n";
    std::string Call;
    if (!G.Rooted) {
      Call = llvm::formatv("MPI_Allreduce(MPI_IN_PLACE, {0}, {1}, {2}, {3}, {4})", Buf,
                           Dynamic ? "(int)(" + Total + ")" : Total, G.TypeText, G.OpText, G.CommText);
    } else {
      Code += In + "int " + Rank + ";\n" + In + "MPI_Comm_rank(" + G.CommText + ", &" + Rank + ");\n";
      Call = llvm::formatv(
          "MPI_Reduce({0} == ({1}) ? MPI_IN_PLACE : {2}, {0} == ({1}) ? {2} : (void *)0, {3}, {4}, {5}, "
          "{1}, {6})",
          Rank, G.RootText, Buf, Dynamic ? "(int)(" + Total + ")" : Total, G.TypeText, G.OpText, G.CommText);
    }
    Code += In + (AnyCode ? "int " + Rc + " = " : std::string()) + Call + ";\n";
    std::string Unpack;
    for (size_t I = 0; I < G.Members.size(); ++I)
      Unpack += llvm::formatv("{0}__builtin_memcpy({1}, &{2}[{3}], {4} * sizeof({5}));\n", !G.Rooted ? In : In + "  ",
                              G.Members[I].ResultAddr, Buf, Offsets[I], Counts[I], G.CType);
    if (!G.Rooted)
      Code += Unpack;
    else
      Code += In + "if (" + Rank + " == (" + G.RootText + ")) {\n" + Unpack + In + "}\n";
    for (const FusionMember &M : G.Members)
      if (!M.ResultCode.empty())
        Code += In + M.ResultCode + " = " + Rc + ";\n";
    if (Dynamic)
      Code += In + "if (" + Buf + " != " + Small + ")\n" + In + "  __builtin_free(" + Buf + ");\n";
    Code += Last.Indent + "}";
    if (auto E = Out.add(tooling::Replacement(SM, Last.Stmt, Code, LO)))
      return E;

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
