//===- TemplatePlan.cpp - Which calls a specialised template replaces -----===//
#include "analysis/TemplatePlan.h"
#include "analysis/DerivedTypes.h"
#include "analysis/WaitPairing.h"
#include "mpi/CallModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "datatype-templates";

/// One side of a call: the roles of its datatype and count.
struct Side {
  Role Type, Count;
};

/// A call the templates cover: its template, its sides, what follows the
/// shapes (the send mode), the profile's family that measured it, and
/// whether it is a collective or a nonblocking call (both always the _nd
/// form, with compiled shapes only; a nonblocking call also takes the
/// pending state of its request variable).
struct Family {
  llvm::StringRef Name, To;
  std::vector<Side> Sides;
  llvm::StringRef Tail;
  llvm::StringRef Measured = "vector";
  bool Collective = false, Nonblocking = false;
  bool ndOnly() const { return Collective || Nonblocking; }
  /// The profile's family that measured its _ix form on run lists: the
  /// point-to-point calls' "indexed", a collective's own ("gather_indexed").
  std::string runListFamily() const { return Collective ? Measured.str() + "_indexed" : "indexed"; }
};

const Family *familyOf(llvm::StringRef Name) {
  static const Family Families[] = {
      {mpi::MPI_Send, "mpiopt_send_dtype", {{Role::Type, Role::Count}}, ", 0"},
      {mpi::MPI_Ssend, "mpiopt_send_dtype", {{Role::Type, Role::Count}}, ", 1"},
      {mpi::MPI_Recv, "mpiopt_recv_dtype", {{Role::Type, Role::Count}}, ""},
      {mpi::MPI_Sendrecv,
       "mpiopt_sendrecv_dtype",
       {{Role::SendType, Role::SendCount}, {Role::RecvType, Role::RecvCount}},
       ""},
      {mpi::MPI_Isend, "mpiopt_isend_dtype", {{Role::Type, Role::Count}}, ", 0", "vector", false, true},
      {mpi::MPI_Issend, "mpiopt_isend_dtype", {{Role::Type, Role::Count}}, ", 1", "vector", false, true},
      {mpi::MPI_Irecv, "mpiopt_irecv_dtype", {{Role::Type, Role::Count}}, "", "vector", false, true},
      {mpi::MPI_Bcast, "mpiopt_bcast_dtype", {{Role::Type, Role::Count}}, "", "bcast", true},
      {mpi::MPI_Gather,
       "mpiopt_gather_dtype",
       {{Role::SendType, Role::SendCount}, {Role::RecvType, Role::RecvCount}},
       "",
       "gather",
       true},
      {mpi::MPI_Scatter,
       "mpiopt_scatter_dtype",
       {{Role::SendType, Role::SendCount}, {Role::RecvType, Role::RecvCount}},
       "",
       "scatter",
       true},
      {mpi::MPI_Alltoall,
       "mpiopt_alltoall_dtype",
       {{Role::SendType, Role::SendCount}, {Role::RecvType, Role::RecvCount}},
       "",
       "alltoall",
       true},
  };
  for (const Family &F : Families)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

/// A side's shape arguments: the short form, or with Nd the offset and the
/// outer level first.
std::string shapeArgs(const TypeShape *S, bool Nd) {
  std::string Outer = !Nd ? ""
                      : S ? llvm::formatv(", {0}, {1}, {2}", S->OffsetBytes, S->NOuter, S->OuterStrideBytes).str()
                          : ", 0, 1, 0";
  if (!S)
    return Outer + ", 0, 0, 0, 0, MPI_BYTE, 1"; // a side left as written
  return Outer + llvm::formatv(", {0}, {1}, {2}, {3}, {4}, {5}", S->NBlocks, S->BlockLength, S->StrideBytes,
                               S->ExtentBytes, S->Base, S->ElemBytes)
                     .str();
}

/// The decision for one side: the shape to compile, or the variable whose
/// shape is recorded at run time, or why not (Why), or nothing to say (a
/// predefined datatype).
struct SideDecision {
  const TypeShape *Shape = nullptr;
  const DatatypeVar *Runtime = nullptr;
  std::vector<uint32_t> Masks; ///< with Runtime: the profile's winning sizes per run class
  std::string Var, Why, Figure;
};

/// The run lengths the run-time templates tell apart (templates/mpiopt/
/// dtype.h, mpiopt_dtype_rt_elements): a mask for runs of up to 8 bytes,
/// one for 9 to 64, one for 65 to 512; longer runs take the generic call.
constexpr int64_t RunClasses[] = {8, 64, 512};

/// The sizes the profile measured the template winning at for runs of RunLo
/// to RunHi bytes: bit k for messages of (2^(k-1), 2^k] bytes, bit 31 for
/// all above 2^30 (as mpiopt_dtype_wins reads it); each size class takes
/// the profile's point for its largest size.
uint32_t sizeMask(const MachineProfile &P, llvm::StringRef Family, int64_t RunLo, int64_t RunHi) {
  uint32_t Mask = 0;
  for (unsigned K = 0; K < 32; ++K) {
    std::optional<TemplatePoint> T = P.templateFor(Family, int64_t(1) << (K < 31 ? K : 40), RunLo, RunHi);
    if (T && T->wins())
      Mask |= uint32_t(1) << K;
  }
  return Mask;
}

/// The masks of the run classes, from the profile's Family ("vector", or a
/// collective's).
std::vector<uint32_t> classMasks(const MachineProfile &P, llvm::StringRef Family) {
  std::vector<uint32_t> Masks;
  int64_t Lo = 1;
  for (int64_t Hi : RunClasses) {
    Masks.push_back(sizeMask(P, Family, Lo, Hi));
    Lo = Hi + 1;
  }
  return Masks;
}

/// The mask as words: "up to 2048 bytes and from 4097 to 262144 bytes".
std::string maskText(uint32_t Mask) {
  std::vector<std::string> Ranges;
  for (unsigned K = 0; K < 32;) {
    if (!(Mask >> K & 1)) {
      ++K;
      continue;
    }
    unsigned E = K;
    while (E + 1 < 32 && (Mask >> (E + 1) & 1))
      ++E;
    int64_t Lo = K ? (int64_t(1) << (K - 1)) + 1 : 0;
    std::string Hi = E == 31 ? "" : std::to_string(int64_t(1) << E);
    Ranges.push_back(!Lo && !Hi.empty() ? "up to " + Hi + " bytes"
                     : Hi.empty()       ? "from " + std::to_string(Lo) + " bytes on"
                                        : "from " + std::to_string(Lo) + " to " + Hi + " bytes");
    K = E + 1;
  }
  return llvm::join(Ranges, " and ");
}

/// The class masks as words: "runs of up to 8 bytes, messages up to 4096
/// bytes; runs of 9 to 64 bytes, messages up to 2048 bytes".
std::string masksText(const std::vector<uint32_t> &Masks) {
  std::vector<std::string> Parts;
  int64_t Lo = 1;
  for (size_t I = 0; I < Masks.size(); ++I) {
    if (Masks[I])
      Parts.push_back(llvm::formatv("runs of {0} bytes, messages {1}",
                                    Lo == 1 ? "up to " + std::to_string(RunClasses[I])
                                            : std::to_string(Lo) + " to " + std::to_string(RunClasses[I]),
                                    maskText(Masks[I]))
                          .str());
    Lo = RunClasses[I] + 1;
  }
  return llvm::join(Parts, "; ");
}

/// Whether a construction builds (h)indexed blocks (the MPI model's kind).
bool isIndexedBlock(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  const TypeConstructorModel *M = F ? lookupTypeConstructor(F->getName()) : nullptr;
  return M && (M->Kind == TypeConstructorModel::IndexedBlock || M->Kind == TypeConstructorModel::HIndexedBlock);
}

/// A side whose datatype's constructions are recorded at run time.
/// Indexed blocks may be recorded as a strided shape or as a run list, so
/// their masks allow only the sizes where both the strided family and the
/// run lists' family measured the template winning.
SideDecision decideRuntime(SideDecision D, const DatatypeVar &V, const Family &F, const MachineProfile *Profile) {
  bool Indexed = llvm::any_of(V.Constructions, isIndexedBlock);
  std::vector<uint32_t> Masks = Profile ? classMasks(*Profile, F.Measured) : std::vector<uint32_t>();
  if (Profile && Indexed) {
    std::vector<uint32_t> Runs = classMasks(*Profile, F.runListFamily());
    for (size_t I = 0; I < Masks.size(); ++I)
      Masks[I] &= Runs[I];
  }
  std::string Measured = F.Collective || Indexed ? " (templates." + F.Measured.str() +
                                                       (Indexed ? " and templates." + F.runListFamily() : "") + ")"
                                                 : "";
  bool Any = std::any_of(Masks.begin(), Masks.end(), [](uint32_t M) { return M != 0; });
  if (!Profile)
    D.Why += "; its shape could be recorded at run time, but no machine profile is loaded";
  else if (!Any)
    D.Why += llvm::formatv("; its shape could be recorded at run time, but the machine profile {0}{1} measured the "
                           "template winning at no size",
                           Profile->Path, Measured)
                 .str();
  if (!Any)
    return D;
  D.Runtime = &V;
  D.Masks = Masks;
  D.Figure = llvm::formatv("the shape of {0} is known only at run time ({1}), and every construction of it can be "
                           "recorded (a contiguous, vector, hvector, subarray, indexed-block or resized type of a "
                           "predefined type, or a contiguous, vector, hvector or resized type of another such "
                           "variable), so a wrapper records the shape it builds in mpiopt_shape_{0}; the machine "
                           "profile {2}{3} measured the template faster for {4} (other "
                           "runs: at no size); the size and the run length are checked at run time{5}",
                           D.Var, V.Why, Profile->Path, Measured, masksText(Masks),
                           Indexed ? "; indexed blocks are recorded as a strided shape where their displacements "
                                     "turn out evenly spaced, or as a run list of up to 32 blocks (more: the generic "
                                     "call; nonblocking calls take the generic call for a run list)"
                                   : "")
                 .str();
  D.Why.clear();
  return D;
}

SideDecision decide(const CallResult &C, const Family &F, const Side &S, const DerivedTypes &DT,
                    const MachineProfile *Profile) {
  SideDecision D;
  const Expr *E = C.expr(S.Type);
  const DatatypeVar *V = E ? DT.of(E) : nullptr;
  if (!V)
    return D;
  D.Var = V->Name;
  if (!V->Shape) {
    D.Why = "the datatype " + D.Var + " has no shape known here: " + V->Why;
    if (!V->runtime() && !V->RuntimeWhy.empty() && V->RuntimeWhy != V->Why)
      D.Why += "; nor can a wrapper record it at run time: " + V->RuntimeWhy;
    return V->runtime() ? decideRuntime(D, *V, F, Profile) : D;
  }
  const ArgResult *Count = C.arg(S.Count);
  std::optional<int64_t> Bytes;
  if (Count && Count->Int)
    Bytes = *Count->Int * V->Shape->sizeBytes();
  std::string Size = Bytes ? llvm::formatv("{0} bytes", *Bytes).str() : "a size known only at run time";
  // The contiguous runs: a block, or the whole message of a shape without holes.
  int64_t Run = V->Shape->dense() && Bytes ? *Bytes : V->Shape->BlockLength * V->Shape->ElemBytes;
  std::string Family = V->Shape->runList() ? F.runListFamily() : F.Measured.str();
  std::optional<TemplatePoint> P = Profile ? Profile->templateFor(Family, Bytes, Run) : std::nullopt;
  std::string Measured = F.Collective || Family != F.Measured ? " (templates." + Family + ")" : "";
  if (!Profile)
    D.Why = D.Var + " = " + V->Shape->Built + " could be packed by a compiled loop, but no machine profile is loaded";
  else if (!P && Profile->longestBlock(Family) && Profile->longestBlock(Family) < Run)
    D.Why = llvm::formatv("the blocks of {0} are {1} bytes long, and the machine profile {2}{3} measured blocks of "
                          "up to {4} bytes (a datatype engine copies long blocks without the template's extra copies)",
                          D.Var, Run, Profile->Path, Measured, Profile->longestBlock(Family));
  else if (!P)
    D.Why = llvm::formatv("the machine profile {0} has no measurement of templates.{1} for {2} in {3}-byte blocks",
                          Profile->Path, Family, Size, Run);
  else if (!P->wins())
    D.Why = llvm::formatv("the machine profile {0}{1} measured the template at {2:f2} us against {3:f2} us for the "
                          "generic call at {4} bytes in {5}-byte blocks (the message: {6} in {7}-byte blocks; a "
                          "template must be 5% faster)",
                          Profile->Path, Measured, P->TemplateUs, P->GenericUs, P->Bytes, P->Block, Size, Run);
  if (!D.Why.empty())
    return D;
  D.Shape = &*V->Shape;
  D.Figure = llvm::formatv("every construction of {0} (first at line {1}) builds {2} and nothing else writes it; "
                           "the machine profile {3}{4} measured {5:f2} us for the template against {6:f2} us for the "
                           "generic call at {7} bytes in {8}-byte blocks (the message: {9} in {10}-byte blocks)",
                           D.Var, V->BuiltLine, V->Shape->Built, Profile->Path, Measured, P->TemplateUs, P->GenericUs,
                           P->Bytes, P->Block, Size, Run);
  return D;
}

/// The distinct non-empty Part(D) of the sides, in order, joined by Sep.
template <typename F> std::string joined(const std::vector<SideDecision> &Sides, F Part, llvm::StringRef Sep) {
  std::vector<std::string> Seen;
  std::string Out;
  for (const SideDecision &D : Sides) {
    std::string P = Part(D);
    if (P.empty() || std::find(Seen.begin(), Seen.end(), P) != Seen.end())
      continue;
    Out += (Out.empty() ? "" : Sep.str()) + P;
    Seen.push_back(P);
  }
  return Out;
}

bool isRunList(const SideDecision &D) { return D.Shape && D.Shape->runList(); }

/// The call with a run list on a side: the _ix form, each run list with its
/// table (Tables: the sides' names, "" for none), a side of strided shape
/// passing as written.
void runListCall(TemplatedCall &T, const Family &F, std::vector<SideDecision> &Sides,
                 const std::vector<std::string> &Tables) {
  T.To = F.To.str() + "_ix";
  for (size_t I = 0; I < Sides.size(); ++I) {
    SideDecision &D = Sides[I];
    if (D.Shape && !D.Shape->runList()) {
      D.Shape = nullptr;
      D.Why = "the datatype " + D.Var + " passes as written (the call's other side is a run list)";
    }
    const TypeShape *S = D.Shape;
    T.Append += S ? llvm::formatv(", {0}, {1}, {2}, {3}, {4}, {5}", Tables[I], S->NBlocks, S->BlockLength,
                                  S->ExtentBytes, S->Base, S->ElemBytes)
                        .str()
                  : ", (const MPI_Aint *)0, 0, 0, 0, MPI_BYTE, 1";
  }
  T.Append += F.Tail.str();
}

/// The call with compiled shapes: the short form, or _nd where a shape has
/// two levels or an offset (and always for collectives and nonblocking
/// calls, whose pending state goes first, where pairGroup puts it), or _ix
/// with run lists.
void compiledCall(TemplatedCall &T, const Family &F, std::vector<SideDecision> &Sides,
                  const std::vector<std::string> &Tables) {
  if (llvm::any_of(Sides, isRunList))
    return runListCall(T, F, Sides, Tables);
  bool Nd = F.ndOnly() || std::any_of(Sides.begin(), Sides.end(),
                                      [](const SideDecision &D) { return D.Shape && !D.Shape->simple(); });
  T.To = F.To.str() + (Nd ? "_nd" : "");
  for (const SideDecision &D : Sides)
    T.Append += shapeArgs(D.Shape, Nd);
  T.Append += F.Tail.str();
}

/// The table of the run list of V's side in C's function: one name per
/// function and variable (Names), or why it cannot be declared.
std::string runTable(const CallResult &C, const DatatypeVar &V, RunTable &Table,
                     std::map<std::pair<const CompoundStmt *, const VarDecl *>, std::string> &Names) {
  const auto *Body = C.Caller ? dyn_cast_or_null<CompoundStmt>(C.Caller->getBody()) : nullptr;
  if (!Body || Body->getLBracLoc().isMacroID())
    return "the table of " + V.Name +
           "'s run list is declared at the start of the calling function, whose body "
           "is not written out here";
  std::string &Name = Names[{Body, V.Decl}];
  if (Name.empty()) {
    Name = "mpiopt_displs_" + V.Name;
    for (int N = 2; llvm::any_of(
             Names,
             [&](const auto &E) { return E.first.first == Body && E.first.second != V.Decl && E.second == Name; });
         ++N)
      Name = "mpiopt_displs_" + V.Name + "_" + std::to_string(N);
  }
  Table = RunTable{Body, Name, V.Name, V.Shape->DisplsBytes};
  return "";
}

/// V's shadow, and those of the variables its constructions build from
/// (their wrappers read them), once each.
void addShadows(const DatatypeVar &V, const DerivedTypes &DT, std::vector<ShadowVar> &Shadows) {
  if (llvm::any_of(Shadows, [&](const ShadowVar &S) { return S.Decl == V.Decl; }))
    return;
  ShadowVar S{V.Decl, V.Name, V.Constructions, {}};
  for (const VarDecl *Old : V.RuntimeOlds)
    S.Olds.push_back(Old ? Old->getNameAsString() : "");
  Shadows.push_back(std::move(S));
  for (const VarDecl *Old : V.RuntimeOlds)
    if (const DatatypeVar *W = Old ? DT.var(Old) : nullptr)
      addShadows(*W, DT, Shadows);
}

/// The call with a shape recorded at run time on a side: the _rt form, the
/// shadows' addresses (a side of compiled shape passes as written), the
/// profile's size mask.
void runtimeCall(TemplatedCall &T, const Family &F, std::vector<SideDecision> &Sides, const DerivedTypes &DT,
                 std::vector<ShadowVar> &Shadows) {
  T.To = F.To.str() + "_rt";
  std::vector<uint32_t> Masks;
  for (SideDecision &D : Sides) {
    if (D.Runtime && Masks.empty())
      Masks = D.Masks;
    else if (D.Runtime) // one set for the call: the sizes every side's allows
      for (size_t I = 0; I < Masks.size() && I < D.Masks.size(); ++I)
        Masks[I] &= D.Masks[I];
    if (D.Shape) {
      D.Shape = nullptr;
      D.Why = "the datatype " + D.Var + " passes as written (the call's other side is recorded at run time)";
    }
    T.Append += D.Runtime ? ", &mpiopt_shape_" + D.Var : std::string(", (struct mpiopt_dshape *)0");
    if (D.Runtime)
      addShadows(*D.Runtime, DT, Shadows);
  }
  for (uint32_t M : Masks)
    T.Append += llvm::formatv(", 0x{0:X-}UL", M).str();
  T.Append += F.Tail.str();
}

ChangeNote note(const CallResult &C, bool Applied, std::string What, std::string Why) {
  return ChangeNote::at(Transform, Applied, C.File, C.Line, C.Column, std::move(What), std::move(Why));
}

/// The nonblocking calls a template would start on one request variable
/// (or one element of an array of requests: Index >= 0).
struct StartGroup {
  const VarDecl *Req = nullptr;
  int Index = -1;
  const FunctionDecl *Caller = nullptr;
  std::vector<std::pair<const CallResult *, TemplatedCall>> Starts;
};

/// Whether a pending state can be declared after Req's declaration: a
/// statement of a block (not a for loop's first clause).
bool declarable(ASTContext &Ctx, const VarDecl *Req) {
  const Stmt *DS = parentStmt(Ctx, DynTypedNode::create(*Req));
  return isa_and_nonnull<DeclStmt>(DS) && isa_and_nonnull<CompoundStmt>(parentStmt(Ctx, DS)) &&
         !Req->getBeginLoc().isMacroID() && !Req->getEndLoc().isMacroID();
}

/// The request (element) a nonblocking call starts: a scalar given as &r,
/// or an element of a local array named by a constant index.
std::pair<const VarDecl *, int> startedRequest(ASTContext &Ctx, const CallResult &C) {
  const Expr *E = C.expr(Role::Request);
  if (const VarDecl *V = requestVariable(E))
    return {V, -1};
  return requestSlot(Ctx, E);
}

/// A completion of G's request through its template (mpiopt_wait_dtype,
/// mpiopt_test_dtype) with the element's pending state, or, for a call on
/// a run of the array (mpiopt_waitall_dtype, mpiopt_testall_dtype,
/// mpiopt_waitany_dtype, ...), with the array's from the first element it
/// covers.
TemplatedCall waitCall(ASTContext &Ctx, const StartGroup &G, const CallExpr *CE) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = G.Req->getNameAsString(), Pend = "mpiopt_pend_" + Name;
  std::string Call = CE->getDirectCallee() ? CE->getDirectCallee()->getName().str() : mpi::MPI_Wait.str();
  bool Single = Call == mpi::MPI_Wait || Call == mpi::MPI_Test;
  TemplatedCall T;
  T.Callee = SM.getExpansionLoc(CE->getCallee()->getBeginLoc());
  T.RParen = CE->getRParenLoc();
  T.To = "mpiopt_" + llvm::StringRef(Call).drop_front(4).lower() + "_dtype";
  if (!Single) {
    T.Append = ", " + Pend + " + " + std::to_string(requestSlot(Ctx, argOf(CE, Role::Requests)).second);
  } else {
    int K = G.Index < 0 ? -1 : requestSlot(Ctx, argOf(CE, Role::Request)).second;
    T.Append = ", &" + Pend + (K < 0 ? "" : "[" + std::to_string(K) + "]");
  }
  PresumedLoc L = SM.getPresumedLoc(SM.getExpansionLoc(CE->getBeginLoc()));
  T.Note = ChangeNote::at(Transform, true, G.Starts.front().first->File, L.getLine(), L.getColumn(),
                          Call + " on " + Name + ": completes the nonblocking templates' calls",
                          "a template may have started " + Name +
                              "; a completion unpacks what it received and returns "
                              "its buffer");
  T.Note.Kind = NoteKind::Template;
  return T;
}

