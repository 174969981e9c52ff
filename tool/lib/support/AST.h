//===- ASTUtil.h - Small AST helpers shared by the transformations ---------===//
#ifndef OMPI_TOOL_SUPPORT_AST_H
#define OMPI_TOOL_SUPPORT_AST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace ompi {

inline const clang::Expr *strip(const clang::Expr *E) { return E ? E->IgnoreParenCasts() : nullptr; }

/// The statements and expressions directly inside S: its children, and
/// for the region of an OpenMP directive (a CapturedStmt) the region's
/// body, which Clang keeps in a declaration, not among the children. Every
/// walk of the tool goes through this (or anyNode), so that MPI calls,
/// reads and writes inside `#pragma omp parallel` and the like are seen.
inline llvm::SmallVector<const clang::Stmt *, 4> subStmts(const clang::Stmt *S) {
  llvm::SmallVector<const clang::Stmt *, 4> Out;
  for (const clang::Stmt *C : S->children())
    if (C)
      Out.push_back(C);
  if (const auto *CS = llvm::dyn_cast<clang::CapturedStmt>(S))
    Out.push_back(CS->getCapturedStmt());
  return Out;
}

/// Whether P holds for S or any statement or expression inside it
/// (through the bodies of OpenMP regions, as subStmts).
template <typename Pred> bool anyNode(const clang::Stmt *S, Pred P) {
  if (!S)
    return false;
  if (P(S))
    return true;
  for (const clang::Stmt *C : S->children())
    if (anyNode(C, P))
      return true;
  if (const auto *CS = llvm::dyn_cast<clang::CapturedStmt>(S))
    return anyNode(CS->getCapturedStmt(), P);
  return false;
}

/// Whether S or anything inside it names the declaration V.
inline bool refersTo(const clang::Stmt *S, const clang::ValueDecl *V) {
  return anyNode(S, [&](const clang::Stmt *X) {
    const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(X);
    return DRE && DRE->getDecl() == V;
  });
}

/// The name of the function CE calls directly, or "" (a call through a
/// pointer, or of an unnamed function).
inline llvm::StringRef calleeName(const clang::CallExpr *CE) {
  const clang::FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() ? F->getName() : "";
}

/// The argument in position I of CE, or null when I is -1 (a model's "no
/// such argument") or past the arguments given.
inline const clang::Expr *argAt(const clang::CallExpr *CE, int I) {
  return I >= 0 && unsigned(I) < CE->getNumArgs() ? CE->getArg(unsigned(I)) : nullptr;
}

/// The variable E names (through parentheses and implicit casts), if E is
/// just a variable.
inline const clang::VarDecl *namedVar(const clang::Expr *E) {
  const auto *DRE = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

/// The variable v of &v (through parentheses and implicit casts), if E is
/// that; *AddrOf (if given) is the '&' expression.
inline const clang::VarDecl *addressedVar(const clang::Expr *E, const clang::UnaryOperator **AddrOf = nullptr) {
  const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!U || U->getOpcode() != clang::UO_AddrOf)
    return nullptr;
  if (AddrOf)
    *AddrOf = U;
  return namedVar(U->getSubExpr());
}

/// The call an expression statement consists of: f(...), (void)f(...), rc = f(...).
inline const clang::CallExpr *statementCall(const clang::Stmt *S) {
  const auto *E = llvm::dyn_cast_or_null<clang::Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E); B && B->getOpcode() == clang::BO_Assign)
    E = B->getRHS()->IgnoreParenCasts();
  return llvm::dyn_cast<clang::CallExpr>(E);
}

/// The call of the function Name a statement consists of (statementCall).
inline const clang::CallExpr *statementCallTo(const clang::Stmt *S, llvm::StringRef Name) {
  const clang::CallExpr *CE = statementCall(S);
  const clang::FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == Name ? CE : nullptr;
}

/// The statements of a block, or the statement itself (an if's arm).
inline std::vector<const clang::Stmt *> blockStatements(const clang::Stmt *Arm) {
  if (const auto *CS = llvm::dyn_cast_or_null<clang::CompoundStmt>(Arm))
    return std::vector<const clang::Stmt *>(CS->body_begin(), CS->body_end());
  return Arm ? std::vector<const clang::Stmt *>{Arm} : std::vector<const clang::Stmt *>{};
}

