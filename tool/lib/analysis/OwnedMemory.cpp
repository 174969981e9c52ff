//===- OwnedMemory.cpp - Pointers that alone reach the memory they point to ===//
#include "analysis/OwnedMemory.h"
#include "mpi/CallModel.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

/// A struct whose fields are arithmetic data, arrays of it or such structs
/// (no pointer, bit-field, union or flexible array): every byte of it is
/// reached through a field of an element.
static bool plainRecord(QualType T, unsigned Depth = 0) {
  const auto *RT = T->getAs<RecordType>();
  const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
  if (!RD || !RD->isStruct() || Depth > 4 || RD->field_empty())
    return false;
  for (const FieldDecl *F : RD->fields()) {
    QualType FT = F->getType();
    while (const ArrayType *A = FT->getAsArrayTypeUnsafe()) {
      if (!isa<ConstantArrayType>(A))
        return false;
      FT = A->getElementType();
    }
    if (F->isBitField() || FT.isVolatileQualified() || !(FT->isArithmeticType() || plainRecord(FT, Depth + 1)))
      return false;
  }
  return true;
}

bool ompi::ownerCandidate(const VarDecl *V) {
  if (!V || isa<ParmVarDecl>(V) || V->getType().isVolatileQualified())
    return false;
  const auto *PT = V->getType()->getAs<PointerType>();
  if (!PT)
    return false;
  QualType T = PT->getPointeeType();
  return !T.isVolatileQualified() && (T->isArithmeticType() || T->isVoidType() || statusType(T) || plainRecord(T));
}

namespace {
const char *const Allocators[] = {"malloc", "calloc", "aligned_alloc"};

const VarDecl *refVar(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenCasts() : nullptr);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

} // namespace

bool ompi::freesOnly(const FunctionDecl *F, unsigned ArgNo) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || ArgNo >= Def->getNumParams())
    return false;
  const ParmVarDecl *PV = Def->getParamDecl(ArgNo);
  ASTContext &Ctx = Def->getASTContext();
  unsigned Frees = 0, Refs = 0, Tests = 0; // every reference must be a free's argument or a test
  anyNode(Def->getBody(), [&](const Stmt *S) {
    const auto *CE = dyn_cast<CallExpr>(S);
    Frees += CE && calleeName(CE) == "free" && CE->getNumArgs() == 1 && refVar(CE->getArg(0)) == PV;
    const auto *D = dyn_cast<DeclRefExpr>(S);
    if (D && D->getDecl() == PV) {
      Refs++;
      const Expr *Child = D;
      const Stmt *Parent = parentThroughCasts(Ctx, D, &Child);
      const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
      const auto *U = dyn_cast_or_null<UnaryOperator>(Parent);
      Tests += (B && B->isEqualityOp()) || (U && U->getOpcode() == UO_LNot) || isCondition(Parent, Child);
    }
    return false;
  });
  return Frees && Frees + Tests == Refs;
}

namespace ompi {

/// Classifies every use of a candidate pointer variable.
class OwnedUses : public FunctionVisitor<OwnedUses> {
public:
  OwnedUses(OwnedMemory &OM) : OM(OM), Ctx(OM.Ctx), SM(Ctx.getSourceManager()) {}

  bool VisitVarDecl(VarDecl *V) {
    if (!ownerCandidate(V))
      return true;
    OwnedPointer &P = slot(V);
    if (const Expr *Init = V->getInit())
      P.Sets.push_back({Init, Init, Cur}); // judged once every use is known
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!ownerCandidate(V))
      return true;
    OwnedPointer &P = slot(V);
    if (!Cur) {
      escape(P, llvm::formatv("{0} is used at file scope at line {1}", V->getName(), line(D)));
      return true;
    }
    pointerUse(P, D);
    return true;
  }

private:
  OwnedMemory &OM;
  ASTContext &Ctx;
  const SourceManager &SM;

