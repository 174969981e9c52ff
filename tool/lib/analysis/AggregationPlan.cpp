//===- AggregationPlan.cpp - Small messages to one peer sent as one -------===//
#include "analysis/AggregationPlan.h"
#include "analysis/BufferStorage.h"
#include "analysis/ProgramFacts.h"
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "message-aggregation";
constexpr int64_t MaxBytes = 1024; // MPIOPT_AGG_MAX in templates/mpiopt/aggregate.h
constexpr int64_t MaxParts = 16;   // MPIOPT_AGG_PARTS

bool tagRole(Role R) { return R == Role::Tag || R == Role::SendTag || R == Role::RecvTag; }

/// The model of an MPI function (PMPI_ names too), or null.
const FunctionModel *modelOf(llvm::StringRef Name) {
  return lookupFunction(Name.starts_with(mpi::ProfilingPrefix) ? Name.drop_front(1) : Name);
}

/// The model of an MPI function with a tag, or null.
const FunctionModel *taggedModel(llvm::StringRef Name) {
  const FunctionModel *M = modelOf(Name);
  return M && llvm::any_of(M->Args, [](const ArgModel &A) { return tagRole(A.R); }) ? M : nullptr;
}

/// An MPI function the model does not know that may send, receive or probe.
bool unknownPointToPoint(llvm::StringRef Name) {
  std::string L = Name.lower();
  return isMPIFunctionName(Name) && !modelOf(Name) &&
         (llvm::StringRef(L).contains("send") || llvm::StringRef(L).contains("recv") ||
          llvm::StringRef(L).contains("probe"));
}

/// Every call of a point-to-point function with a tag, and every other use
/// of such a function (its address taken).
class TagUses : public RecursiveASTVisitor<TagUses> {
public:
  TagUses(ASTContext &Ctx, const FileResult *Calls) : Ctx(Ctx), SM(Ctx.getSourceManager()) {
    if (Calls)
      for (const CallResult &C : Calls->Calls)
        if (C.Call)
          Facts[C.Call] = &C;
  }
  std::vector<TagUse> Uses;

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier() || system(CE->getBeginLoc()))
      return true;
    if (const auto *D = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      Callees.insert(D);
    if (unknownPointToPoint(F->getName())) {
      Uses.push_back({CE, line(CE->getBeginLoc()), std::nullopt, std::nullopt});
      return true;
    }
    const FunctionModel *M = taggedModel(F->getName());
    for (unsigned I = 0; M && I < M->Args.size() && I < CE->getNumArgs(); ++I)
      if (tagRole(M->Args[I].R)) {
        std::optional<int64_t> Constant = constantTag(CE->getArg(I));
        Uses.push_back({CE, line(CE->getBeginLoc()), evaluatedTag(CE, I).value_or(Constant), Constant});
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *F = dyn_cast<FunctionDecl>(D->getDecl()); F && F->getIdentifier() && !system(D->getBeginLoc()))
      if (taggedModel(F->getName()) || unknownPointToPoint(F->getName()))
        Refs.push_back(D);
    return true;
  }
  void finish() {
    for (const DeclRefExpr *D : Refs)
      if (!Callees.count(D))
        Uses.push_back({nullptr, line(D->getBeginLoc()), std::nullopt, std::nullopt});
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  std::map<const CallExpr *, const CallResult *> Facts;
  std::set<const DeclRefExpr *> Callees;
  std::vector<const DeclRefExpr *> Refs;

  bool system(SourceLocation L) const { return SM.isInSystemHeader(SM.getExpansionLoc(L)); }
  unsigned line(SourceLocation L) const { return SM.getExpansionLineNumber(L); }

  /// Argument I's tag as the evaluator found it, for the main file's calls
  /// (its value, or none inside: may be any); none outside: not evaluated.
  std::optional<std::optional<int64_t>> evaluatedTag(const CallExpr *CE, unsigned I) const {
    auto It = Facts.find(CE);
    if (It == Facts.end())
      return std::nullopt;
    for (const ArgResult &A : It->second->Args)
      if (A.Index == I)
        return A.Sym.K == SymValue::Int && A.Sym.I >= 0 ? std::optional<int64_t>(A.Sym.I) : std::nullopt;
    return std::optional<int64_t>();
  }
  /// A tag written as a constant expression; none where it may be any
  /// (MPI_ANY_TAG is negative in every MPI).
  std::optional<int64_t> constantTag(const Expr *E) const {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.getInt().isSignedIntN(32) && R.Val.getInt().getSExtValue() >= 0)
      return R.Val.getInt().getSExtValue();
    return std::nullopt;
  }
};

