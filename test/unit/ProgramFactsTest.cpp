//===- ProgramFactsTest.cpp - What one file tells the others ---------------===//
#include "analysis/ProgramFacts.h"
#include "TestAST.h"
#include "analysis/Uniformity.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

TEST(ProgramFacts, MergeKeepsTheFirstReasonAndTheUnion) {
  ProgramFacts A, B;
  A.Files = {"a.c"};
  A.MainFiles = {"a.c"};
  A.Globals["g"].Defined = true;
  A.Globals["g"].WrittenBy = {"a.c"};
  B.Files = {"b.c"};
  B.Globals["g"].Varies = "in b.c: g is written at line 3 only on some ranks";
  B.Globals["g"].WrittenBy = {"b.c"};
  B.Functions["f"].Collective = true;
  CallFact C{"f", "b.c", 4, 3, std::nullopt, {std::nullopt}};
  B.Calls.push_back(C);
  A.merge(B);
  EXPECT_EQ(A.Files, (std::vector<std::string>{"a.c", "b.c"}));
  EXPECT_TRUE(A.program());
  EXPECT_TRUE(A.Globals["g"].Defined);
  EXPECT_EQ(A.Globals["g"].WrittenBy, (std::vector<std::string>{"a.c", "b.c"}));
  ASSERT_TRUE(A.Globals["g"].Varies);
  // A later round's other reason for the same fact changes nothing.
  ProgramFacts Again = A, Later;
  Later.Globals["g"].Varies = "another reason";
  C.Args[0] = "x varies";
  Later.Calls.push_back(C);
  Again.merge(Later);
  EXPECT_EQ(*Again.Globals["g"].Varies, *A.Globals["g"].Varies);
  ASSERT_EQ(Again.Calls.size(), 1u); // the same call, now with a varying argument
  EXPECT_EQ(Again.Calls[0].Args[0], std::optional<std::string>("x varies"));
  EXPECT_EQ(Again.collectives(), (std::vector<std::string>{"f"}));
}

TEST(ProgramFacts, OneFileRecordsItsMessagesTags) {
  // A constant tag, one known only at run time (any), and MPI_Send's
  // address taken (any tag).
  auto AST = parse("enum { T = 7 }; int (*f)(const void *, int, MPI_Datatype, int, int, MPI_Comm) = MPI_Send;"
                   " void g(int t, int *x) { MPI_Send(x, 1, MPI_INT, 0, T, MPI_COMM_WORLD);"
                   " MPI_Send(x, 1, MPI_INT, 0, t, MPI_COMM_WORLD); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "dir/m.c");
  ASSERT_EQ(P.Messages.size(), 3u);
  EXPECT_EQ(P.Messages[0].Tag, std::optional<int64_t>(7));
  EXPECT_EQ(P.Messages[0].File, "dir/m.c");
  EXPECT_FALSE(P.Messages[1].Tag.has_value());
  EXPECT_FALSE(P.Messages[2].Tag.has_value());
}

TEST(ProgramFacts, JSONRoundTrip) {
  ProgramFacts P;
  P.Files = {"m.c"};
  P.MainFiles = {"m.c"};
  P.Digests["m.c"] = "ab12";
  P.Globals["n"] = GlobalFact{true, std::string("why"), {"m.c"}, std::string("pointee why"), {}, true, std::nullopt};
  P.Functions["h"].Defined = true;
  P.Functions["h"].Fresh = true;
  P.Functions["h"].Result = "r";
  P.Functions["h"].Collective = true;
  P.Calls.push_back(CallFact{"h", "m.c", 9, 2, std::string("d"), {std::nullopt, std::string("a")}});
  P.Messages.push_back(MessageFact{"m.c", 12, 5});
  P.Messages.push_back(MessageFact{"m.c", 13, std::nullopt});
  llvm::Expected<ProgramFacts> Q = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  EXPECT_EQ(Q->toJSON(), P.toJSON());
  EXPECT_TRUE(*Q == P);
  EXPECT_FALSE(Q->MessagesUnknown);
  // Facts without the point-to-point calls (an older ompi-opt's): any file
  // may use any tag, and so may the program they are merged into.
  llvm::Expected<ProgramFacts> Old = ProgramFacts::fromJSON("{\"ompi_program_facts\": 1, \"files\": [\"o.c\"]}");
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_TRUE(Old->MessagesUnknown);
  P.merge(*Old);
  EXPECT_TRUE(P.MessagesUnknown);
  llvm::Expected<ProgramFacts> Again = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->MessagesUnknown);
  llvm::Expected<ProgramFacts> Bad = ProgramFacts::fromJSON("{\"calls\": []}");
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("not a facts file"), std::string::npos);
}

