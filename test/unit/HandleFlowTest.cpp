//===- HandleFlowTest.cpp - Handle states along the CFG -------------------===//
#include "analysis/HandleFlow.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

const char *Decls = R"C(
int MPI_Type_contiguous(int, MPI_Datatype, MPI_Datatype *);
int MPI_Type_commit(MPI_Datatype *);
int MPI_Type_free(MPI_Datatype *);
void keep(MPI_Datatype *);
)C";

const char *kindName(HandleEvent::Kind K) {
  switch (K) {
  case HandleEvent::Create:
    return "create";
  case HandleEvent::Commit:
    return "commit";
  case HandleEvent::Free:
    return "free";
  case HandleEvent::UseComm:
    return "usecomm";
  case HandleEvent::Use:
    return "use";
  case HandleEvent::Other:
    return "other";
  default:
    return "event";
  }
}

std::string states(const HandleStates &S) {
  std::string Out = "{";
  for (int X : S)
    Out += (Out.size() > 1 ? "," : "") + std::to_string(X);
  return Out + "}";
}

/// "event{states before it} ... exit{states}" of variable t in f, and
/// " escapes" when it does.
std::string flow(const std::string &Body) {
  auto AST = test::parse(std::string(Decls) + "void f(int *buf, int c) {" + Body + "}");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  for (const HandleVar &H : handleFlow(Ctx, Ev, test::function(Ctx, "f"))) {
    if (H.V->getName() != "t")
      continue;
    std::string Out;
    for (size_t K = 0; K < H.Events.size(); ++K)
      Out += std::string(kindName(H.Events[K].K)) + states(H.At[K]) + " ";
    return Out + "exit" + states(H.Exit) + (H.Escapes ? " escapes" : "");
  }
  return "no variable";
}

TEST(HandleFlow, ADatatypesLife) {
  // Unset (-1), built (0), committed (1), freed (-3).
  EXPECT_EQ(flow("MPI_Datatype t; MPI_Type_contiguous(2, MPI_INT, &t); MPI_Type_commit(&t);"
                 " MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD); MPI_Type_free(&t);"),
            "create{-1} commit{0} usecomm{1} free{1} exit{-3}");
}

TEST(HandleFlow, StatesOfEveryPathMeet) {
  // Freed on one path only: both states reach the exit.
  EXPECT_EQ(flow("MPI_Datatype t; MPI_Type_contiguous(2, MPI_INT, &t); MPI_Type_commit(&t);"
                 " if (c) MPI_Type_free(&t);"),
            "create{-1} commit{0} free{1} exit{-3,1}");
  // Used uncommitted on the path where the commit is skipped.
  EXPECT_EQ(flow("MPI_Datatype t; MPI_Type_contiguous(2, MPI_INT, &t); if (c) MPI_Type_commit(&t);"
                 " MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD); MPI_Type_free(&t);"),
            "create{-1} commit{0} usecomm{0,1} free{0,1} exit{-3}");
}

TEST(HandleFlow, AHandleGivenAwayIsUnknownAndEscapes) {
  EXPECT_EQ(flow("MPI_Datatype t; MPI_Type_contiguous(2, MPI_INT, &t); keep(&t); MPI_Type_free(&t);"),
            "create{-1} other{0} free{-2} exit{-3} escapes");
}

} // namespace
