//===- InvalidArgument.cpp - Check: invalid-argument ------------------------===//
//
// arguments that no MPI accepts, decided from their static values: null
// handles (MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_OP_NULL, or NULL / 0 where
// a handle is required) and handles of the wrong kind; negative counts;
// negative tags other than MPI_ANY_TAG, MPI_ANY_TAG in a send, tags above
// the 32767 every MPI accepts; negative ranks other than the named
// constants (whose values differ: MPICH's MPI_PROC_NULL is -1, Open MPI's
// -2), MPI_ANY_SOURCE as a destination or root, and peers or roots that are
// the communicator's size or beyond (size + k, rank + size + k); NULL
// buffers with a positive count of a predefined datatype; NULL where the
// call writes a request, a flag or a rank; negative counts and block
// lengths of datatype constructors; collectives whose send and receive
// sides (one block per process) have different numbers of elements of one
// predefined type; receive datatypes of known shape whose elements overlap
// for the count (or the number of processes) given; and a window on a
// function's local memory that leaves the function. Arguments the standard
// reads only at the root are checked where every rank makes the call (so
// the root makes it too); the send side of a call whose send buffer is
// MPI_IN_PLACE is not read at all.
//
//===----------------------------------------------------------------------===//
#include "analysis/ArrayValues.h"
#include "checks/Checks.h"
#include "checks/PathValues.h"
#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/UninitializedValues.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace ompi {

namespace {

std::optional<HandleKind> handleKindOf(Role R) {
  if (R == Role::Comm)
    return HandleKind::Comm;
  if ((isDatatypeRole(R) && R != Role::SendTypes && R != Role::RecvTypes) || R == Role::TargetType)
    return HandleKind::Datatype;
  if (R == Role::Win)
    return HandleKind::Win;
  if (R == Role::Op)
    return HandleKind::Op;
  return std::nullopt;
}

bool isNullPointer(const SymValue &V) {
  return (V.K == SymValue::Handle && V.Name == "NULL") || (V.K == SymValue::Int && V.I == 0);
}

bool isSend(const CallResult &CR) { return CR.arg(Role::Dest) != nullptr; }

/// "a communicator", "an op".
std::string article(llvm::StringRef Kind) { return (Kind.starts_with("o") ? "an " : "a ") + Kind.str(); }

class ArgChecker {
public:
  ArgChecker(CheckContext &C, const CallResult &CR) : C(C), CR(CR) {}

  /// Check A with each value it may have, reporting the first invalid one.
  void run(const ArgResult &A) {
    for (PathValue &P : pathValues(C, CR, CR.expr(A))) {
      V = std::move(P.Value);
      Where = std::move(P.Where);
      Reported = false;
      check(A);
      if (Reported)
        return;
    }
  }

private:
  CheckContext &C;
  const CallResult &CR;
  SymValue V;
  std::string Where;
  bool Reported = false;

  void check(const ArgResult &A) {
    if (auto K = handleKindOf(A.R))
      handle(A, *K);
    else if ((isCountRole(A.R) || A.R == Role::TargetCount) && V.K == SymValue::Int && V.I < 0)
      report(A, llvm::formatv("is negative ({0}): a count must be non-negative", V.I));
    else if (A.R == Role::WinSize && V.K == SymValue::Int && V.I < 0)
      report(A, llvm::formatv("is negative ({0}): a window's size must be non-negative", V.I));
    else if (A.R == Role::DispUnit && V.K == SymValue::Int && V.I <= 0)
      report(A, llvm::formatv("is {0}: a displacement unit must be positive", V.I));
    else if (A.R == Role::TargetDisp && V.K == SymValue::Int && V.I < 0)
      report(A, llvm::formatv("is negative ({0}): a target displacement must be non-negative", V.I));
    else if (A.R == Role::WinBase)
      windowMemory(A);
    else if (isTagRole(A.R))
      tag(A);
    else if (isPeerRole(A.R))
      peer(A);
    else if (isBufferRole(A.R))
      buffer(A);
    else if ((A.R == Role::Request || A.R == Role::RankOut || A.R == Role::SizeOut ||
              (A.R == Role::Out && !CR.arg(Role::Requests))) &&
             isNullPointer(V))
      report(A, "is NULL: the call writes its result there, and the standard requires a valid address");
    else if (A.R == Role::Status && isNullPointer(V))
      report(A, "is NULL: Open MPI's MPI_STATUS_IGNORE is NULL, but MPICH's is not and MPICH writes the status "
                "there; write MPI_STATUS_IGNORE");
  }