TEST(ProgramFacts, OneFileRecordsWritesCallsAndResults) {
  auto AST = parse("int g, h; void other(int); int twice(int n) { return 2 * n; }"
                   " int main(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); g = 1;"
                   " if (r == 0) h = 2; other(r); other(g); return twice(g); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "dir/m.c");
  EXPECT_EQ(P.MainFiles, (std::vector<std::string>{"dir/m.c"}));
  EXPECT_TRUE(P.Globals["g"].Defined);
  EXPECT_EQ(P.Globals["g"].WrittenBy, (std::vector<std::string>{"m.c"}));
  EXPECT_FALSE(P.Globals["g"].Varies.has_value());
  ASSERT_TRUE(P.Globals["h"].Varies.has_value());
  EXPECT_NE(P.Globals["h"].Varies->find("in m.c: h is written"), std::string::npos);
  EXPECT_TRUE(P.Functions["twice"].Defined);
  EXPECT_FALSE(P.Functions["twice"].Result.has_value());
  ASSERT_EQ(P.callsOf("other").size(), 2u);
  EXPECT_TRUE(P.Messages.empty());                          // no point-to-point call
  EXPECT_TRUE(P.callsOf("other")[0]->Args[0].has_value());  // the rank
  EXPECT_FALSE(P.callsOf("other")[1]->Args[0].has_value()); // g, written alike
  EXPECT_TRUE(P.callsOf("twice").empty());                  // defined here: not another file's
}

TEST(ProgramFacts, WhatEachFunctionMayWrite) {
  // set writes g through a static helper and calls note, another file's;
  // taker passes a function's address (whoever gets it may call it); ptr
  // calls through a pointer; reader writes nothing.
  auto AST = parse("unsigned long strlen(const char *); int g, h; void note(void); void (*fp)(void);"
                   " static void put(void) { g = 1; }"
                   " void set(void) { put(); note(); } void taker(void) { fp = set; }"
                   " void ptr(void) { fp(); } int reader(void) { return h + (int)strlen(\"x\"); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "m.c");
  const FunctionFact &Set = P.Functions["set"];
  EXPECT_TRUE(Set.WritesKnown);
  EXPECT_EQ(Set.Writes, (std::vector<std::string>{"g"}));
  EXPECT_EQ(Set.Reaches, (std::vector<std::string>{"note"}));
  EXPECT_FALSE(P.Functions["taker"].WritesKnown);
  EXPECT_FALSE(P.Functions["ptr"].WritesKnown);
  EXPECT_TRUE(P.Functions["reader"].WritesKnown);
  EXPECT_TRUE(P.Functions["reader"].Writes.empty());
  EXPECT_TRUE(P.Functions["reader"].Reaches.empty()); // strlen: the C library's
  // note is no function of the program: a call of set may write anything.
  P.MainFiles = {"m.c"};
  EXPECT_TRUE(P.mayWrite("set", "h"));
  EXPECT_TRUE(P.mayWrite("set", "g"));
  FunctionFact Note;
  Note.Defined = Note.WritesKnown = true;
  P.Functions["note"] = Note;
  EXPECT_FALSE(P.mayWrite("set", "h"));
  EXPECT_FALSE(P.mayWrite("reader", "h"));
  EXPECT_TRUE(P.mayWrite("ptr", "h"));
  EXPECT_TRUE(P.mayWrite("unknown", "h"));
  P.Functions["note"].Reaches = {"ptr"};
  EXPECT_TRUE(P.mayWrite("set", "h"));
  // Through JSON; facts of an older ompi-opt (no "writes") know nothing.
  llvm::Expected<ProgramFacts> Q = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  EXPECT_TRUE(*Q == P);
  llvm::Expected<ProgramFacts> Old = ProgramFacts::fromJSON(
      "{\"ompi_program_facts\": 1, \"main_files\": [\"o.c\"], \"functions\": {\"f\": {\"defined\": true}}}");
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_FALSE(Old->Functions["f"].WritesKnown);
  EXPECT_TRUE(Old->mayWrite("f", "h"));
}

TEST(ProgramFacts, WhichFunctionsMayCommunicate) {
  // bar makes a barrier through a static helper; calc computes; relay
  // calls another file's function; ptr calls through a pointer.
  auto AST = parse("void far(void); void (*fp)(void); static void b(void) { MPI_Barrier(MPI_COMM_WORLD); }"
                   " void bar(void) { b(); } int calc(int x) { return 2 * x; } void relay(void) { far(); }"
                   " void ptr(void) { fp(); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "m.c");
  P.MainFiles = {"m.c"};
  EXPECT_TRUE(P.Functions["bar"].Mpi);
  EXPECT_FALSE(P.Functions["calc"].Mpi);
  EXPECT_FALSE(P.Functions["relay"].Mpi);
  EXPECT_TRUE(P.mayCommunicate("bar"));
  EXPECT_FALSE(P.mayCommunicate("calc"));
  EXPECT_TRUE(P.mayCommunicate("relay")); // far: no fact
  EXPECT_TRUE(P.mayCommunicate("ptr"));   // a call through a pointer
  EXPECT_TRUE(P.mayCommunicate("unknown"));
  FunctionFact Far;
  Far.Defined = Far.WritesKnown = true;
  Far.Mpi = false;
  P.Functions["far"] = Far;
  EXPECT_FALSE(P.mayCommunicate("relay"));
  P.Functions["far"].Reaches = {"bar"};
  EXPECT_TRUE(P.mayCommunicate("relay"));
  // Through JSON; facts of an older ompi-opt (no "mpi") may communicate.
  llvm::Expected<ProgramFacts> Q = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  EXPECT_TRUE(*Q == P);
  llvm::Expected<ProgramFacts> Old =
      ProgramFacts::fromJSON("{\"ompi_program_facts\": 1, \"main_files\": [\"o.c\"], "
                             "\"functions\": {\"f\": {\"defined\": true, \"writes\": []}}}");
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_TRUE(Old->mayCommunicate("f"));
}

TEST(ProgramFacts, CallSequences) {
  // sum: one allreduce on the world; share: a bcast whose root and
  // communicator the caller passes; two: a barrier kept in a variable and
  // another; cond: a barrier under a branch; early: a return before the
  // barrier; p2p: a barrier and a send; rcv: a receive from the caller's
  // source with any tag; isend, swap: a nonblocking send and a sendrecv
  // (none); helper: a barrier, then a static function's; mine: a
  // communicator of its own; moved: a root the body changes.
  auto AST = parse(
      "#define MPI_ANY_TAG (-1)\n"
      "typedef int MPI_Request; typedef struct { int s; } MPI_Status;"
      " int MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);"
      " int MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);"
      " int MPI_Sendrecv_replace(void *, int, MPI_Datatype, int, int, int, int, MPI_Comm, MPI_Status *);"
      " double sum(double x) { double r; MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);"
      " return r; }"
      " void share(int *v, int root, MPI_Comm c) { MPI_Bcast(v, 1, MPI_INT, root, c); }"
      " void two(void) { int rc = MPI_Barrier(MPI_COMM_WORLD); (void)rc; MPI_Barrier(MPI_COMM_WORLD); }"
      " void cond(int r) { if (r) MPI_Barrier(MPI_COMM_WORLD); }"
      " void early(int r) { if (r) return; MPI_Barrier(MPI_COMM_WORLD); }"
      " void p2p(int *b) { MPI_Barrier(MPI_COMM_WORLD); MPI_Send(b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); }"
      " void rcv(int *b, int s) { MPI_Status st; MPI_Recv(b, 2, MPI_INT, s, MPI_ANY_TAG, MPI_COMM_WORLD, &st); }"
      " void isend(int *b, MPI_Request *r) { MPI_Isend(b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, r); }"
      " void swap(int *b) { MPI_Status st; MPI_Sendrecv_replace(b, 1, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD, &st); }"
      " static void b(void) { MPI_Barrier(MPI_COMM_WORLD); }"
      " void helper(void) { MPI_Barrier(MPI_COMM_WORLD); b(); }"
      " MPI_Comm mine; void own(void) { MPI_Barrier(mine); }"
      " void moved(int *v, int root) { root = 0; MPI_Bcast(v, 1, MPI_INT, root, MPI_COMM_WORLD); }"
      " void relay(int *v) { share(v, 3, MPI_COMM_WORLD); sum(1.0); }"
      " void pass(int *v, int r, MPI_Comm c) { share(v, r, c); }"
      " void loop(int n) { MPI_Barrier(MPI_COMM_WORLD); if (n) loop(n - 1); }"
      " int ret(MPI_Comm c) { return MPI_Barrier(c); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "dir/h.c");
  P.MainFiles = {"m.c"};
  ASSERT_TRUE(P.callSequence("sum"));
  const SequenceCall &S = P.callSequence("sum")->front();
  EXPECT_EQ(S.Call, "MPI_Allreduce");
  EXPECT_EQ(S.File, "h.c");
  EXPECT_EQ(S.Comm, "MPI_COMM_WORLD");
  EXPECT_EQ(S.Op, "MPI_SUM");
  EXPECT_EQ(S.Count, "1");
  EXPECT_EQ(S.Type, "MPI_DOUBLE");
  EXPECT_EQ(S.Root, ""); // an allreduce has none
  ASSERT_TRUE(P.callSequence("share"));
  EXPECT_EQ(P.callSequence("share")->front().Root, "param:1");
  EXPECT_EQ(P.callSequence("share")->front().Comm, "param:2");
  ASSERT_TRUE(P.callSequence("two"));
  EXPECT_EQ(P.callSequence("two")->size(), 2u);
  for (const char *None : {"cond", "early", "isend", "swap", "own", "b", "unknown"})
    EXPECT_EQ(P.callSequence(None), nullptr) << None;
  // Blocking sends and receives: their peer and tag.
  ASSERT_TRUE(P.callSequence("p2p"));
  ASSERT_EQ(P.callSequence("p2p")->size(), 2u);
  EXPECT_FALSE(P.callSequence("p2p")->front().message());
  const SequenceCall &Send = P.callSequence("p2p")->back();
  EXPECT_TRUE(Send.message());
  EXPECT_EQ(Send.Call, "MPI_Send");
  EXPECT_EQ(Send.Peer, "0");
  EXPECT_EQ(Send.Tag, "0");
  ASSERT_TRUE(P.callSequence("rcv"));
  const SequenceCall &Recv = P.callSequence("rcv")->front();
  EXPECT_EQ(Recv.Peer, "param:1");
  EXPECT_EQ(Recv.Tag, "MPI_ANY_TAG");
  EXPECT_EQ(Recv.Count, "2");
  // Through this file's helpers, with the arguments the call passes.
  ASSERT_TRUE(P.callSequence("helper"));
  EXPECT_EQ(P.callSequence("helper")->size(), 2u); // its own barrier, then b's
  ASSERT_TRUE(P.callSequence("relay"));
  ASSERT_EQ(P.callSequence("relay")->size(), 2u);
  EXPECT_EQ(P.callSequence("relay")->front().Root, "3");
  EXPECT_EQ(P.callSequence("relay")->front().Comm, "MPI_COMM_WORLD");
  EXPECT_EQ(P.callSequence("relay")->back().Call, "MPI_Allreduce");
  ASSERT_TRUE(P.callSequence("pass"));
  EXPECT_EQ(P.callSequence("pass")->front().Root, "param:1");
  EXPECT_EQ(P.callSequence("pass")->front().Comm, "param:2");
  EXPECT_EQ(P.callSequence("loop"), nullptr); // recursive: as many barriers as calls
  ASSERT_TRUE(P.callSequence("ret"));         // the last statement returns the collective's result
  EXPECT_EQ(P.callSequence("ret")->front().Comm, "param:0");
  ASSERT_TRUE(P.callSequence("moved"));
  EXPECT_EQ(P.callSequence("moved")->front().Root, "?");
  // Through JSON, and not in the fixpoint's first round.
  llvm::Expected<ProgramFacts> Q = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  EXPECT_TRUE(*Q == P);
  EXPECT_EQ(ProgramFacts::seed({}).callSequence("sum"), nullptr);
}

TEST(ProgramFacts, WhichFilesNameAGlobal) {
  auto AST = parse("int used, unused, inited; int *p = &inited; int f(void) { return used; }");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "/src/a.c");
  EXPECT_EQ(P.Globals["used"].NamedBy, (std::vector<std::string>{"a.c"}));
  EXPECT_TRUE(P.Globals["unused"].NamedBy.empty());
  EXPECT_EQ(P.Globals["inited"].NamedBy, (std::vector<std::string>{"a.c"})); // a file-scope initializer
  P.MainFiles = {"/src/a.c"};
  EXPECT_TRUE(P.namedOnlyIn("used", "a.c"));
  EXPECT_FALSE(P.namedOnlyIn("used", "b.c"));
  ProgramFacts Q = P;
  Q.Globals["used"].NamedBy.push_back("b.c");
  EXPECT_FALSE(Q.namedOnlyIn("used", "a.c"));
  Q = P;
  Q.Files.push_back("/other/a.c"); // two files of one name
  EXPECT_FALSE(Q.namedOnlyIn("used", "a.c"));
  llvm::Expected<ProgramFacts> R = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(*R == P);
  llvm::Expected<ProgramFacts> Old = ProgramFacts::fromJSON(
      "{\"ompi_program_facts\": 1, \"main_files\": [\"a.c\"], \"globals\": {\"g\": {\"defined\": true}}}");
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_FALSE(Old->namedOnlyIn("g", "a.c")); // older facts do not say
}

TEST(ProgramFacts, HowEachFileUsesGlobalRequests) {
  // 'reqs' only started and completed, 'heap' given fresh memory and freed,
  // 'kept' passed to a function, 'mine' (static) not the program's concern.
  auto AST = parse(R"C(
typedef int MPI_Request;
typedef struct { int MPI_SOURCE, MPI_TAG, MPI_ERROR; } MPI_Status;
int MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Waitall(int, MPI_Request *, MPI_Status *);
void *malloc(unsigned long);
void free(void *);
void keep(MPI_Request *);
MPI_Request reqs[2], kept[2], *heap;
static MPI_Request mine[2];
double x[2];
void f(MPI_Status *st) {
  heap = malloc(2 * sizeof(MPI_Request));
  MPI_Irecv(&x[0], 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(&x[1], 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, heap + 1);
  MPI_Waitall(2, reqs, st);
  MPI_Waitall(2, heap, st);
  free(heap);
  keep(kept);
  keep(mine);
}
)C");
  clang::ASTContext &Ctx = AST->getASTContext();
  Evaluator Ev(Ctx);
  Uniformity Uni(Ctx, Ev);
  ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "/src/a.c");
  EXPECT_FALSE(P.Globals["reqs"].Requests);
  EXPECT_FALSE(P.Globals["heap"].Requests);
  ASSERT_TRUE(P.Globals["kept"].Requests);
  EXPECT_NE(P.Globals["kept"].Requests->find("passed to keep"), std::string::npos) << *P.Globals["kept"].Requests;
  EXPECT_FALSE(P.Globals.count("mine"));
  EXPECT_FALSE(P.RequestsUnknown);
  llvm::Expected<ProgramFacts> R = ProgramFacts::fromJSON(P.toJSON());
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(*R == P);
  // An older facts file does not say: the program's facts do not either.
  llvm::Expected<ProgramFacts> Old = ProgramFacts::fromJSON("{\"ompi_program_facts\": 1, \"files\": [\"o.c\"]}");
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_TRUE(Old->RequestsUnknown);
  P.merge(*Old);
  EXPECT_TRUE(P.RequestsUnknown);
}

TEST(ProgramFacts, UniformityUsesTheProgramsFacts) {
  const char *Code = "extern int g; void f(int n) { if (g) MPI_Barrier(MPI_COMM_WORLD); "
                     " if (n) MPI_Barrier(MPI_COMM_SELF); }";
  auto AST = parse(Code);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *F = function(Ctx, "f");
  {
    Evaluator Ev(Ctx); // no facts: other files may do anything
    Uniformity Uni(Ctx, Ev);
    EXPECT_TRUE(Uni.within(call(F, "MPI_Barrier", 0), F).has_value());
    EXPECT_TRUE(Uni.within(call(F, "MPI_Barrier", 1), F).has_value());
  }
  auto P = std::make_shared<ProgramFacts>();
  P->MainFiles = {"main.c"};
  P->Globals["g"].Defined = true;
  P->Calls.push_back(CallFact{"f", "main.c", 7, 3, std::nullopt, {std::string("r holds the rank")}});
  EvalOptions O;
  O.ClosedWorld = false;
  O.Program = P;
  Evaluator Ev(Ctx, O);
  Uniformity Uni(Ctx, Ev);
  EXPECT_FALSE(Uni.within(call(F, "MPI_Barrier", 0), F).has_value()); // g: no file writes it
  auto N = Uni.within(call(F, "MPI_Barrier", 1), F);
  ASSERT_TRUE(N.has_value());
  EXPECT_NE(N->Why.find("f is called at main.c:7 with a value that may differ between ranks"), std::string::npos);
}

TEST(ProgramFacts, OwnedMemoryAcrossFiles) {
  // A global pointer whose memory this file fills alike on every rank (through
  // an allocator another file defines), and one it fills with the rank.
  auto AST = parse("void *malloc(unsigned long); void abort(void); typedef unsigned long size_t;"
                   " double *sums, *ranks; void *grab(size_t n);"
                   " void *mine(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }"
                   " void *leaky(size_t n) { double *p = malloc(n); p[0] = 1; return p; }"
                   " void fill(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);"
                   " sums = grab(8); ranks = mine(8); sums[0] = 2; ranks[0] = r; }"
                   " void use(void) { if (sums[0] > 1) MPI_Barrier(MPI_COMM_WORLD); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *Use = function(Ctx, "use");
  {
    Evaluator Ev(Ctx);
    Uniformity Uni(Ctx, Ev);
    ProgramFacts P = ProgramFacts::ofFile(Ctx, Ev, Uni, "f.c");
    EXPECT_TRUE(P.Functions["mine"].Fresh);
    EXPECT_FALSE(P.Functions["leaky"].Fresh); // it stores into what it returns
    ASSERT_TRUE(P.Globals["ranks"].Pointee.has_value());
    EXPECT_NE(P.Globals["ranks"].Pointee->find(
                  "ranks's memory is written at line 26 with a value that may differ between ranks"),
              std::string::npos)
        << *P.Globals["ranks"].Pointee;
    // Without the program's facts the memory of an external pointer may be anyone's.
    auto W = Uni.within(call(Use, "MPI_Barrier", 0), Use);
    ASSERT_TRUE(W.has_value());
    EXPECT_NE(W->Why.find("other files may write the memory it points to"), std::string::npos);
  }
  auto P = std::make_shared<ProgramFacts>();
  P->MainFiles = {"main.c"};
  P->Globals["sums"].Defined = true;
  P->Globals["ranks"].Defined = true;
  EvalOptions O;
  O.ClosedWorld = false;
  O.Program = P;
  {
    Evaluator Ev(Ctx, O); // grab is not known to return a fresh object
    Uniformity Uni(Ctx, Ev);
    auto W = Uni.within(call(Use, "MPI_Barrier", 0), Use);
    ASSERT_TRUE(W.has_value());
    EXPECT_NE(W->Why.find("sums is given memory other code may reach"), std::string::npos);
  }
  P->Functions["grab"].Defined = true;
  P->Functions["grab"].Fresh = true;
  Evaluator Ev(Ctx, O);
  Uniformity Uni(Ctx, Ev);
  EXPECT_FALSE(Uni.within(call(Use, "MPI_Barrier", 0), Use).has_value());
}

} // namespace
