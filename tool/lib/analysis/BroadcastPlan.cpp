//===- BroadcastPlan.cpp - Adjacent broadcasts from one root sent as one --===//
#include "analysis/BroadcastPlan.h"
#include "analysis/BufferStorage.h"
#include "analysis/Uniformity.h"
#include "mpi/Names.h"
#include "support/AST.h"
#include "support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace clang;
using namespace ompi;

namespace {

constexpr const char *Transform = "broadcast-fusion";
constexpr int64_t MaxBytes = 1024; // MPIOPT_AGG_MAX in templates/mpiopt/aggregate.h
constexpr size_t MaxParts = 16;    // MPIOPT_AGG_PARTS

/// The MPI_Bcast call statement S is, its value discarded (a cast to void
/// too), or null.
const CallExpr *broadcastStatement(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (const auto *C = dyn_cast_or_null<CStyleCastExpr>(E); C && C->getType()->isVoidType())
    E = C->getSubExpr();
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParens() : nullptr);
  const FunctionDecl *F = CE ? CE->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == mpi::MPI_Bcast ? CE : nullptr;
}

/// Whether B (statement SB) follows A (statement SA) with nothing but
/// blanks between, from the same root on the same communicator as written.
bool joins(ASTContext &Ctx, const Stmt *SA, const CallResult &A, const Stmt *SB, const CallResult &B) {
  if (A.Call->getBeginLoc().isMacroID() || B.Call->getBeginLoc().isMacroID() || !onlyBlanksBetween(Ctx, SA, SB))
    return false;
  std::string RA = fileText(Ctx, A.expr(Role::Root)), CA = fileText(Ctx, A.expr(Role::Comm));
  return !RA.empty() && !CA.empty() && RA == fileText(Ctx, B.expr(Role::Root)) &&
         CA == fileText(Ctx, B.expr(Role::Comm));
}

/// The block whose statement call CE is (its value discarded, a cast to
/// void too), or null.
const CompoundStmt *blockOf(ASTContext &Ctx, const CallExpr *CE) {
  const Stmt *S = CE, *P = parentStmt(Ctx, CE);
  while (P && (isa<ParenExpr>(P) || (isa<CStyleCastExpr>(P) && cast<CStyleCastExpr>(P)->getType()->isVoidType()))) {
    S = P;
    P = parentStmt(Ctx, P);
  }
  const auto *B = dyn_cast_or_null<CompoundStmt>(P);
  return B && broadcastStatement(S) == CE ? B : nullptr;
}

/// A run of adjacent broadcasts from one root on one communicator (one
/// call: a broadcast alone), or a call that is no statement of a block.
struct Run {
  std::vector<const CallResult *> Calls;
  bool Statement = true;
};

/// The runs of the file's broadcasts.
std::vector<Run> runs(ASTContext &Ctx, const FileResult &Calls) {
  std::map<const CallExpr *, const CallResult *> Facts;
  std::vector<const CompoundStmt *> Blocks;
  std::vector<Run> Out;
  for (const CallResult &C : Calls.Calls) {
    if (!C.Call || C.Function != mpi::MPI_Bcast)
      continue;
    const CompoundStmt *B = blockOf(Ctx, C.Call);
    if (!B)
      Out.push_back({{&C}, false});
    else if (Facts.emplace(C.Call, &C).second && !llvm::is_contained(Blocks, B))
      Blocks.push_back(B);
  }
  for (const CompoundStmt *B : Blocks) {
    Run R;
    const Stmt *Last = nullptr; // the statement of R's last call
    auto Flush = [&] {
      if (!R.Calls.empty())
        Out.push_back(R);
      R.Calls.clear();
    };
    for (const Stmt *S : B->body()) {
      const CallExpr *CE = broadcastStatement(S);
      auto It = CE ? Facts.find(CE) : Facts.end();
      if (It == Facts.end()) {
        Flush();
        continue;
      }
      if (!R.Calls.empty() && !joins(Ctx, Last, *R.Calls.back(), S, *It->second))
        Flush();
      R.Calls.push_back(It->second);
      Last = S;
    }
    Flush();
  }
  return Out;
}