  unsigned line(const Stmt *S) const { return SM.getExpansionLineNumber(S->getBeginLoc()); }
  OwnedPointer &slot(const VarDecl *V) {
    OwnedPointer &P = OM.Pointers[V->getCanonicalDecl()];
    P.Var = V->getCanonicalDecl();
    return P;
  }
  static void escape(OwnedPointer &P, const llvm::Twine &Why) {
    if (!P.Escapes)
      P.Escapes = Why.str();
  }
  void store(OwnedPointer &P, const Stmt *At, const Expr *Index, const Expr *Value, std::string Fixed = "",
             std::vector<const Expr *> Within = {}) {
    P.Stores.push_back({At, Index, Value, nullptr, Cur, std::move(Fixed), std::move(Within)});
  }

  void pointerUse(OwnedPointer &P, const DeclRefExpr *D);
  void callUse(OwnedPointer &P, const CallExpr *CE, const Expr *Arg, const Expr *Index);
  void elementUse(OwnedPointer &P, const Expr *Elem, const Expr *Index);
  bool keptInAlias(OwnedPointer &P, const Expr *Addr, const Expr *Index);
};

} // namespace ompi

/// A use of the pointer's own value.
void OwnedUses::pointerUse(OwnedPointer &P, const DeclRefExpr *D) {
  llvm::StringRef Name = P.Var->getName();
  unsigned L = line(D);
  const Expr *Child = D;
  const Stmt *Parent = parentThroughCasts(Ctx, D, &Child);
  if (!Parent)
    return escape(P, llvm::formatv("{0} is used at line {1} where the tool cannot see how", Name, L));
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Parent)) {
    if (AS->getBase()->IgnoreParenCasts() == D)
      return elementUse(P, AS, AS->getIdx());
    return escape(P, llvm::formatv("{0} is an index at line {1}", Name, L));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Parent); ME && ME->isArrow())
    return elementUse(P, ME, nullptr); // p->f: a field of element 0
  if (const auto *U = dyn_cast<UnaryOperator>(Parent)) {
    if (U->getOpcode() == UO_Deref)
      return elementUse(P, U, nullptr);
    if (U->getOpcode() == UO_LNot)
      return;
    if (U->getOpcode() == UO_AddrOf) {
      // posix_memalign(&p, alignment, size): p is given a fresh object.
      const Expr *Addr = U;
      const auto *CE = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, U, &Addr));
      if (CE && calleeName(CE) == "posix_memalign" && CE->getNumArgs() == 3 && CE->getArg(0) == Addr) {
        P.Sets.push_back({CE, CE, Cur});
        return;
      }
      return escape(P, llvm::formatv("the address of {0} is taken at line {1}", Name, L));
    }
    return escape(P, llvm::formatv("{0} is moved at line {1}", Name, L));
  }
  if (const auto *B = dyn_cast<BinaryOperator>(Parent)) {
    if (B->getOpcode() == BO_Assign && B->getLHS()->IgnoreParens() == D) {
      P.Sets.push_back({B, B->getRHS(), Cur}); // judged once every use is known
      return;
    }
    if (B->isComparisonOp() || B->isLogicalOp())
      return;
    if (B->getOpcode() == BO_Add && B->getLHS() == Child) {
      // *(p + i): an element; p + i passed to a call: &p[i].
      const Expr *Sum = B;
      const Stmt *Up = parentThroughCasts(Ctx, B, &Sum);
      const auto *Deref = dyn_cast_or_null<UnaryOperator>(Up);
      if (Deref && Deref->getOpcode() == UO_Deref)
        return elementUse(P, Deref, B->getRHS());
      if (const auto *CE = dyn_cast_or_null<CallExpr>(Up))
        return callUse(P, CE, Sum, B->getRHS());
      if (keptInAlias(P, Sum, B->getRHS()))
        return;
    }
    return escape(P, llvm::formatv("the value of {0} is copied or moved at line {1}", Name, L));
  }
  if (isCondition(Parent, Child) || isa<UnaryExprOrTypeTraitExpr>(Parent))
    return;
  if (const auto *CE = dyn_cast<CallExpr>(Parent))
    return callUse(P, CE, Child, nullptr);
  if (isa<ReturnStmt>(Parent)) {
    if (!P.Returned)
      P.Returned = llvm::formatv("{0} is returned at line {1}", Name, L).str();
    return;
  }
  escape(P, llvm::formatv("the value of {0} is kept at line {1}", Name, L));
}

