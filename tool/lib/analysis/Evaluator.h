//===- Evaluator.h - Partial evaluation of MPI call arguments --------------===//
//
// Decides, for an expression at a program point, whether its value is known
// at compile time (static), is an affine function of the caller's rank and
// the communicator's size (rank-relative), or is unknown (dynamic).
//
// Static values come from literals, enumerators, macros, sizeof, const
// variables, arithmetic on static values, local variables whose reaching
// definitions at the point (flow-sensitive, on the Clang CFG) all give the
// same static value, globals that nothing in the translation unit writes,
// and function parameters that every call site in the translation unit
// passes the same static value. MPI handles are static by spelling.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_EVALUATOR_H
#define OMPI_TOOL_EVALUATOR_H

#include "mpi/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ompi {

class ProgramFacts;

enum class ArgClass { Static, RankRelative, Dynamic };
llvm::StringRef argClassName(ArgClass C);
/// The less static of two classes.
ArgClass worst(ArgClass A, ArgClass B);

/// a*rank + s*size + c, optionally reduced modulo a constant or the size.
struct AffineForm {
  int64_t Rank = 0, Size = 0, Const = 0;
  enum ModKind { NoMod, ModConst, ModSize } Mod = NoMod;
  int64_t ModValue = 0;
  bool operator==(const AffineForm &O) const {
    return Rank == O.Rank && Size == O.Size && Const == O.Const && Mod == O.Mod && ModValue == O.ModValue;
  }
  std::string str() const;
};

/// The identity of a communicator, as far as the tool can prove it.
struct CommId {
  enum Kind {
    Unknown,    ///< cannot be identified
    Predefined, ///< a predefined handle (MPI_COMM_WORLD), through any copies
    Created,    ///< a local variable set once, by a communicator constructor
    Global,     ///< a file-scope variable this file never writes
    Local       ///< a local variable with these reaching definitions
  } K = Unknown;
  std::string Key; ///< Predefined: the handle's name; else what identifies it

  bool known() const { return K != Unknown; }
  /// Two definite ids denote the same communicator exactly when equal.
  bool definite() const { return K == Predefined || K == Created; }
  /// MPI_COMM_WORLD itself (through any copies).
  bool isWorld() const { return K == Predefined && Key == mpi::MPI_COMM_WORLD; }
  bool operator==(const CommId &O) const { return K == O.K && Key == O.Key; }
  bool operator!=(const CommId &O) const { return !(*this == O); }
  bool operator<(const CommId &O) const { return K != O.K ? K < O.K : Key < O.Key; }
  /// A string equal for equal ids (a map key).
  std::string str() const { return std::to_string(int(K)) + ":" + Key; }
  /// Whether A and B may denote the same communicator.
  static bool maySame(const CommId &A, const CommId &B) { return A == B || !A.definite() || !B.definite(); }
};

/// The abstract value of an expression.
struct SymValue {
  enum Kind { Dynamic, Int, Handle, Address, Affine } K = Dynamic;
  int64_t I = 0;                       ///< Int
  std::string Name;                    ///< Handle: its spelling; Address: the object's name
  const clang::VarDecl *Obj = nullptr; ///< Address: the object itself
  int64_t Offset = 0;                  ///< Address: byte offset into the object
  std::string Spelled;                 ///< Address: canonical rendering ("&x", "buf", "&buf[2]")
  AffineForm A;                        ///< Affine
  CommId Comm;                         ///< Affine: the communicator the rank/size belong to
  std::string Reason;                  ///< Dynamic: why it is not static
  std::string Note;                    ///< how a static value was derived, when not obvious

  static SymValue dyn(std::string Why) {
    SymValue V;
    V.Reason = std::move(Why);
    return V;
  }
  static SymValue integer(int64_t X) {
    SymValue V;
    V.K = Int;
    V.I = X;
    return V;
  }
  static SymValue handle(std::string N) {
    SymValue V;
    V.K = Handle;
    V.Name = std::move(N);
    return V;
  }
  ArgClass cls() const;
  /// The canonical rendering of a static or rank-relative value.
  std::string str() const;
  /// Same abstract value (ignoring how it was derived).
  bool same(const SymValue &O) const;
};

/// A program point: before element Index of CFG block Block.
struct Point {
  unsigned Block = 0, Index = 0;
};