/// The starts of G through their templates and every wait on G's request
/// through the wait templates, where the waits complete them on every path;
/// otherwise each start declined, saying why. Waits collects the waits
/// already rewritten (an MPI_Waitall covers several elements).
void pairGroup(ASTContext &Ctx, Evaluator &Ev, StartGroup &G, TemplatePlan &Plan,
               std::map<const FunctionDecl *, std::vector<RequestVar>> &Flows, std::set<const CallExpr *> &Waits) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = G.Req->getNameAsString();
  std::string Slot = G.Index < 0 ? Name : Name + "[" + std::to_string(G.Index) + "]";
  std::vector<const CallExpr *> Calls;
  for (auto &[C, T] : G.Starts)
    Calls.push_back(C->Call);
  WaitPairing W;
  if (!declarable(Ctx, G.Req))
    W.Why = "its request " + Name +
            " is declared where no declaration can follow it (a for loop's first clause, or "
            "a macro)";
  else {
    auto It = Flows.find(G.Caller);
    if (It == Flows.end())
      It = Flows.emplace(G.Caller, requestFlow(Ctx, Ev, G.Caller, /*ArraySlots=*/true, /*UncertainTests=*/true)).first;
    W = pairWaits(SM, It->second, G.Req, G.Index, Calls);
  }
  for (auto &[C, T] : G.Starts) {
    if (!W.Why.empty()) {
      Plan.Declined.push_back(
          note(*C, false, T.Note.What.substr(0, T.Note.What.find(':')),
               "the template's buffer lives until a wait on " + Slot + " that it must be sure of, but " + W.Why));
      continue;
    }
    T.Append = ", &mpiopt_pend_" + Slot + T.Append;
    T.Note.Why += llvm::formatv("; while {0} may be pending, it is only waited for or tested (those calls go through "
                                "the wait and test templates, which unpack and return the buffer when they complete "
                                "it)",
                                Slot)
                      .str();
    Plan.Calls.push_back(std::move(T));
  }
  if (!W.Why.empty())
    return;
  for (const CallExpr *CE : W.Waits)
    if (Waits.insert(CE).second)
      Plan.Calls.push_back(waitCall(Ctx, G, CE));
  if (llvm::none_of(Plan.Pends, [&](const PendVar &P) { return P.Decl == G.Req; })) {
    const ConstantArrayType *A = Ctx.getAsConstantArrayType(G.Req->getType());
    Plan.Pends.push_back({G.Req, Name, A ? int64_t(A->getSize().getZExtValue()) : -1});
  }
}

} // namespace