  void report(const ArgResult &A, const llvm::Twine &What) {
    Reported = true;
    C.report("invalid-argument", CR.expr(A)->getBeginLoc(),
             llvm::formatv("{0} {1} '{2}'{3} {4}", CR.Function, A.Name, A.Text, Where, What.str()).str());
  }

  void handle(const ArgResult &A, HandleKind Want) {
    llvm::StringRef KindName = handleKindName(Want);
    if (isNullPointer(V)) {
      report(A, llvm::formatv("is {0}: NULL is not {1} handle (the standard requires a valid {2})",
                              V.K == SymValue::Int ? "0" : "NULL", article(KindName), KindName));
      return;
    }
    const HandleModel *H = V.K == SymValue::Handle ? lookupHandle(V.Name) : nullptr;
    if (!H)
      return;
    if (H->Kind == Want && isNullHandle(V.Name))
      report(A, llvm::formatv("is {0}: the standard requires a valid {1}", V.Name, KindName));
    else if (H->Kind != Want && H->Kind != HandleKind::Other)
      report(A, llvm::formatv("is {0}, {1}, where the standard requires {2}", V.Name, article(handleKindName(H->Kind)),
                              article(KindName)));
  }

  void tag(const ArgResult &A) {
    bool Send = A.R == Role::SendTag || (A.R == Role::Tag && isSend(CR));
    if (V.K == SymValue::Handle && V.Name == mpi::MPI_ANY_TAG && Send)
      report(A, "is MPI_ANY_TAG: a message's tag must be non-negative; MPI_ANY_TAG is only for receives");
    else if (V.K == SymValue::Int && V.I < 0)
      report(A, llvm::formatv("is negative ({0}): a tag must be non-negative{1}", V.I,
                              V.I == -1 ? " (-1 is MPI_ANY_TAG's value in MPICH and Open MPI: write the constant "
                                          "where any tag is meant)"
                                        : ""));
    else if (V.K == SymValue::Int && V.I > GuaranteedTagUB)
      report(A, llvm::formatv("is {0}, above 32767, the only MPI_TAG_UB the standard guarantees (MPICH and Open "
                              "MPI accept it; other MPIs need not: query MPI_TAG_UB)",
                              V.I));
  }

  void peer(const ArgResult &A) {
    if (V.K == SymValue::Handle && V.Name == mpi::MPI_ANY_SOURCE && A.R != Role::Source) {
      report(A, llvm::formatv("is MPI_ANY_SOURCE: a {0} must be a rank of the communicator",
                              A.R == Role::Root ? "root" : "destination"));
    } else if (V.K == SymValue::Int && V.I < 0) {
      std::string Why = "ranks are non-negative";
      if (A.R == Role::Root)
        Why += "; MPI_ROOT and MPI_PROC_NULL are only for intercommunicators";
      else if (V.I == -1)
        Why += "; -1 is MPI_PROC_NULL under MPICH but MPI_ANY_SOURCE under Open MPI: write the constant";
      else if (V.I == -2)
        Why += "; -2 is MPI_ANY_SOURCE under MPICH but MPI_PROC_NULL under Open MPI: write the constant";
      report(A, llvm::formatv("is negative ({0}): {1}", V.I, Why));
    } else if (V.K == SymValue::Affine && V.A.Mod == AffineForm::NoMod && V.A.Size >= 1 && V.A.Rank >= 0 &&
               V.A.Const >= 0) {
      report(A,
             llvm::formatv("is {0}, never below the communicator's size: a rank must be less than the size", V.str()));
    }
  }

  /// MPI_Win_create / MPI_Win_attach: NULL memory of a positive size.
  void windowMemory(const ArgResult &A) {
    const ArgResult *Size = CR.arg(Role::WinSize);
    if (isNullPointer(V) && Size && Size->Int && *Size->Int > 0)
      report(A,
             llvm::formatv("is NULL with size {0}: a window of a positive size must expose valid memory", *Size->Int));
  }

