//===- ProgramFacts.cpp - What one file tells the others about uniformity ---===//
#include "analysis/ProgramFacts.h"
#include "analysis/AggregationPlan.h"
#include "analysis/Effects.h"
#include "analysis/NonblockingPlan.h"
#include "analysis/OwnedMemory.h"
#include "analysis/Uniformity.h"
#include "analysis/Wrappers.h"
#include "mpi/CallModel.h"
#include "mpi/MPIModel.h"
#include "support/AST.h"
#include "support/FunctionVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <set>

using namespace clang;
using namespace ompi;

namespace {

/// Every call, in a function of the file, of a function with external
/// linkage that the file does not define and the C library does not
/// declare: the calls another file of the program answers.
class OutgoingCalls : public FunctionVisitor<OutgoingCalls> {
public:
  explicit OutgoingCalls(const SourceManager &SM) : SM(SM) {}
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Calls;

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *G = CE->getDirectCallee();
    if (!Cur || !G || !G->getIdentifier() || !G->isExternallyVisible() || G->getBuiltinID())
      return true;
    const FunctionDecl *Def = nullptr;
    if (G->hasBody(Def) || isMPIFunctionName(G->getName()) || SM.isInSystemHeader(G->getLocation()))
      return true;
    Calls.push_back({Cur, CE});
    return true;
  }

private:
  const SourceManager &SM;
};

void addOnce(std::vector<std::string> &To, const std::string &S) {
  if (!llvm::is_contained(To, S))
    To.push_back(S);
}

void keepFirst(std::optional<std::string> &To, const std::optional<std::string> &From) {
  if (!To && From)
    To = From;
}

llvm::json::Value opt(const std::optional<std::string> &S) { return S ? llvm::json::Value(*S) : nullptr; }

std::optional<std::string> optOf(const llvm::json::Object &O, llvm::StringRef Key) {
  if (auto S = O.getString(Key))
    return S->str();
  return std::nullopt;
}

/// A wrapper's facts as toJSON writes them, or none when they are not whole.
std::optional<WrapperFact> wrapperOf(const llvm::json::Object &O) {
  WrapperFact W;
  const llvm::json::Array *Params = O.getArray("params"), *Pass = O.getArray("pass"), *Args = O.getArray("args");
  if (!O.getString("mpi") || !Params || !Pass || !Args || Params->size() != Pass->size())
    return std::nullopt;
  W.MPIFunction = O.getString("mpi")->str();
  W.File = optOf(O, "file").value_or("");
  W.Line = unsigned(O.getInteger("line").value_or(0));
  for (const llvm::json::Value &X : *Params)
    W.ParamTypes.push_back(X.getAsString().value_or("").str());
  for (const llvm::json::Value &X : *Pass) {
    llvm::StringRef S = X.getAsString().value_or("");
    if (S != "a" && S != "v" && S != "x")
      return std::nullopt;
    W.Pass.push_back(ParamPass(S[0]));
  }
  for (const llvm::json::Value &X : *Args) {
    if (std::optional<int64_t> I = X.getAsInteger()) {
      if (*I < 0 || size_t(*I) >= W.ParamTypes.size())
        return std::nullopt;
      W.Args.push_back({int(*I), ""});
    } else if (std::optional<llvm::StringRef> S = X.getAsString())
      W.Args.push_back({-1, S->str()});
    else
      return std::nullopt;
  }
  if (std::optional<llvm::StringRef> R = O.getString("returns")) {
    W.Returns = true;
    W.ReturnType = R->str();
  }
  return W;
}

/// Whether the function reference DRE is the callee of a direct call.
bool calledDirectly(ASTContext &Ctx, const DeclRefExpr *DRE) {
  const Stmt *Cur = DRE;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto Up = Ctx.getParents(*Cur);
    if (Up.empty())
      return false;
    if (const auto *IC = Up[0].get<ImplicitCastExpr>(); IC && IC->getCastKind() == CK_FunctionToPointerDecay) {
      Cur = IC;
      continue;
    }
    if (const auto *P = Up[0].get<ParenExpr>()) {
      Cur = P;
      continue;
    }
    const auto *CE = Up[0].get<CallExpr>();
    return CE && CE->getCallee() == Cur;
  }
  return false;
}

