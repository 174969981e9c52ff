//===- FusionMixTest.cpp - Reductions of different ops in one collective ---===//
#include "analysis/FusionMix.h"
#include "mpi/MachineProfile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

MixInput in(const char *Op, const char *Type, const char *CType, int64_t Size, std::optional<int64_t> Count = 1) {
  return {Op, Type, CType, Size, Count};
}

MachineProfile profile(double Sep, double Comp, int64_t Bytes = 64, unsigned Lanes = 2) {
  MachineProfile P;
  P.Path = "p.json";
  P.Composite.push_back({Lanes, Bytes, Sep, Comp});
  return P;
}

TEST(FusionMix, SameOpAndTypeIsUniform) {
  Mix M =
      mixReductions({in("MPI_SUM", "MPI_DOUBLE", "double", 8), in("MPI_SUM", "MPI_DOUBLE", "double", 8, 4)}, nullptr);
  EXPECT_TRUE(M.Why.empty());
  EXPECT_EQ(M.Kind, FusionKind::Uniform);
}

TEST(FusionMix, MinWithMaxIsOneMaxOfTheComplementOrNegation) {
  Mix I = mixReductions({in("MPI_MIN", "MPI_INT", "int", 4), in("MPI_MAX", "MPI_INT", "int", 4)}, nullptr);
  ASSERT_EQ(I.Kind, FusionKind::OneOp);
  EXPECT_EQ(I.Op, "MPI_MAX");
  EXPECT_EQ(I.CType, "int");
  EXPECT_EQ(I.Enc, (std::vector<Encoding>{Encoding::Complement, Encoding::Plain}));
  Mix D =
      mixReductions({in("MPI_MAX", "MPI_DOUBLE", "double", 8), in("MPI_MIN", "MPI_DOUBLE", "double", 8, {})}, nullptr);
  ASSERT_EQ(D.Kind, FusionKind::OneOp);
  EXPECT_EQ(D.Enc, (std::vector<Encoding>{Encoding::Plain, Encoding::Negate}));
  // A typedef'd integer type is computed in the builtin type of its size.
  Mix T =
      mixReductions({in("MPI_MIN", "MPI_INT64_T", "int64_t", 8), in("MPI_MAX", "MPI_INT64_T", "int64_t", 8)}, nullptr);
  EXPECT_EQ(T.CType, "long long");
}

TEST(FusionMix, ComplementAndNegationAreExactOrderReversals) {
  // min(x, y) = ~max(~x, ~y) over a range of ints, extremes included.
  for (int X : {-2147483647 - 1, -5, -1, 0, 1, 7, 2147483647})
    for (int Y : {-2147483647 - 1, -3, 0, 2, 2147483647})
      EXPECT_EQ(std::min(X, Y), ~std::max(~X, ~Y));
  for (double X : {-1e300, -1.5, 0.0, 2.5, 1e300})
    for (double Y : {-2.0, 0.0, 3.0})
      EXPECT_EQ(std::min(X, Y), -std::max(-X, -Y));
}

TEST(FusionMix, OneModularOpOnSeveralIntegerTypesIsWidened) {
  Mix M = mixReductions({in("MPI_SUM", "MPI_INT", "int", 4), in("MPI_SUM", "MPI_LONG_LONG_INT", "long long", 8, 3)},
                        nullptr);
  ASSERT_EQ(M.Kind, FusionKind::OneOp);
  EXPECT_EQ(M.Type, "MPI_UNSIGNED_LONG_LONG");
  EXPECT_EQ(M.Enc, (std::vector<Encoding>{Encoding::Widen, Encoding::Widen}));
  // The wrapping sum of ints is the low bits of the 64-bit sum.
  int A = 2000000000, B = 2000000000;
  EXPECT_EQ(int(unsigned(A) + unsigned(B)), int((unsigned long long)(long long)A + (unsigned long long)(long long)B));
}

TEST(FusionMix, WideningStopsAtRuntimeCountsAndLargeBuffers) {
  Mix R = mixReductions({in("MPI_SUM", "MPI_INT", "int", 4, {}), in("MPI_SUM", "MPI_LONG", "long", 8)}, nullptr);
  EXPECT_NE(R.Why.find("run time"), std::string::npos) << R.Why;
  Mix L = mixReductions({in("MPI_SUM", "MPI_INT", "int", 4, 300), in("MPI_SUM", "MPI_LONG", "long", 8)}, nullptr);
  EXPECT_NE(L.Why.find("exceed 2048 bytes"), std::string::npos) << L.Why;
}

TEST(FusionMix, CompositeOnlyForIntegersWhereTheProfileMeasuredAWin) {
  std::vector<MixInput> SumMax = {in("MPI_SUM", "MPI_LONG", "long", 8), in("MPI_MAX", "MPI_INT", "int", 4),
                                  in("MPI_SUM", "MPI_LONG", "long", 8, 2)};
  Mix None = mixReductions(SumMax, nullptr);
  EXPECT_NE(None.Why.find("no machine profile"), std::string::npos) << None.Why;
  MachineProfile Slow = profile(1.0, 2.0);
  EXPECT_NE(mixReductions(SumMax, &Slow).Why.find("measured it slower"), std::string::npos);
  MachineProfile Small = profile(2.0, 1.0, 16);
  EXPECT_NE(mixReductions(SumMax, &Small).Why.find("no measurement"), std::string::npos);
  MachineProfile Fast = profile(2.0, 1.0);
  Mix C = mixReductions(SumMax, &Fast);
  ASSERT_EQ(C.Kind, FusionKind::Composite) << C.Why;
  ASSERT_EQ(C.Lanes.size(), 2u);
  EXPECT_EQ(C.Lanes[0].Count, 3); // both SUMs in one segment
  EXPECT_EQ(C.Lanes[1].Offset, 24);
  EXPECT_EQ(C.Bytes, 32); // segments 8-byte aligned
  EXPECT_EQ(C.Lane, (std::vector<unsigned>{0, 1, 0}));
  Mix F = mixReductions({in("MPI_SUM", "MPI_DOUBLE", "double", 8), in("MPI_MAX", "MPI_DOUBLE", "double", 8)}, &Fast);
  EXPECT_NE(F.Why.find("not an integer type"), std::string::npos) << F.Why;
  Mix B = mixReductions({in("MPI_BAND", "MPI_BYTE", "unsigned char", 1), in("MPI_BOR", "MPI_INT", "int", 4)}, &Fast);
  EXPECT_NE(B.Why.find("MPI_BYTE"), std::string::npos) << B.Why;
}