  void buffer(const ArgResult &A) {
    if (!isNullPointer(V))
      return;
    const ArgResult *Count = nullptr;
    for (const ArgResult &O : CR.Args)
      if ((A.R == Role::SendBuf && (O.R == Role::SendCount || O.R == Role::Count)) ||
          (A.R == Role::RecvBuf && (O.R == Role::RecvCount || O.R == Role::Count)) ||
          (A.R == Role::Buf && O.R == Role::Count))
        Count = &O;
    // A derived datatype may be empty (hindexed with zero-length blocks).
    const ArgResult *Type = CR.arg(A.R == Role::SendBuf   ? Role::SendType
                                   : A.R == Role::RecvBuf ? Role::RecvType
                                                          : Role::Type);
    if (!Type)
      Type = CR.arg(Role::Type);
    auto DT = Type ? C.Ev.spelledHandle(CR.expr(*Type)) : std::nullopt;
    if (Count && Count->Int && *Count->Int > 0 && DT && C.Ev.datatypeSize(*DT).value_or(0) > 0)
      report(A, llvm::formatv("is NULL with {0} {1}: a buffer of a positive count must be a valid address", Count->Name,
                              *Count->Int));
  }
};

/// MPI_Type_contiguous / vector / hvector (and subarray, resized): negative
/// counts, dimensions and block lengths, a null old type (along any path),
/// NULL for the new type.
void checkConstructor(CheckContext &C, const CallResult &CR, const TypeConstructorModel &T) {
  const CallExpr *CE = CR.Call;
  auto values = [&](int I) {
    return I >= 0 && unsigned(I) < CE->getNumArgs() ? pathValues(C, CR, CE->getArg(I)) : std::vector<PathValue>();
  };
  auto report = [&](int I, llvm::StringRef Name, const std::string &Where, const llvm::Twine &What) {
    C.report(
        "invalid-argument", CE->getArg(I)->getBeginLoc(),
        llvm::formatv("{0} {1} '{2}'{3} {4}", CR.Function, Name, C.Ev.text(CE->getArg(I)), Where, What.str()).str());
  };
  const char *CountName = T.Kind == TypeConstructorModel::Subarray ? "ndims" : "count";
  for (auto [I, Name] : {std::pair<int, const char *>{T.Count, CountName}, {T.BlockLength, "blocklength"}})
    for (const PathValue &V : values(I))
      if (V.Value.K == SymValue::Int && V.Value.I < 0) {
        report(I, Name, V.Where,
               llvm::formatv("is negative ({0}): the standard requires a non-negative {1}", V.Value.I, Name));
        break;
      }
  for (const PathValue &Old : values(T.OldType))
    if (isNullPointer(Old.Value) || (Old.Value.K == SymValue::Handle && isNullHandle(Old.Value.Name))) {
      report(T.OldType, "oldtype", Old.Where,
             "is a null datatype: the standard requires a valid datatype to build from");
      break;
    }
  // A byte stride that is not a multiple of the old type's size: every
  // block after the first starts inside an element (3 bytes over floats).
  if (T.Kind == TypeConstructorModel::HVector) {
    SymValue N = C.Ev.evaluate(CE->getArg(T.Count), CR.Caller, CE);
    auto Old = C.Ev.spelledHandle(CE->getArg(T.OldType));
    std::optional<int64_t> Size = Old ? C.Ev.datatypeSize(*Old) : std::nullopt;
    for (const PathValue &S : values(T.Stride))
      if (N.K == SymValue::Int && N.I > 1 && S.Value.K == SymValue::Int && Size && *Size > 1 &&
          S.Value.I % *Size != 0) {
        report(T.Stride, "stride", S.Where,
               llvm::formatv("is {0} bytes, not a multiple of the {1} bytes of {2}: every block after the first "
                             "starts inside an element (a byte stride counts bytes, not elements)",
                             S.Value.I, *Size, *Old));
        break;
      }
  }
  for (const PathValue &New : values(T.NewType))
    if (isNullPointer(New.Value)) {
      report(T.NewType, "newtype", New.Where, "is NULL: the call writes the new datatype there");
      break;
    }
}

/// MPI_Type_create_struct: a negative count, a count beyond the arrays it
/// indexes, negative block lengths, null block types (along any path of the
/// stores into the arrays).
void checkStructConstructor(CheckContext &C, const CallResult &CR, const HandleCallModel &M) {
  const CallExpr *CE = CR.Call;
  if (CE->getNumArgs() != 5)
    return;
  auto report = [&](const Expr *At, const llvm::Twine &What) {
    C.report("invalid-argument", At->getBeginLoc(), (CR.Function + " " + What).str());
  };
  const Expr *CountArg = CE->getArg(M.Count), *Lengths = CE->getArg(M.BlockLengths), *Types = CE->getArg(M.Types);
  const std::pair<const Expr *, const char *> Arrays[] = {
      {Lengths, "array_of_blocklengths"}, {CE->getArg(M.Displs), "array_of_displacements"}, {Types, "array_of_types"}};
  for (const PathValue &Count : pathValues(C, CR, CountArg)) {
    if (Count.Value.K != SymValue::Int)
      continue;
    if (Count.Value.I < 0)
      return report(CountArg, llvm::formatv("count '{0}' is negative ({1}){2}: the standard requires a "
                                            "non-negative count",
                                            C.Ev.text(CountArg), Count.Value.I, Count.Where));
    for (const auto &[A, Name] : Arrays) {
      const VarDecl *V = namedVar(A);
      const auto *AT = V ? C.Ctx.getAsConstantArrayType(V->getType()) : nullptr;
      if (AT && AT->getSize().ugt(0) && uint64_t(Count.Value.I) > AT->getSize().getZExtValue())
        return report(CountArg,
                      llvm::formatv("count {0}{1} is larger than {2} '{3}', which holds {4}: the call "
                                    "reads past its end",
                                    Count.Value.I, Count.Where, Name, V->getName(), AT->getSize().getZExtValue()));
    }
  }
  SymValue Count = C.Ev.evaluate(CountArg, CR.Caller, CE);
  size_t Read = Count.K == SymValue::Int ? size_t(std::max<int64_t>(Count.I, 0)) : SIZE_MAX;
  auto Paths = arrayValuesAt(C.Ev, CR.Caller, CE, {namedVar(Lengths), namedVar(Types)});
  for (const ArrayPath &P : Paths ? *Paths : std::vector<ArrayPath>()) {
    std::string Where = Paths->size() > 1 ? " on the path where " + llvm::join(P.Conds, " and ") : "";
    for (size_t K = 0; K < P.Arrays[0].size() && K < Read; ++K)
      if (P.Arrays[0][K].K == ArrayElem::Int && P.Arrays[0][K].I < 0) {
        report(Lengths, llvm::formatv("block length {0} is negative ({1}){2}: the standard requires "
                                      "non-negative block lengths",
                                      K, P.Arrays[0][K].I, Where));
        break;
      }
    for (size_t K = 0; K < P.Arrays[1].size() && K < Read; ++K)
      if (P.Arrays[1][K].K == ArrayElem::Handle && isNullHandle(P.Arrays[1][K].Name))
        return report(Types, llvm::formatv("block type {0} is {1}{2}: the standard requires a valid datatype "
                                           "for every block",
                                           K, P.Arrays[1][K].Name, Where));
  }
}

/// A predefined op with a predefined datatype it is not defined for (along
/// any path of either), MPI_REPLACE or MPI_NO_OP in a reduction.
void checkOpDatatype(CheckContext &C, const CallResult &CR) {
  const ArgResult *Op = CR.arg(Role::Op), *Type = CR.arg(Role::Type);
  if (!Type)
    Type = CR.arg(Role::SendType);
  if (!Op || Op->Index >= CR.Call->getNumArgs())
    return;
  std::vector<PathValue> Types;
  if (Type && Type->Index < CR.Call->getNumArgs())
    Types = pathValues(C, CR, CR.expr(*Type));
  if (Types.empty())
    Types.push_back({SymValue{}, ""});
  bool Accumulate = CR.Model->Cat == Category::OneSided;
  for (const PathValue &O : pathValues(C, CR, CR.expr(*Op)))
    for (const PathValue &T : Types) {
      if (O.Value.K != SymValue::Handle)
        continue;
      std::string Why = opDatatypeError(O.Value.Name, T.Value.K == SymValue::Handle ? T.Value.Name : "", Accumulate);
      if (Why.empty())
        continue;
      bool Typed = O.Value.Name != mpi::MPI_REPLACE && O.Value.Name != mpi::MPI_NO_OP;
      std::string With = Typed && T.Value.K == SymValue::Handle && Type
                             ? llvm::formatv(" with {0} '{1}'{2}", Type->Name, Type->Text, T.Where).str()
                             : "";
      C.report("invalid-argument", CR.expr(*Op)->getBeginLoc(),
               llvm::formatv("{0} {1} '{2}'{3}{4}: {5}", CR.Function, Op->Name, Op->Text, O.Where, With, Why).str());
      return;
    }
}

/// The elements of one side of a collective: count x the predefined type
/// (a variable of known shape counts its base elements), when static.
std::optional<std::pair<int64_t, std::string>> sideSignature(CheckContext &C, const CallResult &CR, Role Count,
                                                             Role Type) {
  const ArgResult *N = CR.arg(Count), *T = CR.arg(Type);
  if (!N || !N->Int || !T || T->Index >= CR.Call->getNumArgs())
    return std::nullopt;
  std::optional<CheckContext::DatatypeInfo> D = C.datatype(CR.expr(*T));
  if (!D || D->Base.empty() || isUntypedDatatype(D->Base))
    return std::nullopt;
  int64_t PerItem = D->Shape ? D->Shape->elements() : 1;
  return std::make_pair(*N->Int * PerItem, D->Base);
}

/// A collective whose every process sends and receives one block
/// (MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoall and their forms)
/// with a send side and a receive side of the same predefined type but a
/// different number of elements: the standard requires the two type
/// signatures to be equal. Rooted forms are checked where every rank makes
/// the call (the root's send side meets its own receive side).
void checkCollectiveSignature(CheckContext &C, const CallResult &CR, bool SendInPlace, bool RecvInPlace) {
  if (!CR.Model->isCollective() || SendInPlace || RecvInPlace || !CR.arg(Role::SendCount) || !CR.arg(Role::RecvCount) ||
      CR.arg(Role::SendCounts) || CR.arg(Role::RecvCounts))
    return;
  if (CR.arg(Role::Root) && C.Uni.at(CR.Call, CR.Caller))
    return;
  auto S = sideSignature(C, CR, Role::SendCount, Role::SendType);
  auto R = sideSignature(C, CR, Role::RecvCount, Role::RecvType);
  if (!S || !R || S->second != R->second || S->first == R->first)
    return;
  const ArgResult *SC = CR.arg(Role::SendCount), *RC = CR.arg(Role::RecvCount);
  C.report("invalid-argument", CR.expr(*RC)->getBeginLoc(),
           llvm::formatv("{0} sends {1} x {2} per process ({3} '{4}' of '{5}') but receives {6} ({7} '{8}' of '{9}'): "
                         "a collective's send and receive type signatures must be equal",
                         CR.Function, S->first, S->second, SC->Name, SC->Text, CR.arg(Role::SendType)->Text, R->first,
                         RC->Name, RC->Text, CR.arg(Role::RecvType)->Text)
               .str());
}

/// A receive side whose datatype, of known shape, writes some byte twice
/// for the call's count (or, one chunk per process, from some number of
/// processes on: a column resized to one double whose chunks wrap onto
/// each other): the standard makes such a receive erroneous.
void checkOverlappingReceive(CheckContext &C, const CallResult &CR, bool RecvInPlace) {
  Role CountR = Role::RecvCount, TypeR = Role::RecvType, BufR = Role::RecvBuf;
  if (!CR.arg(Role::RecvType)) {
    CountR = Role::Count, TypeR = Role::Type;
    BufR = CR.arg(Role::RecvBuf) ? Role::RecvBuf : Role::Buf;
  }
  const ArgResult *N = CR.arg(CountR), *T = CR.arg(TypeR);
  if (RecvInPlace || !CR.arg(BufR) || !N || !N->Int || *N->Int < 1 || !T || T->Index >= CR.Call->getNumArgs() ||
      CR.arg(Role::Op))
    return;
  std::optional<CheckContext::DatatypeInfo> D = C.datatype(CR.expr(*T));
  if (!D || !D->Shape)
    return;
  bool PerProcess = blockPerProcess(CR.Function, BufR);
  std::string From;
  if (!D->Shape->mayOverlap(*N->Int)) {
    if (!PerProcess)
      return;
    int P = 2;
    while (P <= 1024 && !D->Shape->mayOverlap(*N->Int * P))
      ++P;
    if (P > 1024)
      return;
    From = llvm::formatv("on {0} processes or more, ", P).str();
  }
  C.report("invalid-argument", CR.expr(*T)->getBeginLoc(),
           llvm::formatv("{0} receives {1} x '{2}'{3}: {4}its elements write some bytes twice ({5}, extent {6} "
                         "bytes), and the entries of a receive datatype must not overlap",
                         CR.Function, *N->Int, T->Text, PerProcess ? " per process" : "", From, D->Shape->Built,
                         D->Shape->ExtentBytes)
               .str());
}

/// MPI_Win_create exposing an automatic variable of a function other than
/// main while the window goes out of it (stored through a pointer
/// parameter, in a global): the memory dies when the function returns, the
/// window lives until MPI_Win_free.
void checkWindowLifetime(CheckContext &C, const CallResult &CR) {
  const ArgResult *Base = CR.arg(Role::WinBase), *Win = CR.arg(Role::WinOut);
  if (CR.Function != mpi::MPI_Win_create || !Base || !Win || CR.Caller->isMain() || Win->Index >= CR.Call->getNumArgs())
    return;
  SymValue B = C.Ev.evaluate(CR.expr(*Base), CR.Caller, CR.Call);
  const VarDecl *Mem = B.K == SymValue::Address ? B.Obj : nullptr;
  if (!Mem || !Mem->hasLocalStorage() || isa<ParmVarDecl>(Mem))
    return;
  const Expr *W = CR.expr(*Win)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(W); U && U->getOpcode() == UO_AddrOf)
    if (const VarDecl *V = rootVar(U->getSubExpr()); V && V->hasLocalStorage())
      return; // a local window: its lifecycle is the handle checks'
  bool Freed = anyNode(CR.Caller->getBody(), [&](const Stmt *N) {
    const auto *CE = dyn_cast<CallExpr>(N);
    const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
    const HandleCallModel *H = F && F->getIdentifier() ? lookupHandleCall(F->getName()) : nullptr;
    const Expr *Freed = H && H->Kind == HandleCallModel::Free ? argAt(CE, H->Out) : nullptr;
    return Freed && unsigned(H->Out) < F->getNumParams() &&
           handleClassOf(F->getParamDecl(unsigned(H->Out))->getType()->getPointeeType().getAsString()) ==
               HandleClass::Win &&
           C.Ev.text(Freed) == C.Ev.text(CR.expr(*Win));
  });
  if (Freed)
    return; // freed before the function returns
  C.report("invalid-argument", CR.expr(*Base)->getBeginLoc(),
           llvm::formatv("MPI_Win_create exposes '{0}', a local variable of {1}, but the window goes out of {1} "
                         "through '{2}': the memory is gone when {1} returns, and a window's memory must stay valid "
                         "until MPI_Win_free",
                         Mem->getName(), CR.Caller->getName(), Win->Text)
               .str());
}

