//===- UniformityTest.cpp - The CFG analyses: definitions and uniformity --===//
#include "analysis/Uniformity.h"
#include "TestAST.h"
#include "analysis/CollectiveSequence.h"
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

// CollectiveSequence: the collectives each rank issues, with the rank and
// size made concrete; the first point where two groups part.
TEST(CollectiveSequence, FindsWhereRanksPart) {
  auto AST = parse("void f(void) { int r; double a = 0, b; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " if (r == 0) MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);"
                   " MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }"
                   " void g(void) { int r; double a = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " if (r == 0) MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);"
                   " else MPI_Bcast(&a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto R = collectiveSequences(AST->getASTContext(), Ev, Uni);
  ASSERT_EQ(R.size(), 2u);
  ASSERT_TRUE(R[0].Decided) << R[0].Why;
  ASSERT_TRUE(R[0].Divergence.has_value());
  const SequenceDivergence &D = *R[0].Divergence;
  EXPECT_EQ(D.Size, 2);
  EXPECT_EQ(D.RanksA, std::vector<int>{0});
  EXPECT_EQ(D.RanksB, std::vector<int>{1});
  EXPECT_EQ(D.Index, 0u);
  ASSERT_TRUE(D.A && D.B);
  EXPECT_EQ(llvm::StringRef(D.A->Key).split(' ').first, "MPI_Bcast");
  EXPECT_EQ(llvm::StringRef(D.B->Key).split(' ').first, "MPI_Allreduce");
  ASSERT_TRUE(R[1].Decided) << R[1].Why;
  EXPECT_FALSE(R[1].Divergence.has_value());
  EXPECT_EQ(describeRanks({0, 2, 3, 4, 7}), "0, 2-4, 7");
}

// rmaTraces: each rank's calls on the local windows, rank by rank; nothing
// where a window is copied (the copy's calls would be missed) or a window
// call depends on data the runs cannot decide.
TEST(CollectiveSequence, RmaTracesFollowEachRanksWindowCalls) {
  std::string Decls = "typedef int MPI_Win; typedef int MPI_Info; typedef long MPI_Aint;"
                      " int MPI_Win_create(void *, MPI_Aint, int, MPI_Info, MPI_Comm, MPI_Win *);"
                      " int MPI_Win_fence(int, MPI_Win); int MPI_Win_free(MPI_Win *);"
                      " int MPI_Put(const void *, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win);";
  auto AST = parse(Decls + " void f(int *m) { int r; MPI_Win w; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                           " MPI_Win_create(m, 4, 1, 0, MPI_COMM_WORLD, &w); MPI_Win_fence(0, w);"
                           " for (int i = 0; i < 100; i++) if (r == 0) MPI_Put(m, 1, MPI_INT, 1, 0, 1, MPI_INT, w);"
                           " MPI_Win_free(&w); }"
                           " void g(int *m) { MPI_Win w, v; MPI_Win_create(m, 4, 1, 0, MPI_COMM_WORLD, &w);"
                           " v = w; MPI_Win_fence(0, v); MPI_Win_free(&w); }"
                           " void h(int *m) { MPI_Win w; MPI_Win_create(m, 4, 1, 0, MPI_COMM_WORLD, &w);"
                           " if (m[0]) MPI_Win_fence(0, w); MPI_Win_free(&w); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto T = rmaTraces(AST->getASTContext(), Ev, Uni);
  ASSERT_EQ(T.size(), 3u); // f with 2, 3 and 4 processes; g and h give nothing
  for (const P2PTraces &X : T)
    EXPECT_EQ(X.F->getName(), "f");
  ASSERT_EQ(T[0].Size, 2);
  ASSERT_EQ(T[0].Ranks.size(), 2u);
  EXPECT_EQ(T[0].Ranks[0].size(), 103u); // create, fence, 100 puts, free
  EXPECT_EQ(T[0].Ranks[1].size(), 3u);
  EXPECT_EQ(T[0].Ranks[0][0].WinEvent.K, HandleEvent::Create);
  EXPECT_EQ(T[0].Ranks[0][2].WinEvent.K, HandleEvent::RMA);
  EXPECT_EQ(T[0].Ranks[1][2].WinEvent.K, HandleEvent::Free);
  EXPECT_EQ(T[0].Ranks[1][2].Win->getName(), "w");
}

// p2pTraces: a communicator split of the world with the ranks reversed
// (keys 10 - rank): a send to its rank 0 goes to the last world rank.
TEST(CollectiveSequence, P2PTracesTranslateRanksOfSplitCommunicators) {
  auto AST = parse("int main(void) { int r, buf = 0; MPI_Comm c; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " MPI_Comm_split(MPI_COMM_WORLD, 0, 10 - r, &c);"
                   " if (r == 0) MPI_Send(&buf, 1, MPI_INT, 0, 7, c); MPI_Comm_free(&c); return 0; }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto T = p2pTraces(AST->getASTContext(), Ev, Uni);
  ASSERT_EQ(T.size(), 3u); // 2, 3 and 4 processes
  for (const P2PTraces &X : T) {
    ASSERT_EQ(X.Ranks[0].size(), 1u);
    const P2PEvent &E = X.Ranks[0][0];
    EXPECT_EQ(E.K, P2PEvent::Send);
    EXPECT_EQ(E.CommIndex, 0);
    EXPECT_EQ(E.CommPeer, std::optional<int64_t>(0));
    EXPECT_EQ(E.S.Peer, std::optional<int64_t>(X.Size - 1)) << "with " << X.Size << " processes";
    EXPECT_EQ(E.Comm->getName(), "c");
  }
}

// handleArrayTraces: each rank's creations and frees of a handle array's
// elements, the index made concrete; nothing where the array is handed to
// a function that is not MPI's.
TEST(CollectiveSequence, HandleArrayTracesFollowElements) {
  auto AST = parse("void keep(MPI_Comm *);"
                   " void f(void) { MPI_Comm c[2]; for (int j = 0; j < 2; j++) MPI_Comm_dup(MPI_COMM_WORLD, &c[j]);"
                   " MPI_Comm_free(&c[0]); }"
                   " void g(void) { MPI_Comm c[1]; MPI_Comm_dup(MPI_COMM_WORLD, &c[0]); keep(c); }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto T = handleArrayTraces(AST->getASTContext(), Ev, Uni);
  ASSERT_EQ(T.size(), 3u); // f with 2, 3 and 4 processes; g gives nothing
  EXPECT_EQ(T[0].F->getName(), "f");
  const std::vector<P2PEvent> &R = T[0].Ranks[1];
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0].WinEvent.K, HandleEvent::Create);
  EXPECT_EQ(R[1].S.Peer, std::optional<int64_t>(1));
  EXPECT_EQ(R[2].WinEvent.K, HandleEvent::Free);
  EXPECT_EQ(R[2].S.Peer, std::optional<int64_t>(0));
  EXPECT_EQ(R[2].Win->getName(), "c");
}

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
