//===- ProgramFacts.h - What one file tells the others about uniformity -----===//
//
// Whole-program facts: what each file of a program records about the names
// other files share with it (functions and globals with external linkage),
// so that the analysis of one file need not assume the worst of the others.
//
//  - per global: whether a file of the program defines it, and, if some
//    file writes it with a value that may differ between ranks (or at a
//    point only some ranks reach, or takes its address), why;
//  - per global pointer: why the memory it points to may differ between
//    ranks (a store of a value that may, or other code may reach it);
//  - per global request variable: why a file may reach its requests other
//    than by nonblocking starts and completions the templates can rewrite;
//  - per function: whether a file defines it, why its result may differ
//    between ranks, whether its address is taken, whether it returns a
//    fresh object;
//  - per call of a function another file defines: whether the call is made
//    on some ranks only, and why each argument may differ between ranks;
//  - per point-to-point call with a tag: its tag, when it is a constant
//    (message-aggregation: which calls could take a message);
//  - per forwarding wrapper (Wrappers.h): its MPI call, so that other files
//    may write their calls of it as that call.
//
// The facts of a program are a least fixpoint: every file starts from none
// (nothing another file does varies), each round re-analyses every file with
// the union of the previous round's facts, and the rounds stop when the
// union no longer grows. Facts only ever add "varies" (union), so a result
// is sound only once the rounds settle: a driver that stops early must use
// none. They apply only to a program whose files are all analysed and of
// which exactly one defines main (a library's callers are unknown).
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_ANALYSIS_PROGRAMFACTS_H
#define OMPI_TOOL_ANALYSIS_PROGRAMFACTS_H

#include "analysis/Wrappers.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace ompi {

class Evaluator;
class Uniformity;

struct GlobalFact {
  bool Defined = false;               ///< a file of the program defines it
  std::optional<std::string> Varies;  ///< why a write (in some file) may differ between ranks
  std::vector<std::string> WrittenBy; ///< the files that write it (or take its address)
  /// For a pointer: why the memory it points to may differ between ranks
  /// (a store of a value that may, or other code may reach it: OwnedMemory.h).
  std::optional<std::string> Pointee;
  /// The files whose code names it (reads, writes or takes its address);
  /// NamedKnown false where a facts file did not say (an older one).
  std::vector<std::string> NamedBy;
  bool NamedKnown = true;
  /// For a request variable (MPI_Request array or pointer): why some file
  /// may reach its requests other than by nonblocking starts and by
  /// completions the templates can rewrite (NonblockingPlan.h); none: every
  /// file that names it uses it only so (unless RequestsUnknown).
  std::optional<std::string> Requests;
  bool operator==(const GlobalFact &O) const {
    return Defined == O.Defined && Varies == O.Varies && WrittenBy == O.WrittenBy && Pointee == O.Pointee &&
           NamedBy == O.NamedBy && NamedKnown == O.NamedKnown && Requests == O.Requests;
  }
};

/// One call of a function's sequence (FunctionFact::Sequence): a call of
/// the function makes it, in order, on every path: a collective, or a
/// blocking send or receive (Peer its destination or source, Tag its tag).
/// Each argument is a constant as spelled ("MPI_COMM_WORLD", "0",
/// "MPI_SUM", "MPI_ANY_SOURCE"), "param:N" for the caller's N-th argument,
/// "?" where the file does not tell, or "" where the call has no such
/// argument.
struct SequenceCall {
  std::string Call, File; ///< "MPI_Bcast"; the base name of its file
  unsigned Line = 0;
  std::string Comm, Root, Op, Count, Type, Peer, Tag;
  bool operator==(const SequenceCall &O) const {
    return Call == O.Call && File == O.File && Line == O.Line && Comm == O.Comm && Root == O.Root && Op == O.Op &&
           Count == O.Count && Type == O.Type && Peer == O.Peer && Tag == O.Tag;
  }
  /// A send or receive (Peer names its other rank), not a collective.
  bool message() const { return !Peer.empty(); }
};

