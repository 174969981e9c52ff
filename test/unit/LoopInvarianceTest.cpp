//===- LoopInvarianceTest.cpp - What stays the same in every iteration ----===//
#include "analysis/LoopInvariance.h"
#include "TestAST.h"
#include "support/AST.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

struct Fixture {
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<Evaluator> Ev;
  std::unique_ptr<LoopInvariance> Inv;
  const clang::FunctionDecl *F = nullptr;
  const clang::CallExpr *Call = nullptr;
  const clang::Stmt *Loop = nullptr;

  /// f's N-th MPI_Send and the innermost loop around it.
  Fixture(const std::string &Code, unsigned N = 0) : AST(parse(Code)) {
    Ev = std::make_unique<Evaluator>(AST->getASTContext());
    Inv = std::make_unique<LoopInvariance>(AST->getASTContext(), *Ev);
    F = function(AST->getASTContext(), "f");
    Call = call(F, "MPI_Send", N);
    std::vector<const clang::Stmt *> Loops = enclosingLoops(AST->getASTContext(), Call);
    Loop = Loops.empty() ? nullptr : Loops.front();
  }
  std::optional<std::string> varies(unsigned Arg) { return Inv->varies(Call->getArg(Arg), Loop, F); }
};

TEST(LoopInvariance, ParametersAndUnassignedLocalsAreInvariant) {
  Fixture X("void f(double *buf, int n, int peer) { int tag = n % 7;"
            " for (int s = 0; s < n; s++) MPI_Send(buf, n, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD); }");
  ASSERT_NE(X.Loop, nullptr);
  for (unsigned Arg = 0; Arg < 6; ++Arg)
    EXPECT_FALSE(X.varies(Arg).has_value()) << "argument " << Arg << ": " << *X.varies(Arg);
}

// Peers from MPI_Cart_shift and a datatype built before the loop stay the
// same (their addresses went only to calls that wrote them then); a
// MPI_Cart_shift in the loop changes them.
TEST(LoopInvariance, QueryAndHandleOutputsBeforeTheLoop) {
  Fixture X("void g(double *); void f(double *buf, int n) { int lo, hi; MPI_Datatype t;"
            " MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &lo, &hi); MPI_Type_vector(n, 1, 4, MPI_DOUBLE, &t);"
            " MPI_Type_commit(&t);"
            " for (int s = 0; s < n; s++) { g(buf); MPI_Send(buf, 1, t, lo, 0, MPI_COMM_WORLD); } }");
  ASSERT_NE(X.Loop, nullptr);
  EXPECT_FALSE(X.varies(2).has_value()) << *X.varies(2);
  EXPECT_FALSE(X.varies(3).has_value()) << *X.varies(3);
  Fixture Y("void f(double *buf, int n) { int lo, hi;"
            " for (int s = 0; s < n; s++) { MPI_Cart_shift(MPI_COMM_WORLD, 0, s, &lo, &hi);"
            " MPI_Send(buf, 1, MPI_DOUBLE, lo, 0, MPI_COMM_WORLD); } }");
  ASSERT_TRUE(Y.varies(3).has_value());
  EXPECT_NE(Y.varies(3)->find("lo is set by MPI_Cart_shift"), std::string::npos) << *Y.varies(3);
}

TEST(LoopInvariance, AssignedInTheLoopVaries) {
  Fixture X("void f(double *buf, int n) { int len = n;"
            " for (int s = 0; s < n; s++) { MPI_Send(buf, len, MPI_DOUBLE, 0, s, MPI_COMM_WORLD); len = len / 2; } }");
  auto Len = X.varies(1), Tag = X.varies(4);
  ASSERT_TRUE(Len.has_value());
  EXPECT_NE(Len->find("len is assigned"), std::string::npos) << *Len;
  ASSERT_TRUE(Tag.has_value()); // the loop counter
}