/// Facts about the whole translation unit, gathered once.
struct TUIndex {
  /// Direct call sites of each function (canonical decl): caller and call.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<std::pair<const clang::FunctionDecl *, const clang::CallExpr *>>>
      CallSites;
  /// Functions whose address is taken (called through pointers, or escaping).
  llvm::DenseSet<const clang::FunctionDecl *> AddressTaken;
  /// Globals and static locals written or address-taken somewhere: first line.
  llvm::DenseMap<const clang::VarDecl *, unsigned> WrittenGlobals;
  bool DefinesMain = false;

  void build(clang::ASTContext &Ctx);
};

/// One definition of a tracked local variable.
struct Def {
  /// Output: set by another output of an MPI query (MPI_Cart_shift, ...)
  /// or a handle's constructor, commit or free. CollectiveOut: &x given to
  /// a blocking collective whose result is the same on every rank of its
  /// communicator (MPI_Bcast's buffer, MPI_Allreduce's result), which
  /// writes x before it returns and keeps no pointer to it.
  enum Kind { Init, NoInit, Assign, Compound, IncDec, RankOut, SizeOut, Output, CollectiveOut, Entry } K;
  const clang::VarDecl *Var;
  const clang::Stmt *S;     ///< the defining statement (null for Entry)
  const clang::Expr *Value; ///< Init/Assign/Compound: the right-hand side
  const clang::Expr *Comm;  ///< RankOut/SizeOut/CollectiveOut: the communicator argument
  Point P;
  unsigned Line;

  /// For a definition a call makes (RankOut, SizeOut, Output): "x is set by
  /// MPI_Cart_shift at line 12"; "" for any other.
  std::string setBy() const;
};

/// Per-function CFG, reaching definitions and escape facts.
class FunctionAnalysis {
public:
  FunctionAnalysis(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  const clang::FunctionDecl *function() const { return FD; }
  bool valid() const { return Cfg != nullptr; }
  std::optional<Point> pointOf(const clang::Stmt *S) const;
  /// Definitions of V that reach P.
  std::vector<const Def *> reaching(const clang::VarDecl *V, Point P) const;
  /// Line at which V's address is first taken (other than for an output of
  /// an MPI query such as MPI_Comm_rank or MPI_Cart_shift), if it is.
  std::optional<unsigned> addressTaken(const clang::VarDecl *V) const;
  /// Whether a point where V's address is taken (as addressTaken counts
  /// them) may come before P on some path: only then can a pointer write V
  /// at P.
  bool addressReaches(const clang::VarDecl *V, Point P) const;
  const std::vector<Def> &defs() const { return Defs; }
  const clang::CFG &cfg() const { return *Cfg; }

private:
  const clang::FunctionDecl *FD;
  clang::ASTContext &Ctx;
  std::unique_ptr<clang::CFG> Cfg;
  llvm::DenseMap<const clang::Stmt *, Point> Pos;
  std::vector<Def> Defs;
  /// Definitions made by each element, by (block, index).
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> DefsAt;
  std::vector<llvm::BitVector> In;
  llvm::DenseMap<const clang::VarDecl *, llvm::BitVector> DefsOfVar;
  llvm::DenseMap<const clang::VarDecl *, unsigned> AddrTaken;
  llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::Expr *>> AddrSites;

  void collectDefs(const clang::Stmt *S, Point P);
  void solve();
  void findAddressTaken();
};

struct EvalOptions {
  /// Treat functions with external linkage as called only from this
  /// translation unit when it defines main().
  bool ClosedWorld = true;
  /// Treat getenv's result as the same on every rank (--uniform-env).
  bool UniformEnv = false;
  /// The process counts the per-rank runs judge at (--nprocs); empty: the
  /// defaults that the program's guards accept (ProcessCounts.h).
  std::vector<int> NProcs;
  /// What the other files of the program do (--program-facts, or the
  /// driver's rounds over a whole program); null: nothing is known of them.
  std::shared_ptr<const ProgramFacts> Program;
  /// Functions of the file called also from code the parse does not show
  /// (forwarding wrappers whose calls the driver wrote as their MPI calls:
  /// driver/Inlining.h): judged as if their address were taken.
  std::vector<std::string> UnseenCallers;
};

class Evaluator {
public:
  Evaluator(clang::ASTContext &Ctx, EvalOptions Opts = {});
  /// The value of E evaluated at the program point of Anchor (a statement of
  /// function FD, normally the MPI call E is an argument of).
  SymValue evaluate(const clang::Expr *E, const clang::FunctionDecl *FD, const clang::Stmt *Anchor);
  /// One value a variable may have at a point, and the line of the
  /// definition that gives it.
  struct Alternative {
    SymValue Value;
    unsigned Line = 0;
  };
  /// When E (at Anchor, in FD) reads a local variable that several
  /// definitions reach with different values (set on different paths), the
  /// value of each definition; empty otherwise (one definition, or not a
  /// plain local variable, or its address is taken).
  std::vector<Alternative> alternatives(const clang::Expr *E, const clang::FunctionDecl *FD, const clang::Stmt *Anchor);
  /// The predefined handle E is spelled as, through any macros.
  std::optional<std::string> spelledHandle(const clang::Expr *E) const;
  /// The source text of E, whitespace collapsed.
  std::string text(const clang::Expr *E) const;
  /// The communicator the expression E denotes, as far as it is known.
  CommId commId(const clang::Expr *E, const clang::FunctionDecl *FD, const clang::Stmt *Anchor);
  /// Whether A and B are known to have the same group, so that a rank in
  /// one is the same process's rank in the other: the same communicator,
  /// or one made from the other by MPI_Comm_dup (with info, or
  /// nonblocking), through any chain of duplicates.
  bool sameRanks(const CommId &A, const CommId &B);
  /// The communicator a created one duplicates, when MPI_Comm_dup (or a
  /// variant) made it.
  std::optional<CommId> dupParent(const CommId &Id);
  /// MPI_Type_size of a predefined datatype on this target, if known.
  std::optional<int64_t> datatypeSize(llvm::StringRef Name) const;
  /// The canonical type a C type spelling of the MPI model names ("unsigned
  /// long", "int64_t", "MPI_Aint"), or a null type when this translation
  /// unit does not know it.
  clang::QualType typeOfSpelling(llvm::StringRef CType) const;
  FunctionAnalysis &analysis(const clang::FunctionDecl *FD);
  const TUIndex &index() const { return Index; }
  const EvalOptions &options() const { return Opts; }
  clang::ASTContext &context() const { return Ctx; }

private:
  class NodeEval;
  friend class NodeEval;
  clang::ASTContext &Ctx;
  EvalOptions Opts;
  TUIndex Index;
  std::map<const clang::FunctionDecl *, std::unique_ptr<FunctionAnalysis>> Analyses;
  std::map<const Def *, SymValue> DefMemo;
  llvm::DenseSet<const Def *> DefBusy;
  llvm::DenseSet<const clang::ParmVarDecl *> ParamBusy;
  unsigned Depth = 0;

