//===- LoopFusion.cpp - Element-wise reduction loops as one reduction -----===//
//
// for (k = A; k < B; k++)                 (or k <= B, ++k, k += 1, int k = A)
//   MPI_Allreduce(&x[k], &y[k], 1, T, op, comm);    (x + k, MPI_IN_PLACE)
//
// becomes one MPI_Allreduce of the elements [A, B) of x into y (MPI_Reduce
// with a static root alike). What is proved:
//  - the loop body is the call alone, with count 1; the call is where every
//    rank runs alike, and a loop that makes a collective on every iteration
//    runs as many iterations on every rank;
//  - k is a local of a signed integer type whose address is never taken,
//    set by the loop's header only; A and B have no side effects, are of
//    signed integer types (so k < B compares as it would in long long), and
//    B reads no memory and nothing the reduction writes: B is the same in
//    every iteration and the range is [A, B) (or [A, B + 1));
//  - element k of x and y is k elements from the start of x and y (the
//    element's size is the datatype's), so the range is contiguous in both;
//  - y is an object of the file (or a restrict pointer) and x another object
//    (or MPI_IN_PLACE): iteration k neither reads an element an earlier one
//    wrote nor writes one a later one reads;
//  - type, op, root and communicator are static or do not depend on k.
// The counter ends with the value the loop leaves in it; a range of more
// than 2^31 - 1 elements runs the original loop.
//
//===----------------------------------------------------------------------===//
#include "analysis/FusionPlan.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

class LoopAnalysis {
public:
  LoopAnalysis(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, const FileResult &Calls,
               std::vector<ChangeNote> &Declined)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Ev(Ev), Uni(Uni), Declined(Declined) {
    for (const CallResult &C : Calls.Calls)
      ByCall[C.Call] = &C;
  }

  std::vector<LoopFusion> Loops;