/// FunctionFact::Writes and Reaches of the file's functions: the globals
/// with external linkage written in a function and in the functions of
/// this file it calls, and the functions of other files these call
/// (library and MPI calls write globals only through addresses, which the
/// writes count). Unknown (WritesKnown false) where a call goes through a
/// pointer or a function's address is taken (whoever gets it may call it).
/// Each body is walked once, however many functions call it.
class WriteFacts {
public:
  WriteFacts(ASTContext &Ctx, const std::vector<std::pair<const FunctionDecl *, const VarDecl *>> &Writes) : Ctx(Ctx) {
    for (auto [F, V] : Writes)
      if (F && V->isExternallyVisible())
        addOnce(Direct[F], V->getName().str());
  }

  void fill(const FunctionDecl *F, FunctionFact &FF) {
    std::vector<const FunctionDecl *> Work{F->getCanonicalDecl()};
    std::set<const FunctionDecl *> Seen(Work.begin(), Work.end());
    FF.WritesKnown = true;
    FF.Mpi = false;
    while (!Work.empty()) {
      const FunctionDecl *G = Work.back();
      Work.pop_back();
      for (const std::string &W : Direct[G])
        addOnce(FF.Writes, W);
      const Body &B = body(G);
      FF.WritesKnown &= !B.Opaque;
      FF.Mpi |= B.Mpi;
      for (const std::string &R : B.Reaches)
        addOnce(FF.Reaches, R);
      for (const FunctionDecl *H : B.Callees)
        if (Seen.insert(H).second)
          Work.push_back(H);
    }
    if (!FF.WritesKnown)
      FF.Writes.clear(); // not the whole list: none is kept
    llvm::sort(FF.Writes);
    llvm::sort(FF.Reaches);
  }

private:
  /// What one body calls: the file's functions, other files' functions,
  /// and whether some call goes where the facts cannot follow.
  struct Body {
    std::vector<const FunctionDecl *> Callees;
    std::vector<std::string> Reaches;
    bool Opaque = false;
    bool Mpi = false; ///< it calls an MPI function itself
  };
  ASTContext &Ctx;
  std::map<const FunctionDecl *, std::vector<std::string>> Direct;
  std::map<const FunctionDecl *, Body> Bodies;

  const Body &body(const FunctionDecl *G) {
    auto [It, New] = Bodies.try_emplace(G);
    const FunctionDecl *Def = nullptr;
    if (!New || !G->hasBody(Def))
      return It->second;
    Body &B = It->second;
    anyNode(Def->getBody(), [&](const Stmt *N) {
      const auto *DRE = dyn_cast<DeclRefExpr>(N);
      if (const auto *CE = dyn_cast<CallExpr>(N); CE && !CE->getDirectCallee())
        B.Opaque = true; // through a pointer
      const auto *H = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
      if (!H)
        return false;
      if (!calledDirectly(Ctx, DRE))
        B.Opaque = true; // its address goes somewhere
      if (H->getIdentifier() && isMPIFunctionName(H->getName()))
        B.Mpi = true;
      const FunctionDecl *HDef = nullptr;
      if (H->hasBody(HDef)) {
        if (!llvm::is_contained(B.Callees, H->getCanonicalDecl()))
          B.Callees.push_back(H->getCanonicalDecl());
      } else if (H->getIdentifier() && !H->getBuiltinID() && !isMPIFunctionName(H->getName()) &&
                 !Effects::isLibrary(H)) {
        if (H->isExternallyVisible())
          addOnce(B.Reaches, H->getName().str());
        else
          B.Opaque = true;
      }
      return false;
    });
    return B;
  }
};

} // namespace