/// The pointer (or an element's address, Index) passed to a call.
void OwnedUses::callUse(OwnedPointer &P, const CallExpr *CE, const Expr *Arg, const Expr *Index) {
  llvm::StringRef Name = P.Var->getName(), Callee = calleeName(CE);
  unsigned L = line(CE), ArgNo = 0;
  while (ArgNo < CE->getNumArgs() && CE->getArg(ArgNo) != Arg)
    ++ArgNo;
  if (ArgNo == CE->getNumArgs())
    return escape(P, llvm::formatv("{0} is called through at line {1}", Name, L));
  if (OM.freesArg(CE, ArgNo) && !Index)
    return;
  if (Callee == "realloc" && ArgNo == 0 && !Index) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(parentThroughCasts(Ctx, CE));
    if (B && B->getOpcode() == BO_Assign && refVar(B->getLHS()) && refVar(B->getLHS())->getCanonicalDecl() == P.Var)
      return; // p = realloc(p, n): the set is recorded with the assignment
  }
  if ((Callee == "memcpy" || Callee == "memmove") && ArgNo == 1)
    return;
  if (Callee == "memset" && ArgNo == 0 && CE->getNumArgs() == 3)
    return store(P, CE, Index, CE->getArg(1));
  if ((Callee == "memcpy" || Callee == "memmove") && ArgNo == 0)
    return store(P, CE, Index, nullptr,
                 llvm::formatv("{0}'s memory is copied into by {1} at line {2}", Name, Callee, L).str());
  if (const FunctionModel *M = modelOf(CE)) {
    Role R = roleOf(CE, Arg).value_or(Role::Other);
    if (R == Role::SendBuf)
      return;
    if ((R == Role::RecvBuf || R == Role::Buf) && sameOnEveryRank(*M, R)) {
      P.Stores.push_back({CE, Index, nullptr, CE, Cur, ""});
      return;
    }
    if (R == Role::RecvBuf || R == Role::Buf)
      return store(P, CE, Index, nullptr,
                   llvm::formatv("{0}'s memory is written by {1} at line {2}, whose data differs between ranks", Name,
                                 M->Name, L)
                       .str());
    if (R == Role::Status || R == Role::Statuses) // written, with what differs between ranks
      return store(
          P, CE, Index, nullptr,
          llvm::formatv("{0}'s memory is written by {1} at line {2} (statuses differ between ranks)", Name, M->Name, L)
              .str());
    return escape(P, llvm::formatv("{0} is handed to {1} at line {2}", Name, M->Name, L));
  }
  escape(P, llvm::formatv("{0} is passed to {1} at line {2}", Name, Callee.empty() ? "a call" : Callee, L));
}

/// A use of an element (p[i], *p, *(p + i)).
void OwnedUses::elementUse(OwnedPointer &P, const Expr *Elem, const Expr *Index) {
  const Stmt *Parent = parentStmt(Ctx, Elem);
  const Expr *Child = Elem;
  while (const auto *PE = dyn_cast_or_null<ParenExpr>(Parent)) {
    Child = PE;
    Parent = parentStmt(Ctx, PE);
  }
  // A field of an element (statuses: st[i].MPI_SOURCE; p[i].a[k]), with
  // the elements of array fields: their uses are the element's.
  std::vector<const Expr *> Within;
  for (;;) {
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Parent);
        ME && !ME->isArrow() && ME->getBase()->IgnoreParens() == Child->IgnoreParens()) {
      Child = ME;
      Parent = parentStmt(Ctx, ME);
      continue;
    }
    const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    const auto *AS = Decay && Decay->getCastKind() == CK_ArrayToPointerDecay && isa<MemberExpr>(Child->IgnoreParens())
                         ? dyn_cast_or_null<ArraySubscriptExpr>(parentStmt(Ctx, Decay))
                         : nullptr;
    if (!AS || AS->getBase() != Decay)
      break;
    Within.push_back(AS->getIdx());
    Child = AS;
    Parent = parentStmt(Ctx, AS);
    while (const auto *PE = dyn_cast_or_null<ParenExpr>(Parent)) {
      Child = PE;
      Parent = parentStmt(Ctx, PE);
    }
  }
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(Parent); IC && IC->getCastKind() == CK_LValueToRValue)
    return; // read
  if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(Parent))
    return;
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent); B && B->isAssignmentOp() && B->getLHS() == Child)
    return store(P, B, Index, B->getRHS(), "", std::move(Within));
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent)) {
    if (U->isIncrementDecrementOp())
      return store(P, U, Index, nullptr, "", std::move(Within));
    if (U->getOpcode() == UO_AddrOf && Within.empty()) {
      const Expr *Addr = U;
      if (const auto *CE = dyn_cast_or_null<CallExpr>(parentThroughCasts(Ctx, U, &Addr)))
        return callUse(P, CE, Addr, Index);
      if (Child == Elem && isa<ArraySubscriptExpr>(Elem) && keptInAlias(P, U, Index))
        return;
    }
  }
  escape(P, llvm::formatv("an element of {0} is used at line {1} where the tool cannot follow it", P.Var->getName(),
                          line(Elem)));
}