/// The variable an lvalue expression lies in: x, a[i], s.f, s.a[i].
inline const clang::VarDecl *rootVar(const clang::Expr *E) {
  E = strip(E);
  while (E) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
      return llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
    if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      if (!AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        return nullptr; // p[i]: through a pointer
      E = strip(AS->getBase());
    } else if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E); ME && !ME->isArrow()) {
      E = strip(ME->getBase());
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The parent statement of node N, through declarations (an initializer's
/// parent is its DeclStmt); null at the top of a function body. The one walk
/// up the AST the tool uses.
inline const clang::Stmt *parentStmt(clang::ASTContext &Ctx, clang::DynTypedNode N) {
  for (;;) {
    clang::DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.empty())
      return nullptr;
    if (const clang::Stmt *S = Ps[0].get<clang::Stmt>())
      return S;
    if (Ps[0].get<clang::FunctionDecl>() || !Ps[0].get<clang::Decl>())
      return nullptr;
    N = Ps[0];
  }
}
inline const clang::Stmt *parentStmt(clang::ASTContext &Ctx, const clang::Stmt *S) {
  return S ? parentStmt(Ctx, clang::DynTypedNode::create(*S)) : nullptr;
}

/// The block a local V is declared in (the function's body, or an inner
/// block), or null (a for-loop's declaration).
inline const clang::CompoundStmt *declaringBlock(clang::ASTContext &Ctx, const clang::VarDecl *V) {
  auto Ps = Ctx.getParents(*V);
  const clang::Stmt *DS = Ps.empty() ? nullptr : Ps[0].get<clang::Stmt>();
  return DS ? llvm::dyn_cast_or_null<clang::CompoundStmt>(parentStmt(Ctx, DS)) : nullptr;
}

/// The statement E is used in, above any parentheses and casts around E;
/// Child (if given) is set to the outermost of those (E itself when none).
/// The declaration E initialises (a variable's initialiser), or null.
inline const clang::Decl *parentDecl(clang::ASTContext &Ctx, const clang::Expr *E) {
  auto Ps = Ctx.getParents(*E);
  return Ps.empty() ? nullptr : Ps[0].get<clang::Decl>();
}

/// Whether Child is the condition Parent tests (if, while, do, for, ?:).
inline bool isCondition(const clang::Stmt *Parent, const clang::Expr *Child) {
  if (const auto *I = llvm::dyn_cast_or_null<clang::IfStmt>(Parent))
    return I->getCond() == Child;
  if (const auto *W = llvm::dyn_cast_or_null<clang::WhileStmt>(Parent))
    return W->getCond() == Child;
  if (const auto *Do = llvm::dyn_cast_or_null<clang::DoStmt>(Parent))
    return Do->getCond() == Child;
  if (const auto *F = llvm::dyn_cast_or_null<clang::ForStmt>(Parent))
    return F->getCond() == Child;
  if (const auto *C = llvm::dyn_cast_or_null<clang::ConditionalOperator>(Parent))
    return C->getCond() == Child;
  return false;
}

inline const clang::Stmt *parentThroughCasts(clang::ASTContext &Ctx, const clang::Expr *E,
                                             const clang::Expr **Child = nullptr) {
  const clang::Stmt *P = parentStmt(Ctx, E);
  while (P && llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr, clang::CStyleCastExpr>(P)) {
    E = llvm::cast<clang::Expr>(P);
    P = parentStmt(Ctx, P);
  }
  if (Child)
    *Child = E;
  return P;
}

/// The lvalue N writes when N is an assignment (=, +=, ...) or an increment
/// or decrement; null for anything else.
inline const clang::Expr *assignedLValue(const clang::Stmt *N) {
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(N); B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(N); U && U->isIncrementDecrementOp())
    return U->getSubExpr();
  return nullptr;
}