TEST(LoopInvariance, MovingAddressVaries) {
  Fixture X(
      "double h[8]; void f(int n) { for (int s = 0; s < n; s++) {"
      " MPI_Send(&h[s], 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); MPI_Send(h, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); } }");
  EXPECT_TRUE(X.varies(0).has_value());
  Fixture Y(
      "double h[8]; void f(int n) { for (int s = 0; s < n; s++) {"
      " MPI_Send(&h[s], 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); MPI_Send(h, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); } }",
      1);
  EXPECT_FALSE(Y.varies(0).has_value());
}

TEST(LoopInvariance, ArrayContentsWrittenByACallee) {
  Fixture X("int counts[4]; void bump(void) { counts[0]++; } void f(int n) {"
            " for (int s = 0; s < n; s++) { bump(); MPI_Send(counts, 4, MPI_INT, 0, 0, MPI_COMM_WORLD); } }");
  const clang::VarDecl *Counts = rootVar(X.Call->getArg(0));
  ASSERT_NE(Counts, nullptr);
  auto W = X.Inv->written(Counts, X.Loop, X.F);
  ASSERT_TRUE(W.has_value());
  EXPECT_NE(W->find("bump"), std::string::npos) << *W;
  Fixture Y("int counts[4]; void f(int n) {"
            " for (int s = 0; s < n; s++) MPI_Send(counts, 4, MPI_INT, 0, 0, MPI_COMM_WORLD); }");
  EXPECT_FALSE(Y.Inv->written(rootVar(Y.Call->getArg(0)), Y.Loop, Y.F).has_value());
}

// The array behind a pointer: only a pointer that holds fresh memory no
// other name reaches (malloc, then subscripts, MPI calls, free) proves it;
// then only writes through that pointer count.
TEST(LoopInvariance, HeapArraysChangeOnlyThroughTheirOwnPointer) {
  const char *Decls = "void *malloc(unsigned long); void free(void *); void use(int *);";
  auto Contents = [&](const std::string &Body) {
    Fixture X(std::string(Decls) + "void f(int n) { int *c = malloc(16), *d = malloc(16); c[0] = 1; " + Body + " }");
    return X.Inv->contentsWritten(X.Call->getArg(0), X.Loop, X.F);
  };
  EXPECT_FALSE(Contents("for (int s = 0; s < n; s++) { d[s % 4] = s; MPI_Send(c, 4, MPI_INT, 0, 0, "
                        "MPI_COMM_WORLD); } free(c); free(d);")
                   .has_value());
  auto W = Contents("for (int s = 0; s < n; s++) { c[s % 4] = s; MPI_Send(c, 4, MPI_INT, 0, 0, MPI_COMM_WORLD); }");
  ASSERT_TRUE(W.has_value());
  EXPECT_NE(W->find("c is written at line"), std::string::npos) << *W;
  auto Shared = Contents("int *e = c; for (int s = 0; s < n; s++) { e[0] = s; MPI_Send(c, 4, MPI_INT, 0, 0, "
                         "MPI_COMM_WORLD); }");
  ASSERT_TRUE(Shared.has_value());
  EXPECT_NE(Shared->find("c is shared at line"), std::string::npos) << *Shared;
  auto Given = Contents("use(c); for (int s = 0; s < n; s++) MPI_Send(c, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);");
  ASSERT_TRUE(Given.has_value());
  Fixture Param(std::string(Decls) +
                "void f(int *c, int n) { for (int s = 0; s < n; s++) MPI_Send(c, 4, MPI_INT, 0, 0, MPI_COMM_WORLD); }");
  auto P = Param.Inv->contentsWritten(Param.Call->getArg(0), Param.Loop, Param.F);
  ASSERT_TRUE(P.has_value());
  EXPECT_NE(P->find("not a local variable"), std::string::npos) << *P;
}

TEST(LoopInvariance, CallsAndPointerReadsVary) {
  Fixture X("int g(void); void f(int *p, int n) { for (int s = 0; s < n; s++)"
            " MPI_Send(0, g(), MPI_INT, *p, 0, MPI_COMM_WORLD); }");
  EXPECT_TRUE(X.varies(1).has_value());
  EXPECT_TRUE(X.varies(3).has_value());
}

} // namespace