/// `q = &p[i]`, `q = p + i`, or q's initializer, with q a local pointer
/// variable of the same pointee type (Addr the address, through casts of
/// no type change): a candidate read alias, judged once every use is known.
bool OwnedUses::keptInAlias(OwnedPointer &P, const Expr *Addr, const Expr *Index) {
  const Expr *Child = Addr;
  const Stmt *Parent = parentThroughCasts(Ctx, Addr, &Child);
  const VarDecl *Q = nullptr;
  const Stmt *At = nullptr;
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
      B && B->getOpcode() == BO_Assign && B->getRHS()->IgnoreParenImpCasts() == Addr->IgnoreParenImpCasts()) {
    Q = refVar(B->getLHS());
    At = B;
  } else if (const auto *DS = dyn_cast_or_null<DeclStmt>(Parent); DS && DS->isSingleDecl()) {
    Q = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (Q && (!Q->getInit() || Q->getInit()->IgnoreParenImpCasts() != Addr->IgnoreParenImpCasts()))
      Q = nullptr;
    At = Q ? Q->getInit() : nullptr; // as the owner's uses record an initializer
  }
  if (!Q || !Cur || !Q->hasLocalStorage() || !ownerCandidate(Q) || Q == P.Var ||
      !Ctx.hasSameType(Q->getType(), P.Var->getType().getCanonicalType()) ||
      !Ctx.hasSameType(Addr->IgnoreParenImpCasts()->getType(), Q->getType()))
    return false;
  OwnedAlias &A = OM.Pending[Q->getCanonicalDecl()];
  if (!A.Owner)
    A.Owner = P.Var; // a second owner makes it no alias (checkAliases)
  A.Sets.push_back({At, Index, Cur});
  OM.PendingOwners[Q->getCanonicalDecl()].insert(P.Var);
  return true;
}

OwnedMemory::OwnedMemory(ASTContext &Ctx, FreshElsewhere Fresh, FreesElsewhere Frees)
    : Ctx(Ctx), Fresh(std::move(Fresh)), Frees(std::move(Frees)) {}

bool OwnedMemory::freesArg(const CallExpr *CE, unsigned ArgNo) {
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  if (!F || ArgNo >= CE->getNumArgs())
    return false;
  if (calleeName(CE) == "free")
    return CE->getNumArgs() == 1;
  const FunctionDecl *Def = nullptr;
  if (F->hasBody(Def))
    return freesOnly(Def, ArgNo);
  return Frees && Frees(F, ArgNo);
}

void OwnedMemory::collect() {
  if (Collected)
    return;
  Collected = true;
  OwnedUses U(*this);
  U.TraverseDecl(Ctx.getTranslationUnitDecl());
  checkAliases();
  // Now that every use is known: a value that is not a fresh object lets
  // other code reach the memory.
  for (auto &[V, P] : Pointers)
    for (const OwnedPointer::Set &S : P.Sets)
      if (!P.Escapes && !freshValue(S.Value, V))
        P.Escapes = llvm::formatv("{0} is given memory other code may reach at line {1}", V->getName(),
                                  Ctx.getSourceManager().getExpansionLineNumber(S.At->getBeginLoc()))
                        .str();
}

