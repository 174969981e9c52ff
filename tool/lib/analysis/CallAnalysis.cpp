//===- CallAnalysis.cpp - Per-call classification of MPI arguments ---------===//
#include "analysis/CallAnalysis.h"
#include "analysis/LoopInvariance.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace ompi;

namespace {

/// The handle kind an argument of role R must have, if it is a handle role.
std::optional<HandleKind> handleRole(Role R) {
  switch (R) {
  case Role::Comm:
    return HandleKind::Comm;
  case Role::SendType:
  case Role::RecvType:
  case Role::Type:
  case Role::TargetType:
    return HandleKind::Datatype;
  case Role::Op:
    return HandleKind::Op;
  case Role::Win:
    return HandleKind::Win;
  default:
    return std::nullopt;
  }
}

/// Role-specific checks of an evaluated argument.
SymValue refine(Evaluator &Ev, SymValue V, Role R, const CommId &CallComm) {
  if (auto HK = handleRole(R)) {
    if (V.K == SymValue::Handle) {
      const HandleModel *H = lookupHandle(V.Name);
      if (H && H->Kind != *HK)
        return SymValue::dyn(V.Name + " is a " + handleKindName(H->Kind).str() + ", not a " +
                             handleKindName(*HK).str());
      return V;
    }
    if (V.K != SymValue::Dynamic)
      return SymValue::dyn("handle given by value, not by name");
    return V;
  }
  if (isBufferRole(R) || R == Role::Status || R == Role::Request) {
    if (V.K == SymValue::Int && V.I == 0)
      return SymValue::handle("NULL");
    if (V.K == SymValue::Int || V.K == SymValue::Affine)
      return SymValue::dyn("address given as a number");
    return V;
  }
  if (V.K == SymValue::Affine && CallComm.known() && V.Comm != CallComm) {
    // A duplicate's group is its parent's: the same ranks and size.
    if (!Ev.sameRanks(V.Comm, CallComm))
      return SymValue::dyn("rank or size of a different communicator than the call's");
    V.Comm = CallComm;
  }
  return V;
}

class CallFinder : public FunctionVisitor<CallFinder> {
public:
  CallFinder(ASTContext &Ctx, Evaluator &Ev, FileResult &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Ev(Ev), Out(Out) {}

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier() || !Cur)
      return true;
    llvm::StringRef Name = F->getName();
    if (!isMPIFunctionName(Name) || Name.starts_with(mpi::ProfilingPrefix))
      return true;
    SourceLocation Loc = SM.getExpansionLoc(CE->getBeginLoc());
    if (!SM.isInMainFile(Loc))
      return true;
    CallResult C;
    C.Function = Name.str();
    C.Model = lookupFunction(Name);
    C.File = SM.getFilename(Loc).str();
    C.Line = SM.getExpansionLineNumber(Loc);
    C.Column = SM.getExpansionColumnNumber(Loc);
    C.EnclosingFunction = Cur->getNameAsString();
    C.Call = CE;
    C.Caller = Cur;
    if (std::vector<const Stmt *> L = enclosingLoops(Ctx, CE); !L.empty()) {
      C.LoopLine = SM.getExpansionLineNumber(L.front()->getBeginLoc());
      C.LoopEndLine = SM.getExpansionLineNumber(L.front()->getEndLoc());
    }
    if (C.Model) {
      classify(C);
      loops(C);
    }
    Out.Calls.push_back(std::move(C));
    return true;
  }

private:
  ASTContext &Ctx;
  SourceManager &SM;
  Evaluator &Ev;
  FileResult &Out;
  LoopInvariance Inv{Ctx, Ev};

  /// The loops around the call, and what of the call each leaves alone.
  void loops(CallResult &C) {
    for (const Stmt *L : enclosingLoops(Ctx, C.Call)) {
      LoopFact F;
      F.Loop = L;
      F.Line = SM.getExpansionLineNumber(L->getBeginLoc());
      for (const ArgResult &A : C.Args) {
        F.Varies.push_back(Inv.varies(C.expr(A), L, Cur).value_or(""));
        bool Array =
            A.R == Role::SendCounts || A.R == Role::RecvCounts || A.R == Role::SendDispls || A.R == Role::RecvDispls;
        F.Written.push_back(Array ? Inv.contentsWritten(C.expr(A), L, Cur).value_or("") : "");
      }
      C.Loops.push_back(std::move(F));
    }
  }

  void classify(CallResult &C) {
    const FunctionModel &M = *C.Model;
    const CallExpr *CE = C.Call;
    CommId CallComm;
    if (auto CI = M.find(Role::Comm); CI && *CI < CE->getNumArgs())
      CallComm = Ev.commId(CE->getArg(*CI), Cur, CE);
    C.Comm = CallComm;
    std::vector<SymValue> Vals;
    for (unsigned I = 0; I < CE->getNumArgs() && I < M.Args.size(); ++I) {
      const Expr *A = CE->getArg(I);
      SymValue V = refine(Ev, Ev.evaluate(A, Cur, CE), M.Args[I].R, CallComm);
      ArgResult R;
      R.Index = I;
      R.Name = M.Args[I].Name;
      R.R = M.Args[I].R;
      R.Class = V.cls();
      R.Text = Ev.text(A);
      if (V.K == SymValue::Dynamic)
        R.Reason = V.Reason;
      else
        R.Value = V.str();
      R.Note = V.Note;
      if (V.K == SymValue::Int)
        R.Int = V.I;
      R.Sym = V;
      C.Args.push_back(std::move(R));
      Vals.push_back(std::move(V));
    }
    if (M.Cat == Category::PointToPoint || M.Cat == Category::Probe || M.Cat == Category::Collective)
      sets(C, Vals);
  }