ProgramFacts ProgramFacts::ofFile(ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, llvm::StringRef Path) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = llvm::sys::path::filename(Path).str();
  auto In = [&](const std::optional<std::string> &Why) -> std::optional<std::string> {
    if (!Why)
      return std::nullopt;
    return "in " + Name + ": " + *Why;
  };
  ProgramFacts P;
  P.Files.push_back(Path.str());
  std::vector<std::pair<std::string, uint64_t>> Texts;
  for (auto I = SM.fileinfo_begin(), E = SM.fileinfo_end(); I != E; ++I)
    if (std::optional<llvm::StringRef> B = I->second->getBufferDataIfLoaded())
      Texts.push_back({I->first.getName().str(), llvm::xxh3_64bits(*B)});
  llvm::sort(Texts);
  std::string All;
  for (const auto &[N, H] : Texts)
    All += N + "\n" + llvm::utohexstr(H) + "\n";
  P.Digests[Path.str()] = llvm::utohexstr(llvm::xxh3_64bits(All));
  if (Ev.index().DefinesMain)
    P.MainFiles.push_back(Path.str());
  WriteFacts Writes(Ctx, Uni.globalWrites());
  std::set<const VarDecl *> RequestGlobals;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *F = dyn_cast<FunctionDecl>(D);
        F && F->isExternallyVisible() && F->getIdentifier() && F->doesThisDeclarationHaveABody() && !F->isMain()) {
      FunctionFact &FF = P.Functions[F->getName().str()];
      FF.Defined = true;
      FF.Collective = Uni.alwaysCollective(F);
      FF.Fresh = Uni.returnsFresh(F);
      for (unsigned I = 0; I < F->getNumParams(); ++I)
        if (F->getParamDecl(I)->getType()->isPointerType() && freesOnly(F, I))
          FF.Frees.push_back(I);
      if (!F->getReturnType()->isVoidType())
        FF.Result = In(Uni.resultVaries(F));
      Writes.fill(F, FF);
      FF.Sequence = callSequenceOf(Ctx, Ev, F, FF, Name);
    }
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasGlobalStorage() && V->isExternallyVisible() &&
                                              V->isThisDeclarationADefinition() != VarDecl::DeclarationOnly)
      P.Globals[V->getName().str()].Defined = true;
    // The globals this file's code names (in functions and initializers).
    const Stmt *Code = nullptr;
    if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->doesThisDeclarationHaveABody())
      Code = F->getBody();
    else if (const auto *V = dyn_cast<VarDecl>(D))
      Code = V->getInit();
    anyNode(Code, [&](const Stmt *N) {
      const auto *R = dyn_cast<DeclRefExpr>(N);
      const auto *G = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      if (G && G->hasGlobalStorage() && !G->isStaticLocal() && G->isExternallyVisible())
        addOnce(P.Globals[G->getName().str()].NamedBy, Name);
      if (G && G->isFileVarDecl() && G->isExternallyVisible() &&
          (requestVariableType(G->getType()) || requestPointerType(G->getType())))
        RequestGlobals.insert(G->getCanonicalDecl());
      return false;
    });
  }
  for (const VarDecl *V : RequestGlobals) {
    std::string Why = globalRequestsProblem(Ctx, Uni.owned(), V);
    keepFirst(P.Globals[V->getName().str()].Requests, In(Why.empty() ? std::nullopt : std::optional(Why)));
  }
  for (const VarDecl *V : Uni.writtenGlobals())
    if (V->isExternallyVisible() && !V->isStaticLocal()) {
      GlobalFact &G = P.Globals[V->getName().str()];
      keepFirst(G.Varies, In(Uni.writesVary(V)));
      addOnce(G.WrittenBy, Name);
    }
  for (const VarDecl *V : Uni.ownedGlobals())
    if (V->isExternallyVisible())
      keepFirst(P.Globals[V->getName().str()].Pointee, In(Uni.pointeeWritesVary(V)));
  for (const FunctionDecl *F : Ev.index().AddressTaken)
    if (F->isExternallyVisible() && F->getIdentifier())
      keepFirst(P.Functions[F->getName().str()].AddressTaken,
                "in " + Name + ": " + F->getName().str() + " is used other than in a call");
  for (auto [Caller, CE] : outgoingCalls(Ctx)) {
    CallFact C;
    C.Callee = CE->getDirectCallee()->getName().str();
    C.File = Name;
    C.Line = SM.getExpansionLineNumber(CE->getBeginLoc());
    C.Column = SM.getExpansionColumnNumber(CE->getBeginLoc());
    if (std::optional<Divergence> D = Uni.at(CE, Caller))
      C.Divergent = D->Why;
    for (const Expr *A : CE->arguments())
      C.Args.push_back(Uni.varies(A, Caller));
    P.Calls.push_back(std::move(C));
  }
  for (const TagUse &U : tagUses(Ctx, nullptr))
    P.Messages.push_back({Path.str(), U.Line, U.Constant});
  P.Wrappers = externalWrappers(Ctx, Ev);
  return P;
}