/// A candidate alias q of owner p is one when p is its only owner, q is
/// given nothing but p's element addresses and null pointers, in its own
/// function, and nothing is stored through q nor does q go anywhere else;
/// otherwise p's element address goes where the tool cannot follow it.
void OwnedMemory::checkAliases() {
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto &[Q, A] : Pending) {
    OwnedPointer &QP = Pointers[Q];
    bool Ok = PendingOwners[Q].size() == 1 && QP.Stores.empty() && !QP.Escapes && !QP.Returned;
    for (const OwnedPointer::Set &S : QP.Sets) {
      bool Given = llvm::any_of(A.Sets, [&](const OwnedAlias::Set &X) { return X.At == S.At; });
      Ok &= (Given || (S.Value && S.Value->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))) &&
            Q->getDeclContext() == static_cast<const DeclContext *>(S.F);
    }
    Ok &= llvm::all_of(
        A.Sets, [&](const OwnedAlias::Set &X) { return Q->getDeclContext() == static_cast<const DeclContext *>(X.F); });
    if (Ok) {
      Aliases[Q] = A;
      continue;
    }
    for (const VarDecl *Owner : PendingOwners[Q]) {
      OwnedPointer &P = Pointers[Owner];
      if (!P.Escapes)
        P.Escapes = llvm::formatv("the address of an element of {0} is kept in {1} at line {2}", Owner->getName(),
                                  Q->getName(), SM.getExpansionLineNumber(A.Sets.front().At->getBeginLoc()))
                        .str();
    }
  }
}

const OwnedAlias *OwnedMemory::alias(const VarDecl *V) {
  if (!V)
    return nullptr;
  collect();
  auto It = Aliases.find(V->getCanonicalDecl());
  return It == Aliases.end() ? nullptr : &It->second;
}

const OwnedPointer *OwnedMemory::find(const VarDecl *V) {
  if (!ownerCandidate(V))
    return nullptr;
  collect();
  auto It = Pointers.find(V->getCanonicalDecl());
  return It == Pointers.end() ? nullptr : &It->second;
}

std::vector<const OwnedPointer *> OwnedMemory::all() {
  collect();
  std::vector<const OwnedPointer *> Out;
  for (const auto &KV : Pointers)
    Out.push_back(&KV.second);
  return Out;
}

/// Whether E (through casts) is a fresh object or a null pointer; Self is
/// the pointer E is assigned to (realloc of its own value keeps it fresh).
bool OwnedMemory::freshValue(const Expr *E, const VarDecl *Self) {
  if (!E)
    return false;
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  llvm::StringRef N = calleeName(CE);
  if (N.empty())
    return false;
  if (llvm::is_contained(Allocators, N) || N == "posix_memalign")
    return true; // posix_memalign: E is the call that sets the pointer
  if (N == "realloc")
    return Self && CE->getNumArgs() == 2 && refVar(CE->getArg(0)) &&
           refVar(CE->getArg(0))->getCanonicalDecl() == Self->getCanonicalDecl();
  const FunctionDecl *Def = nullptr;
  if (CE->getDirectCallee()->hasBody(Def))
    return returnsFresh(Def);
  return Fresh && Fresh(CE->getDirectCallee());
}

bool OwnedMemory::returnsFresh(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def->getReturnType()->isPointerType())
    return false;
  if (auto It = FreshMemo.find(Def); It != FreshMemo.end())
    return It->second;
  collect();
  if (!FreshBusy.insert(Def).second)
    return false; // recursion
  bool Ok = true, Any = false;
  anyNode(Def->getBody(), [&](const Stmt *S) {
    const auto *RS = dyn_cast<ReturnStmt>(S);
    if (!RS)
      return false;
    Any = true;
    const Expr *RV = RS->getRetValue();
    if (RV && freshValue(RV, nullptr))
      return false;
    const VarDecl *L = refVar(RV);
    const OwnedPointer *P = L && L->hasLocalStorage() ? find(L) : nullptr;
    Ok = P && !P->Escapes && P->Stores.empty() &&
         llvm::all_of(P->Sets, [&](const OwnedPointer::Set &Set) { return Set.F == Def && freshValue(Set.Value, L); });
    return !Ok;
  });
  FreshBusy.erase(Def);
  return FreshMemo[Def] = Ok && Any;
}