TEST(MachineProfile, PicksTheMostLanesNotAboveAndTheSmallestSizeNotBelow) {
  MachineProfile P;
  P.Composite = {{2, 64, 2, 1}, {2, 4096, 3, 4}, {3, 64, 3, 1}, {4, 64, 4, 1}};
  EXPECT_EQ(P.compositeFor(3, 10)->Lanes, 3u);
  EXPECT_EQ(P.compositeFor(2, 100)->Bytes, 4096);
  EXPECT_FALSE(P.compositeFor(2, 100)->wins());
  EXPECT_EQ(P.compositeFor(9, 10)->Lanes, 4u);
  EXPECT_FALSE(P.compositeFor(3, 100).has_value());
}

TEST(MachineProfile, CollectivesDecideAtTheSmallestSizeNotBelowElseTheLargest) {
  MachineProfile P;
  P.Alltoallv = {{8, 2, 1, "node"}, {2560, 4, 4.5, "pairwise"}};
  EXPECT_EQ(P.plannedFor("alltoallv", 8)->Bytes, 8);
  EXPECT_EQ(P.plannedFor("alltoallv", 100)->Bytes, 2560);
  EXPECT_FALSE(P.plannedFor("alltoallv", 100)->wins());
  EXPECT_EQ(P.plannedFor("alltoallv", 100000)->Bytes, 2560);    // beyond every size: the largest
  EXPECT_EQ(P.plannedFor("alltoallv", std::nullopt)->Bytes, 8); // unknown size: where the plan does best
  EXPECT_FALSE(P.plannedFor("allgatherv", 8).has_value());      // each collective its own measurements
  P.Allgatherv = {{8, 0.7, 0.3, "node"}, {1048576, 263, 262, "native"}};
  EXPECT_TRUE(P.plannedFor("allgatherv", 8)->wins());
  EXPECT_FALSE(P.plannedFor("allgatherv", 4096)->wins());
  EXPECT_FALSE(P.plannedFor("allgather", 8).has_value()); // MPI_Allgather: measured apart, never borrowed
  P.Allgather = {{8, 0.43, 0.23, "node"}, {32768, 9.5, 9.5, "native"}};
  EXPECT_TRUE(P.plannedFor("allgather", 8)->wins());
  EXPECT_FALSE(P.plannedFor("allgather", 320)->wins());
  P.Reductions = {{"allreduce", 4096, 4, 4.4, 4.5}, {"allreduce", 262144, 64, 40, 30}, {"reduce", 262144, 60, 61, 30}};
  EXPECT_EQ(P.vectorFor("allreduce", 5000)->Bytes, 262144);
  EXPECT_TRUE(P.vectorFor("allreduce", 5000)->winsDense());
  EXPECT_FALSE(P.vectorFor("reduce", 300000)->winsDense());
  EXPECT_TRUE(P.vectorFor("reduce", 300000)->winsSparse());
  EXPECT_FALSE(P.vectorFor("allreduce", 1000)->winsDense());
  EXPECT_FALSE(MachineProfile().vectorFor("reduce", 8).has_value());
}

TEST(MachineProfile, BadFilesAreErrorsNamingTheFile) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("profile", "json", Path));
  auto Write = [&](const char *Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  };
  Write("{\"schema\": \"ompi-profile/1\", \"fusion\": {\"composite\": [{\"lanes\": 2}]}}");
  auto P = loadProfile(Path);
  ASSERT_FALSE(P);
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_NE(Msg.find(Path.str().str()), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("fusion.composite[0]"), std::string::npos) << Msg;
  Write("{\"schema\": \"ompi-profile/1\", \"collectives\": {\"allreduce\": [{\"bytes\": 8, \"native_us\": 1}]}}");
  auto C = loadProfile(Path);
  ASSERT_FALSE(C);
  EXPECT_NE(llvm::toString(C.takeError())
                .find("collectives.allreduce[0] needs bytes, native_us, dense_us and "
                      "sparse_us"),
            std::string::npos);
  Write("{\"schema\": \"other\"}");
  auto Q = loadProfile(Path);
  ASSERT_FALSE(Q);
  EXPECT_NE(llvm::toString(Q.takeError()).find("not an ompi-opt machine profile"), std::string::npos);
  Write("{\"schema\": \"ompi-profile/1\", \"mpi\": \"X 1\", \"fusion\": {\"composite\": "
        "[{\"lanes\": 2, \"bytes\": 8, \"separate_us\": 2, \"composite_us\": 1}]}}");
  auto R = loadProfile(Path);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->MPI, "X 1");
  ASSERT_EQ(R->Composite.size(), 1u);
  EXPECT_TRUE(R->Composite[0].wins());
  llvm::sys::fs::remove(Path);
}

} // namespace