std::vector<std::pair<const FunctionDecl *, const CallExpr *>> ompi::outgoingCalls(ASTContext &Ctx) {
  OutgoingCalls OC(Ctx.getSourceManager());
  OC.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(OC.Calls);
}

void ProgramFacts::merge(const ProgramFacts &O) {
  for (const std::string &F : O.Files)
    addOnce(Files, F);
  for (const std::string &F : O.MainFiles)
    addOnce(MainFiles, F);
  for (const auto &[F, D] : O.Digests)
    Digests.emplace(F, D);
  for (const auto &[N, G] : O.Globals) {
    GlobalFact &To = Globals[N];
    To.Defined |= G.Defined;
    keepFirst(To.Varies, G.Varies);
    keepFirst(To.Pointee, G.Pointee);
    for (const std::string &F : G.WrittenBy)
      addOnce(To.WrittenBy, F);
    for (const std::string &F : G.NamedBy)
      addOnce(To.NamedBy, F);
    To.NamedKnown &= G.NamedKnown;
    keepFirst(To.Requests, G.Requests);
  }
  for (const auto &[N, F] : O.Functions) {
    FunctionFact &To = Functions[N];
    To.Defined |= F.Defined;
    To.Collective |= F.Collective;
    To.Fresh |= F.Fresh;
    for (unsigned I : F.Frees)
      if (!llvm::is_contained(To.Frees, I))
        To.Frees.push_back(I);
    keepFirst(To.Result, F.Result);
    keepFirst(To.AddressTaken, F.AddressTaken);
    if (F.Defined) {
      To.Mpi = F.Mpi;
      To.WritesKnown = F.WritesKnown;
      To.Writes = F.Writes;
      To.Reaches = F.Reaches;
      To.Sequence = F.Sequence;
    }
  }
  for (const CallFact &C : O.Calls) {
    auto It = llvm::find_if(Calls, [&](const CallFact &X) {
      return X.Callee == C.Callee && X.File == C.File && X.Line == C.Line && X.Column == C.Column;
    });
    if (It == Calls.end()) {
      Calls.push_back(C);
      continue;
    }
    keepFirst(It->Divergent, C.Divergent);
    if (It->Args.size() < C.Args.size())
      It->Args.resize(C.Args.size());
    for (size_t I = 0; I < C.Args.size(); ++I)
      keepFirst(It->Args[I], C.Args[I]);
  }
  MessagesUnknown |= O.MessagesUnknown;
  RequestsUnknown |= O.RequestsUnknown;
  for (const auto &[N, W] : O.Wrappers)
    Wrappers.emplace(N, W);
  for (const MessageFact &M : O.Messages)
    if (!llvm::is_contained(Messages, M))
      Messages.push_back(M);
}

std::vector<std::string> ProgramFacts::collectives() const {
  std::vector<std::string> Out;
  for (const auto &[N, F] : Functions)
    if (F.Collective)
      Out.push_back(N);
  return Out;
}

ProgramFacts ProgramFacts::seed(std::vector<std::string> Collective) {
  ProgramFacts P;
  P.Seed = true;
  for (std::string &N : Collective)
    P.Functions[std::move(N)].Collective = true;
  return P;
}

bool ProgramFacts::reachedFromOtherFiles(llvm::StringRef Name) const {
  auto Fact = Functions.find(Name.str());
  return (Fact != Functions.end() && Fact->second.AddressTaken) || !callsOf(Name).empty();
}