/// The uses of uninitialised local variables in F (clang's own analysis,
/// the one behind -Wuninitialized and -Wsometimes-uninitialized): each use,
/// whether it is uninitialised on every path, and a branch that skips the
/// initialisation.
struct UninitUses : clang::UninitVariablesHandler {
  struct Use {
    bool Always = false;
    const Stmt *Branch = nullptr;
  };
  std::map<const Expr *, Use> At;
  void handleUseOfUninitVariable(const VarDecl *, const UninitUse &U) override {
    UninitUse::Kind K = U.getKind();
    if (K != UninitUse::Always && K != UninitUse::Sometimes && K != UninitUse::AfterDecl)
      return;
    Use &Mine = At[U.getUser()];
    Mine.Always = K == UninitUse::Always;
    if (!U.branch_empty())
      Mine.Branch = U.branch_begin()->Terminator;
  }
};

using UninitCache = std::map<const FunctionDecl *, std::unique_ptr<UninitUses>>;

const UninitUses &uninitUses(UninitCache &Cache, const FunctionDecl *F) {
  std::unique_ptr<UninitUses> &Out = Cache[F];
  if (Out)
    return *Out;
  Out = std::make_unique<UninitUses>();
  AnalysisDeclContext AC(nullptr, F);
  AC.getCFGBuildOptions().setAllAlwaysAdd();
  if (const CFG *G = AC.getCFG()) {
    UninitVariablesAnalysisStats Stats;
    runUninitializedVariablesAnalysis(*F, *G, AC, *Out, Stats);
  }
  return *Out;
}

