//===- RankRunTest.cpp - The per-rank interpreter (analysis/ranks) --------===//
//
// RankRun on its own: one rank's run through a function with the rank and
// size concrete (branches, switch, goto, do loops, helpers run for their
// value, aborts, what it cannot follow), then the runs the checks read
// (collectiveSequences, p2pTraces, rmaTraces, handleArrayTraces).
//
//===----------------------------------------------------------------------===//
#include "TestAST.h"
#include "analysis/ranks/Interpreter.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::ranks;
using namespace ompi::test;

namespace {

const char *Extra = "int MPI_Abort(MPI_Comm, int);"
                    " int MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, void *);";

/// One rank's run of function Name: its flow, and the run for inspection.
struct OneRun {
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<Evaluator> Ev;
  std::unique_ptr<Uniformity> Uni;
  std::unique_ptr<Relevance> Rel;
  std::unique_ptr<RankRun> Run;
  std::optional<Flow> Result;
  std::string Why; ///< when the run throws Undecided

  OneRun(const std::string &Code, int Rank, int Size, Relevance::Kind K = Relevance::Collectives,
         llvm::StringRef Name = "f", std::vector<std::string> Args = {})
      : AST(parse(Extra + Code, std::move(Args))) {
    clang::ASTContext &Ctx = AST->getASTContext();
    Ev = std::make_unique<Evaluator>(Ctx);
    Uni = std::make_unique<Uniformity>(Ctx, *Ev);
    Rel = std::make_unique<Relevance>(K);
    Run = std::make_unique<RankRun>(Ctx, *Ev, *Uni, *Rel, Rank, Size);
    try {
      Result = Run->function(function(Ctx, Name), {});
    } catch (const Undecided &U) {
      Why = U.Why;
    }
  }
  /// The collectives' names, in order.
  std::vector<std::string> names() const {
    std::vector<std::string> Out;
    for (const CollectiveEvent &E : Run->Events)
      Out.push_back(llvm::StringRef(E.Key).split(' ').first.str());
    return Out;
  }
};

using Names = std::vector<std::string>;

TEST(RankRun, BranchesOnTheRankAndSize) {
  std::string Code = "void f(void) { int r, s; double a = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " MPI_Comm_size(MPI_COMM_WORLD, &s);"
                     " if (r == s - 1) MPI_Bcast(&a, 1, MPI_DOUBLE, r, MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD); }";
  OneRun Last(Code, 2, 3), First(Code, 0, 3);
  ASSERT_EQ(Last.Result, Flow::Normal) << Last.Why;
  EXPECT_EQ(Last.names(), (Names{"MPI_Bcast", "MPI_Barrier"}));
  EXPECT_NE(Last.Run->Events[0].Key.find("root=2"), std::string::npos) << Last.Run->Events[0].Key;
  EXPECT_EQ(First.names(), (Names{"MPI_Barrier"}));
}

TEST(RankRun, SwitchFallsThroughToTheFirstBreak) {
  std::string Code =
      "void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
      " switch (r) { case 0: MPI_Barrier(MPI_COMM_WORLD);"
      " case 1 ... 2: MPI_Barrier(MPI_COMM_WORLD); break;"
      " default: MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD); } }";
  EXPECT_EQ(OneRun(Code, 0, 4).Run->Events.size(), 2u); // case 0 falls into case 1 ... 2
  EXPECT_EQ(OneRun(Code, 2, 4).Run->Events.size(), 1u);
  EXPECT_EQ(OneRun(Code, 3, 4).Run->Events.size(), 3u); // default
}

TEST(RankRun, GotoMakesALoop) {
  std::string Code = "void f(void) { int r, i = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " again: if (i <= r) { MPI_Barrier(MPI_COMM_WORLD); i++; goto again; } }";
  for (int Rank : {0, 3}) {
    OneRun R(Code, Rank, 4);
    ASSERT_EQ(R.Result, Flow::Normal) << R.Why;
    EXPECT_EQ(R.Run->Events.size(), size_t(Rank + 1));
  }
}

TEST(RankRun, DoLoopRunsItsBodyBeforeTheTest) {
  std::string Code = "void f(void) { int r, i = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " do { MPI_Barrier(MPI_COMM_WORLD); i++; } while (i < r); }";
  EXPECT_EQ(OneRun(Code, 0, 4).Run->Events.size(), 1u);
  EXPECT_EQ(OneRun(Code, 3, 4).Run->Events.size(), 3u);
}