const CallExpr *groupCall(const Stmt *S) {
  const auto *CE = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && (F->getName() == mpi::MPI_Send || F->getName() == mpi::MPI_Recv) ? CE : nullptr;
}

Role peerRole(const CallResult &C) { return C.Function == mpi::MPI_Send ? Role::Dest : Role::Source; }

/// Whether B follows A with nothing but blanks between, on the same peer
/// and communicator as written.
bool joins(ASTContext &Ctx, const CallResult &A, const CallResult &B) {
  if (A.Function != B.Function || A.Call->getBeginLoc().isMacroID() || B.Call->getBeginLoc().isMacroID() ||
      !onlyBlanksBetween(Ctx, A.Call, B.Call))
    return false;
  std::string PA = fileText(Ctx, A.expr(peerRole(A))), CA = fileText(Ctx, A.expr(Role::Comm));
  return !PA.empty() && !CA.empty() && PA == fileText(Ctx, B.expr(peerRole(B))) &&
         CA == fileText(Ctx, B.expr(Role::Comm));
}

/// The runs of two or more adjacent sends (or receives) to one peer on one
/// communicator, in the order the file's calls come.
std::vector<std::vector<const CallResult *>> runs(ASTContext &Ctx, const FileResult &Calls) {
  std::map<const CallExpr *, const CallResult *> Facts;
  std::vector<const CompoundStmt *> Blocks;
  for (const CallResult &C : Calls.Calls)
    if (C.Call && (C.Function == mpi::MPI_Send || C.Function == mpi::MPI_Recv)) {
      Facts[C.Call] = &C;
      if (const auto *B = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, C.Call)); B && !llvm::is_contained(Blocks, B))
        Blocks.push_back(B);
    }
  std::vector<std::vector<const CallResult *>> Out;
  for (const CompoundStmt *B : Blocks) {
    std::vector<const CallResult *> Run;
    auto Flush = [&] {
      if (Run.size() >= 2)
        Out.push_back(Run);
      Run.clear();
    };
    for (const Stmt *S : B->body()) {
      const CallExpr *CE = groupCall(S);
      auto It = CE ? Facts.find(CE) : Facts.end();
      if (It == Facts.end()) {
        Flush();
        continue;
      }
      if (!Run.empty() && !joins(Ctx, *Run.back(), *It->second))
        Flush();
      Run.push_back(It->second);
    }
    Flush();
  }
  return Out;
}

/// A run and what the plan learns of it.
struct Candidate {
  std::vector<const CallResult *> Calls;
  bool Send = true;
  std::string Problem; ///< why it is no group ("" when it is one)
  std::vector<int64_t> Tags;
  std::string Shape; ///< tags and datatypes, in order
  int64_t Bytes = 0; ///< a send group's message, its header included
};

std::string lines(const Candidate &G) {
  return llvm::formatv("lines {0}-{1}", G.Calls.front()->Line, G.Calls.back()->Line).str();
}

/// Why a receive group's later calls may read what its earlier ones write
/// ("" when they cannot).
std::string receiveProblem(ASTContext &Ctx, const Candidate &G) {
  for (size_t I = 0; I < G.Calls.size(); ++I) {
    const CallResult &C = *G.Calls[I];
    const ArgResult *St = C.arg(Role::Status);
    if (!St || (St->Sym.K != SymValue::Handle && !addressObject(St)))
      return llvm::formatv("the status of the receive at line {0} is not MPI_STATUS_IGNORE or a named object", C.Line);
  }
  for (size_t I = 0; I + 1 < G.Calls.size(); ++I) {
    const CallResult &C = *G.Calls[I];
    const VarDecl *Obj = bufferStorage(Ctx, C, Role::RecvBuf);
    if (!Obj)
      return llvm::formatv("the buffer of the receive at line {0} ({1}) is not known to be one object (a named "
                           "variable, or a pointer that holds one allocation of its own): the later receives' "
                           "arguments, evaluated before it is written, could read it",
                           C.Line, C.arg(Role::RecvBuf)->Text);
    const VarDecl *Status = addressObject(C.arg(Role::Status));
    for (size_t J = I + 1; J < G.Calls.size(); ++J)
      if (auto R = readsWritten(G.Calls[J]->Call, G.Calls[J]->expr(Role::RecvBuf), Obj, Status))
        return llvm::formatv("the receive at line {0} reads {1}, which the receive at line {2} writes: one "
                             "receive evaluates every argument before any part arrives",
                             G.Calls[J]->Line, R->Pointer ? std::string("through a pointer") : R->Name, C.Line);
  }
  return "";
}