/// A run and what the plan learns of it.
struct Candidate {
  std::vector<const CallResult *> Calls;
  bool Statement = true;        ///< a statement of a block (else its value is used)
  std::string Problem;          ///< why it is no group ("" when it is one)
  std::string Types;            ///< the datatypes, in order
  std::optional<int64_t> Bytes; ///< the parts' bytes, when known at compile time
};

/// Why the later calls' arguments may read what the earlier calls write on
/// a process that is not the root ("" when they cannot).
std::string orderProblem(ASTContext &Ctx, const Candidate &G) {
  for (size_t I = 0; I + 1 < G.Calls.size(); ++I) {
    const CallResult &C = *G.Calls[I];
    const VarDecl *Obj = bufferStorage(Ctx, C, Role::Buf);
    if (!Obj)
      return llvm::formatv("the buffer of the broadcast at line {0} ({1}) is not known to be one object (a named "
                           "variable, or a pointer that holds one allocation of its own): the later broadcasts' "
                           "arguments, evaluated before it is written, could read it",
                           C.Line, C.arg(Role::Buf) ? C.arg(Role::Buf)->Text : std::string("?"));
    for (size_t J = I + 1; J < G.Calls.size(); ++J)
      if (auto R = readsWritten(G.Calls[J]->Call, G.Calls[J]->expr(Role::Buf), Obj, nullptr))
        return llvm::formatv("the broadcast at line {0} reads {1}, which the broadcast at line {2} writes on the "
                             "other processes: one broadcast evaluates every argument before any part arrives",
                             G.Calls[J]->Line, R->Pointer ? std::string("through a pointer") : R->Name, C.Line);
  }
  return "";
}

/// Fill G's datatypes and bytes, or say why it is no group.
void examine(ASTContext &Ctx, Uniformity &Uni, Candidate &G) {
  const CallResult &F = *G.Calls.front();
  if (!G.Statement) {
    G.Problem = "it is no statement of a block (its value is used, or it is the body of an if or a loop without "
                "braces): only adjacent statements of one block are fused";
    return;
  }
  if (G.Calls.size() < 2) {
    G.Problem = "no other MPI_Bcast from the same root on the same communicator is next to it (adjacent statements "
                "of one block, nothing between): only adjacent broadcasts are fused";
    return;
  }
  if (G.Calls.size() > MaxParts) {
    G.Problem = llvm::formatv("more than {0} broadcasts in a row", MaxParts);
    return;
  }
  int64_t Bytes = 0;
  bool Known = true;
  std::string Types;
  for (const CallResult *C : G.Calls) {
    if (const Expr *A = unmovableArgument(Ctx, C->Call)) {
      G.Problem = "an argument (" + fileText(Ctx, A) +
                  ") has side effects or is written in a macro's body: one call evaluates every argument at once";
      return;
    }
    const ArgResult *Type = C->arg(Role::Type);
    if (!predefinedDatatype(Type)) {
      G.Problem = "the datatype " + (Type ? Type->Text : std::string("?")) + " is not a predefined one";
      return;
    }
    Types += (Types.empty() ? "" : ", ") + Type->Sym.Name;
    if (C->CommSize.Bytes)
      Bytes += *C->CommSize.Bytes;
    else
      Known = false;
  }
  G.Types = Types;
  if (Known && Bytes > MaxBytes) {
    G.Problem = llvm::formatv("{0} bytes in all: more than {1}, the most one fused broadcast carries (packing larger "
                              "parts costs more than a broadcast saves)",
                              Bytes, MaxBytes);
    return;
  }
  if (Known)
    G.Bytes = Bytes;
  if (std::optional<Divergence> D = Uni.at(F.Call, F.Caller)) {
    G.Problem = "every process must fuse the same broadcasts, but " + D->Why;
    return;
  }
  G.Problem = orderProblem(Ctx, G);
}

