//===- CountOverflow.cpp - Check: count-overflow ----------------------------===//
//
// count x datatype size (the extent, for a derived datatype of known shape)
// against the bytes left in a statically sized object, or in a local
// pointer's only allocation (malloc or calloc of a static size),
// from the buffer's address on (for the buffers that hold a block per
// process, two blocks: the fewest of any run on more than one process),
// with each count a path may pass, and each array a pointer set on
// different paths addresses (with a count that holds on every path).
//
//===----------------------------------------------------------------------===//
#include "checks/BufferUses.h"
#include "checks/Checks.h"
#include "checks/PathValues.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

/// How many blocks of its count the buffer U must hold: 1, or (for the
/// buffers holding one block per process) 2, the fewest of any run on more
/// than one process; 0 when the count does not size the buffer.
static int64_t blocks(CheckContext &C, const CallResult &CR, const BufferUse &U) {
  if (CR.Model->Cat == Category::PointToPoint || U.Count->R == Role::Count)
    return 1;
  if (significantOnlyAtRoot(CR.Function, U.Buf->R) && C.Uni.at(CR.Call, CR.Caller))
    return 0; // the root may not make this call
  if (blockPerProcess(CR.Function, U.Buf->R))
    return 2;
  return U.Count->R == Role::SendCount || U.Count->R == Role::RecvCount ? 1 : 0;
}

/// The MPI_Win_create or MPI_Win_allocate call that made the window W names
/// at the RMA call CR: the only creation of a local window variable, which
/// nothing else sets on any path to CR.
static const CallExpr *windowCreation(CheckContext &C, const CallResult &CR, const VarDecl *W) {
  for (const HandleVar &H : C.handles(CR.Caller)) {
    if (H.V != W)
      continue;
    const HandleEvent *Made = nullptr;
    for (unsigned I = 0; I < H.Events.size(); ++I) {
      const HandleEvent &E = H.Events[I];
      if (E.K == HandleEvent::Create) {
        if (Made)
          return nullptr;
        Made = &E;
      }
      if (E.S == CR.Call && (H.At[I].count(HUnknown) || H.At[I].count(HUnset) || H.At[I].count(HFreed)))
        return nullptr;
    }
    if (Made && (Made->Function == mpi::MPI_Win_create || Made->Function == mpi::MPI_Win_allocate ||
                 Made->Function == mpi::MPI_Win_allocate_shared))
      return dyn_cast<CallExpr>(Made->S);
  }
  return nullptr;
}

/// An RMA call reaching past the end of the target's window: target_disp x
/// disp_unit + target_count x size of the target datatype against the
/// window's size, where both are static (the displacement and count along
/// each path).
static void checkTargetRange(CheckContext &C, const CallResult &CR) {
  const ArgResult *W = CR.arg(Role::Win), *Disp = CR.arg(Role::TargetDisp), *Count = CR.arg(Role::TargetCount),
                  *Type = CR.arg(Role::TargetType);
  const VarDecl *WV = W ? namedVar(CR.expr(*W)) : nullptr;
  const CallExpr *Made = WV && Disp && Count && Type ? windowCreation(C, CR, WV) : nullptr;
  const FunctionModel *M = Made ? modelOf(Made) : nullptr;
  if (!M)
    return;
  auto arg = [&](Role R) {
    auto I = M->find(R);
    SymValue V = I ? C.Ev.evaluate(Made->getArg(*I), CR.Caller, Made) : SymValue{};
    return V.K == SymValue::Int ? std::optional<int64_t>(V.I) : std::nullopt;
  };
  auto Size = arg(Role::WinSize), Unit = arg(Role::DispUnit);
  auto DT = C.Ev.spelledHandle(CR.expr(*Type));
  std::optional<int64_t> TS = DT ? C.Ev.datatypeSize(*DT) : std::nullopt;
  if (!Size || !Unit || !TS || *Size < 0 || *Unit <= 0)
    return;
  for (const auto &[D, N] : pathValuePairs(C, CR, CR.expr(*Disp), CR.expr(*Count))) {
    if (D.Value.K != SymValue::Int || N.Value.K != SymValue::Int || D.Value.I < 0 || N.Value.I <= 0)
      continue;
    int64_t From = D.Value.I * *Unit, End = From + N.Value.I * *TS;
    if (End <= *Size)
      continue;
    if (Finding *F = C.report("count-overflow", CR.expr(*Count)->getBeginLoc(),
                              llvm::formatv("{0} reaches bytes {1} to {2} of the target's window '{3}', but the "
                                            "window has {4} bytes (target_disp {5}{6} x disp_unit {7}, then {8}{9} "
                                            "x {10}): an RMA access must lie inside the target window",
                                            CR.Function, From, End, WV->getName(), *Size, D.Value.I, D.Where, *Unit,
                                            N.Value.I, N.Where, *DT)
                                  .str()))
      C.note(*F, Made->getBeginLoc(), "the window is created here");
    return;
  }
}