/// Whether the reference R only reads its variable's value: its use,
/// through parentheses, is an lvalue-to-rvalue conversion (not an
/// assignment, an increment, &v or a reference binding).
inline bool onlyReads(clang::ASTContext &Ctx, const clang::DeclRefExpr *R) {
  const clang::Stmt *P = parentStmt(Ctx, R);
  while (llvm::isa_and_nonnull<clang::ParenExpr>(P))
    P = parentStmt(Ctx, P);
  const auto *Cast = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(P);
  return Cast && Cast->getCastKind() == clang::CK_LValueToRValue;
}

/// Whether the lvalue E is written (or may be: its address is taken, it
/// decays to a pointer that is not subscripted), as opposed to only read
/// (through parentheses, subscripts of an array and member accesses, an
/// lvalue-to-rvalue conversion, or inside sizeof).
inline bool mayWrite(clang::ASTContext &Ctx, const clang::Expr *E) {
  for (;;) {
    const clang::Stmt *P = parentStmt(Ctx, E);
    if (llvm::isa_and_nonnull<clang::ParenExpr>(P)) {
      E = llvm::cast<clang::Expr>(P);
      continue;
    }
    if (const auto *C = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(P)) {
      if (C->getCastKind() == clang::CK_LValueToRValue)
        return false;
      if (C->getCastKind() == clang::CK_NoOp) {
        E = C;
        continue;
      }
      if (C->getCastKind() == clang::CK_ArrayToPointerDecay)
        if (const auto *A = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentStmt(Ctx, C));
            A && A->getBase() == C) {
          E = A;
          continue;
        }
      return true;
    }
    if (const auto *M = llvm::dyn_cast_or_null<clang::MemberExpr>(P); M && !M->isArrow() && M->getBase() == E) {
      E = M;
      continue;
    }
    if (llvm::isa_and_nonnull<clang::UnaryExprOrTypeTraitExpr>(P))
      return false;
    return true; // assigned, incremented, its address taken, ...
  }
}

/// Whether E (through casts) calls malloc, calloc or aligned_alloc: a fresh
/// object no other pointer reaches.
inline bool freshAllocation(const clang::Expr *E) {
  const auto *CE = llvm::dyn_cast_or_null<clang::CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  const clang::FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  llvm::StringRef N = F && F->getIdentifier() ? F->getName() : "";
  return N == "malloc" || N == "calloc" || N == "aligned_alloc";
}

/// The one allocation a local pointer variable V (not a parameter, not
/// static) ever holds in F: its one definition (its initialiser or one
/// assignment; a null initialiser aside) from malloc, calloc or
/// aligned_alloc, the expression returned; V otherwise only read, its
/// address never taken. Null otherwise. Two such variables point to
/// different objects (a freed one may not be used).
inline const clang::Expr *onlyAllocation(clang::ASTContext &Ctx, const clang::VarDecl *V,
                                         const clang::FunctionDecl *F) {
  if (!V || !F || !F->hasBody() || !V->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(V))
    return nullptr;
  // A null initialiser holds no object (a null buffer with data is an
  // error MPI reports either way).
  const clang::Expr *Init = V->getInit(), *Alloc = nullptr;
  unsigned Defs = 0;
  if (Init && !Init->isNullPointerConstant(Ctx, clang::Expr::NPC_ValueDependentIsNotNull)) {
    Defs = freshAllocation(Init) ? 1 : 2;
    Alloc = Init;
  }
  bool Ok = true;
  anyNode(F->getBody(), [&](const clang::Stmt *S) {
    const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!D || D->getDecl() != V)
      return false;
    const clang::Stmt *P = parentStmt(Ctx, D);
    if (const auto *IC = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(P);
        IC && IC->getCastKind() == clang::CK_LValueToRValue)
      return false; // read
    const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(P);
    if (B && B->getOpcode() == clang::BO_Assign && B->getLHS()->IgnoreParens() == D && freshAllocation(B->getRHS())) {
      ++Defs;
      Alloc = B->getRHS();
    } else {
      Ok = false;
    }
    return !Ok;
  });
  return Ok && Defs == 1 ? Alloc : nullptr;
}

