//===- HaloSplit.cpp - The loop split a halo exchange could overlap -------===//
#include "analysis/HaloSplit.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

/// The counters of the for loops in S: the variable each one's increment
/// steps (i++, ++i, i--, i += c, i -= c).
std::set<const VarDecl *> counters(const Stmt *S) {
  std::set<const VarDecl *> Out;
  anyNode(S, [&](const Stmt *X) {
    const auto *F = dyn_cast<ForStmt>(X);
    const Expr *Inc = F && F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    const Expr *Target = nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      Target = C->getLHS();
    if (const VarDecl *V = Target ? namedVar(Target->IgnoreParenImpCasts()) : nullptr)
      Out.insert(V->getCanonicalDecl());
    return false;
  });
  return Out;
}

/// An index of the form x, x + c, c + x or x - c, with x a counter and c
/// a constant of at most 8: (x, c).
std::optional<std::pair<const VarDecl *, int64_t>> offsetOf(ASTContext &Ctx, const Expr *E,
                                                            const std::set<const VarDecl *> &Counters) {
  E = E->IgnoreParenImpCasts();
  auto Counter = [&](const Expr *X) -> const VarDecl * {
    const VarDecl *V = namedVar(X->IgnoreParenImpCasts());
    return V && Counters.count(V->getCanonicalDecl()) ? V->getCanonicalDecl() : nullptr;
  };
  if (const VarDecl *V = Counter(E))
    return std::make_pair(V, int64_t(0));
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || !B->isAdditiveOp())
    return std::nullopt;
  Expr::EvalResult R;
  const Expr *X = B->getLHS(), *K = B->getRHS();
  if (!Counter(X) && B->getOpcode() == BO_Add)
    std::swap(X, K);
  const VarDecl *V = Counter(X);
  if (!V || !K->EvaluateAsInt(R, Ctx) || !R.Val.getInt().isSignedIntN(8))
    return std::nullopt;
  int64_t C = R.Val.getInt().getSExtValue();
  if (C < -8 || C > 8)
    return std::nullopt;
  return std::make_pair(V, B->getOpcode() == BO_Sub ? -C : C);
}

/// The reads of one buffer in the loop: per subscript position and
/// counter, the offsets seen, and an example of each; false where a use of
/// it is no such read.
struct Reads {
  std::map<std::pair<unsigned, const VarDecl *>, std::set<int64_t>> Offsets;
  std::vector<const Expr *> Examples; ///< one per new offset
};

bool collect(ASTContext &Ctx, const Stmt *Loop, const VarDecl *Buf, const std::set<const VarDecl *> &Counters,
             Reads &Out) {
  bool Ok = true;
  anyNode(Loop, [&](const Stmt *X) {
    const auto *D = dyn_cast<DeclRefExpr>(X);
    if (!Ok || !D || D->getDecl()->getCanonicalDecl() != Buf->getCanonicalDecl())
      return false;
    // The subscripts around it, innermost first: Buf[a][b] is (a, b).
    std::vector<const Expr *> Indices;
    const Expr *Cur = D;
    for (const Stmt *P = parentStmt(Ctx, Cur); P; P = parentStmt(Ctx, Cur)) {
      if (isa<ImplicitCastExpr, ParenExpr>(P)) {
        Cur = cast<Expr>(P);
        continue;
      }
      const auto *A = dyn_cast<ArraySubscriptExpr>(P);
      if (!A || A->getBase()->IgnoreParenImpCasts() != Cur->IgnoreParenImpCasts())
        break;
      Indices.push_back(A->getIdx());
      Cur = A;
    }
    const Stmt *Use = parentStmt(Ctx, Cur);
    bool Written = false;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Use))
      Written = U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf;
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Use))
      Written = B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Cur;
    if (Indices.empty() || Written) {
      Ok = false;
      return true;
    }
    bool New = false;
    for (unsigned I = 0; I < Indices.size(); ++I) {
      auto O = offsetOf(Ctx, Indices[I], Counters);
      if (!O) {
        Ok = false;
        return true;
      }
      New |= Out.Offsets[{I, O->first}].insert(O->second).second;
    }
    if (New)
      Out.Examples.push_back(cast<Expr>(Cur));
    return false;
  });
  return Ok;
}

} // namespace

std::optional<std::string> ompi::haloSplitHint(ASTContext &Ctx, const Stmt *S,
                                               llvm::ArrayRef<const VarDecl *> Buffers) {
  if (!isa_and_nonnull<ForStmt>(S))
    return std::nullopt;
  std::set<const VarDecl *> Counters = counters(S);
  for (const VarDecl *Buf : Buffers) {
    Reads R;
    if (!Buf || !collect(Ctx, S, Buf, Counters, R) || R.Offsets.empty())
      continue;
    if (!llvm::any_of(R.Offsets, [](const auto &KV) { return KV.second.size() >= 2; }))
      continue;
    std::string Shown;
    for (size_t I = 0; I < R.Examples.size() && I < 3; ++I)
      Shown += (I ? ", " : "") + fileText(Ctx.getSourceManager(), Ctx.getLangOpts(), R.Examples[I]);
    unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
    return llvm::formatv("the loop at line {0} reads {1} only at small offsets of its counters ({2}), as a stencil "
                         "reads a halo: if the receive fills only {1}'s edge, the iterations that read none of it "
                         "could run before the wait and only the others after it, overlapping the transfer; split "
                         "the loop so by hand (ompi-opt does not split loops: it cannot prove which iterations "
                         "read the received part)",
                         Line, Buf->getName(), Shown)
        .str();
  }
  return std::nullopt;
}