/// Whether some function a call of Name may run (it, and through Reaches
/// the other files' functions it calls) has no fact, a fact not known
/// whole, or one for which Hit holds.
bool ProgramFacts::reachesAny(llvm::StringRef Name, llvm::function_ref<bool(const FunctionFact &)> Hit) const {
  std::vector<std::string> Work{Name.str()};
  std::set<std::string> Seen{Name.str()};
  while (!Work.empty()) {
    auto It = Functions.find(Work.back());
    Work.pop_back();
    if (It == Functions.end() || !It->second.Defined || !It->second.WritesKnown || Hit(It->second))
      return true;
    for (const std::string &R : It->second.Reaches)
      if (Seen.insert(R).second)
        Work.push_back(R);
  }
  return false;
}

bool ProgramFacts::mayWrite(llvm::StringRef Name, llvm::StringRef Global) const {
  if (Seed)
    return false; // the fixpoint's first round: nothing another file does counts
  return reachesAny(Name, [&](const FunctionFact &F) { return llvm::is_contained(F.Writes, Global); });
}

const std::vector<SequenceCall> *ProgramFacts::callSequence(llvm::StringRef Name) const {
  auto It = Functions.find(Name.str());
  if (Seed || !program() || It == Functions.end() || !It->second.Defined || !It->second.Sequence)
    return nullptr;
  return &*It->second.Sequence;
}

bool ProgramFacts::mayCommunicate(llvm::StringRef Name) const {
  if (Seed)
    return true; // the fixpoint's first round knows nothing of other files
  return reachesAny(Name, [](const FunctionFact &F) { return F.Mpi; });
}

std::string ProgramFacts::nameOf(const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto FE = SM.getFileEntryRefForID(SM.getMainFileID());
  return FE ? llvm::sys::path::filename(FE->getName()).str() : std::string();
}

bool ProgramFacts::namedOnlyIn(llvm::StringRef Name, llvm::StringRef File) const {
  if (Seed)
    return false;
  auto G = Globals.find(Name.str());
  if (G == Globals.end() || !G->second.Defined || !G->second.NamedKnown)
    return false;
  if (llvm::count_if(Files, [&](const std::string &F) { return llvm::sys::path::filename(F) == File; }) > 1)
    return false; // two files of that name: the facts cannot tell them apart
  return llvm::all_of(G->second.NamedBy, [&](const std::string &F) { return F == File; });
}

std::vector<const CallFact *> ProgramFacts::callsOf(llvm::StringRef Name) const {
  std::vector<const CallFact *> Out;
  for (const CallFact &C : Calls)
    if (C.Callee == Name)
      Out.push_back(&C);
  return Out;
}