TemplatePlan ompi::planDatatypeTemplates(ASTContext &Ctx, Evaluator &Ev, LazyDerivedTypes &Derived,
                                         const FileResult &Calls, const MachineProfile *Profile) {
  TemplatePlan Plan;
  std::vector<StartGroup> Groups;
  std::map<std::pair<const CompoundStmt *, const VarDecl *>, std::string> TableNames;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallResult &C : Calls.Calls) {
    const Family *F = familyOf(C.Function);
    if (!F || !C.Call)
      continue;
    const DerivedTypes &DT = Derived.get();
    std::vector<SideDecision> Sides;
    bool Any = false, Named = false, Runtime = false;
    for (const Side &S : F->Sides) {
      Sides.push_back(decide(C, *F, S, DT, Profile));
      Any |= Sides.back().Shape || Sides.back().Runtime;
      Runtime |= Sides.back().Runtime != nullptr;
      Named |= !Sides.back().Var.empty();
    }
    if (!Named)
      continue; // predefined datatypes only: nothing to say
    std::string What = C.Function + " with " + joined(Sides, [](const SideDecision &D) { return D.Var; }, " and ");
    auto [Req, Index] = F->Nonblocking ? startedRequest(Ctx, C) : std::pair<const VarDecl *, int>(nullptr, -1);
    std::string Why = C.Call->getBeginLoc().isMacroID() || C.Call->getRParenLoc().isMacroID()
                          ? "the call is written through a macro"
                      : !Any ? joined(
                                   Sides, [](const SideDecision &D) { return D.Why; }, "; ")
                      : F->Nonblocking && !Req
                          ? "its request is not a local MPI_Request variable given as &r, nor an element of a local "
                            "array of requests named by a constant index, whose waits can be followed"
                          : "";
    if (!Why.empty()) {
      Plan.Declined.push_back(note(C, false, What, Why));
      continue;
    }
    TemplatedCall T;
    std::vector<std::string> Tables(Sides.size());
    for (size_t I = 0; I < Sides.size() && !Runtime && Why.empty(); ++I)
      if (isRunList(Sides[I])) {
        RunTable R;
        Why = runTable(C, *DT.of(C.expr(F->Sides[I].Type)), R, TableNames);
        Tables[I] = R.Name;
        if (llvm::none_of(T.Tables, [&](const RunTable &X) { return X.Name == R.Name; }))
          T.Tables.push_back(std::move(R)); // both sides of one run list: one table
      }
    if (!Why.empty()) {
      Plan.Declined.push_back(note(C, false, What, Why));
      continue;
    }
    T.Callee = SM.getExpansionLoc(C.Call->getCallee()->getBeginLoc());
    T.RParen = C.Call->getRParenLoc();
    if (Runtime)
      runtimeCall(T, *F, Sides, DT, Plan.Shadows);
    else
      compiledCall(T, *F, Sides, Tables);
    Why = joined(Sides, [](const SideDecision &D) { return D.Shape || D.Runtime ? D.Figure : D.Why; }, "; ");
    for (const RunTable &R : T.Tables)
      Why += "; the blocks' displacements of " + R.Var + ", which no stride describes, are a table (" + R.Name +
             ") declared at the start of the function";
    T.Note = note(C, true, What + ": packed and unpacked by compiled loops, sent as the predefined type", Why);
    T.Note.Kind = NoteKind::Template;
    T.Note.Saves = "MPI's datatype engine on this call, for one copy through a scratch buffer";
    if (!Req) {
      Plan.Calls.push_back(std::move(T));
      continue;
    }
    auto G = llvm::find_if(
        Groups, [&, Req = Req, Index = Index](const StartGroup &X) { return X.Req == Req && X.Index == Index; });
    if (G == Groups.end())
      G = Groups.insert(Groups.end(), StartGroup{Req, Index, C.Caller, {}});
    G->Starts.push_back({&C, std::move(T)});
  }
  std::map<const FunctionDecl *, std::vector<RequestVar>> Flows;
  std::set<const CallExpr *> Waits;
  for (StartGroup &G : Groups)
    pairGroup(Ctx, Ev, G, Plan, Flows, Waits);
  return Plan;
}