/// MPI_Put, MPI_Get, MPI_Accumulate: an origin that describes more or less
/// data than the target (predefined datatypes, counts along each path).
static void checkRmaSignature(CheckContext &C, const CallResult &CR) {
  if (CR.Function != mpi::MPI_Put && CR.Function != mpi::MPI_Get && CR.Function != mpi::MPI_Accumulate &&
      CR.Function != mpi::MPI_Rput && CR.Function != mpi::MPI_Rget && CR.Function != mpi::MPI_Raccumulate)
    return;
  const ArgResult *OC = CR.arg(Role::Count), *OT = CR.arg(Role::Type), *TC = CR.arg(Role::TargetCount),
                  *TT = CR.arg(Role::TargetType);
  if (!OC || !OT || !TC || !TT)
    return;
  auto ODT = C.Ev.spelledHandle(CR.expr(*OT)), TDT = C.Ev.spelledHandle(CR.expr(*TT));
  int64_t OS = ODT ? C.Ev.datatypeSize(*ODT).value_or(0) : 0, TS = TDT ? C.Ev.datatypeSize(*TDT).value_or(0) : 0;
  if (OS <= 0 || TS <= 0)
    return;
  for (const auto &[O, T] : pathValuePairs(C, CR, CR.expr(*OC), CR.expr(*TC))) {
    if (O.Value.K != SymValue::Int || T.Value.K != SymValue::Int || O.Value.I < 0 || T.Value.I < 0 ||
        O.Value.I * OS == T.Value.I * TS)
      continue;
    C.report("count-overflow", CR.expr(*OC)->getBeginLoc(),
             llvm::formatv("{0} moves {1}{2} x {3} ({4} bytes) at the origin but {5}{6} x {7} ({8} bytes) at the "
                           "target: the origin and target of an RMA operation must describe the same data",
                           CR.Function, O.Value.I, O.Where, *ODT, O.Value.I * OS, T.Value.I, T.Where, *TDT,
                           T.Value.I * TS)
                 .str());
    return;
  }
}

/// The object a buffer is: a statically sized variable, or the memory a
/// local pointer's only definition allocates.
struct BufferObject {
  std::string Name;
  int64_t Size = 0, Offset = 0;
  std::string From;  ///< " (from malloc at line N)" for an allocation
  std::string Where; ///< "" or, for one of a pointer's values, " (as set at line N, ...)"
};

/// The static size of the allocation E makes (malloc(n), calloc(n, s),
/// through casts), evaluated at the statement At.
static std::optional<int64_t> allocationSize(CheckContext &C, const FunctionDecl *F, const Expr *E, const Stmt *At,
                                             std::string &Fn) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return std::nullopt;
  Fn = Callee->getName().str();
  auto Int = [&](const Expr *X) {
    if (Expr::EvalResult R; !X->isValueDependent() && X->EvaluateAsInt(R, C.Ctx)) // a constant: no control flow
      return R.Val.getInt().isStrictlyPositive() ? std::optional<int64_t>(R.Val.getInt().getExtValue()) : std::nullopt;
    SymValue V = C.Ev.evaluate(X, F, At);
    return V.K == SymValue::Int && V.I > 0 ? std::optional<int64_t>(V.I) : std::nullopt;
  };
  if (Fn == "malloc" && CE->getNumArgs() == 1)
    return Int(CE->getArg(0));
  if (Fn == "calloc" && CE->getNumArgs() == 2) {
    std::optional<int64_t> N = Int(CE->getArg(0)), S = Int(CE->getArg(1));
    return N && S && *N < (int64_t(1) << 31) && *S < (int64_t(1) << 31) ? std::optional<int64_t>(*N * *S)
                                                                        : std::nullopt;
  }
  return std::nullopt;
}

/// The allocation a local pointer P only ever holds in F (support/AST's
/// onlyAllocation), where its size is static.
static std::optional<BufferObject> allocation(CheckContext &C, const FunctionDecl *F, const VarDecl *P) {
  const Expr *Def = P && P->getType()->isPointerType() ? onlyAllocation(C.Ctx, P, F) : nullptr;
  std::string Fn;
  std::optional<int64_t> Size = Def ? allocationSize(C, F, Def, parentStmt(C.Ctx, Def), Fn) : std::nullopt;
  if (!Size)
    return std::nullopt;
  unsigned Line = C.Ctx.getSourceManager().getExpansionLineNumber(Def->getBeginLoc());
  return BufferObject{P->getNameAsString(), *Size, 0, llvm::formatv(" (from {0} at line {1})", Fn, Line).str(), ""};
}