struct FunctionFact {
  bool Defined = false;
  std::optional<std::string> Result;       ///< why its result may differ between ranks
  std::optional<std::string> AddressTaken; ///< where its address is taken
  /// Every call of it makes a collective (one reached on every path through
  /// its first statements, directly or in what it calls): a loop that calls
  /// it on every iteration runs alike on every rank (Uniformity.h).
  bool Collective = false;
  /// Every return gives a fresh object (OwnedMemory.h): a pointer assigned
  /// its result may own its memory.
  bool Fresh = false;
  /// The parameters it only frees (OwnedMemory.h's freesOnly), in order: a
  /// pointer passed there goes nowhere else.
  std::vector<unsigned> Frees;
  /// What a call of it may write among the program's globals: those its
  /// file's code writes (or whose address it takes) in it and in the
  /// functions of that file it calls, and the functions of other files it
  /// may call (whose facts say the rest). Known only when its file listed
  /// them (no call through a pointer, no older facts file): mayWrite().
  bool WritesKnown = false;
  std::vector<std::string> Writes, Reaches;
  /// Its file's code in it or in the functions of that file it calls makes
  /// an MPI call ("mpi"; true when an older facts file does not say): with
  /// Reaches, mayCommunicate() says whether a call of it may.
  bool Mpi = true;
  /// Where its file knows every MPI call a call of it makes, and they are
  /// collectives or blocking sends and receives on MPI_COMM_WORLD or a
  /// communicator parameter made in order on every path (no branch, loop
  /// or early return around them, nothing else that may communicate):
  /// those calls (SequenceFacts.cpp). The per-rank runs of other files
  /// follow a call of it through them.
  std::optional<std::vector<SequenceCall>> Sequence;
  bool operator==(const FunctionFact &O) const {
    return Defined == O.Defined && Result == O.Result && AddressTaken == O.AddressTaken && Collective == O.Collective &&
           Fresh == O.Fresh && Frees == O.Frees && WritesKnown == O.WritesKnown && Writes == O.Writes &&
           Reaches == O.Reaches && Mpi == O.Mpi && Sequence == O.Sequence;
  }
};

/// A call, in one file, of a function with external linkage it does not define.
struct CallFact {
  std::string Callee, File;
  unsigned Line = 0, Column = 0;
  std::optional<std::string> Divergent;         ///< why only some ranks may make the call
  std::vector<std::optional<std::string>> Args; ///< why each argument may differ between ranks
  bool operator==(const CallFact &O) const {
    return Callee == O.Callee && File == O.File && Line == O.Line && Column == O.Column && Divergent == O.Divergent &&
           Args == O.Args;
  }
};

/// A point-to-point call with a tag, in one file (AggregationPlan.h).
struct MessageFact {
  std::string File; ///< the file's path, as ProgramFacts::Files has it
  unsigned Line = 0;
  std::optional<int64_t> Tag; ///< none: may be any tag
  bool operator==(const MessageFact &O) const { return File == O.File && Line == O.Line && Tag == O.Tag; }
};

class ProgramFacts {
public:
  std::map<std::string, GlobalFact> Globals;
  std::map<std::string, FunctionFact> Functions;
  std::vector<CallFact> Calls;
  std::vector<MessageFact> Messages;
  /// The forwarding wrappers the files define (Wrappers.h), by name.
  std::map<std::string, WrapperFact> Wrappers;
  /// Some file's facts did not list its point-to-point calls (written by
  /// an older ompi-opt): any file may use any tag.
  bool MessagesUnknown = false;
  /// Some file's facts did not say how it uses global request variables
  /// (GlobalFact::Requests; written by an older ompi-opt).
  bool RequestsUnknown = false;
  std::vector<std::string> Files;     ///< the files whose facts these are
  std::vector<std::string> MainFiles; ///< those of them that define main
  /// Per file, a digest of every text it was parsed from (its includes
  /// too): what a cache of the facts must key on.
  std::map<std::string, std::string> Digests;
  /// The first round's facts: no file has been analysed yet, so every name
  /// with external linkage counts as the program's, and nothing another
  /// file does varies (the fixpoint's start).
  bool Seed = false;