/// An argument read by value from a local variable that no path (or not
/// every path) sets before the call.
void checkUninitialised(CheckContext &C, UninitCache &Cache, const CallResult &CR) {
  const UninitUses &U = uninitUses(Cache, CR.Caller);
  if (U.At.empty())
    return;
  for (const ArgResult &A : CR.Args) {
    if (A.Index >= CR.Call->getNumArgs())
      continue;
    auto It = U.At.find(CR.expr(A)->IgnoreParenImpCasts());
    if (It == U.At.end())
      continue;
    // A branch on the rank that skips the assignment: the ranks the program
    // is written for may all take the other way (if rank == 0 ... else if
    // rank == 1 ... in a program for two processes).
    const auto *If = dyn_cast_or_null<IfStmt>(It->second.Branch);
    if (!It->second.Always && (!If || C.Uni.varies(If->getCond(), CR.Caller)))
      continue;
    std::string How =
        It->second.Always ? "is never set before the call"
        : It->second.Branch
            ? llvm::formatv("is not set on every path to the call (the branch at line {0} can skip "
                            "its assignment)",
                            C.Ctx.getSourceManager().getExpansionLineNumber(It->second.Branch->getBeginLoc()))
                  .str()
            : "is not set on every path to the call";
    C.report("invalid-argument", CR.expr(A)->getBeginLoc(),
             llvm::formatv("{0} {1} '{2}' {3}: the call reads an indeterminate value", CR.Function, A.Name, A.Text, How)
                 .str());
  }
}