/// The statically sized variable V addresses (at an offset).
static std::optional<BufferObject> addressed(CheckContext &C, const SymValue &V) {
  if (V.K != SymValue::Address || !V.Obj || V.Obj->getType()->isIncompleteType() ||
      V.Obj->getType()->isVariablyModifiedType() || V.Obj->getType()->isPointerType())
    return std::nullopt;
  return BufferObject{V.Obj->getNameAsString(), C.Ctx.getTypeSizeInChars(V.Obj->getType()).getQuantity(), V.Offset, "",
                      ""};
}

/// The objects the buffer expression E may be at the call CR: a statically
/// sized variable (at an offset), a local pointer's allocation, or the
/// variables a pointer set on different paths addresses (checks/PathValues;
/// Where then says which definition).
static std::vector<BufferObject> bufferObjects(CheckContext &C, const CallResult &CR, const Expr *E) {
  SymValue V = C.Ev.evaluate(E, CR.Caller, CR.Call);
  if (auto O = addressed(C, V))
    return {*O};
  const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (auto O = R ? allocation(C, CR.Caller, dyn_cast<VarDecl>(R->getDecl())) : std::nullopt)
    return {*O};
  std::vector<BufferObject> Out;
  if (V.K == SymValue::Dynamic && R && R->getType()->isPointerType())
    for (const PathValue &P : pathValues(C, CR, E))
      if (auto O = addressed(C, P.Value)) {
        O->Where = P.Where;
        Out.push_back(*O);
      }
  return Out;
}

/// The counts of the call CR that make it write or read past the end of the
/// object O the buffer U is (elements of type Info, TS bytes apart, Blocks
/// blocks of the count); whether one was reported. One of a pointer's
/// values on some path is judged only with a count that holds on every path.
static bool checkBuffer(CheckContext &C, const CallResult &CR, const BufferUse &U, const BufferObject &O,
                        const CheckContext::DatatypeInfo &Info, int64_t TS, int64_t Blocks) {
  int64_t Left = O.Size - O.Offset;
  // N elements reach N x extent, but a shape's last element only to its
  // data's end (a subarray's extent is the whole array).
  auto Reach = [&](int64_t N) {
    const TypeShape *S = Info.Shape;
    return S && N > 0 ? (N - 1) * S->ExtentBytes + S->trueUpperBytes() : N * TS;
  };
  for (const PathValue &Count : pathValues(C, CR, CR.expr(*U.Count))) {
    if (Count.Value.K != SymValue::Int || Reach(Count.Value.I * Blocks) <= Left ||
        (!O.Where.empty() && !Count.Where.empty()))
      continue;
    C.report("count-overflow", CR.expr(*U.Count)->getBeginLoc(),
             llvm::formatv("{0} {1} {2} x {3} = {4} bytes{5} {6} '{7}'{8}, but '{9}' has {10} bytes{11}", CR.Function,
                           U.Buf->R == Role::SendBuf   ? "reads"
                           : U.Buf->R == Role::RecvBuf ? "writes"
                                                       : "uses",
                           Count.Value.I, Info.Name, Reach(Count.Value.I), Blocks > 1 ? " per process" : "",
                           U.Buf->R == Role::SendBuf ? "from" : "into", U.Buf->Text, Count.Where + O.Where, O.Name,
                           O.Size, O.Offset ? llvm::formatv(" ({0} from byte {1} on)", Left, O.Offset).str() : O.From)
                     .str() +
                 (Blocks > 1 ? ": too few for any run on more than one process" : ""));
    return true;
  }
  return false;
}

void checkCountOverflow(CheckContext &C) {
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Model || !CR.Call || !CR.Caller)
      continue;
    if (CR.Model->Cat == Category::OneSided) {
      checkTargetRange(C, CR);
      checkRmaSignature(C, CR);
    }
    for (const BufferUse &U : buffers(CR)) {
      if (!U.Count || !U.Type || U.Count->Index >= CR.Call->getNumArgs())
        continue;
      int64_t Blocks = blocks(C, CR, U);
      // A derived datatype of known shape spans its extent per element.
      auto Info = C.datatype(CR.expr(*U.Type));
      std::optional<int64_t> TS = !Info         ? std::nullopt
                                  : Info->Shape ? std::optional<int64_t>(Info->Shape->ExtentBytes)
                                                : C.Ev.datatypeSize(Info->Name);
      if (!TS || !Blocks)
        continue;
      for (const BufferObject &O : bufferObjects(C, CR, CR.expr(*U.Buf)))
        if (checkBuffer(C, CR, U, O, *Info, *TS, Blocks))
          break;
    }
  }
}

} // namespace ompi
