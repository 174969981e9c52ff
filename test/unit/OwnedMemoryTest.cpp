//===- OwnedMemoryTest.cpp - Pointers that alone reach their memory -------===//
#include "analysis/OwnedMemory.h"
#include "TestAST.h"
#include "gtest/gtest.h"

using namespace ompi;
using namespace ompi::test;

namespace {

const clang::VarDecl *global(clang::ASTContext &Ctx, llvm::StringRef Name) {
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && V->getName() == Name)
      return V;
  return nullptr;
}

OwnedMemory memoryOf(clang::ASTContext &Ctx) {
  return OwnedMemory(Ctx, [](const clang::FunctionDecl *) { return false; });
}

TEST(OwnedMemory, StructsOfArithmeticData) {
  // s points to structs of arithmetic data; l's structs hold a pointer.
  auto AST = parse("void *malloc(unsigned long); typedef struct { int k; double c[3]; } item;"
                   " typedef struct { int *p; } link; item *s; link *l;"
                   " void f(int j) { s = malloc(4 * sizeof(item)); s[1].k = 2; s[2].c[j] = 1.0; s->k = 3;"
                   " l = malloc(sizeof(link)); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  OwnedMemory OM = memoryOf(Ctx);
  const OwnedPointer *S = OM.find(global(Ctx, "s"));
  ASSERT_NE(S, nullptr);
  EXPECT_FALSE(S->reach().has_value()) << *S->reach();
  ASSERT_EQ(S->Stores.size(), 3u);
  EXPECT_NE(S->Stores[0].Index, nullptr); // s[1]
  EXPECT_TRUE(S->Stores[0].Within.empty());
  ASSERT_EQ(S->Stores[1].Within.size(), 1u);     // s[2].c[j]: j within element 2
  EXPECT_EQ(S->Stores[2].Index, nullptr);        // s->k: element 0
  EXPECT_EQ(OM.find(global(Ctx, "l")), nullptr); // a struct that holds a pointer
}

TEST(OwnedMemory, ReadAliases) {
  // q only reads s's memory; w is stored through; e's element address goes
  // to a function.
  auto AST = parse("void *malloc(unsigned long); typedef struct { int k; double c[3]; } item;"
                   " item *s, *t, *e; void use(item *x);"
                   " double f(int o) { item *q = &s[o]; double v = q->c[1]; q = s + 1; return v + q->k; }"
                   " void g(void) { item *w = &t[0]; w->k = 1; }"
                   " void h(void) { use(&e[1]); }"
                   " void init(void) { s = malloc(64); t = malloc(64); e = malloc(64); }");
  clang::ASTContext &Ctx = AST->getASTContext();
  OwnedMemory OM = memoryOf(Ctx);
  const clang::FunctionDecl *F = function(Ctx, "f");
  const OwnedAlias *Q = OM.alias(var(F, "q"));
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q->Owner, global(Ctx, "s")->getCanonicalDecl());
  EXPECT_EQ(Q->Sets.size(), 2u); // &s[o] and s + 1
  EXPECT_FALSE(OM.find(global(Ctx, "s"))->reach().has_value());
  EXPECT_EQ(OM.alias(var(function(Ctx, "g"), "w")), nullptr);
  const OwnedPointer *T = OM.find(global(Ctx, "t"));
  ASSERT_TRUE(T && T->reach());
  EXPECT_NE(T->reach()->find("the address of an element of t is kept in w"), std::string::npos) << *T->reach();
  const OwnedPointer *E = OM.find(global(Ctx, "e"));
  ASSERT_TRUE(E && E->reach());
}

} // namespace
