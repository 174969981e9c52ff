//===- BufferStorageTest.cpp - What later calls read of an earlier write --===//
#include "analysis/BufferStorage.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

/// What the N-th MPI_Bcast of f reads of a (its buffer argument the
/// address that is no read).
std::optional<WrittenRead> readsOfA(const clang::FunctionDecl *F, unsigned N) {
  const clang::CallExpr *CE = call(F, "MPI_Bcast", N);
  return CE ? readsWritten(CE, CE->getArg(0), var(F, "a"), nullptr) : WrittenRead{"no call", false};
}

TEST(BufferStorage, AddressesAreNoReads) {
  // Calls 0-2 take addresses in a: no read. Call 3 counts with an element
  // of a, call 4 indexes with one, call 5 reads through a pointer outside
  // its buffer argument: reads.
  auto AST = parse("void f(int *p) { int a[4], n = 2;"
                   " MPI_Bcast(a, 2, MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Bcast(&a[1], 2, MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Bcast(a + 2, n, MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Bcast(&n, a[0], MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Bcast(&a[a[0]], 1, MPI_INT, 0, MPI_COMM_WORLD);"
                   " MPI_Bcast(&n, *p, MPI_INT, 0, MPI_COMM_WORLD); }");
  const clang::FunctionDecl *F = function(AST->getASTContext(), "f");
  ASSERT_NE(F, nullptr);
  for (unsigned N = 0; N < 3; ++N)
    EXPECT_FALSE(readsOfA(F, N).has_value()) << "call " << N << " reads " << readsOfA(F, N)->Name;
  for (unsigned N = 3; N < 5; ++N) {
    std::optional<WrittenRead> R = readsOfA(F, N);
    ASSERT_TRUE(R.has_value()) << "call " << N;
    EXPECT_EQ(R->Name, "a");
  }
  std::optional<WrittenRead> R = readsOfA(F, 5);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(R->Pointer);
}

} // namespace
