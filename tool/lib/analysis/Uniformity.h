//===- Uniformity.h - Which points and values every rank shares -----------===//
//
// A transformation that changes the sequence of collectives (fusing two
// reductions, deferring one, waiting for a deferred one) is only correct
// where every rank changes its sequence the same way. This analysis says
// where that holds:
//
//  - a value *varies* when it may differ between ranks: the output of
//    MPI_Comm_rank, anything computed from it, point-to-point and MPI_Reduce
//    results, results of functions the tool cannot see, memory read through
//    pointers (but memory one pointer variable owns is judged by its stores:
//    OwnedMemory.h), parameters some caller passes a varying value (or that callers
//    in other files may pass anything), globals other files may write, and a
//    variable assigned under a varying condition;
//  - a program point is *divergent* when some ranks may reach it and others
//    not (or a different number of times): it is control dependent, on the
//    function's CFG, on a branch whose condition varies (an if, a loop
//    condition, a switch, an early return or break under a varying test);
//  - a function is *entered divergently* when one of its call sites in the
//    file is at a divergent point (directly or through its callers), or it is
//    called through a pointer. A function no code of the file calls is
//    assumed to be entered by every rank alike, as an MPI library routine is.
//
// A loop that makes a collective call on every iteration (a call reached on
// every path through its body, directly or in a function it calls) is
// assumed to run the same number of iterations on every rank, whatever its
// condition: a correct program needs that, unless other code makes up the
// difference with the same calls (padding loops), which this analysis does
// not follow.
//
// Paths that stop the job (MPI_Abort, abort(), a failed assert, exit with a
// non-zero status) never continue on any rank: they are left out, so
// "if (rank == 0 && bad) MPI_Abort(...)" does not make what follows
// divergent.
//
// The proofs are positive: a value is uniform only when every source of it
// is known to be (literals, sizeof, MPI_Comm_size, MPI_Allreduce and
// MPI_Bcast results at uniform points, argc and argv of main, pure library
// functions of uniform arguments, and variables whose every definition is
// uniform and made at a uniform point).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_UNIFORMITY_H
#define OMPI_TOOL_ANALYSIS_UNIFORMITY_H

#include "analysis/Evaluator.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace ompi {

/// Why a point is divergent: the branch that separates the ranks.
struct Divergence {
  unsigned Line = 0;     ///< the line of the branch (or call site)
  std::string Why;       ///< "the branch at line 18 depends on rank (MPI_Comm_rank at line 12)"
  bool Unplaced = false; ///< the point is not in the function's CFG: unknown, not proved divergent
};

struct Write;
class Effects;
class RootBroadcast;
class OwnedMemory;
struct OwnedPointer;

class Uniformity {
public:
  Uniformity(clang::ASTContext &Ctx, Evaluator &Ev);
  ~Uniformity();

  /// Why code placed just before statement (or expression) S of F may run on
  /// some ranks and not others; nullopt when every rank that enters F runs
  /// it alike. Branches inside S itself do not count.
  std::optional<Divergence> within(const clang::Stmt *S, const clang::FunctionDecl *F);
  /// Why F may be entered by some ranks and not others.
  std::optional<Divergence> entry(const clang::FunctionDecl *F);
  /// within() or entry(): why S may not run on every rank alike.
  std::optional<Divergence> at(const clang::Stmt *S, const clang::FunctionDecl *F);
  /// Why the value of E (an expression of F) may differ between ranks.
  std::optional<std::string> varies(const clang::Expr *E, const clang::FunctionDecl *F);
  /// Why this file's writes of the global V may differ between ranks.
  std::optional<std::string> writesVary(const clang::VarDecl *V);
  /// The globals this file writes (or whose address it takes).
  std::vector<const clang::VarDecl *> writtenGlobals();
  /// The same, with the function of this file whose code writes each (null:
  /// an initializer at file scope), once per pair.
  std::vector<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>> globalWrites();
  /// Whether every call of F makes a collective (runsCollective on its body).
  bool alwaysCollective(const clang::FunctionDecl *F);
  /// Why F's result may differ between ranks.
  std::optional<std::string> resultVaries(const clang::FunctionDecl *F);
  /// Why this file's stores into the memory global pointer V owns may
  /// differ between ranks, or how other code may reach it (OwnedMemory.h).
  std::optional<std::string> pointeeWritesVary(const clang::VarDecl *V);
  /// The global pointers this file uses that may own their memory.
  std::vector<const clang::VarDecl *> ownedGlobals();
  /// Whether F, defined in this file, returns a fresh object.
  bool returnsFresh(const clang::FunctionDecl *F);
  /// The file's pointers that alone reach their memory (OwnedMemory.h), with
  /// the program's facts about allocators and frees of other files.
  OwnedMemory &owned();

private:
  struct Func;
  struct Writes;
  clang::ASTContext &Ctx;
  Evaluator &Ev;
  std::map<const clang::FunctionDecl *, std::unique_ptr<Func>> Funcs;
  std::map<const clang::FunctionDecl *, std::optional<Divergence>> EntryMemo;
  std::set<const clang::FunctionDecl *> EntryBusy;
  std::map<const clang::VarDecl *, std::optional<std::string>> GlobalMemo;
  std::map<const clang::FunctionDecl *, std::optional<std::string>> ReturnMemo;
  std::set<const void *> Busy; ///< parameters and functions being decided (cycles vary)
  std::unique_ptr<Writes> W;   ///< every write the CFG's definitions do not track
  std::map<const clang::VarDecl *, std::string> VaryingGlobals;
  std::map<const clang::Stmt *, bool> EveryIteration;
  std::unique_ptr<Effects> Eff;
  std::unique_ptr<RootBroadcast> RB;
  std::unique_ptr<OwnedMemory> OM;
  std::map<const clang::VarDecl *, std::string> VaryingPointees; ///< owned memory that varies, and why