  void loop(const ForStmt *For, const FunctionDecl *F) {
    const CallResult *R = bodyCall(For);
    if (!R)
      return;
    LoopFusion L;
    std::string Why = analyze(For, F, *R, L);
    if (Why.empty()) {
      Loops.push_back(std::move(L));
      return;
    }
    Declined.push_back(ChangeNote::at("reduction-fusion", false, R->File, R->Line, R->Column,
                                      R->Function + " not fused across the iterations of the loop at line " +
                                          std::to_string(line(For->getBeginLoc())),
                                      Why));
  }

private:
  ASTContext &Ctx;
  SourceManager &SM;
  Evaluator &Ev;
  Uniformity &Uni;
  std::vector<ChangeNote> &Declined;
  llvm::DenseMap<const CallExpr *, const CallResult *> ByCall;

  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }

  /// The reduction of count 1 that is the loop's whole body, if it is one.
  const CallResult *bodyCall(const ForStmt *For) {
    const Stmt *B = For->getBody();
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(B))
      B = CS->size() == 1 ? CS->body_front() : nullptr;
    const auto *E = dyn_cast_or_null<Expr>(B);
    if (!E)
      return nullptr;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CStyleCastExpr>(E); C && C->getType()->isVoidType())
      E = C->getSubExpr()->IgnoreParens();
    const auto *CE = dyn_cast<CallExpr>(E);
    auto It = CE ? ByCall.find(CE) : ByCall.end();
    if (It == ByCall.end() || !isFusibleReduction(It->second->Function))
      return nullptr;
    const ArgResult *Count = It->second->arg(Role::Count);
    return Count && Count->Int && *Count->Int == 1 ? It->second : nullptr;
  }

  std::string text(const Expr *E) { return fileText(SM, Ctx.getLangOpts(), E); }

  /// A static handle's name, else E as written.
  std::string spelling(const ArgResult &A, const Expr *E) {
    return A.Class == ArgClass::Static && !A.Value.empty() && lookupHandle(A.Value) ? A.Value : text(E);
  }

  std::string analyze(const ForStmt *For, const FunctionDecl *F, const CallResult &R, LoopFusion &L) {
    if (For->getBeginLoc().isMacroID() || R.Call->getBeginLoc().isMacroID())
      return "the loop or the call is written through a macro";
    if (std::optional<Divergence> D = Uni.at(For, F))
      return "only some ranks may run the loop (" + D->Why + ")";
    const VarDecl *K = nullptr;
    std::string Why = header(For, F, L, K);
    if (Why.empty())
      Why = arguments(R, K, L);
    if (Why.empty())
      Why = buffers(R, F, K, L);
    if (!Why.empty())
      return Why;
    SourceLocation End = stmtEnd(Ctx, For);
    if (End.isInvalid())
      return "the loop's end cannot be found";
    L.Loop = CharSourceRange::getCharRange(For->getBeginLoc(), End);
    L.Indent = lineIndent(SM, For->getBeginLoc());
    L.Line = R.Line;
    L.Column = R.Column;
    L.LoopLine = line(For->getBeginLoc());
    L.Function = R.Function;
    return "";
  }

  /// k = A (or a declaration), k < B or k <= B, k++ / ++k / k += 1.
  std::string header(const ForStmt *For, const FunctionDecl *F, LoopFusion &L, const VarDecl *&K) {
    std::optional<CountingHeader> H = countingHeader(Ctx, For);
    if (!H || H->Op == BO_NE)
      return "the loop is not of the form for (k = A; k < B; k++)";
    K = H->Counter;
    L.CounterScoped = H->Declared;
    const Expr *A = H->Start, *B = H->Bound;
    if (!K->hasLocalStorage() || !K->getType()->isSignedIntegerType() || K->getType().isVolatileQualified())
      return "the counter " + K->getName().str() + " is not a local of a signed integer type";
    if (auto At = Ev.analysis(F).addressTaken(K))
      return llvm::formatv("the address of the counter {0} is taken at line {1}", K->getName(), *At).str();
    for (const Expr *X : {A, B})
      if (!X->IgnoreParenImpCasts()->getType()->isSignedIntegerType() || X->HasSideEffects(Ctx) || refersTo(X, K))
        return "a bound is not a side-effect-free signed integer expression without the counter";
    if (std::string W = readsOnlyVariables(B); !W.empty())
      return "the bound " + text(B) + " " + W;
    L.Counter = K->getName().str();
    L.CounterType = K->getType().getUnqualifiedType().getAsString();
    L.First = text(A);
    std::string BT = text(B);
    if (L.First.empty() || BT.empty())
      return "a bound is written through a macro";
    L.End = H->Op == BO_LT ? "(long long)(" + BT + ")" : "(long long)(" + BT + ") + 1";
    L.Range = L.Counter + " = " + L.First + "; " + L.Counter + (H->Op == BO_LT ? " < " : " <= ") + BT;
    return "";
  }

  /// Why E may read memory the reduction writes, or "": only variables
  /// (no dereference, subscript, member access, call or volatile).
  std::string readsOnlyVariables(const Expr *E) {
    std::string Why;
    anyNode(E, [&](const Stmt *S) {
      if (isa<CallExpr, ArraySubscriptExpr, MemberExpr, StmtExpr>(S) ||
          (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref))
        Why = "reads memory";
      else if (const VarDecl *V = namedVar(dyn_cast<Expr>(S));
               V && isa<DeclRefExpr>(S) && V->getType().isVolatileQualified())
        Why = "reads the volatile " + V->getName().str();
      return !Why.empty();
    });
    return Why;
  }

  /// Type, op, root and communicator: static or independent of k.
  std::string arguments(const CallResult &R, const VarDecl *K, LoopFusion &L) {
    const ArgResult *T = R.arg(Role::Type), *Op = R.arg(Role::Op), *Comm = R.arg(Role::Comm), *Root = R.arg(Role::Root);
    if (!T || !Op || !Comm)
      return "the call does not have the expected arguments";
    if (Op->Class != ArgClass::Static || !isReductionOp(Op->Value))
      return "op " + Op->Text + " is not a predefined reduction operation";
    const HandleModel *H = T->Class == ArgClass::Static ? lookupHandle(T->Value) : nullptr;
    if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty() || llvm::StringRef(H->CTypes).contains('+'))
      return "datatype " + T->Text + " is not a predefined datatype of one C type";
    if (Root && Root->Class != ArgClass::Static)
      return "root " + Root->Text + " is not static";
    const Expr *CommE = R.expr(Role::Comm);
    if (CommE->HasSideEffects(Ctx) || refersTo(CommE, K))
      return "communicator " + Comm->Text + " may differ between iterations";
    L.TypeText = spelling(*T, R.expr(Role::Type));
    L.OpText = spelling(*Op, R.expr(Role::Op));
    L.CommText = spelling(*Comm, CommE);
    L.RootText = Root ? (Root->Int ? std::to_string(*Root->Int) : text(R.expr(Role::Root))) : "";
    if (L.TypeText.empty() || L.OpText.empty() || L.CommText.empty() || (Root && L.RootText.empty()))
      return "an argument is written through a macro";
    bool Float = H->CTypes == "float" || H->CTypes == "double" || H->CTypes == "long double";
    L.Floating = Float && (Op->Value == mpi::MPI_SUM || Op->Value == mpi::MPI_PROD);
    return "";
  }

  /// The base x of &x[k] or x + k (the element's size must be Size).
  const Expr *elementBase(const Expr *E, const VarDecl *K, int64_t Size) {
    E = E->IgnoreParenImpCasts();
    const Expr *Base = nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
          AS && namedVar(AS->getIdx()) == K)
        Base = AS->getBase();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Add) {
      if (namedVar(BO->getRHS()) == K && BO->getLHS()->getType()->isPointerType())
        Base = BO->getLHS();
      else if (namedVar(BO->getLHS()) == K && BO->getRHS()->getType()->isPointerType())
        Base = BO->getRHS();
    }
    if (!Base || refersTo(Base, K) || Base->HasSideEffects(Ctx))
      return nullptr;
    QualType Elem = Base->getType()->getPointeeType();
    if (Elem.isNull() || Elem->isIncompleteType() || Ctx.getTypeSizeInChars(Elem).getQuantity() != Size)
      return nullptr;
    return Base;
  }

  /// The object a base names: an array variable (or a row of one, m[i],
  /// whose indices read only variables), or a restrict pointer.
  const VarDecl *object(const Expr *Base, bool &Restrict) {
    Base = Base->IgnoreParenImpCasts();
    while (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
      if (!readsOnlyVariables(AS->getIdx()).empty())
        return nullptr;
      Base = AS->getBase()->IgnoreParenImpCasts();
    }
    const VarDecl *V = namedVar(Base);
    Restrict = V && V->getType()->isPointerType() && V->getType().isRestrictQualified();
    return V && (V->getType()->isArrayType() || Restrict) ? V : nullptr;
  }

  std::string buffers(const CallResult &R, const FunctionDecl *F, const VarDecl *K, LoopFusion &L) {
    const ArgResult *T = R.arg(Role::Type), *S = R.arg(Role::SendBuf), *D = R.arg(Role::RecvBuf);
    std::optional<int64_t> Size = Ev.datatypeSize(T->Value);
    if (!Size || !S || !D)
      return "the size of " + T->Text + " is not known";
    SymValue SV = Ev.evaluate(R.expr(Role::SendBuf), F, R.Call);
    bool InPlace = SV.K == SymValue::Handle && isInPlaceBuffer(SV.Name);
    if (InPlace && R.arg(Role::Root))
      return "MPI_IN_PLACE in MPI_Reduce is valid at the root only";
    const Expr *RB = elementBase(R.expr(Role::RecvBuf), K, *Size);
    const Expr *SB = InPlace ? nullptr : elementBase(R.expr(Role::SendBuf), K, *Size);
    if (!RB || (!InPlace && !SB))
      return llvm::formatv("the buffers are not element {0} of an array of {1}-byte elements (&x[{0}] or x + {0})",
                           K->getName(), *Size)
          .str();
    bool RecvRestrict = false, SendRestrict = false;
    const VarDecl *RO = object(RB, RecvRestrict);
    if (!RO)
      return "the receive buffer " + text(RB) +
             " is neither an array of this file nor a restrict pointer, so its "
             "elements cannot be proved apart from the input's";
    QualType Elem = RecvRestrict ? RO->getType()->getPointeeType() : Ctx.getBaseElementType(RO->getType());
    if (RO->getType().isVolatileQualified() || Elem.isVolatileQualified())
      return "the receive buffer " + text(RB) + " is volatile";
    if (SB) {
      const VarDecl *SO = object(SB, SendRestrict);
      if (SO == RO)
        return "input and result are the same object " + RO->getName().str();
      if (!RecvRestrict && !SO)
        return "the input " + text(SB) + " is reached through a pointer that may point into " + RO->getName().str();
    }
    L.RecvBase = text(RB);
    L.SendBase = SB ? text(SB) : "";
    if (L.RecvBase.empty() || (SB && L.SendBase.empty()))
      return "a buffer is written through a macro";
    L.Buffers = (SB ? text(R.expr(Role::SendBuf)) : mpi::MPI_IN_PLACE.str()) + " -> " + text(R.expr(Role::RecvBuf));
    return "";
  }
};