  /// The facts of one analysed file (its Uniformity answers with the facts
  /// it was given, if any).
  static ProgramFacts ofFile(clang::ASTContext &Ctx, Evaluator &Ev, Uniformity &Uni, llvm::StringRef Path);
  /// Add Other's facts to these: a fact that varies wins, and the first
  /// reason given is kept (so the rounds settle once no fact changes);
  /// calls and files are kept once.
  void merge(const ProgramFacts &Other);
  bool operator==(const ProgramFacts &O) const {
    return Globals == O.Globals && Functions == O.Functions && Calls == O.Calls && Messages == O.Messages &&
           MessagesUnknown == O.MessagesUnknown && RequestsUnknown == O.RequestsUnknown && Wrappers == O.Wrappers &&
           Files == O.Files && MainFiles == O.MainFiles && Digests == O.Digests;
  }
  bool operator!=(const ProgramFacts &O) const { return !(*this == O); }

  std::string toJSON() const;
  static llvm::Expected<ProgramFacts> fromJSON(llvm::StringRef Text);
  /// Read and merge the facts files (one line naming the file on error).
  static llvm::Expected<ProgramFacts> read(const std::vector<std::string> &Paths);

  /// The functions known to make a collective on every call.
  std::vector<std::string> collectives() const;
  /// Facts to start the rounds again from: the seed, knowing these
  /// functions make a collective on every call.
  static ProgramFacts seed(std::vector<std::string> Collective);
  /// Whether these facts may be used: a program (one file defines main).
  bool program() const { return Seed || MainFiles.size() == 1; }
  /// The calls of Name other files make.
  std::vector<const CallFact *> callsOf(llvm::StringRef Name) const;
  /// Whether another file calls the function Name or takes its address.
  bool reachedFromOtherFiles(llvm::StringRef Name) const;
  /// Whether a call of the function Name may write the global Global (by
  /// name), here or in what it calls, by the functions' write facts: true
  /// where a fact on the way is missing or not known whole.
  bool mayWrite(llvm::StringRef Name, llvm::StringRef Global) const;
  /// Whether a call of the function Name may make an MPI call, here or in
  /// what it calls (true where a fact on the way is missing, not known
  /// whole, or the fixpoint's first round).
  bool mayCommunicate(llvm::StringRef Name) const;
  /// The collectives and blocking sends and receives a call of the
  /// function Name makes, where its file knows them all
  /// (FunctionFact::Sequence); null otherwise, and in the fixpoint's first
  /// round.
  const std::vector<SequenceCall> *callSequence(llvm::StringRef Name) const;
  /// Whether the code of no file but File (a name as the facts give it)
  /// names the global Name; false where a file's facts do not say, or two
  /// files of the program share File's name.
  bool namedOnlyIn(llvm::StringRef Name, llvm::StringRef File) const;
  /// The name the facts give the file Ctx was parsed from (its base name).
  static std::string nameOf(const clang::ASTContext &Ctx);

private:
  bool reachesAny(llvm::StringRef Name, llvm::function_ref<bool(const FunctionFact &)> Hit) const;
};

/// Every call, in a function of the file, of a function with external
/// linkage that the file does not define and neither MPI nor a system
/// header declares (with the function making it): the calls another file
/// of the program answers, or code no file of it holds.
std::vector<std::pair<const clang::FunctionDecl *, const clang::CallExpr *>> outgoingCalls(clang::ASTContext &Ctx);

/// The call sequence of F (FunctionFact::Sequence), given the facts
/// its file found for it (FF: what it reaches, whether it calls MPI), or
/// none where its file cannot tell every MPI call a call of F makes.
std::optional<std::vector<SequenceCall>> callSequenceOf(clang::ASTContext &Ctx, const Evaluator &Ev,
                                                        const clang::FunctionDecl *F, const FunctionFact &FF,
                                                        llvm::StringRef File);

} // namespace ompi

#endif
