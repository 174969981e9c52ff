//===- DerivedTypesTest.cpp - Datatype shapes and template measurements ---===//
#include "analysis/DerivedTypes.h"
#include "TestAST.h"
#include "mpi/MachineProfile.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

const char *Decls = R"C(
typedef long MPI_Aint;
int MPI_Type_vector(int, int, int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_create_hvector(int, int, MPI_Aint, MPI_Datatype, MPI_Datatype *);
int MPI_Type_contiguous(int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_create_indexed_block(int, int, const int[], MPI_Datatype, MPI_Datatype *);
int MPI_Type_create_hindexed_block(int, int, const MPI_Aint[], MPI_Datatype, MPI_Datatype *);
int MPI_Type_commit(MPI_Datatype *);
int MPI_Type_free(MPI_Datatype *);
void other(MPI_Datatype *);
)C";

/// The shape, or why none, of the datatype the first MPI_Send of f sends.
std::string shapeAt(const std::string &Code) {
  auto AST = test::parse(std::string(Decls) + Code);
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  DerivedTypes DT(Ctx, Ev);
  const DatatypeVar *V = DT.of(test::call(test::function(Ctx, "f"), "MPI_Send")->getArg(2));
  if (!V)
    return "no variable";
  if (!V->Shape)
    return "why: " + V->Why;
  const TypeShape &S = *V->Shape;
  std::string Where = " stride " + std::to_string(S.StrideBytes);
  if (S.runList()) {
    Where = " at";
    for (int64_t D : S.DisplsBytes)
      Where += " " + std::to_string(D);
  }
  return S.Built + " " + std::to_string(S.NBlocks) + "x" + std::to_string(S.BlockLength) + Where + " extent " +
         std::to_string(S.ExtentBytes);
}

TEST(DerivedTypes, VectorHVectorAndContiguousShapes) {
  EXPECT_EQ(shapeAt("void f(double *a) { MPI_Datatype t; MPI_Type_vector(4, 2, 10, MPI_DOUBLE, &t); "
                    "MPI_Type_commit(&t); MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); MPI_Type_free(&t); }"),
            "MPI_Type_vector(4, 2, 10, MPI_DOUBLE) 4x2 stride 80 extent 256");
  EXPECT_EQ(shapeAt("void f(double *a) { MPI_Datatype t; MPI_Type_create_hvector(3, 1, 24, MPI_INT, &t); "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }"),
            "MPI_Type_create_hvector(3, 1, 24, MPI_INT) 3x1 stride 24 extent 52");
  EXPECT_EQ(shapeAt("enum { K = 5 }; void f(double *a) { MPI_Datatype t; MPI_Type_contiguous(K, MPI_DOUBLE, &t); "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }"),
            "MPI_Type_contiguous(5, MPI_DOUBLE) 1x5 stride 40 extent 40");
}

TEST(DerivedTypes, AnythingElseThatWritesTheVariableLeavesItUnknown) {
  EXPECT_EQ(shapeAt("void f(double *a) { MPI_Send(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); }"), "no variable");
  EXPECT_NE(shapeAt("void f(double *a, int n) { MPI_Datatype t; MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t); "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
                .find("why: line"),
            std::string::npos);
  EXPECT_NE(shapeAt("void f(double *a) { MPI_Datatype t; MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t); other(&t); "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
                .find("passes its address to other"),
            std::string::npos);
  EXPECT_NE(shapeAt("void f(double *a) { MPI_Datatype t, u; MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t); t = u; "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
                .find("writes it or takes its address"),
            std::string::npos);
  EXPECT_NE(shapeAt("void f(double *a) { MPI_Datatype t = MPI_INT; MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
                .find("initialised where it is declared"),
            std::string::npos);
  EXPECT_NE(shapeAt("MPI_Datatype t; void f(double *a) { MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &t); "
                    "MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
                .find("other files can write"),
            std::string::npos);
}

// Indexed blocks: evenly spaced ones are a vector from an offset; others a
// run list of byte displacements in typemap order, whose extent runs from
// the lowest block's start to the highest block's end (as MPI's does, also
// from a negative displacement); blocks that overlap have no shape.
TEST(DerivedTypes, IndexedBlocksAreVectorsOrRunLists) {
  EXPECT_EQ(
      shapeAt("void f(double *a) { MPI_Datatype t; int d[3] = {1, 4, 7}; "
              "MPI_Type_create_indexed_block(3, 2, d, MPI_DOUBLE, &t); MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }"),
      "MPI_Type_create_indexed_block(3, 2, {1, 4, 7}, MPI_DOUBLE) 3x2 stride 24 extent 64");
  EXPECT_EQ(
      shapeAt("void f(double *a) { MPI_Datatype t; int d[3] = {5, 0, 9}; "
              "MPI_Type_create_indexed_block(3, 2, d, MPI_DOUBLE, &t); MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }"),
      "MPI_Type_create_indexed_block(3, 2, {5, 0, 9}, MPI_DOUBLE) 3x2 at 40 0 72 extent 88");
  EXPECT_EQ(shapeAt("void f(double *a) { MPI_Datatype t; MPI_Aint d[2] = {-16, 40}; "
                    "MPI_Type_create_hindexed_block(2, 1, d, MPI_INT, &t); MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }"),
            "MPI_Type_create_hindexed_block(2, 1, {-16, 40}, MPI_INT) 2x1 at -16 40 extent 60");
  EXPECT_NE(
      shapeAt("void f(double *a) { MPI_Datatype t; int d[3] = {0, 1, 5}; "
              "MPI_Type_create_indexed_block(3, 2, d, MPI_DOUBLE, &t); MPI_Send(a, 1, t, 0, 0, MPI_COMM_WORLD); }")
          .find("builds it with blocks that overlap ({0, 1, 5})"),
      std::string::npos);
}

// A run list's elements overlap only where its span exceeds its extent.
TEST(DerivedTypes, RunListsOverlapOnlyPastTheirExtent) {
  TypeShape R;
  R.NBlocks = 3, R.BlockLength = 1, R.ElemBytes = 8, R.Base = "MPI_DOUBLE";
  R.DisplsBytes = {16, 0, 40};
  R.ExtentBytes = 48;
  EXPECT_EQ(R.trueUpperBytes(), 48);
  EXPECT_FALSE(R.simple());
  EXPECT_FALSE(R.mayOverlap(100));
  R.ExtentBytes = 40;
  EXPECT_FALSE(R.mayOverlap(1));
  EXPECT_TRUE(R.mayOverlap(2));
}

// The receive side's overlap test (the tool's copy of the templates'
// mpiopt_dtype_may_overlap): a column of 6 doubles 16 bytes apart resized
// to one double meets itself from the third element on; a plain vector
// never; blocks closer than their length always.
TEST(DerivedTypes, ElementsThatWriteABlockTwice) {
  TypeShape Col;
  Col.NBlocks = 6, Col.BlockLength = 1, Col.StrideBytes = 16, Col.ExtentBytes = 8, Col.ElemBytes = 8;
  Col.Base = "MPI_DOUBLE";
  EXPECT_FALSE(Col.mayOverlap(1));
  EXPECT_FALSE(Col.mayOverlap(2));
  EXPECT_TRUE(Col.mayOverlap(3));
  TypeShape Vec = Col;
  Vec.ExtentBytes = 88;
  EXPECT_FALSE(Vec.mayOverlap(100));
  TypeShape Close = Col;
  Close.BlockLength = 3;
  EXPECT_TRUE(Close.mayOverlap(1));
}

TEST(MachineProfile, TemplatesDecideAtTheSmallestSizeNotBelowOrTheWorstPoint) {
  MachineProfile P;
  P.Templates = {{"vector", 64, 8, 2.0, 1.0}, {"vector", 4096, 8, 9.0, 6.0}, {"vector", 65536, 8, 50.0, 80.0}};
  EXPECT_EQ(P.templateFor("vector", 8)->Bytes, 64);
  EXPECT_TRUE(P.templateFor("vector", 100)->wins());
  EXPECT_FALSE(P.templateFor("vector", 5000)->wins());
  EXPECT_FALSE(P.templateFor("vector", 100000).has_value());
  EXPECT_EQ(P.templateFor("vector", std::nullopt)->Bytes, 65536);
  EXPECT_FALSE(P.templateFor("subarray", 8).has_value());
}

TEST(MachineProfile, TemplatesDecideAtTheBlockSizesAroundTheRuns) {
  MachineProfile P;
  P.Templates = {{"vector", 4096, 8, 9.0, 3.0},
                 {"vector", 65536, 8, 90.0, 30.0},
                 {"vector", 4096, 64, 9.0, 6.0},
                 {"vector", 65536, 64, 90.0, 60.0},
                 {"vector", 4096, 512, 4.0, 6.0}};
  EXPECT_EQ(P.longestBlock("vector"), 512);
  // Runs of 4 bytes: below every block measured, the shortest decides.
  EXPECT_EQ(P.templateFor("vector", 1000, 4)->Block, 8);
  // Runs of 32 bytes: both 8 and 64 must win; 64 is the worse.
  EXPECT_EQ(P.templateFor("vector", 1000, 32)->Block, 64);
  EXPECT_TRUE(P.templateFor("vector", 1000, 32)->wins());
  // Runs of 272 bytes: 64 and 512; the template loses at 512.
  EXPECT_FALSE(P.templateFor("vector", 1000, 272)->wins());
  // 512-byte blocks were measured up to 4096 bytes only: larger messages are not covered.
  EXPECT_FALSE(P.templateFor("vector", 8192, 272).has_value());
  // Runs longer than any measured are not covered.
  EXPECT_FALSE(P.templateFor("vector", 1000, 1024).has_value());
  // A class of run-time shapes with runs of 9 to 64 bytes: 8 and 64.
  EXPECT_EQ(P.templateFor("vector", 1000, 9, 64)->Block, 64);
  EXPECT_EQ(P.templateFor("vector", std::nullopt, 1, 8)->Bytes, 4096);
}

TEST(MachineProfile, MessageFamiliesIgnoreBlocks) {
  MachineProfile P;
  P.Templates = {{"persistent", 0, 8, 0.5, 0.3},
                 {"persistent", 4096, 8, 2.0, 1.5},
                 {"persistent", 65536, 8, 20.0, 20.0},
                 {"vector", 64, 8, 2.0, 1.0}};
  EXPECT_EQ(P.messageFor("persistent", 0)->Bytes, 0);
  // Between two points: the worse of the two.
  EXPECT_EQ(P.messageFor("persistent", 1)->Bytes, 4096);
  EXPECT_TRUE(P.messageFor("persistent", 4096)->wins());
  EXPECT_EQ(P.messageFor("persistent", 4097)->Bytes, 65536);
  EXPECT_FALSE(P.messageFor("persistent", 4097)->wins());
  // A losing point below decides too.
  P.Templates.push_back({"persistent", 262144, 8, 40.0, 20.0});
  EXPECT_EQ(P.messageFor("persistent", 100000)->Bytes, 65536);
  EXPECT_TRUE(P.messageFor("persistent", 262144)->wins());
  // Beyond every size measured: not covered.
  EXPECT_FALSE(P.messageFor("persistent", 262145).has_value());
  // Unknown until run time: the worst point.
  EXPECT_EQ(P.messageFor("persistent", std::nullopt)->Bytes, 65536);
  EXPECT_FALSE(P.messageFor("persistent_ssend", 8).has_value());
}

} // namespace