/// Whether the call's buffer of role R is MPI_IN_PLACE (the count and
/// datatype of that side are then not read: MPI_Scatter's receive side at
/// the root, the send side elsewhere).
bool inPlace(CheckContext &C, const CallResult &CR, Role R) {
  const ArgResult *B = CR.arg(R);
  auto H = B ? C.Ev.spelledHandle(CR.expr(*B)) : std::nullopt;
  return H && isInPlaceBuffer(*H);
}

} // namespace

/// MPI_Comm_split's colour: non-negative or MPI_UNDEFINED (-32766 in
/// MPICH and Open MPI), along any path.
void checkSplitColour(CheckContext &C, const CallResult &CR, const HandleCallModel &M) {
  const Expr *Colour = CR.Call->getArg(M.Colour);
  if (auto H = C.Ev.spelledHandle(Colour); H && *H == mpi::MPI_UNDEFINED)
    return;
  for (const PathValue &V : pathValues(C, CR, Colour))
    if (V.Value.K == SymValue::Int && V.Value.I < 0 && V.Value.I != -32766) {
      C.report("invalid-argument", Colour->getBeginLoc(),
               llvm::formatv("MPI_Comm_split color '{0}' is negative ({1}){2}: a colour must be "
                             "non-negative or MPI_UNDEFINED",
                             C.Ev.text(Colour), V.Value.I, V.Where)
                   .str());
      return;
    }
}