class LoopVisitor : public FunctionVisitor<LoopVisitor> {
public:
  LoopVisitor(LoopAnalysis &A, SourceManager &SM) : A(A), SM(SM) {}
  bool VisitForStmt(ForStmt *For) {
    if (Cur && SM.isInMainFile(SM.getExpansionLoc(For->getBeginLoc())))
      A.loop(For, Cur);
    return true;
  }

private:
  LoopAnalysis &A;
  SourceManager &SM;
};

} // namespace

std::vector<LoopFusion> ompi::analyzeLoopFusion(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni,
                                                const FileResult &Calls, std::vector<ChangeNote> &Declined) {
  LoopAnalysis A(Ctx, Ev, Uni, Calls, Declined);
  LoopVisitor V(A, Ctx.getSourceManager());
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(A.Loops);
}

ChangeNote ompi::loopFusionNote(const LoopFusion &L, const std::string &File) {
  ChangeNote N = ChangeNote::at("reduction-fusion", true, File, L.Line, L.Column, "", "");
  N.Kind = NoteKind::Fused;
  N.What = llvm::formatv("fused the 1-element {0} of each iteration of the loop at line {1} into one {0} of the "
                         "range ({2} for {3})",
                         L.Function, L.LoopLine, L.Buffers, L.Range)
               .str();
  N.Why = "the loop body is the call alone, and every rank runs the loop alike; the counter is a local only the "
          "loop's header sets, the bounds have no side effects and the reduction writes nothing they read; element " +
          L.Counter + " is " + L.Counter +
          " elements from each buffer's start, so the range is contiguous; the result is an object the input is "
          "not; over 2^31 - 1 elements the original loop runs";
  if (L.Floating)
    N.Why += "; floating-point " + L.OpText +
             ": for the longer message the MPI library may combine the ranks in another order (last-bit "
             "differences from 3 ranks on)";
  N.Saves = "all but one collective per execution of the loop";
  N.CollectivesSaved = 0;
  return N;
}
