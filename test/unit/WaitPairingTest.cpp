//===- WaitPairingTest.cpp - Waits that complete nonblocking calls --------===//
#include "analysis/WaitPairing.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

const char *Decls = R"C(
typedef int MPI_Request;
typedef struct { int MPI_SOURCE, MPI_TAG, MPI_ERROR; } MPI_Status;
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
int MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Wait(MPI_Request *, MPI_Status *);
int MPI_Waitall(int, MPI_Request *, MPI_Status *);
int MPI_Test(MPI_Request *, int *, MPI_Status *);
int MPI_Waitany(int, MPI_Request *, int *, MPI_Status *);
int MPI_Request_free(MPI_Request *);
)C";

/// Whether the waits complete the first MPI_Irecv of f on every path: "ok N"
/// with the number of waits to rewrite, or the reason.
std::string pairing(const std::string &Code) {
  auto AST = test::parse(std::string(Decls) + Code);
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  const clang::FunctionDecl *F = test::function(Ctx, "f");
  const clang::CallExpr *Start = test::call(F, "MPI_Irecv");
  const clang::Expr *Req = Start->getArg(6);
  const clang::VarDecl *V = requestVariable(Req);
  int Index = -1;
  if (!V)
    std::tie(V, Index) = requestSlot(Ctx, Req);
  if (!V)
    return "no request variable";
  WaitPairing P = pairWaits(Ctx.getSourceManager(), requestFlow(Ctx, Ev, F, true, true), V, Index, {Start});
  return P.Why.empty() ? "ok " + std::to_string(P.Waits.size()) : P.Why;
}

TEST(WaitPairing, AWaitOnEveryPathCompletesTheCall) {
  EXPECT_EQ(pairing("void f(double *a) { MPI_Request r; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); "
                    "MPI_Wait(&r, MPI_STATUS_IGNORE); }"),
            "ok 1");
  // In a loop, each iteration's call waited in the same iteration.
  EXPECT_EQ(pairing("void f(double *a, int n) { MPI_Request r; for (int i = 0; i < n; i++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); MPI_Wait(&r, MPI_STATUS_IGNORE); } }"),
            "ok 1");
  // Waits on both arms of a branch.
  EXPECT_EQ(pairing("void f(double *a, int c) { MPI_Request r; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); "
                    "if (c) MPI_Wait(&r, MPI_STATUS_IGNORE); else MPI_Wait(&r, MPI_STATUS_IGNORE); }"),
            "ok 2");
}

TEST(WaitPairing, ArrayElementsAndWaitall) {
  EXPECT_EQ(pairing("void f(double *a) { MPI_Request q[3]; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[1]); "
                    "MPI_Waitall(3, q, MPI_STATUS_IGNORE); }"),
            "ok 1");
  EXPECT_EQ(pairing("void f(double *a) { MPI_Request q[3]; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, q + 2); "
                    "MPI_Waitall(2, q + 1, MPI_STATUS_IGNORE); }"),
            "ok 1");
  // A Waitall that does not cover the element: the function ends with it
  // pending, which only loses it, unless the array is reached otherwise.
  EXPECT_EQ(pairing("void f(double *a) { MPI_Request q[3]; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[2]); "
                    "MPI_Waitall(2, q, MPI_STATUS_IGNORE); }"),
            "ok 0");
  EXPECT_EQ(
      pairing("void f(double *a) { MPI_Request q[3], *p = q; "
              "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[2]); MPI_Waitall(2, q, MPI_STATUS_IGNORE); }"),
      "on some path the function ends with the request still pending, and the request is also used otherwise");
  // Waits for any over a constant count: each may complete the element.
  EXPECT_EQ(pairing("void f(double *a) { MPI_Request q[2]; int i; "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[1]); "
                    "for (int k = 0; k < 2; k++) MPI_Waitany(2, q, &i, MPI_STATUS_IGNORE); }"),
            "ok 1");
  // An index that is not constant: every element's use is unknown.
  EXPECT_NE(pairing("void f(double *a, int k) { MPI_Request q[3]; "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[0]); MPI_Wait(&q[k], MPI_STATUS_IGNORE); "
                    "MPI_Waitall(3, q, MPI_STATUS_IGNORE); }")
                .find("uses it otherwise"),
            std::string::npos);
}