/// MPI_Cart_create: a negative ndims, or a negative entry of dims (along
/// the paths the array's stores take).
void checkCartCreate(CheckContext &C, const CallResult &CR, const HandleCallModel &M) {
  const Expr *N = CR.Call->getArg(M.Count), *Dims = CR.Call->getArg(M.Dims);
  SymValue NV = C.Ev.evaluate(N, CR.Caller, CR.Call);
  if (NV.K == SymValue::Int && NV.I < 0) {
    C.report("invalid-argument", N->getBeginLoc(),
             llvm::formatv("MPI_Cart_create ndims is negative ({0}): the standard requires a non-negative number "
                           "of dimensions",
                           NV.I)
                 .str());
    return;
  }
  size_t Read = NV.K == SymValue::Int ? size_t(NV.I) : SIZE_MAX;
  const VarDecl *V = namedVar(Dims);
  auto Paths = V ? arrayValuesAt(C.Ev, CR.Caller, CR.Call, {V}) : std::nullopt;
  for (const ArrayPath &P : Paths ? *Paths : std::vector<ArrayPath>()) {
    std::string Where = Paths->size() > 1 ? " on the path where " + llvm::join(P.Conds, " and ") : "";
    for (size_t K = 0; K < P.Arrays[0].size() && K < Read; ++K)
      if (P.Arrays[0][K].K == ArrayElem::Int && P.Arrays[0][K].I < 0) {
        C.report("invalid-argument", Dims->getBeginLoc(),
                 llvm::formatv("MPI_Cart_create dims[{0}] is negative ({1}){2}: the size of every dimension must "
                               "be non-negative",
                               K, P.Arrays[0][K].I, Where)
                     .str());
        return;
      }
  }
}

