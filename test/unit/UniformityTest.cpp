//===- UniformityTest.cpp - The CFG analyses: definitions and uniformity --===//
#include "analysis/Uniformity.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

/// The variable named Name declared in F.
const clang::VarDecl *local(const clang::FunctionDecl *F, llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const clang::VarDecl *Found = nullptr;
    bool VisitVarDecl(clang::VarDecl *V) {
      if (V->getName() == Name)
        Found = V;
      return true;
    }
  } V;
  V.Name = Name;
  V.TraverseDecl(const_cast<clang::FunctionDecl *>(F));
  return V.Found;
}

TEST(FunctionAnalysis, ReachingDefinitionsJoinAtBranches) {
  auto AST = parse("void f(int c) { int x = 1; if (c) x = 2; MPI_Barrier(MPI_COMM_WORLD); x = 3;"
                   " MPI_Barrier(MPI_COMM_SELF); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  FunctionAnalysis &FA = Ev.analysis(F);
  ASSERT_TRUE(FA.valid());
  const clang::VarDecl *X = local(F, "x");
  auto P1 = FA.pointOf(call(F, "MPI_Barrier", 0)), P2 = FA.pointOf(call(F, "MPI_Barrier", 1));
  ASSERT_TRUE(P1 && P2);
  EXPECT_EQ(FA.reaching(X, *P1).size(), 2u); // x = 1 and x = 2
  ASSERT_EQ(FA.reaching(X, *P2).size(), 1u); // x = 3 only
  EXPECT_EQ(FA.reaching(X, *P2).front()->K, Def::Assign);
}

TEST(Uniformity, RankBranchDiverges) {
  auto AST = parse("void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " if (r == 0) MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_SELF); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  auto Inside = Uni.within(call(F, "MPI_Barrier", 0), F);
  ASSERT_TRUE(Inside.has_value());
  EXPECT_NE(Inside->Why.find("rank"), std::string::npos) << Inside->Why;
  EXPECT_FALSE(Uni.within(call(F, "MPI_Barrier", 1), F).has_value());
}

TEST(Uniformity, SizeBranchIsUniform) {
  auto AST = parse("void f(void) { int s; MPI_Comm_size(MPI_COMM_WORLD, &s);"
                   " if (s > 2) MPI_Barrier(MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  EXPECT_FALSE(Uni.within(call(F, "MPI_Barrier"), F).has_value());
}

TEST(Uniformity, AllreduceResultIsUniform) {
  auto AST = parse("void f(void) { int r, m; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " MPI_Allreduce(&r, &m, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"
                   " if (m > 0) MPI_Barrier(MPI_COMM_WORLD); if (r > 0) MPI_Barrier(MPI_COMM_SELF); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  EXPECT_FALSE(Uni.within(call(F, "MPI_Barrier", 0), F).has_value());
  EXPECT_TRUE(Uni.within(call(F, "MPI_Barrier", 1), F).has_value());
}

} // namespace

namespace {
/// Why the condition of the first if statement in F varies, if it does.
std::optional<std::string> ifVaries(Uniformity &Uni, const clang::FunctionDecl *F) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::IfStmt *First = nullptr;
    bool VisitIfStmt(clang::IfStmt *S) {
      if (!First)
        First = S;
      return true;
    }
  } V;
  V.TraverseDecl(const_cast<clang::FunctionDecl *>(F));
  return Uni.varies(V.First->getCond(), F);
}
} // namespace

TEST(FunctionAnalysis, BroadcastDefinesItsBuffer) {
  auto AST = parse("void f(int r) { int n = 0; if (r == 0) n = 5; MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Barrier(MPI_COMM_SELF); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  FunctionAnalysis &FA = Ev.analysis(F);
  auto P = FA.pointOf(call(F, "MPI_Barrier", 0));
  ASSERT_TRUE(P);
  auto Defs = FA.reaching(local(F, "n"), *P);
  ASSERT_EQ(Defs.size(), 1u); // the broadcast kills n = 0 and n = 5
  EXPECT_EQ(Defs.front()->K, Def::CollectiveOut);
  EXPECT_FALSE(FA.addressTaken(local(F, "n")).has_value()); // the call keeps no pointer
}

TEST(Uniformity, BroadcastValueIsUniformAfterwardsOnly) {
  auto AST = parse("void f(void) { int r, n = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r == 0) n = 5;"
                   " MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD); if (n > 3) MPI_Barrier(MPI_COMM_WORLD); }"
                   "void g(void) { int r, n = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r == 0) n = 5;"
                   " if (n > 3) MPI_Barrier(MPI_COMM_WORLD); MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto &Ctx = AST->getASTContext();
  // f reads n after the broadcast (the if at "r == 0" is the first if: skip it)
  const clang::FunctionDecl *F = function(Ctx, "f");
  EXPECT_FALSE(Uni.within(call(F, "MPI_Barrier", 0), F).has_value());
  const clang::FunctionDecl *G = function(Ctx, "g");
  auto Before = Uni.within(call(G, "MPI_Barrier", 0), G);
  ASSERT_TRUE(Before.has_value());
  EXPECT_NE(Before->Why.find("n is set at line"), std::string::npos) << Before->Why;
}

TEST(Uniformity, SplitCommunicatorResultsVary) {
  auto AST = parse("void f(int c) { MPI_Comm h; int s, n = 1; MPI_Comm_split(MPI_COMM_WORLD, c, 0, &h);"
                   " MPI_Comm_size(h, &s); if (s > 2) MPI_Barrier(MPI_COMM_WORLD); }"
                   "void g(int c) { MPI_Comm h; long m = 1; MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);"
                   " if (m > 2) MPI_Barrier(MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  auto Why = ifVaries(Uni, F);
  ASSERT_TRUE(Why.has_value());
  EXPECT_NE(Why->find("may not hold every rank"), std::string::npos) << *Why;
  const clang::FunctionDecl *G = function(AST->getASTContext(), "g");
  auto Partly = ifVaries(Uni, G);
  ASSERT_TRUE(Partly.has_value());
  EXPECT_NE(Partly->find("only partly set"), std::string::npos) << *Partly;
}