TEST(WaitPairing, TestsMayLeaveTheRequestPending) {
  // A test, then a wait: both go through templates.
  EXPECT_EQ(pairing("void f(double *a) { int g; MPI_Request r; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); "
                    "MPI_Test(&r, &g, MPI_STATUS_IGNORE); MPI_Wait(&r, MPI_STATUS_IGNORE); }"),
            "ok 2");
  // Started again after a test that may have left it pending.
  EXPECT_NE(pairing("void f(double *a, int n) { int g = 0; MPI_Request r; for (int i = 0; i < n; i++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); while (!g) MPI_Test(&r, &g, "
                    "MPI_STATUS_IGNORE); } }")
                .find("starts it again"),
            std::string::npos);
  // Tested until the flag is set: complete when the loop ends.
  EXPECT_EQ(pairing("void f(double *a, int n) { int g; MPI_Request r; for (int i = 0; i < n; i++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); do { MPI_Test(&r, &g, MPI_STATUS_IGNORE); "
                    "} while (!g); } }"),
            "ok 1");
  EXPECT_EQ(pairing("void f(double *a, int n) { int g; MPI_Request r; for (int i = 0; i < n; i++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); g = 0; while (!g) MPI_Test(&r, &g, "
                    "MPI_STATUS_IGNORE); } }"),
            "ok 1");
  // Waited for by N waits for any of N requests: complete when the loop
  // ends, so it may be started again; not with fewer waits, nor when the
  // loop may break out.
  EXPECT_EQ(pairing("void f(double *a, int n) { MPI_Request q[2]; int i; for (int j = 0; j < n; j++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[1]); "
                    "for (int k = 0; k < 2; k++) MPI_Waitany(2, q, &i, MPI_STATUS_IGNORE); } }"),
            "ok 1");
  EXPECT_NE(pairing("void f(double *a, int n) { MPI_Request q[2]; int i; for (int j = 0; j < n; j++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[1]); "
                    "for (int k = 1; k < 2; k++) MPI_Waitany(2, q, &i, MPI_STATUS_IGNORE); } }")
                .find("starts it again"),
            std::string::npos);
  EXPECT_NE(pairing("void f(double *a, int n) { MPI_Request q[2]; int i; for (int j = 0; j < n; j++) { "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[1]); "
                    "for (int k = 0; k < 2; k++) { MPI_Waitany(2, q, &i, MPI_STATUS_IGNORE); k += i; } } }")
                .find("starts it again"),
            std::string::npos);
  // Freed after a test: no template completes it.
  EXPECT_NE(pairing("void f(double *a) { int g; MPI_Request r; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); "
                    "MPI_Test(&r, &g, MPI_STATUS_IGNORE); MPI_Request_free(&r); }")
                .find("completes it with MPI_Request_free"),
            std::string::npos);
}

TEST(WaitPairing, OtherUsesWhilePendingAreRefused) {
  // A path that returns with it pending only loses it; with a pointer to it
  // kept, a completion through the pointer would miss the template's.
  EXPECT_EQ(pairing("void f(double *a, int c) { MPI_Request r; MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); "
                    "if (c) return; MPI_Wait(&r, MPI_STATUS_IGNORE); }"),
            "ok 1");
  EXPECT_EQ(pairing("void f(double *a, int c) { MPI_Request r, *p = &r; "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); if (c) return; MPI_Wait(p, "
                    "MPI_STATUS_IGNORE); }"),
            "on some path the function ends with the request still pending, and the request is also used otherwise");
  EXPECT_NE(pairing("void g(MPI_Request *); void f(double *a) { MPI_Request r; "
                    "MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &r); g(&r); MPI_Wait(&r, MPI_STATUS_IGNORE); }")
                .find("uses it otherwise"),
            std::string::npos);
  EXPECT_EQ(pairing("void f(double *a, MPI_Request *r) { MPI_Irecv(a, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, r); "
                    "MPI_Wait(r, MPI_STATUS_IGNORE); }"),
            "no request variable");
}

} // namespace