/// Fill G's tags, shape and bytes, or say why it is no group.
void examine(ASTContext &Ctx, Candidate &G) {
  G.Send = G.Calls.front()->Function == mpi::MPI_Send;
  if (G.Calls.size() > MaxParts) {
    G.Problem = llvm::formatv("more than {0} messages in a row", MaxParts);
    return;
  }
  int64_t Bytes = int64_t(sizeof(int)) * int64_t(G.Calls.size());
  std::string Tags, Types;
  for (const CallResult *C : G.Calls) {
    if (const Expr *A = unmovableArgument(Ctx, C->Call)) {
      G.Problem = "an argument (" + fileText(Ctx, A) +
                  ") has side effects or is written in a macro's body: one call evaluates every argument at once";
      return;
    }
    const ArgResult *Peer = C->arg(peerRole(*C)), *Tag = C->arg(Role::Tag), *Type = C->arg(Role::Type);
    if (Peer && Peer->Sym.K == SymValue::Handle && Peer->Sym.Name == mpi::MPI_ANY_SOURCE) {
      G.Problem = "the receives take MPI_ANY_SOURCE: their parts could come from different processes";
      return;
    }
    if (!Tag || Tag->Sym.K != SymValue::Int || Tag->Sym.I < 0) {
      G.Problem = llvm::formatv("the tag of the call at line {0} ({1}) is not a constant", C->Line,
                                Tag ? Tag->Text : std::string("?"));
      return;
    }
    if (!predefinedDatatype(Type)) {
      G.Problem = "the datatype " + (Type ? Type->Text : std::string("?")) + " is not a predefined one";
      return;
    }
    if (G.Send) {
      if (!C->CommSize.Bytes) {
        G.Problem = llvm::formatv("the size of the message at line {0} is not known at compile time", C->Line);
        return;
      }
      Bytes += *C->CommSize.Bytes;
    }
    G.Tags.push_back(Tag->Sym.I);
    Tags += (Tags.empty() ? "" : ", ") + std::to_string(Tag->Sym.I);
    Types += (Types.empty() ? "" : ", ") + Type->Sym.Name;
  }
  G.Shape = "tags " + Tags + " of " + Types;
  G.Bytes = Bytes;
  if (G.Send && Bytes > MaxBytes)
    G.Problem = llvm::formatv("{0} bytes with the header: more than {1}, the most one message carries (a larger "
                              "one may not be sent eagerly where the separate ones were)",
                              Bytes, MaxBytes);
  else if (!G.Send)
    G.Problem = receiveProblem(Ctx, G);
}

std::string tagText(std::optional<int64_t> Tag) { return Tag ? "tag " + std::to_string(*Tag) : "any tag"; }

/// The program's other point-to-point calls with tags: none when the file
/// is the whole program; the facts of the other files; or, when code the
/// plan cannot see may communicate, why (Unknown).
struct OtherFiles {
  std::vector<const MessageFact *> Uses;
  std::string Unknown;
};

std::string unseen(llvm::StringRef Callee, llvm::StringRef Where) {
  return (Callee + " (called at " + Where +
          ") is defined in no file of the program (a library's code, or an object the program's facts do not "
          "cover), which may send or receive with these tags")
      .str();
}

/// A call, in the file, of a function no file defines (the closed world's
/// only file does not; a library of the program's own: its code may
/// communicate).
std::string unseenCallee(ASTContext &Ctx) {
  auto Calls = outgoingCalls(Ctx);
  if (Calls.empty())
    return "";
  const CallExpr *CE = Calls.front().second;
  return unseen(CE->getDirectCallee()->getName(),
                llvm::formatv("line {0}", Ctx.getSourceManager().getExpansionLineNumber(CE->getBeginLoc())).str());
}