std::string ProgramFacts::toJSON() const {
  llvm::json::Object G, F, Digests, Requests;
  for (const auto &[N, D] : this->Digests)
    Digests[N] = D;
  for (const auto &[N, X] : Globals) {
    G[N] = llvm::json::Object{{"defined", X.Defined},
                              {"varies", opt(X.Varies)},
                              {"written_by", llvm::json::Array(X.WrittenBy)},
                              {"pointee", opt(X.Pointee)},
                              {"named_by", X.NamedKnown ? llvm::json::Value(llvm::json::Array(X.NamedBy)) : nullptr}};
    if (X.Requests)
      Requests[N] = *X.Requests;
  }
  for (const auto &[N, X] : Functions) {
    F[N] = llvm::json::Object{{"defined", X.Defined},
                              {"result", opt(X.Result)},
                              {"address_taken", opt(X.AddressTaken)},
                              {"collective", X.Collective},
                              {"fresh", X.Fresh},
                              {"frees", llvm::json::Array(X.Frees)},
                              {"writes", X.WritesKnown ? llvm::json::Value(llvm::json::Array(X.Writes)) : nullptr},
                              {"reaches", llvm::json::Array(X.Reaches)},
                              {"mpi", X.Mpi}};
    if (X.Sequence) {
      llvm::json::Array Seq;
      for (const SequenceCall &S : *X.Sequence)
        Seq.push_back(llvm::json::Object{{"call", S.Call},
                                         {"file", S.File},
                                         {"line", S.Line},
                                         {"comm", S.Comm},
                                         {"root", S.Root},
                                         {"op", S.Op},
                                         {"count", S.Count},
                                         {"type", S.Type},
                                         {"peer", S.Peer},
                                         {"tag", S.Tag}});
      F[N].getAsObject()->try_emplace("sequence", std::move(Seq));
    }
  }
  llvm::json::Array C;
  for (const CallFact &X : Calls) {
    llvm::json::Array Args;
    for (const auto &A : X.Args)
      Args.push_back(opt(A));
    C.push_back(llvm::json::Object{{"callee", X.Callee},
                                   {"file", X.File},
                                   {"line", X.Line},
                                   {"column", X.Column},
                                   {"divergent", opt(X.Divergent)},
                                   {"args", std::move(Args)}});
  }
  llvm::json::Array M;
  for (const MessageFact &X : Messages)
    M.push_back(
        llvm::json::Object{{"file", X.File}, {"line", X.Line}, {"tag", X.Tag ? llvm::json::Value(*X.Tag) : nullptr}});
  llvm::json::Object W;
  for (const auto &[N, X] : Wrappers) {
    llvm::json::Array Args, Pass;
    for (const WrapperArg &A : X.Args)
      Args.push_back(A.Param >= 0 ? llvm::json::Value(A.Param) : llvm::json::Value(A.Constant));
    for (ParamPass P : X.Pass)
      Pass.push_back(std::string(1, char(P)));
    W[N] = llvm::json::Object{{"mpi", X.MPIFunction},
                              {"file", X.File},
                              {"line", X.Line},
                              {"params", llvm::json::Array(X.ParamTypes)},
                              {"pass", std::move(Pass)},
                              {"args", std::move(Args)},
                              {"returns", X.Returns ? llvm::json::Value(X.ReturnType) : nullptr}};
  }
  llvm::json::Object Root{{"ompi_program_facts", 1},
                          {"files", llvm::json::Array(Files)},
                          {"main_files", llvm::json::Array(MainFiles)},
                          {"digests", std::move(Digests)},
                          {"globals", std::move(G)},
                          {"functions", std::move(F)},
                          {"calls", std::move(C)},
                          {"messages", std::move(M)},
                          {"wrappers", std::move(W)}};
  if (MessagesUnknown)
    Root["messages"] = nullptr;
  // Only the global request variables some file uses other than by starts
  // and completions (absent: an older ompi-opt's, which did not say).
  if (!RequestsUnknown)
    Root["requests"] = std::move(Requests);
  return llvm::formatv("{0:1}", llvm::json::Value(std::move(Root))).str() + "\n";
}

