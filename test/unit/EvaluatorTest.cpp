//===- EvaluatorTest.cpp - Symbolic values and communicator identities ----===//
#include "analysis/Evaluator.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

/// Argument Arg of the N-th call of Callee in f(), evaluated at that call.
SymValue argOf(clang::ASTUnit &AST, Evaluator &Ev, llvm::StringRef Callee, unsigned Arg, unsigned N = 0) {
  const clang::FunctionDecl *F = function(AST.getASTContext(), "f");
  const clang::CallExpr *CE = call(F, Callee, N);
  EXPECT_NE(CE, nullptr);
  return Ev.evaluate(CE->getArg(Arg), F, CE);
}

TEST(Evaluator, StaticArithmetic) {
  auto AST =
      parse("void f(void) { int n = 4; int m = n * 3 + 1; MPI_Send(0, m, MPI_INT, 0, n << 2, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Count = argOf(*AST, Ev, "MPI_Send", 1), Tag = argOf(*AST, Ev, "MPI_Send", 4);
  ASSERT_EQ(Count.K, SymValue::Int);
  EXPECT_EQ(Count.I, 13);
  ASSERT_EQ(Tag.K, SymValue::Int);
  EXPECT_EQ(Tag.I, 16);
}

TEST(Evaluator, RankRelative) {
  auto AST = parse("void f(void) { int r, s; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &s);"
                   " MPI_Send(0, 1, MPI_INT, (r + 1) % s, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Dest = argOf(*AST, Ev, "MPI_Send", 3);
  ASSERT_EQ(Dest.K, SymValue::Affine);
  EXPECT_EQ(Dest.A.Rank, 1);
  EXPECT_EQ(Dest.A.Const, 1);
  EXPECT_EQ(Dest.A.Mod, AffineForm::ModSize);
  EXPECT_EQ(Dest.Comm.K, CommId::Predefined);
  EXPECT_EQ(Dest.Comm.Key, "MPI_COMM_WORLD");
}

// Lint issue, item 8: &rank as a send buffer (a const parameter) is read,
// not written: rank stays the rank. A buffer the call writes is different.
TEST(Evaluator, AddressAsConstSendBufferKeepsTheValue) {
  auto AST = parse("void f(void) { int r, s; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &s);"
                   " MPI_Send(&r, 1, MPI_INT, (r + 1) % s, 0, MPI_COMM_WORLD);"
                   " MPI_Send(&r, 1, MPI_INT, r, 1, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Dest = argOf(*AST, Ev, "MPI_Send", 3, 1);
  ASSERT_EQ(Dest.K, SymValue::Affine) << Dest.Reason;
  EXPECT_EQ(Dest.A.Rank, 1);
  auto AST2 = parse("void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                    " MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"
                    " MPI_Send(0, 1, MPI_INT, r, 0, MPI_COMM_WORLD); }");
  Evaluator Ev2(AST2->getASTContext());
  EXPECT_EQ(argOf(*AST2, Ev2, "MPI_Send", 3).K, SymValue::Dynamic);
}

// A query's outputs (MPI_Cart_shift, MPI_Type_size) are definitions: the
// value before the call no longer reaches, and the call's is unknown.
TEST(Evaluator, QueryOutputsDefineTheVariable) {
  auto AST = parse("void f(void) { int n = 3, lo = 1, hi = 2; MPI_Type_size(MPI_INT, &n);"
                   " MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &lo, &hi);"
                   " MPI_Send(0, n, MPI_INT, lo, 0, MPI_COMM_WORLD); n = 5;"
                   " MPI_Send(0, n, MPI_INT, hi, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Count = argOf(*AST, Ev, "MPI_Send", 1), Dest = argOf(*AST, Ev, "MPI_Send", 3);
  ASSERT_EQ(Count.K, SymValue::Dynamic);
  EXPECT_NE(Count.Reason.find("n is set by MPI_Type_size"), std::string::npos) << Count.Reason;
  ASSERT_EQ(Dest.K, SymValue::Dynamic);
  EXPECT_NE(Dest.Reason.find("lo is set by MPI_Cart_shift"), std::string::npos) << Dest.Reason;
  // Not address-taken: a later assignment is seen.
  SymValue Count2 = argOf(*AST, Ev, "MPI_Send", 1, 1);
  ASSERT_EQ(Count2.K, SymValue::Int) << Count2.Reason;
  EXPECT_EQ(Count2.I, 5);
}

// A handle given by address to a constructor, commit or free is defined by
// the call; MPI_Comm_idup writes it later, so its address counts as taken.
TEST(Evaluator, HandleOutputsDefineTheHandle) {
  auto AST = parse("void f(void) { MPI_Datatype t; MPI_Comm c, d; int r;"
                   " MPI_Type_vector(2, 1, 4, MPI_INT, &t); MPI_Type_commit(&t);"
                   " MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c); MPI_Comm_idup(MPI_COMM_WORLD, &d, &r);"
                   " MPI_Send(0, 1, t, 0, 0, c); MPI_Send(0, 1, MPI_INT, 0, 0, d); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  FunctionAnalysis &FA = Ev.analysis(F);
  auto Var = [&](llvm::StringRef Name) -> const clang::VarDecl * {
    for (const Def &D : FA.defs())
      if (D.Var->getName() == Name)
        return D.Var;
    return nullptr;
  };
  ASSERT_NE(Var("t"), nullptr);
  EXPECT_FALSE(FA.addressTaken(Var("t")).has_value());
  ASSERT_NE(Var("c"), nullptr);
  EXPECT_FALSE(FA.addressTaken(Var("c")).has_value());
  const clang::CallExpr *Send = call(F, "MPI_Send", 1);
  const auto *D =
      llvm::cast<clang::VarDecl>(llvm::cast<clang::DeclRefExpr>(Send->getArg(5)->IgnoreParenImpCasts())->getDecl());
  EXPECT_TRUE(FA.addressTaken(D).has_value());
  SymValue T = argOf(*AST, Ev, "MPI_Send", 2);
  ASSERT_EQ(T.K, SymValue::Dynamic);
  EXPECT_NE(T.Reason.find("t is set by MPI_Type_commit"), std::string::npos) << T.Reason;
}

// A pointer can write x only after its address is taken: before, the
// definitions decide; after, and in a loop's later iterations, x is dynamic.
TEST(Evaluator, AddressTakenOnlyAfterItsPoint) {
  auto AST = parse("void g(int *); void f(int n) { int x = 3, y = 4;"
                   " MPI_Send(0, x, MPI_INT, 0, 0, MPI_COMM_WORLD); g(&x);"
                   " MPI_Send(0, x, MPI_INT, 0, 0, MPI_COMM_WORLD);"
                   " for (int i = 0; i < n; i++) { MPI_Send(0, y, MPI_INT, 0, 0, MPI_COMM_WORLD); g(&y); } }");
  Evaluator Ev(AST->getASTContext());
  SymValue Before = argOf(*AST, Ev, "MPI_Send", 1, 0);
  ASSERT_EQ(Before.K, SymValue::Int) << Before.Reason;
  EXPECT_EQ(Before.I, 3);
  EXPECT_EQ(argOf(*AST, Ev, "MPI_Send", 1, 1).K, SymValue::Dynamic);
  EXPECT_EQ(argOf(*AST, Ev, "MPI_Send", 1, 2).K, SymValue::Dynamic);
}

TEST(Evaluator, DynamicHasReason) {
  auto AST = parse("int g(void); void f(void) { MPI_Send(0, g(), MPI_INT, 0, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Count = argOf(*AST, Ev, "MPI_Send", 1);
  EXPECT_EQ(Count.K, SymValue::Dynamic);
  EXPECT_FALSE(Count.Reason.empty());
}

// Bug 5 of the architecture issue: affine products overflowed unchecked.
TEST(Evaluator, AffineMultiplicationOverflowIsDynamic) {
  auto AST = parse("void f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " MPI_Send(0, 1, MPI_INT, (r + 3) * 4611686018427387904LL, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  SymValue Dest = argOf(*AST, Ev, "MPI_Send", 3);
  EXPECT_EQ(Dest.K, SymValue::Dynamic) << Dest.A.str();
}

TEST(Evaluator, RanksOfDifferentCommunicatorsDoNotMix) {
  auto AST = parse("void f(void) { int a, b; MPI_Comm_rank(MPI_COMM_WORLD, &a); MPI_Comm_rank(MPI_COMM_SELF, &b);"
                   " MPI_Send(0, 1, MPI_INT, a + b, 0, MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  EXPECT_EQ(argOf(*AST, Ev, "MPI_Send", 3).K, SymValue::Dynamic);
}

// Bug 3 of the architecture issue: a copy of MPI_COMM_WORLD is that
// communicator, whatever it is spelled.
TEST(CommId, CopyOfPredefinedIsPredefined) {
  auto AST = parse("void f(void) { MPI_Comm comm = MPI_COMM_WORLD; MPI_Barrier(comm); MPI_Barrier(MPI_COMM_WORLD); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  const clang::CallExpr *A = call(F, "MPI_Barrier", 0), *B = call(F, "MPI_Barrier", 1);
  CommId X = Ev.commId(A->getArg(0), F, A), Y = Ev.commId(B->getArg(0), F, B);
  EXPECT_EQ(X.K, CommId::Predefined);
  EXPECT_EQ(X, Y);
  EXPECT_TRUE(X.definite());
}

TEST(CommId, CreatedOnceIsDefiniteAndDistinct) {
  auto AST = parse("void f(void) { MPI_Comm c; MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c); MPI_Barrier(c);"
                   " MPI_Barrier(MPI_COMM_WORLD); MPI_Comm_free(&c); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  const clang::CallExpr *A = call(F, "MPI_Barrier", 0), *B = call(F, "MPI_Barrier", 1);
  CommId X = Ev.commId(A->getArg(0), F, A), Y = Ev.commId(B->getArg(0), F, B);
  EXPECT_EQ(X.K, CommId::Created);
  EXPECT_FALSE(CommId::maySame(X, Y));
}

TEST(CommId, CreatedInALoopIsNotDefinite) {
  auto AST = parse("void f(int n) { MPI_Comm c; for (int i = 0; i < n; i++) {"
                   " MPI_Comm_split(MPI_COMM_WORLD, i, 0, &c); MPI_Barrier(c); MPI_Comm_free(&c); } }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  const clang::CallExpr *A = call(F, "MPI_Barrier");
  CommId X = Ev.commId(A->getArg(0), F, A);
  EXPECT_FALSE(X.definite());
  EXPECT_TRUE(CommId::maySame(X, CommId{CommId::Predefined, "MPI_COMM_WORLD"}));
}

// A duplicate's group is its parent's (through a chain of duplicates); a
// split's is not, nor a duplicate made in a loop (a new one each time).
TEST(CommId, DuplicatesHaveTheirParentsRanks) {
  auto AST = parse("void f(int n) { MPI_Comm d, e, s, l; MPI_Comm_dup(MPI_COMM_WORLD, &d); MPI_Comm_dup(d, &e);"
                   " MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s); MPI_Barrier(d); MPI_Barrier(e); MPI_Barrier(s);"
                   " for (int i = 0; i < n; i++) { MPI_Comm_dup(MPI_COMM_WORLD, &l); MPI_Barrier(l);"
                   " MPI_Comm_free(&l); } MPI_Comm_free(&d); MPI_Comm_free(&e); MPI_Comm_free(&s); }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  auto Id = [&](unsigned N) {
    const clang::CallExpr *B = call(F, "MPI_Barrier", N);
    return Ev.commId(B->getArg(0), F, B);
  };
  CommId W{CommId::Predefined, "MPI_COMM_WORLD"}, D = Id(0), E = Id(1), S = Id(2), L = Id(3);
  EXPECT_TRUE(Ev.sameRanks(D, W));
  EXPECT_TRUE(Ev.sameRanks(W, E));
  EXPECT_TRUE(Ev.sameRanks(D, E));
  EXPECT_FALSE(Ev.sameRanks(S, W));
  EXPECT_FALSE(Ev.sameRanks(S, D));
  EXPECT_FALSE(Ev.sameRanks(L, W));
  EXPECT_FALSE(CommId::maySame(D, W)) << "a duplicate is another communicator";
}

TEST(CommId, UnknownMaySameAnything) {
  CommId U, W{CommId::Predefined, "MPI_COMM_WORLD"}, S{CommId::Predefined, "MPI_COMM_SELF"};
  EXPECT_FALSE(U.known());
  EXPECT_TRUE(CommId::maySame(U, W));
  EXPECT_FALSE(CommId::maySame(W, S));
  EXPECT_NE(W.str(), S.str());
}

} // namespace

// alternatives(): a variable set to different values on different paths
// gives each definition's value (what invalid-argument judges one by one);
// one definition, or an address taken, gives none.
TEST(Evaluator, AlternativesPerPath) {
  auto AST = parse("void f(int argc) { int n = 1, m = 2; if (argc > 1) n = -4;"
                   " MPI_Send(0, n, MPI_INT, 0, m, MPI_COMM_WORLD); int k = 3; int *p = &k; if (argc) k = 5;"
                   " MPI_Send(0, k, MPI_INT, 0, 0, MPI_COMM_WORLD); (void)p; }");
  Evaluator Ev(AST->getASTContext());
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  const clang::CallExpr *CE = call(F, "MPI_Send", 0);
  ASSERT_NE(CE, nullptr);
  auto Alts = Ev.alternatives(CE->getArg(1), F, CE);
  ASSERT_EQ(Alts.size(), 2u);
  std::vector<int64_t> Values;
  for (const Evaluator::Alternative &A : Alts) {
    ASSERT_EQ(A.Value.K, SymValue::Int);
    Values.push_back(A.Value.I);
    EXPECT_GT(A.Line, 0u);
  }
  llvm::sort(Values);
  EXPECT_EQ(Values, (std::vector<int64_t>{-4, 1}));
  EXPECT_TRUE(Ev.alternatives(CE->getArg(4), F, CE).empty()); // one definition: evaluate() says it
  const clang::CallExpr *CE2 = call(F, "MPI_Send", 1);
  ASSERT_NE(CE2, nullptr);
  EXPECT_TRUE(Ev.alternatives(CE2->getArg(1), F, CE2).empty()); // written through p too
}