TEST(RankRun, HelpersRunForTheirValue) {
  std::string Code = "static int half(int n, int *out) { *out = n / 2; return n % 2; }"
                     " void f(void) { int r, s, h = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " MPI_Comm_size(MPI_COMM_WORLD, &s);"
                     " if (!half(s, &h) && r == h) MPI_Barrier(MPI_COMM_WORLD); }";
  EXPECT_EQ(OneRun(Code, 2, 4).Run->Events.size(), 1u); // 4 is even, half of it is 2
  EXPECT_EQ(OneRun(Code, 1, 4).Run->Events.size(), 0u);
  EXPECT_EQ(OneRun(Code, 1, 3).Run->Events.size(), 0u); // 3 is odd
}

TEST(RankRun, AbortEndsTheRun) {
  std::string Code = "void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " if (r == 1) MPI_Abort(MPI_COMM_WORLD, 1); MPI_Barrier(MPI_COMM_WORLD); }";
  OneRun One(Code, 1, 2), Zero(Code, 0, 2);
  EXPECT_EQ(One.Result, Flow::Aborted);
  EXPECT_TRUE(One.Run->Events.empty());
  EXPECT_EQ(Zero.Result, Flow::Normal);
}

TEST(RankRun, UndecidedBranchWhoseArmsDiffer) {
  std::string Code = "extern int flag; static int input(void) { return flag; }"
                     " void f(void) { if (input()) MPI_Barrier(MPI_COMM_WORLD); }"
                     " void g(void) { int x = 0; if (input()) x = 1; MPI_Barrier(MPI_COMM_WORLD); }";
  OneRun F(Code, 0, 2);
  EXPECT_FALSE(F.Result.has_value());
  EXPECT_NE(F.Why.find("not decided"), std::string::npos) << F.Why;
  OneRun G(Code, 0, 2, Relevance::Collectives, "g"); // the arms issue the same collectives
  EXPECT_EQ(G.Result, Flow::Normal) << G.Why;
  EXPECT_EQ(G.names(), (Names{"MPI_Barrier"}));
}

TEST(RankRun, CodeOfAnotherFileMayCommunicate) {
  // step is another file's: it may communicate, so the run stops there; a
  // function of the C library (a system header) and a builtin do not.
  std::string Code = "void step(void); void f(void) { MPI_Barrier(MPI_COMM_WORLD); step(); }"
                     " void g(void) { char s[4]; __builtin_memset(s, 0, 4); MPI_Barrier(MPI_COMM_WORLD); }";
  OneRun F(Code, 0, 2);
  EXPECT_FALSE(F.Result.has_value());
  EXPECT_NE(F.Why.find("step is defined in another file, and may communicate"), std::string::npos) << F.Why;
  OneRun G(Code, 0, 2, Relevance::Collectives, "g");
  EXPECT_EQ(G.Result, Flow::Normal) << G.Why;
}

TEST(RankRun, MessagesHaveConcretePeers) {
  std::string Code = "void f(void) { int r, s, b = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " MPI_Comm_size(MPI_COMM_WORLD, &s);"
                     " for (int k = 1; k < s; k++) MPI_Send(&b, 1, MPI_INT, (r + k) % s, k, MPI_COMM_WORLD); }";
  OneRun R(Code, 2, 3, Relevance::PointToPoint);
  ASSERT_EQ(R.Result, Flow::Normal) << R.Why;
  const std::vector<P2PEvent> &M = R.Run->Messages;
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0].K, P2PEvent::Send);
  EXPECT_EQ(M[0].S.Peer, std::optional<int64_t>(0));
  EXPECT_EQ(M[1].S.Peer, std::optional<int64_t>(1));
  EXPECT_EQ(M[1].S.Tag, std::optional<int64_t>(2));
}

TEST(RankRun, SplitsRecordColourAndKey) {
  std::string Code = "void f(void) { int r; MPI_Comm c, d; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " MPI_Comm_split(MPI_COMM_WORLD, r % 2, -r, &c); MPI_Comm_dup(c, &d);"
                     " MPI_Comm_free(&d); MPI_Comm_free(&c); }";
  OneRun R(Code, 3, 4, Relevance::PointToPoint);
  ASSERT_EQ(R.Result, Flow::Normal) << R.Why;
  const std::vector<MadeComm> &C = R.Run->Comms;
  ASSERT_EQ(C.size(), 2u);
  EXPECT_TRUE(C[0].OfWorld);
  EXPECT_EQ(C[0].Colour, std::optional<int64_t>(1));
  EXPECT_EQ(C[0].Key, std::optional<int64_t>(-3));
  EXPECT_FALSE(C[1].OfWorld); // a duplicate of c
  EXPECT_EQ(C[1].Key, std::optional<int64_t>(3));
}

