//===- Rewrite.cpp - What the rewrites share ------------------------------===//
#include "transforms/Rewrite.h"
#include "clang/Basic/IdentifierTable.h"

using namespace ompi;

FreshNames::FreshNames(clang::ASTContext &Ctx) {
  for (const auto &KV : Ctx.Idents)
    if (KV.getKey().starts_with("mpiopt_"))
      Used.insert(KV.getKey().str());
}

std::string FreshNames::next(llvm::StringRef Base) {
  unsigned &N = Last[Base.str()];
  for (;;) {
    std::string P = Base.str() + std::to_string(++N);
    auto It = Used.lower_bound(P);
    bool Clash = It != Used.end() && (*It == P || llvm::StringRef(*It).starts_with(P + "_"));
    // lower_bound(P) may land on P1... before P_: look at every name with prefix P.
    for (; !Clash && It != Used.end() && llvm::StringRef(*It).starts_with(P); ++It)
      Clash = *It == P || llvm::StringRef(*It).starts_with(P + "_");
    if (!Clash)
      return P;
  }
}
