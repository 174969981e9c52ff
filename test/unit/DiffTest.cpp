//===- DiffTest.cpp - The line diff behind --diff and the HTML pages ------===//
#include "report/Diff.h"
#include "report/Report.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

TEST(Diff, IdenticalTextsHaveNoHunk) { EXPECT_TRUE(computeDiff("a\nb\nc\n", "a\nb\nc\n", {}).empty()); }

TEST(Diff, OneChangedLineWithContext) {
  std::vector<DiffHunk> H = computeDiff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n", {}, 3);
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0].OldStart, 2u);
  EXPECT_EQ(H[0].OldCount, 7u);
  EXPECT_EQ(H[0].NewCount, 7u);
  unsigned Del = 0, Add = 0;
  for (const DiffLine &L : H[0].Lines) {
    Del += L.Kind == '-';
    Add += L.Kind == '+';
    if (L.Kind == '+') {
      EXPECT_EQ(L.Text, "five");
    }
  }
  EXPECT_EQ(Del, 1u);
  EXPECT_EQ(Add, 1u);
}

TEST(Diff, InsertionAtStartAndNotesToNearestHunk) {
  ChangeNote N = ChangeNote::at("t", true, "f.c", 2, 1, "what", "why");
  N.Kind = NoteKind::Fused;
  ChangeNote Far = ChangeNote::at("t", true, "f.c", 40, 1, "what", "why");
  std::vector<ChangeNote> Notes{N, Far};
  std::vector<DiffHunk> H = computeDiff("x\ny\n", "#include <h>\nx\nY\n", Notes, 0);
  ASSERT_EQ(H.size(), 2u);
  EXPECT_EQ(H[0].OldCount, 0u);
  EXPECT_EQ(H[0].NewStart, 1u);
  // Each note goes to the hunk holding its line, else to the nearest one.
  EXPECT_TRUE(H[0].Notes.empty());
  ASSERT_EQ(H[1].Notes.size(), 2u);
  EXPECT_EQ(H[1].Notes[0]->Line, 2u);
}

TEST(Diff, UnifiedFormat) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeUnifiedDiff(OS, "f.c", "a\n", "b\n", {});
  OS.flush();
  EXPECT_NE(Out.find("--- a/f.c"), std::string::npos) << Out;
  EXPECT_NE(Out.find("+++ b/f.c"), std::string::npos) << Out;
  EXPECT_NE(Out.find("@@ -1 +1 @@"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\n-a\n+b\n"), std::string::npos) << Out;
}

TEST(Diff, SplitLinesKeepsLastLineWithoutNewline) {
  std::vector<llvm::StringRef> L = splitLines("a\r\nb\nc");
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[2], "c");
}

} // namespace

TEST(Summary, ReasonClassKeepsTheFirstClause) {
  // Numbers become N, parenthesised details and what follows a colon go.
  EXPECT_EQ(ompi::reasonClass("only some ranks may run it, and the queues must match (the branch at line 12 may go "
                              "different ways: my_ID holds the rank (MPI_Comm_rank at line 9))",
                              nullptr),
            "only some ranks may run it, and the queues must match");
  EXPECT_EQ(ompi::reasonClass("its result is used at line 204 before any other reduction could join it", nullptr),
            "its result is used at line N before any other reduction could join it");
  // "not fused with the call at line N: REASON" is grouped by REASON.
  EXPECT_EQ(
      ompi::reasonClass("not fused with the call at line 370: different op (MPI_MAX, not MPI_SUM): more", nullptr),
      "different op");
  // A profile's path is FILE.
  EXPECT_EQ(ompi::reasonClass("the machine profile /a/b/mpich.json measured 1.5 us", nullptr),
            "the machine profile FILE measured N.N us");
}