llvm::Expected<ProgramFacts> ProgramFacts::fromJSON(llvm::StringRef Text) {
  auto Fail = [](const llvm::Twine &Why) { return llvm::createStringError(llvm::inconvertibleErrorCode(), Why); };
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return Fail("not JSON (" + llvm::toString(V.takeError()) + ")");
  const llvm::json::Object *Root = V->getAsObject();
  if (!Root || !Root->getInteger("ompi_program_facts"))
    return Fail("not a facts file (no \"ompi_program_facts\" member)");
  ProgramFacts P;
  auto Strings = [](const llvm::json::Array *A, std::vector<std::string> &Out) {
    if (A)
      for (const llvm::json::Value &X : *A)
        if (auto S = X.getAsString())
          Out.push_back(S->str());
  };
  Strings(Root->getArray("files"), P.Files);
  Strings(Root->getArray("main_files"), P.MainFiles);
  if (const llvm::json::Object *D = Root->getObject("digests"))
    for (const auto &[N, X] : *D)
      if (auto S = X.getAsString())
        P.Digests[N.str()] = S->str();
  if (const llvm::json::Object *G = Root->getObject("globals"))
    for (const auto &[N, X] : *G)
      if (const llvm::json::Object *O = X.getAsObject()) {
        GlobalFact &GF = P.Globals[N.str()];
        GF.Defined = O->getBoolean("defined").value_or(false);
        GF.Varies = optOf(*O, "varies");
        Strings(O->getArray("written_by"), GF.WrittenBy);
        GF.Pointee = optOf(*O, "pointee");
        GF.NamedKnown = O->getArray("named_by") != nullptr; // null or missing (older facts): unknown
        Strings(O->getArray("named_by"), GF.NamedBy);
      }
  if (const llvm::json::Object *F = Root->getObject("functions"))
    for (const auto &[N, X] : *F)
      if (const llvm::json::Object *O = X.getAsObject()) {
        FunctionFact &FF = P.Functions[N.str()];
        FF.Defined = O->getBoolean("defined").value_or(false);
        FF.Result = optOf(*O, "result");
        FF.AddressTaken = optOf(*O, "address_taken");
        FF.Collective = O->getBoolean("collective").value_or(false);
        FF.Fresh = O->getBoolean("fresh").value_or(false);
        if (const llvm::json::Array *A = O->getArray("frees"))
          for (const llvm::json::Value &I : *A)
            if (std::optional<int64_t> N = I.getAsInteger(); N && *N >= 0)
              FF.Frees.push_back(unsigned(*N));
        if (const llvm::json::Array *A = O->getArray("writes")) {
          FF.WritesKnown = true; // null or missing (older facts): unknown
          Strings(A, FF.Writes);
        }
        Strings(O->getArray("reaches"), FF.Reaches);
        FF.Mpi = O->getBoolean("mpi").value_or(true);
        if (const llvm::json::Array *A = O->getArray("sequence")) {
          FF.Sequence.emplace();
          for (const llvm::json::Value &V : *A) {
            const llvm::json::Object *S = V.getAsObject();
            if (!S || !S->getString("call") || !S->getInteger("line")) {
              FF.Sequence.reset(); // not this ompi-opt's: as if not known
              break;
            }
            auto Str = [&](llvm::StringRef K) { return S->getString(K).value_or("").str(); };
            FF.Sequence->push_back({Str("call"), Str("file"), unsigned(*S->getInteger("line")), Str("comm"),
                                    Str("root"), Str("op"), Str("count"), Str("type"), Str("peer"), Str("tag")});
          }
        }
      }
  if (const llvm::json::Array *C = Root->getArray("calls"))
    for (const llvm::json::Value &X : *C) {
      const llvm::json::Object *O = X.getAsObject();
      if (!O || !O->getString("callee"))
        return Fail("a call without a callee");
      CallFact CF;
      CF.Callee = O->getString("callee")->str();
      CF.File = optOf(*O, "file").value_or("");
      CF.Line = unsigned(O->getInteger("line").value_or(0));
      CF.Column = unsigned(O->getInteger("column").value_or(0));
      CF.Divergent = optOf(*O, "divergent");
      if (const llvm::json::Array *A = O->getArray("args"))
        for (const llvm::json::Value &Arg : *A)
          CF.Args.push_back(Arg.getAsString() ? std::optional<std::string>(Arg.getAsString()->str()) : std::nullopt);
      P.Calls.push_back(std::move(CF));
    }
  if (const llvm::json::Object *W = Root->getObject("wrappers"))
    for (const auto &[N, X] : *W) {
      const llvm::json::Object *O = X.getAsObject();
      std::optional<WrapperFact> F = O ? wrapperOf(*O) : std::nullopt;
      if (!F)
        return Fail("the wrapper " + N.str() + " is not described whole");
      P.Wrappers[N.str()] = std::move(*F);
    }
  const llvm::json::Object *Req = Root->getObject("requests");
  P.RequestsUnknown = !Req;
  if (Req)
    for (const auto &[N, X] : *Req)
      if (std::optional<llvm::StringRef> Why = X.getAsString())
        P.Globals[N.str()].Requests = Why->str();
  const llvm::json::Array *M = Root->getArray("messages");
  P.MessagesUnknown = !M;
  if (M)
    for (const llvm::json::Value &X : *M) {
      const llvm::json::Object *O = X.getAsObject();
      if (!O || !O->getString("file"))
        return Fail("a message without a file");
      P.Messages.push_back(
          {O->getString("file")->str(), unsigned(O->getInteger("line").value_or(0)), O->getInteger("tag")});
    }
  return P;
}

llvm::Expected<ProgramFacts> ProgramFacts::read(const std::vector<std::string> &Paths) {
  ProgramFacts All;
  for (const std::string &Path : Paths) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "cannot read " + Path + ": " + Buf.getError().message());
    llvm::Expected<ProgramFacts> P = fromJSON((*Buf)->getBuffer());
    if (!P)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), Path + ": " + llvm::toString(P.takeError()));
    All.merge(*P);
  }
  return All;
}
