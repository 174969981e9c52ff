//===- ArrayValuesTest.cpp - What local arrays hold at a call -------------===//
#include "analysis/ArrayValues.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

const char *Decls = R"C(
typedef long MPI_Aint;
struct S { int i; char c; double d; };
int MPI_Get_address(const void *, MPI_Aint *);
MPI_Aint MPI_Aint_diff(MPI_Aint, MPI_Aint);
int MPI_Type_create_struct(int, const int[], const MPI_Aint[], const MPI_Datatype[], MPI_Datatype *);
void other(MPI_Aint *);
)C";

std::string render(const ArrayElem &E) {
  switch (E.K) {
  case ArrayElem::Unset:
    return "unset";
  case ArrayElem::Int:
    return std::to_string(E.I);
  case ArrayElem::Handle:
    return E.Name;
  case ArrayElem::Address:
    return "&" + E.Name;
  case ArrayElem::Unknown:
    return "?";
  }
  return "";
}

/// The paths of f's arrays d (displacements) and t (types) at its
/// MPI_Type_create_struct: "d=[..] t=[..] if(conds)" per path.
std::string at(const std::string &Body) {
  auto AST = test::parse(std::string(Decls) + "void f(struct S *p, int argc) {" + Body + "}");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  const clang::FunctionDecl *F = test::function(Ctx, "f");
  const clang::CallExpr *CE = test::call(F, "MPI_Type_create_struct");
  auto Paths = arrayValuesAt(Ev, F, CE, {test::var(F, "d"), test::var(F, "t")});
  if (!Paths)
    return "none";
  std::string Out;
  for (const ArrayPath &P : *Paths) {
    for (size_t A = 0; A < 2; ++A) {
      Out += A ? " t=[" : "d=[";
      for (size_t K = 0; K < P.Arrays[A].size(); ++K)
        Out += (K ? "," : "") + render(P.Arrays[A][K]);
      Out += "]";
    }
    for (const std::string &C : P.Conds)
      Out += " if(" + C + ")";
    Out += ";";
  }
  return Out;
}

const char *Call = "int l[3] = {1, 1, 1}; MPI_Datatype n; MPI_Type_create_struct(3, l, d, t, &n);";

TEST(ArrayValues, InitialisersStoresAndAddressDifferences) {
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0, 4}; MPI_Datatype t[3] = {MPI_INT, MPI_DOUBLE};") + Call),
            "d=[0,4,0] t=[MPI_INT,MPI_DOUBLE,0];");
  EXPECT_EQ(at(std::string("MPI_Aint d[3], b; MPI_Datatype t[3]; MPI_Get_address(p, &b); "
                           "MPI_Get_address(&p->c, &d[1]); MPI_Get_address(&p->d, d + 2); d[0] = 0; "
                           "d[1] = MPI_Aint_diff(d[1], b); d[2] -= b; t[0] = MPI_INT;") +
               Call),
            "d=[0,4,8] t=[MPI_INT,unset,unset];");
  // An absolute address stays one until something is subtracted from it.
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0}; MPI_Datatype t[3] = {0}; MPI_Get_address(&p->c, &d[1]);") + Call),
            "d=[0,&&p->c,0] t=[0,0,0];");
}

TEST(ArrayValues, EachArmOfAnIfIsAPath) {
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0, 4, 8}; MPI_Datatype t[3] = {MPI_INT, MPI_INT, MPI_DOUBLE}; "
                           "if (argc == 1) t[1] = MPI_DOUBLE;") +
               Call),
            "d=[0,4,8] t=[MPI_INT,MPI_INT,MPI_DOUBLE] if(!(argc == 1));"
            "d=[0,4,8] t=[MPI_INT,MPI_DOUBLE,MPI_DOUBLE] if(argc == 1);");
  // Arms that leave the arrays alike are one path; an arm that returns ends
  // its path.
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0, 4, 8}; MPI_Datatype t[3] = {MPI_INT, MPI_INT, MPI_DOUBLE}; "
                           "int k; if (argc) k = 1; else k = 2; if (argc > 3) { t[0] = MPI_DOUBLE; return; }") +
               Call),
            "d=[0,4,8] t=[MPI_INT,MPI_INT,MPI_DOUBLE] if(!(argc > 3));");
}

// A counted loop of plain assignments runs iteration by iteration, the
// counter known in each (and after the loop).
TEST(ArrayValues, CountedLoopsRunIterationByIteration) {
  EXPECT_EQ(
      at(std::string("MPI_Aint d[3]; MPI_Datatype t[3] = {MPI_INT}; for (int k = 0; k < 3; ++k) d[k] = k;") + Call),
      "d=[0,1,2] t=[MPI_INT,0,0];");
  EXPECT_EQ(at(std::string("MPI_Aint d[3]; MPI_Datatype t[3]; int i, m = 2; for (i = 0; i <= m; i++) { d[i] = i * 40 "
                           "+ 8; t[i] = MPI_DOUBLE; } d[0] = i;") +
               Call),
            "d=[3,48,88] t=[MPI_DOUBLE,MPI_DOUBLE,MPI_DOUBLE];");
  // Each path runs its own trip count.
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0}; MPI_Datatype t[3] = {0}; int m = 1; if (argc) { m = 3; t[0] = "
                           "MPI_INT; } for (int k = 0; k < m; k += 1) d[k] = 7;") +
               Call),
            "d=[7,0,0] t=[0,0,0] if(!(argc));d=[7,7,7] t=[MPI_INT,0,0] if(argc);");
}

TEST(ArrayValues, WhatIsNotFollowedIsUnknownOrNothing) {
  // A call that may write the array; loops whose bound is not known, whose
  // body calls a function or breaks out.
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0, 4, 8}; MPI_Datatype t[3] = {MPI_INT}; other(d);") + Call),
            "d=[?,?,?] t=[MPI_INT,0,0];");
  EXPECT_EQ(at(std::string("MPI_Aint d[3]; MPI_Datatype t[3] = {MPI_INT}; for (int k = 0; k < argc; ++k) d[k] = "
                           "k;") +
               Call),
            "d=[?,?,?] t=[MPI_INT,0,0];");
  EXPECT_EQ(at(std::string("MPI_Aint d[3]; MPI_Datatype t[3] = {MPI_INT}; for (int k = 0; k < 3; ++k) { d[k] = k; "
                           "other(d); }") +
               Call),
            "d=[?,?,?] t=[MPI_INT,0,0];");
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0}; MPI_Datatype t[3] = {MPI_INT}; for (int k = 0; k < 3; ++k) { "
                           "d[k] = 1; if (k == 1) break; }") +
               Call),
            "d=[?,?,?] t=[MPI_INT,0,0];");
  // A pointer kept into the array may write it at any later point: the
  // array is not followed.
  EXPECT_EQ(
      at(std::string("MPI_Aint d[3] = {0, 4, 8}; MPI_Datatype t[3] = {MPI_INT}; MPI_Aint *q = d; *q = 1;") + Call),
      "none");
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0, 4, 8}; MPI_Datatype t[3] = {MPI_INT}; MPI_Aint *q = &d[1]; d[1] = 5; "
                           "*q = 7;") +
               Call),
            "none");
  // Arrays declared outside the call's block are not followed.
  EXPECT_EQ(at(std::string("MPI_Aint d[3] = {0}; MPI_Datatype t[3] = {0}; { ") + Call + " }"), "none");
}

} // namespace