/// The header of a counting loop `for (k = A; k OP B; k++)`: the counter
/// assigned or declared (`int k = A`) in the first clause, OP <, <= or !=,
/// the step k++, ++k or k += 1 (condition and step as written, not
/// parenthesised). What the loop's body does is the caller's to judge.
struct CountingHeader {
  const clang::VarDecl *Counter = nullptr;
  const clang::Expr *Start = nullptr, *Bound = nullptr;
  clang::BinaryOperatorKind Op = clang::BO_LT;
  bool Declared = false; ///< the first clause declares the counter
};

inline std::optional<CountingHeader> countingHeader(clang::ASTContext &Ctx, const clang::ForStmt *For) {
  CountingHeader H;
  if (const auto *DS = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit()); DS && DS->isSingleDecl()) {
    H.Counter = llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl());
    H.Start = H.Counter ? H.Counter->getInit() : nullptr;
    H.Declared = true;
  } else if (const auto *BO = llvm::dyn_cast_or_null<clang::BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == clang::BO_Assign) {
    H.Counter = namedVar(BO->getLHS());
    H.Start = BO->getRHS();
  }
  const auto *C = llvm::dyn_cast_or_null<clang::BinaryOperator>(For->getCond());
  if (!H.Counter || !H.Start || !C || namedVar(C->getLHS()) != H.Counter ||
      !(C->getOpcode() == clang::BO_LT || C->getOpcode() == clang::BO_LE || C->getOpcode() == clang::BO_NE))
    return std::nullopt;
  H.Bound = C->getRHS();
  H.Op = C->getOpcode();
  const clang::Expr *Inc = For->getInc();
  const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc);
  const auto *A = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(Inc);
  clang::Expr::EvalResult One;
  bool Step = (U && U->isIncrementOp() && namedVar(U->getSubExpr()) == H.Counter) ||
              (A && A->getOpcode() == clang::BO_AddAssign && namedVar(A->getLHS()) == H.Counter &&
               A->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1);
  return Step ? std::optional<CountingHeader>(H) : std::nullopt;
}

/// The body of a for, while or do statement (null for anything else).
inline const clang::Stmt *loopBody(const clang::Stmt *Loop) {
  if (const auto *F = llvm::dyn_cast_or_null<clang::ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = llvm::dyn_cast_or_null<clang::WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = llvm::dyn_cast_or_null<clang::DoStmt>(Loop))
    return D->getBody();
  return nullptr;
}

/// Whether Loop is `do ... while (0)`: a statement that runs its body once
/// (the usual wrapper of a statement-like macro), not a loop.
inline bool isDoWhileZero(const clang::Stmt *Loop) {
  const auto *D = llvm::dyn_cast_or_null<clang::DoStmt>(Loop);
  const auto *Zero = D ? llvm::dyn_cast<clang::IntegerLiteral>(D->getCond()->IgnoreParenImpCasts()) : nullptr;
  return Zero && Zero->getValue() == 0;
}

/// The for, while and do statements around S within its function,
/// innermost first (not `do ... while (0)`, which runs once).
inline std::vector<const clang::Stmt *> enclosingLoops(clang::ASTContext &Ctx, const clang::Stmt *S) {
  std::vector<const clang::Stmt *> R;
  for (const clang::Stmt *P = parentStmt(Ctx, S); P; P = parentStmt(Ctx, P))
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(P) && !isDoWhileZero(P))
      R.push_back(P);
  return R;
}

/// Limit every traversal of the translation unit (the parent map, the
/// visitors' TraverseDecl of it) to the declarations that can hold code or
/// are the main file's: functions with bodies and variables with
/// initialisers from the headers, everything of the main file. The
/// prototypes, types and macros-made declarations of mpi.h, stdio.h and the
/// rest hold no statement an analysis asks about, and walking them was about
/// a tenth of a small file's run.
inline void limitTraversalToCode(clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::vector<clang::Decl *> Scope;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
    const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())) || (F && F->doesThisDeclarationHaveABody()) ||
        (V && V->hasInit()))
      Scope.push_back(D);
  }
  Ctx.setTraversalScope(Scope);
}

} // namespace ompi

#endif