OtherFiles otherFiles(ASTContext &Ctx, Evaluator &Ev, const std::string &Path, const std::vector<TagUse> &Mine) {
  OtherFiles O;
  const ProgramFacts *P = Ev.options().Program.get();
  if (P && P->program() && !P->Seed && llvm::is_contained(P->Files, Path)) {
    if (P->MessagesUnknown)
      O.Unknown = "the program's facts do not list some file's point-to-point calls (facts of an older ompi-opt: "
                  "build the program again)";
    for (const CallFact &C : P->Calls) {
      auto F = P->Functions.find(C.Callee);
      if (O.Unknown.empty() && (F == P->Functions.end() || !F->second.Defined))
        O.Unknown = unseen(C.Callee, llvm::formatv("{0}:{1}", C.File, C.Line).str());
    }
    // This file's own facts must be this compilation's: a file compiled
    // twice, differently (other macros), has messages this one lacks.
    for (const MessageFact &M : P->Messages) {
      if (M.File != Path) {
        O.Uses.push_back(&M);
        continue;
      }
      if (O.Unknown.empty() &&
          !llvm::any_of(Mine, [&](const TagUse &U) { return U.Line == M.Line && U.Constant == M.Tag; }))
        O.Unknown = llvm::formatv("the program's facts list a call at line {0} of this file ({1}) that this "
                                  "compilation of it lacks: the file is compiled more than once, differently",
                                  M.Line, tagText(M.Tag))
                        .str();
    }
    return O;
  }
  if (!(Ev.options().ClosedWorld && Ev.index().DefinesMain))
    O.Unknown = "other files of the program may send or receive with these tags (decide it whole: ompi-cc's link, "
                "ompi-opt --whole-program, or --closed-world for a program of one file)";
  else
    O.Unknown = unseenCallee(Ctx);
  return O;
}

bool mayBe(std::optional<int64_t> Tag, const std::vector<int64_t> &Tags) {
  return !Tag || llvm::is_contained(Tags, *Tag);
}

/// Why the groups of one shape cannot change ("" when they can).
std::string shapeProblem(const std::vector<Candidate *> &Groups, const std::vector<TagUse> &Uses,
                         const OtherFiles &Others, llvm::function_ref<bool(const CallExpr *)> Taken) {
  const std::vector<int64_t> &Tags = Groups.front()->Tags;
  std::set<const CallExpr *> Members;
  bool Sends = false, Receives = false;
  for (const Candidate *G : Groups) {
    (G->Send ? Sends : Receives) = true;
    for (const CallResult *C : G->Calls) {
      Members.insert(C->Call);
      if (Taken(C->Call))
        return llvm::formatv("another transformation already rewrote the call at line {0}", C->Line);
    }
  }
  if (!Others.Unknown.empty())
    return Others.Unknown;
  for (const TagUse &U : Uses)
    if (mayBe(U.Tag, Tags) && !Members.count(U.Call))
      return llvm::formatv("the call at line {0} ({1}) may take a message of these tags and is no group of this "
                           "shape",
                           U.Line, tagText(U.Tag));
  for (const MessageFact *M : Others.Uses)
    if (mayBe(M->Tag, Tags))
      return llvm::formatv("a call in another file of the program ({0}:{1}, {2}) may take a message of these tags",
                           llvm::sys::path::filename(M->File), M->Line, tagText(M->Tag));
  if (!Sends || !Receives)
    return Sends ? "no receives of this shape in the file take the messages"
                 : "no sends of this shape in the file make the messages";
  return "";
}