/// The profile's verdict on a group: the family of its number of parts, or,
/// where the profile lacks it, the two parts' (fewer parts save less).
ProfileVerdict verdict(const MachineProfile *Profile, const Candidate &G) {
  size_t Parts = G.Calls.size();
  std::string Family = Parts >= 4 ? "aggregate_bcast4" : Parts == 3 ? "aggregate_bcast3" : "aggregate_bcast";
  if (Profile && !Profile->messageFor(Family, G.Bytes))
    Family = "aggregate_bcast";
  std::string Theirs = Family == "aggregate_bcast"    ? "two broadcasts"
                       : Family == "aggregate_bcast3" ? "three broadcasts"
                                                      : "four broadcasts";
  return profileVerdict(Profile, Family, G.Bytes,
                        {"one fused broadcast", Theirs + " of its parts", "a fused broadcast", "the fused broadcast"});
}

ChangeNote note(const Candidate &G, bool Applied, std::string Why) {
  const CallResult &F = *G.Calls.front();
  std::string What =
      G.Calls.size() == 1
          ? std::string(mpi::MPI_Bcast)
          : llvm::formatv("{0} MPI_Bcast at lines {1}-{2}", G.Calls.size(), F.Line, G.Calls.back()->Line).str();
  if (!G.Types.empty())
    What += " (" + G.Types + ")";
  What += Applied ? " as one broadcast" : G.Calls.size() == 1 ? " stays as written" : " stay separate";
  ChangeNote N = ChangeNote::at(Transform, Applied, F.File, F.Line, F.Column, What, std::move(Why));
  if (Applied) {
    N.Kind = NoteKind::Template;
    N.Saves = llvm::formatv("{0} of {1} broadcasts per execution", G.Calls.size() - 1, G.Calls.size());
  }
  for (size_t I = 1; I < G.Calls.size(); ++I) // a group that stays separate declines each of its calls
    N.Also.push_back({G.Calls[I]->Line, G.Calls[I]->Column});
  return N;
}

} // namespace

BroadcastPlan ompi::planBroadcastFusion(ASTContext &Ctx, Uniformity &Uni, const FileResult &Calls,
                                        const MachineProfile *Profile,
                                        llvm::function_ref<bool(const CallExpr *)> Taken) {
  BroadcastPlan Plan;
  for (Run &R : runs(Ctx, Calls)) {
    Candidate G;
    G.Calls = std::move(R.Calls);
    G.Statement = R.Statement;
    if (llvm::any_of(G.Calls, [&](const CallResult *C) { return Taken(C->Call); }))
      continue; // another transformation's: it reports the call
    examine(Ctx, Uni, G);
    ProfileVerdict V;
    if (G.Problem.empty()) {
      V = verdict(Profile, G);
      if (!V.Wins)
        G.Problem = V.Figure;
    }
    if (!G.Problem.empty()) {
      Plan.Declined.push_back(note(G, false, G.Problem));
      continue;
    }
    std::string Size = G.Bytes ? llvm::formatv("{0} bytes in all", *G.Bytes).str()
                               : llvm::formatv("sizes known only at run time (above {0} bytes in all, the "
                                               "template makes the separate calls)",
                                               MaxBytes)
                                     .str();
    std::string Proof = llvm::formatv(
        "adjacent statements from the same root on the same communicator, at a point every rank runs alike, so "
        "every process replaces the same {0} broadcasts by one; the later ones' arguments read nothing the earlier "
        "ones write; {1}; {2}",
        G.Calls.size(), Size, V.Figure);
    Plan.Groups.push_back({G.Calls, note(G, true, Proof), note(G, false, "")});
  }
  return Plan;
}