// OpenMP (with -fopenmp the AST holds the constructs): master and single
// run once; calls several threads of a region may make are not followed.
TEST(RankRun, OpenMPRegions) {
  std::string Code = "void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);\n"
                     "#pragma omp parallel\n { if (r == 0) {\n"
                     "#pragma omp master\n MPI_Barrier(MPI_COMM_WORLD);\n }\n"
                     "#pragma omp single\n MPI_Barrier(MPI_COMM_WORLD);\n } }\n"
                     "void g(void) {\n#pragma omp parallel num_threads(3)\n MPI_Barrier(MPI_COMM_WORLD);\n}\n";
  OneRun Zero(Code, 0, 2, Relevance::Collectives, "f", {"-fopenmp"});
  ASSERT_EQ(Zero.Result, Flow::Normal) << Zero.Why;
  EXPECT_EQ(Zero.names(), (Names{"MPI_Barrier", "MPI_Barrier"}));
  EXPECT_EQ(OneRun(Code, 1, 2, Relevance::Collectives, "f", {"-fopenmp"}).names(), (Names{"MPI_Barrier"}));
  OneRun G(Code, 0, 2, Relevance::Collectives, "g", {"-fopenmp"});
  EXPECT_FALSE(G.Result.has_value());
  EXPECT_NE(G.Why.find("3 threads"), std::string::npos) << G.Why;
}

TEST(RankRun, LongRunsStopAtTheBudget) {
  std::string Code = "void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                     " for (int i = 0; i < 1000; i++) if (r == 0) MPI_Send(&r, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); }";
  OneRun R(Code, 0, 2, Relevance::PointToPoint); // at most 64 iterations message by message
  EXPECT_FALSE(R.Result.has_value());
  EXPECT_NE(R.Why.find("not followed message by message"), std::string::npos) << R.Why;
}

} // namespace

// collectiveSequences: the collectives each rank issues, with the rank and
// size made concrete; the first point where two groups part.
TEST(RankTraces, FindsWhereRanksPart) {
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
TEST(RankTraces, RmaTracesFollowEachRanksWindowCalls) {
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

// rmaTraces records a rank's loads and stores of the memory its window
// exposes, in window bytes: the window starts at a[1], so a[2] is bytes 4
// to 8; a[0] lies before the window, a[k] with k unknown and the arms of
// a branch the run cannot decide are not recorded, nor anything after
// MPI_Win_free.
TEST(RankTraces, RmaTracesRecordLoadsAndStoresOfWindowMemory) {
  std::string Decls = "typedef int MPI_Win; typedef int MPI_Info; typedef long MPI_Aint;"
                      " int MPI_Win_create(void *, MPI_Aint, int, MPI_Info, MPI_Comm, MPI_Win *);"
                      " int MPI_Win_fence(int, MPI_Win); int MPI_Win_free(MPI_Win *);";
  auto AST = parse(Decls + " void f(int k) { int r, x, a[4] = {0}; MPI_Win w; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                           " MPI_Win_create(&a[1], 12, 4, 0, MPI_COMM_WORLD, &w); MPI_Win_fence(0, w);"
                           " a[2] = r; x = a[3]; a[0] = 1; a[k] = 2; a[r + 1]++; if (k > 2) a[2] = 3;"
                           " MPI_Win_fence(0, w); MPI_Win_free(&w); a[2] = 0; }");
  Evaluator Ev(AST->getASTContext());
  Uniformity Uni(AST->getASTContext(), Ev);
  auto T = rmaTraces(AST->getASTContext(), Ev, Uni);
  ASSERT_FALSE(T.empty());
  const std::vector<P2PEvent> &Run = T[0].Ranks[1];
  std::vector<std::tuple<int64_t, int64_t, bool>> Local;
  for (const P2PEvent &E : Run)
    if (E.K == P2PEvent::Local)
      Local.emplace_back(*E.Disp, *E.S.Count, E.Exclusive);
  // a[2] = r; x = a[3]; a[2]++ (rank 1): a load, then a store
  EXPECT_EQ(Local, (std::vector<std::tuple<int64_t, int64_t, bool>>{
                       {4, 4, true}, {8, 4, false}, {4, 4, false}, {4, 4, true}}));
  ASSERT_EQ(Run.size(), 8u); // create, fence, the four above, fence, free
  EXPECT_EQ(Run[6].WinEvent.K, HandleEvent::Fence);
}

// p2pTraces: a communicator split of the world with the ranks reversed
// (keys 10 - rank): a send to its rank 0 goes to the last world rank.
TEST(RankTraces, P2PTracesTranslateRanksOfSplitCommunicators) {
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
TEST(RankTraces, HandleArrayTracesFollowElements) {
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
