//===- ReductionHelpers.cpp - Helpers that return one reduction's result --===//
#include "analysis/ReductionHelpers.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

/// &v for an automatic scalar v of F (a parameter too, when Param).
const VarDecl *addressOfLocal(const Expr *E, const FunctionDecl *F, bool Param) {
  const auto *U = dyn_cast_or_null<UnaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  const VarDecl *V = U && U->getOpcode() == UO_AddrOf ? namedVar(U->getSubExpr()) : nullptr;
  return V && V->hasLocalStorage() && (Param || !isa<ParmVarDecl>(V)) && V->getParentFunctionOrMethod() == F &&
                 V->getType()->isArithmeticType() && !V->getType().isVolatileQualified()
             ? V
             : nullptr;
}

} // namespace

ReductionHelpers::ReductionHelpers(ASTContext &Ctx, const FileResult &Calls) : Ctx(Ctx), Eff(Ctx) {
  for (const CallResult &C : Calls.Calls)
    ByCall[C.Call] = &C;
}

const ReductionHelper &ReductionHelpers::of(const FunctionDecl *F) {
  F = F->getDefinition() ? F->getDefinition() : F;
  auto It = Memo.find(F);
  if (It == Memo.end())
    It = Memo.emplace(F, examine(F)).first;
  return It->second;
}

/// Why the statements of F other than the reduction cannot run apart from
/// it: another return, an MPI call (or a call that may make one), a static
/// local, __func__.
std::string ReductionHelpers::localPartProblem(const FunctionDecl *F, const Stmt *Reduction) {
  std::string Why;
  unsigned Returns = 0;
  anyNode(F->getBody(), [&](const Stmt *S) {
    if (S == Reduction)
      return false;
    if (isa<ReturnStmt>(S) && ++Returns > 1)
      Why = "it has more than one return";
    else if (isa<PredefinedExpr>(S))
      Why = "it names itself (__func__)";
    else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->isStaticLocal())
          Why = "it has a static local, " + V->getName().str();
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee)
        Why = "it calls through a function pointer";
      else if (isMPIFunctionName(Callee->getName()) || (!Eff.isLibrary(Callee) && Eff.callsMPI(Callee)))
        Why = "it makes other MPI calls (or calls code that may)";
    }
    return !Why.empty();
  });
  return Why;
}

ReductionHelper ReductionHelpers::examine(const FunctionDecl *F) {
  ReductionHelper H;
  H.F = F;
  H.Name = F->getNameAsString();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || Body->size() < 2 || F->isVariadic() || !SM.isInMainFile(SM.getExpansionLoc(F->getBeginLoc())) ||
      F->getBeginLoc().isMacroID() || Body->getEndLoc().isMacroID()) {
    H.Why = "its code is not a function body of this file";
    return H;
  }
  const Stmt *Red = *(Body->body_end() - 2), *Ret = Body->body_back();
  const auto *CE = dyn_cast<CallExpr>(Red);
  auto It = CE ? ByCall.find(CE) : ByCall.end();
  const auto *RS = dyn_cast<ReturnStmt>(Ret);
  if (It == ByCall.end() || It->second->Function != mpi::MPI_Allreduce || !RS || CE->getBeginLoc().isMacroID()) {
    H.Why = "it does not end with an MPI_Allreduce statement and a return";
    return H;
  }
  const CallResult &R = *It->second;
  const VarDecl *S = addressOfLocal(R.expr(Role::SendBuf), F, true),
                *G = addressOfLocal(R.expr(Role::RecvBuf), F, false);
  const ArgResult *Count = R.arg(Role::Count), *Type = R.arg(Role::Type), *Op = R.arg(Role::Op),
                  *Comm = R.arg(Role::Comm);
  const HandleModel *TM = Type && Type->Class == ArgClass::Static ? lookupHandle(Type->Value) : nullptr;
  if (!S || !G || S == G || namedVar(RS->getRetValue()) != G)
    H.Why = "its reduction is not of one automatic local into another whose value it returns";
  else if (!Count || !Count->Int || *Count->Int != 1 || !TM || TM->Kind != HandleKind::Datatype || !Op ||
           Op->Class != ArgClass::Static || !isReductionOp(Op->Value) || !Comm || Comm->Class != ArgClass::Static)
    H.Why = "its reduction's count is not 1, or its datatype, op or communicator is not static";
  else if (G->getType().getCanonicalType().getUnqualifiedType().getAsString() != TM->CTypes ||
           S->getType().getCanonicalType().getUnqualifiedType().getAsString() != TM->CTypes ||
           !Ctx.hasSameUnqualifiedType(F->getReturnType(), G->getType()))
    H.Why = "its input, result and return type are not all the C type of " + Type->Value;
  if (H.Why.empty())
    H.Why = localPartProblem(F, Red);
  if (!H.Why.empty())
    return H;
  H.Reduction = &R;
  H.ValueType = S->getType().getUnqualifiedType().getAsString();
  FunctionTypeLoc TL = F->getFunctionTypeLoc();
  const LangOptions &LO = Ctx.getLangOpts();
  H.Params = Lexer::getSourceText(CharSourceRange::getTokenRange(TL.getLParenLoc(), TL.getRParenLoc()), SM, LO).str();
  H.Local = CharSourceRange::getCharRange(Body->getLBracLoc(), Red->getBeginLoc());
  std::string Local = Lexer::getSourceText(H.Local, SM, LO).str();
  // The parameters only the reduction used, and the result, are unused
  // here; the helper itself may have no call left (a static one would warn).
  std::string Unused = "(void)" + H.Name + ";\n  ";
  for (const ParmVarDecl *P : F->parameters())
    if (P->getIdentifier())
      Unused += "(void)" + P->getName().str() + ";\n  ";
  H.Body = Local + Unused + "(void)" + G->getName().str() + ";\n  return " + S->getName().str() + ";\n}";
  H.After = Lexer::getLocForEndOfToken(Body->getRBracLoc(), 0, SM, LO);
  for (const FunctionDecl *D = F->getPreviousDecl(); D; D = D->getPreviousDecl())
    if (SM.isWrittenInMainFile(D->getBeginLoc()) && !D->getEndLoc().isMacroID())
      H.Proto = Lexer::findLocationAfterToken(D->getEndLoc(), tok::semi, SM, LO, false);
  if (H.Params.empty() || Local.empty() || H.After.isInvalid())
    H.Why = "its text cannot be copied";
  return H;
}