/// A Cartesian query on a predefined communicator, which has no topology.
void checkCartQuery(CheckContext &C, const CallResult &CR, const Expr *Comm) {
  CommId Id = C.Ev.commId(Comm, CR.Caller, CR.Call);
  if (Id.K == CommId::Predefined && Id.Key == mpi::MPI_COMM_NULL && !CR.Model) { // the model's calls: ArgChecker's
    C.report(
        "invalid-argument", Comm->getBeginLoc(),
        llvm::formatv("{0} comm '{1}' is MPI_COMM_NULL: a valid communicator is required", CR.Function, C.Ev.text(Comm))
            .str());
    return;
  }
  if (Id.K != CommId::Predefined || (Id.Key != mpi::MPI_COMM_WORLD && Id.Key != mpi::MPI_COMM_SELF))
    return;
  C.report("invalid-argument", Comm->getBeginLoc(),
           llvm::formatv("{0} comm '{1}' is {2}, which has no Cartesian topology: {0} needs a communicator that "
                         "MPI_Cart_create (or MPI_Cart_sub) made",
                         CR.Function, C.Ev.text(Comm), Id.Key)
               .str());
}

/// The communicator and topology calls the call model leaves out.
void checkCommunicatorCalls(CheckContext &C, const CallResult &CR) {
  const HandleCallModel *M = lookupHandleCall(CR.Function);
  auto has = [&](int I) { return argAt(CR.Call, I) != nullptr; };
  if (M && M->Kind == HandleCallModel::Split && has(M->Out) && has(M->Colour))
    checkSplitColour(C, CR, *M);
  else if (M && M->Kind == HandleCallModel::CartCreate && has(M->Out) && has(M->Dims))
    checkCartCreate(C, CR, *M);
  else if (needsCartesianTopology(CR.Function)) {
    const ArgResult *A = CR.arg(Role::Comm);
    if (const Expr *Comm = A ? CR.expr(*A) : M ? argAt(CR.Call, M->Parent) : nullptr)
      checkCartQuery(C, CR, Comm);
  }
}

void checkInvalidArguments(CheckContext &C) {
  UninitCache Uninit; // per function, for this file only
  for (const CallResult &CR : C.Analysis.Calls) {
    if (!CR.Call || !CR.Caller)
      continue;
    checkUninitialised(C, Uninit, CR);
    if (const TypeConstructorModel *T = lookupTypeConstructor(CR.Function)) {
      checkConstructor(C, CR, *T);
      continue;
    }
    if (const HandleCallModel *H = lookupHandleCall(CR.Function); H && H->Kind == HandleCallModel::Struct) {
      checkStructConstructor(C, CR, *H);
      continue;
    }
    checkCommunicatorCalls(C, CR);
    if (!CR.Model)
      continue;
    bool SendInPlace = inPlace(C, CR, Role::SendBuf), RecvInPlace = inPlace(C, CR, Role::RecvBuf);
    // MPI_Get_accumulate / MPI_Fetch_and_op with MPI_NO_OP ignore the origin.
    const ArgResult *Op = CR.arg(Role::Op);
    auto OpName = Op && CR.Model->Cat == Category::OneSided ? C.Ev.spelledHandle(CR.expr(*Op)) : std::nullopt;
    bool NoOrigin = OpName && *OpName == mpi::MPI_NO_OP;
    std::optional<bool> EveryRank;
    ArgChecker Check(C, CR);
    for (const ArgResult &A : CR.Args) {
      if (A.Index >= CR.Call->getNumArgs() || (SendInPlace && (A.R == Role::SendCount || A.R == Role::SendType)) ||
          (RecvInPlace && (A.R == Role::RecvCount || A.R == Role::RecvType)) ||
          (NoOrigin && (A.R == Role::SendBuf || A.R == Role::SendCount || A.R == Role::SendType ||
                        (A.R == Role::Type && !CR.arg(Role::Count)))))
        continue;
      if (significantOnlyAtRoot(CR.Function, A.R)) {
        if (!EveryRank)
          EveryRank = !C.Uni.at(CR.Call, CR.Caller);
        if (!*EveryRank)
          continue;
      }
      Check.run(A);
    }
    checkOpDatatype(C, CR);
    checkCollectiveSignature(C, CR, SendInPlace, RecvInPlace);
    checkOverlappingReceive(C, CR, RecvInPlace);
    checkWindowLifetime(C, CR);
  }
}

} // namespace ompi