/// The profile's verdict on a shape's largest send group: the family of
/// its number of parts ("aggregate": two, "aggregate3", "aggregate4": four
/// or more), or, where the profile lacks it, the two parts' (fewer parts
/// save less: the verdict can only be more cautious).
ProfileVerdict verdict(const MachineProfile *Profile, const std::vector<Candidate *> &Groups) {
  int64_t Bytes = 0;
  size_t Parts = Groups.front()->Calls.size();
  for (const Candidate *G : Groups)
    Bytes = G->Send ? std::max(Bytes, G->Bytes) : Bytes;
  std::string Family = Parts >= 4 ? "aggregate4" : Parts == 3 ? "aggregate3" : "aggregate";
  if (Profile && !Profile->messageFor(Family, Bytes))
    Family = "aggregate";
  std::string Theirs = Family == "aggregate"    ? "two messages"
                       : Family == "aggregate3" ? "three messages"
                                                : "four messages";
  return profileVerdict(Profile, Family, Bytes,
                        {"one packed message", Theirs + " of its parts", "a packed message", "the packed message"});
}

ChangeNote note(const Candidate &G, bool Applied, std::string Why) {
  const CallResult &F = *G.Calls.front();
  std::string What = llvm::formatv("{0} {1} at {2}", G.Calls.size(), G.Send ? mpi::MPI_Send : mpi::MPI_Recv, lines(G));
  if (!G.Shape.empty())
    What += " (" + G.Shape + ")";
  What += Applied ? (G.Send ? " as one message" : " as one receive") : " stay separate";
  ChangeNote N = ChangeNote::at(Transform, Applied, F.File, F.Line, F.Column, What, std::move(Why));
  if (Applied) {
    N.Kind = NoteKind::Template;
    N.Saves = llvm::formatv("{0} of {1} messages per execution", G.Calls.size() - 1, G.Calls.size());
    for (size_t I = 1; I < G.Calls.size(); ++I)
      N.Also.push_back({G.Calls[I]->Line, G.Calls[I]->Column});
  }
  return N;
}

} // namespace

std::vector<TagUse> ompi::tagUses(ASTContext &Ctx, const FileResult *Calls) {
  TagUses V(Ctx, Calls);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  V.finish();
  return std::move(V.Uses);
}

AggregationPlan ompi::planAggregation(ASTContext &Ctx, Evaluator &Ev, const FileResult &Calls,
                                      const MachineProfile *Profile, llvm::function_ref<bool(const CallExpr *)> Taken) {
  AggregationPlan Plan;
  std::vector<Candidate> Cands;
  for (auto &R : runs(Ctx, Calls)) {
    Cands.emplace_back();
    Cands.back().Calls = std::move(R);
    examine(Ctx, Cands.back());
  }
  if (Cands.empty())
    return Plan;
  std::vector<TagUse> Uses = tagUses(Ctx, &Calls);
  OtherFiles Others = otherFiles(Ctx, Ev, Calls.File, Uses);
  std::map<std::string, std::vector<Candidate *>> Shapes;
  std::vector<std::string> Order;
  for (Candidate &G : Cands) {
    if (!G.Problem.empty()) {
      Plan.Declined.push_back(note(G, false, G.Problem));
      continue;
    }
    if (!Shapes.count(G.Shape))
      Order.push_back(G.Shape);
    Shapes[G.Shape].push_back(&G);
  }
  for (const std::string &S : Order) {
    std::vector<Candidate *> &Groups = Shapes[S];
    std::string Why = shapeProblem(Groups, Uses, Others, Taken);
    ProfileVerdict V;
    if (Why.empty()) {
      V = verdict(Profile, Groups);
      if (!V.Wins)
        Why = V.Figure;
    }
    for (Candidate *G : Groups) {
      if (!Why.empty()) {
        Plan.Declined.push_back(note(*G, false, Why));
        continue;
      }
      std::string Proof = llvm::formatv(
          "every call of the program that may take a message of tags {0} is in a group of this shape in this file "
          "({1} in all): each process sends them to a peer only as whole groups and receives them from a peer only "
          "as whole groups, so by MPI's order the i-th group received takes the i-th group sent, one message as "
          "the separate ones; {2}; {3}",
          llvm::join(llvm::map_range(G->Tags, [](int64_t T) { return std::to_string(T); }), ", "), Groups.size(),
          G->Send ? llvm::formatv("{0} bytes with the header, sent eagerly as the separate ones were", G->Bytes).str()
                  : std::string("the later receives' arguments read nothing the earlier ones write"),
          V.Figure);
      Plan.Groups.push_back({G->Send, G->Calls, note(*G, true, Proof), note(*G, false, "")});
    }
  }
  return Plan;
}