  SymValue eval(const clang::Expr *E, FunctionAnalysis *FA, Point P);
  SymValue evalNode(const clang::Expr *E, FunctionAnalysis *FA, Point P);
  SymValue evalVar(const clang::VarDecl *V, const clang::Expr *Ref, FunctionAnalysis *FA, Point P);
  SymValue evalLocal(const clang::VarDecl *V, FunctionAnalysis &FA, Point P);
  SymValue evalGlobal(const clang::VarDecl *V);
  SymValue evalDef(const Def &D, FunctionAnalysis &FA);
  SymValue evalParam(const clang::ParmVarDecl *PV);
  SymValue evalBinary(clang::BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const clang::Expr *E);
  SymValue evalPointerArithmetic(clang::BinaryOperatorKind Op, const SymValue &L, const SymValue &R,
                                 const clang::Expr *E);
  SymValue evalIntegers(clang::BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const clang::Expr *E);
  SymValue evalAffine(clang::BinaryOperatorKind Op, const SymValue &L, const SymValue &R, const clang::Expr *E);
  SymValue evalAddressOf(const clang::Expr *Sub, FunctionAnalysis *FA, Point P);
  CommId commIdAt(const clang::Expr *E, FunctionAnalysis *FA, Point P);
  bool createdOnce(const clang::VarDecl *V, const clang::FunctionDecl *F);
  std::map<const clang::VarDecl *, bool> CreatedOnce;
  /// The constructor call of each variable createdOnce counted, in its function.
  std::map<const clang::VarDecl *, std::pair<const clang::CallExpr *, const clang::FunctionDecl *>> CreatedBy;
  SymValue normalise(SymValue V, clang::QualType T) const;
  std::optional<int64_t> typeSize(llvm::StringRef CType) const;
  unsigned line(const clang::Stmt *S) const;
};

} // namespace ompi

#endif