  Func &func(const clang::FunctionDecl *F);
  void ensureGlobals();
  void clearCaches();
  std::optional<Divergence> withinImpl(const clang::Stmt *S, const clang::FunctionDecl *F);
  std::optional<Divergence> entryImpl(const clang::FunctionDecl *F);
  std::optional<unsigned> firstBlock(const clang::Stmt *S, Func &Fn);
  bool collectiveEveryIteration(const clang::Stmt *Loop);
  bool runsCollective(const clang::Stmt *Body, unsigned Depth);
  std::optional<std::string> defVaries(const Def &D, Func &Fn);
  std::optional<std::string> writeVaries(const Write &X, Func &Fn);
  std::optional<std::string> variesNode(const clang::Stmt *S, Func &Fn);
  std::optional<std::string> variesVar(const clang::VarDecl *V, const clang::DeclRefExpr *Ref, Func &Fn);
  std::optional<std::string> collectiveOutVaries(const clang::CallExpr *CE, const clang::VarDecl *V, Func &Fn);
  std::optional<std::string> variesParam(const clang::ParmVarDecl *PV);
  std::optional<std::string> variesGlobal(const clang::VarDecl *V);
  bool collectiveJustSet(const clang::VarDecl *V, const clang::DeclRefExpr *Ref, Func &Fn);
  bool setsAllOf(const clang::Stmt *T, const clang::VarDecl *V, Func &Fn);
  bool broadcastOverwrites(const clang::VarDecl *V, const clang::Stmt *At, const clang::FunctionDecl *F, Func &Fn);
  std::optional<std::string> variesCall(const clang::CallExpr *CE, Func &Fn);
  std::optional<std::string> variesReturn(const clang::FunctionDecl *F);
  std::optional<Divergence> divergentBlock(Func &Fn, unsigned Block, const clang::Stmt *Inside);
  void solveLocals(Func &Fn);
  unsigned line(const clang::Stmt *S) const;
  bool outside(const clang::NamedDecl *D) const;
  bool reconciled(const clang::VarDecl *V, const clang::Stmt *At, const clang::FunctionDecl *F);
  RootBroadcast &rootBroadcast();
  bool entriesReconciled(const clang::VarDecl *V, const clang::FunctionDecl *G, unsigned Depth);
  const ProgramFacts *program() const;
  std::optional<std::string> ownedVaries(const OwnedPointer &P);
  std::optional<std::string> pointeeVaries(const clang::VarDecl *V);
  std::optional<std::string> readThrough(const clang::Expr *Base, const clang::Expr *Whole);
  std::optional<std::string> storeAtVaries(const clang::Stmt *At, const clang::FunctionDecl *F, bool Global,
                                           llvm::StringRef What);
  std::optional<std::string> otherFilesPass(const clang::ParmVarDecl *PV, const ProgramFacts &P);
  std::optional<Divergence> enteredFromOtherFiles(const clang::FunctionDecl *F, const ProgramFacts &P);
};

} // namespace ompi

#endif