  static std::string shown(const ArgResult &A) { return A.Class == ArgClass::Dynamic ? A.Text : A.Value; }

  /// The set made of the arguments with the given roles, "name=value, ...",
  /// as static as the least static of them.
  SetResult combine(const CallResult &C, std::initializer_list<Role> Roles) {
    SetResult S;
    for (Role R : Roles)
      if (const ArgResult *A = C.arg(R)) {
        S.Value += (S.Present ? ", " : "") + A->Name + "=" + shown(*A);
        S.Class = worst(S.Class, A->Class);
        S.Present = true;
      }
    return S;
  }

  void sets(CallResult &C, const std::vector<SymValue> &Vals) {
    const FunctionModel &M = *C.Model;
    // CommNode: the peer and the communicator.
    const ArgResult *Comm = C.arg(Role::Comm);
    SetResult Peers = combine(C, {Role::Dest, Role::Source, Role::Root});
    C.CommNode.Present = true;
    C.CommNode.Class = worst(Peers.Class, Comm ? Comm->Class : ArgClass::Dynamic);
    std::string Node = Peers.Present ? Peers.Value : M.Cat == Category::Collective ? "all" : "message";
    C.CommNode.Value = Node + " @ " + (Comm ? shown(*Comm) : "?");

    // CommSize: count x datatype size of the side that carries data.
    if (carriesData(M)) {
      C.CommSize.Present = true;
      const ArgResult *Count = nullptr, *Type = nullptr;
      for (auto [CR, TR] : {std::pair{Role::Count, Role::Type}, std::pair{Role::SendCount, Role::SendType},
                            std::pair{Role::RecvCount, Role::RecvType}}) {
        Count = C.arg(CR);
        Type = C.arg(TR);
        if (Count && Type)
          break;
      }
      if (!Count || !Type) {
        C.CommSize.Class = ArgClass::Dynamic;
        C.CommSize.Value = "per-peer counts";
      } else {
        const SymValue &CV = Vals[Count->Index];
        const SymValue &TV = Vals[Type->Index];
        std::optional<int64_t> TS;
        if (TV.K == SymValue::Handle)
          TS = Ev.datatypeSize(TV.Name);
        if (CV.K == SymValue::Int && TS) {
          C.CommSize.Class = ArgClass::Static;
          C.CommSize.Bytes = CV.I * *TS;
          C.CommSize.Value = std::to_string(*C.CommSize.Bytes) + " bytes";
        } else if (CV.K == SymValue::Affine && TS) {
          C.CommSize.Class = ArgClass::RankRelative;
          C.CommSize.Value = std::to_string(*TS) + "*(" + CV.str() + ") bytes";
        } else {
          C.CommSize.Class = ArgClass::Dynamic;
          C.CommSize.Value = shown(*Count) + " x " + shown(*Type);
        }
      }
    }

    // Buffer: what the call reads and writes; Tag: the message tags.
    C.Buffer = combine(C, {Role::Buf, Role::SendBuf, Role::RecvBuf});
    C.Tag = combine(C, {Role::Tag, Role::SendTag, Role::RecvTag});
  }
};

} // namespace

FileResult ompi::analyzeCalls(ASTContext &Ctx, Evaluator &Ev) {
  FileResult R;
  const SourceManager &SM = Ctx.getSourceManager();
  if (auto FE = SM.getFileEntryRefForID(SM.getMainFileID()))
    R.File = FE->getName().str();
  CallFinder F(Ctx, Ev, R);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return R;
}

std::vector<FunctionSpan> ompi::functionSpans(ASTContext &Ctx) {
  std::vector<FunctionSpan> R;
  const SourceManager &SM = Ctx.getSourceManager();
  CallerLoops Callers(Ctx);
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *Fn = dyn_cast<FunctionDecl>(D);
    if (!Fn || !Fn->doesThisDeclarationHaveABody() || !SM.isInMainFile(SM.getExpansionLoc(Fn->getLocation())))
      continue;
    FunctionSpan S;
    S.Name = Fn->getNameAsString();
    S.Begin = SM.getExpansionLineNumber(Fn->getBeginLoc());
    S.End = SM.getExpansionLineNumber(Fn->getEndLoc());
    for (const CallerLoop &L : Callers.of(Fn, 8))
      S.RunBy.push_back({L.Caller->getNameAsString(), SM.getExpansionLineNumber(L.Loop->getBeginLoc()),
                         SM.getExpansionLineNumber(L.Loop->getEndLoc())});
    R.push_back(std::move(S));
  }
  return R;
}

const clang::Expr *ompi::CallResult::expr(Role R) const {
  const ArgResult *A = arg(R);
  return A ? expr(*A) : nullptr;
}

const clang::Expr *ompi::CallResult::expr(const ArgResult &A) const {
  return Call && A.Index < Call->getNumArgs() ? Call->getArg(A.Index) : nullptr;
}

void ompi::detachFromAST(FileResult &R) {
  for (CallResult &C : R.Calls) {
    C.Call = nullptr;
    C.Caller = nullptr;
    for (LoopFact &L : C.Loops)
      L.Loop = nullptr;
    for (ArgResult &A : C.Args)
      A.Sym.Obj = nullptr;
  }
}
