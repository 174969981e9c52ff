//===- MPIModel.h - The MPI call and handle model -------------------------===//
//
// The one description of the MPI interface that the tool understands. Every
// other part of ompi-opt asks this model what an MPI function's arguments
// mean; nothing else hard-codes MPI signatures or handle names.
//
// Handles are recognised by their spelling (MPI_COMM_WORLD, MPI_INT, ...),
// never by value: MPICH defines them as integer constants, Open MPI as the
// addresses of globals, and the same source must be classified the same way
// under either header.
//
//===----------------------------------------------------------------------===//
#ifndef OMPI_TOOL_MPIMODEL_H
#define OMPI_TOOL_MPIMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace ompi {

/// What one argument of an MPI function means.
enum class Role {
  SendBuf,     ///< data read by the call
  RecvBuf,     ///< data written by the call
  Buf,         ///< data read and written (Bcast buffer, Sendrecv_replace)
  SendCount,   ///< element count of the send side
  RecvCount,   ///< element count of the receive side
  Count,       ///< element count of both sides (reductions, Bcast, Send, Recv)
  SendCounts,  ///< per-peer send counts (v/w collectives)
  RecvCounts,  ///< per-peer receive counts
  SendDispls,  ///< per-peer send displacements
  RecvDispls,  ///< per-peer receive displacements
  SendType,    ///< datatype of the send side
  RecvType,    ///< datatype of the receive side
  Type,        ///< datatype of both sides
  SendTypes,   ///< per-peer send datatypes (w collectives)
  RecvTypes,   ///< per-peer receive datatypes
  Dest,        ///< destination rank
  Source,      ///< source rank
  SendTag,     ///< tag of the outgoing message
  RecvTag,     ///< tag of the incoming message
  Tag,         ///< tag (matching; p2p and probe)
  Comm,        ///< communicator
  Op,          ///< reduction operation
  Root,        ///< root rank of a rooted collective
  Request,     ///< output or input request
  Requests,    ///< array of requests
  Status,      ///< output status (or MPI_STATUS_IGNORE)
  Statuses,    ///< array of statuses
  Message,     ///< matched-probe message handle
  Info,        ///< info object
  RankOut,     ///< output: rank of the caller (MPI_Comm_rank)
  SizeOut,     ///< output: size of the communicator (MPI_Comm_size)
  Out,         ///< another output (flag, index, count, provided, ...)
  Win,         ///< window (one-sided calls)
  WinOut,      ///< output: the window a call creates
  WinBase,     ///< memory a window exposes (kept by the window until it is freed)
  WinSize,     ///< size of a window's memory in bytes
  DispUnit,    ///< a window's displacement unit in bytes
  TargetDisp,  ///< displacement at the target of a one-sided call, in displacement units
  TargetCount, ///< element count at the target
  TargetType,  ///< datatype at the target
  Assert,      ///< a synchronisation call's assertions (MPI_MODE_*)
  LockType,    ///< MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE
  Other        ///< anything else (argc/argv, error codes, array lengths)
};

/// The family an MPI function belongs to.
enum class Category {
  PointToPoint, ///< send, receive, sendrecv
  Probe,        ///< probe and matched probe
  Completion,   ///< wait, test, start, cancel, request free
  Collective,   ///< every collective operation
  Local,        ///< local operations with communication meaning (Reduce_local)
  OneSided,     ///< windows, their synchronisation and RMA (Put, Get, Accumulate, ...)
  Query,        ///< Comm_rank, Comm_size, Get_count
  Environment   ///< Init, Finalize, Abort, Wtime
};

/// Blocking, nonblocking (I-prefixed) or persistent (_init) form.
enum class Mode { Blocking, Nonblocking, Persistent, None };

struct ArgModel {
  std::string Name; ///< parameter name as in the MPI standard
  Role R;
};

struct FunctionModel {
  std::string Name; ///< "MPI_Send"
  Category Cat;
  Mode M;
  std::vector<ArgModel> Args;

  /// Index of the first argument with role R, if any.
  std::optional<unsigned> find(Role R) const;
  bool isCollective() const { return Cat == Category::Collective; }
  /// True for the reductions (Reduce, Allreduce, Scan, ... in every form).
  bool isReduction() const;
};

/// The model of the MPI function called Name, or null.
const FunctionModel *lookupFunction(llvm::StringRef Name);
/// Every modelled function, in table order.
llvm::ArrayRef<FunctionModel> allFunctions();

/// Whether the output of role R of a completed blocking call of M holds the
/// same value on every rank of its communicator: the size of
/// MPI_Comm_size, the result of MPI_Allreduce / MPI_Allgather(v), the buffer
/// of MPI_Bcast. (MPI_Comm_rank's output, MPI_Reduce's and every
/// point-to-point receive differ between ranks.)
bool sameOnEveryRank(const FunctionModel &M, Role R);
/// Whether the call ends a communicator's life (MPI_Comm_free,
/// MPI_Comm_disconnect): work still pending on it must complete before.
bool endsCommunicator(llvm::StringRef Name);
/// Whether the call creates a communicator into its last argument
/// (MPI_Comm_dup, MPI_Comm_split, MPI_Cart_create, ...): a new communicator,
/// never a predefined one.
bool createsCommunicator(llvm::StringRef Name);
/// Whether the call stops every process of the job (MPI_Abort): a path that
/// reaches it never continues, on any rank.
bool abortsJob(llvm::StringRef Name);
/// Whether the call sets MPI up or asks what a process may ask before it
/// communicates (MPI_Init, MPI_Comm_rank, MPI_Comm_size, the clock, ...).
bool setsUpOrQueries(llvm::StringRef Name);

/// Whether Name is an MPI or PMPI function's name (modelled or not).
bool isMPIFunctionName(llvm::StringRef Name);
/// Whether the call's result depends on where and when it runs, not on its
/// arguments (MPI_Wtime, MPI_Wtick): it differs between ranks.
bool returnsLocalValue(llvm::StringRef Name);
/// Whether the call carries data: false for barriers and probes, whose
/// communication set has no size.
bool carriesData(const FunctionModel &M);
/// Whether ompi-opt can fuse the call statically or hand it to the lazy
/// runtime: the blocking MPI_Allreduce and MPI_Reduce.
bool isFusibleReduction(llvm::StringRef Name);
/// Whether the call installs an error handler (after which a call's return
/// code may be an error the program checks, not MPI_SUCCESS or an abort).
bool setsErrorHandler(llvm::StringRef Name);
/// Whether the call ends the process and never returns (MPI_Abort).
bool endsProcess(llvm::StringRef Name);
/// The lazy runtime's function taking the same arguments as the fusible
/// reduction Name (mpiopt_lazy_allreduce for MPI_Allreduce), or "".
llvm::StringRef lazyCounterpart(llvm::StringRef Name);
/// The persistent (_init) form of a point-to-point call (MPI_Send_init for
/// MPI_Send and MPI_Isend), or "" when it has none.
llvm::StringRef persistentCounterpart(llvm::StringRef Name);
/// Whether the runtime offers a planned form of the collective (a plan
/// built once for arguments that do not change: MPI_Alltoallv, MPI_Alltoall,
/// MPI_Allgatherv).
bool hasPlannedForm(llvm::StringRef Name);
/// The runtime's planned forms of such a collective: Planned takes the
/// plan's address, then the call's own arguments (ompi-opt writes it where
/// it proves every plan argument the same on every iteration of a loop);
/// Cached takes the call's own arguments (a plan cache, for calls whose
/// arrays it cannot prove unchanged; "" when there is none). A cache keyed
/// by scalars (ScalarKey: MPI_Alltoall, MPI_Allgather) keeps one plan per
/// call site without an agreement between the ranks, so it needs the
/// call's datatypes to be predefined ones named at the call.
struct PlannedForms {
  llvm::StringRef Planned, Cached;
  bool ScalarKey = false;
};
std::optional<PlannedForms> plannedForms(llvm::StringRef Name);
/// Whether an argument of role R is part of a collective's plan (what must
/// not change for the plan to be reused: counts, displacements, datatypes,
/// communicator; not the buffers).
bool isPlanRole(Role R);
/// The runtime's large-vector form of a reduction (mpiopt_allreduce for
/// MPI_Allreduce, mpiopt_reduce for MPI_Reduce: the same arguments), or "".
llvm::StringRef largeVectorCounterpart(llvm::StringRef Name);
/// Whether the predefined op is a floating-point sum or product when applied
/// to a floating type (the operations whose result depends on the order of
/// evaluation): MPI_SUM, MPI_PROD.
bool reassociates(llvm::StringRef Op);
/// Whether the predefined arithmetic datatype named Datatype is floating
/// point (float, double, long double); nullopt for pair, complex, logical,
/// untyped, derived or unknown datatypes.
std::optional<bool> floatingArithmetic(llvm::StringRef Datatype);

/// The blocking collective a nonblocking (MPI_Igather) or persistent
/// (MPI_Gather_init) form belongs to, or Name itself.
std::string blockingForm(llvm::StringRef Name);
/// Whether the buffer (or count, datatype, displacements) of role R of the
/// collective Name is significant only at the root (the receive side of
/// MPI_Gather(v), the send side of MPI_Scatter(v), MPI_Reduce's result).
bool significantOnlyAtRoot(llvm::StringRef Name, Role R);
/// Whether the buffer of role R of the collective Name holds one block of
/// its count per process of the communicator (MPI_Allgather's receive
/// buffer, both of MPI_Alltoall's, MPI_Gather's at the root).
bool blockPerProcess(llvm::StringRef Name, Role R);
/// Whether the handle is a null handle of its kind (MPI_COMM_NULL,
/// MPI_DATATYPE_NULL, MPI_OP_NULL, MPI_REQUEST_NULL, ...).
bool isNullHandle(llvm::StringRef Name);
/// The largest tag every MPI accepts (the standard's lower bound on the
/// MPI_TAG_UB attribute).
constexpr int64_t GuaranteedTagUB = 32767;

/// A datatype constructor whose result ompi-opt can compile (templates):
/// its argument positions. Stride is in elements of the old type (vector)
/// or in bytes (hvector); contiguous has no block length or stride (-1).
struct TypeConstructorModel {
  llvm::StringRef Name;
  enum Shape { Contiguous, Vector, HVector, Subarray, Resized, IndexedBlock, HIndexedBlock } Kind;
  /// Argument indices, -1 where the constructor has none (Count is ndims
  /// for a subarray).
  int Count, BlockLength, Stride, OldType, NewType;
  int Sizes = -1, Subsizes = -1, Starts = -1, Order = -1; ///< subarray
  int Lb = -1, Extent = -1;                               ///< resized
  int Displs = -1;                                        ///< (h)indexed_block: the displacements
};
/// The constructor called Name, or null.
const TypeConstructorModel *lookupTypeConstructor(llvm::StringRef Name);
/// The calls outside the function table that make, free or describe a
/// handle (MPI_Type_create_struct, the communicator constructors,
/// MPI_Comm_free, MPI_Win_free, MPI_Cart_get): their argument positions,
/// -1 where a call has none, so that checks and the per-rank runs read
/// them by what they are.
struct HandleCallModel {
  llvm::StringRef Name;
  enum Shape {
    Struct,      ///< MPI_Type_create_struct, MPI-1's MPI_Type_struct
    Split,       ///< MPI_Comm_split: Parent's ranks by Colour, ordered by Key
    SplitType,   ///< MPI_Comm_split_type: by a kind of sharing, ordered by Key
    Dup,         ///< MPI_Comm_dup, MPI_Comm_dup_with_info: Parent's ranks in its order
    Create,      ///< MPI_Comm_create: the members of Group (collective over Parent)
    CreateGroup, ///< MPI_Comm_create_group: the members of Group (collective over them)
    CommGroup,   ///< MPI_Comm_group: the group of Parent
    CartCreate,  ///< MPI_Cart_create: Count is ndims, Dims the dims array
    CartSub,     ///< MPI_Cart_sub
    CartGet,     ///< MPI_Cart_get: a query of Parent's topology (no output handle)
    Free         ///< MPI_Comm_free, MPI_Win_free: Out is the handle it frees (&h)
  } Kind;
  int Parent = -1;                                            ///< the communicator it is made of, or that it queries
  int Out = -1;                                               ///< &h of the handle it writes (or frees)
  int Count = -1, BlockLengths = -1, Displs = -1, Types = -1; ///< struct (Count also Cart_create's ndims)
  int Colour = -1, Key = -1;                                  ///< split (Key also split_type)
  int Group = -1;                                             ///< create
  int Dims = -1;                                              ///< Cart_create
};
/// The call called Name, or null.
const HandleCallModel *lookupHandleCall(llvm::StringRef Name);
/// For a call that duplicates a communicator (MPI_Comm_dup, its
/// _with_info and nonblocking forms: MPI-4.1, 7.4.2, "a new communicator
/// with the same group"), the argument that names the communicator it
/// copies; none for any other call.
std::optional<unsigned> duplicatedCommArg(llvm::StringRef Name);
/// MPI_Get_address(location, address): the position of the memory it takes
/// the address of, and of the MPI_Aint it writes.
struct AddressCallArgs {
  unsigned Location, Address;
};
std::optional<AddressCallArgs> addressCallArgs(llvm::StringRef Name);
/// MPI_Aint_diff(addr1, addr2), addr1 - addr2: the positions of the two.
struct AddressDiffArgs {
  unsigned Minuend, Subtrahend;
};
std::optional<AddressDiffArgs> addressDiffArgs(llvm::StringRef Name);
/// Whether the communicator constructor Name may give some of the ranks
/// that call it MPI_COMM_NULL (outside the group, beyond the grid, colour
/// MPI_UNDEFINED), or connects to processes outside the job.
bool mayGiveNullCommunicator(llvm::StringRef Name);
/// Whether Name needs a communicator with a Cartesian topology
/// (MPI_Cart_shift, MPI_Cart_get, MPI_Cart_sub, ...).
bool needsCartesianTopology(llvm::StringRef Name);
/// MPI_Finalize (and its profiling name).
bool finalizesMPI(llvm::StringRef Name);
/// The thread support a program asks MPI for (MPI_Init: Single).
enum class ThreadLevel { Single, Funneled, Serialized, Multiple };
/// The level a handle spells ("MPI_THREAD_FUNNELED"), if it is one.
std::optional<ThreadLevel> threadLevelOf(llvm::StringRef Handle);
/// How MPI spells the level (ThreadLevel::Funneled: "MPI_THREAD_FUNNELED").
llvm::StringRef threadLevelName(ThreadLevel L);
/// The argument of MPI_Init_thread that asks for a thread level (required).
std::optional<unsigned> requiredThreadLevelArg(const FunctionModel &M);
/// MPI_Info_set(info, key, value): the positions of its arguments.
struct InfoSetArgs {
  unsigned Info, Key, Value;
};
std::optional<InfoSetArgs> infoSetArgs(llvm::StringRef Name);
/// The argument of a completion or start call that counts the requests of
/// its Requests array (MPI_Waitall's count, MPI_Waitsome's incount), if
/// the call takes such an array.
std::optional<unsigned> requestCountArg(const FunctionModel &M);
/// MPI_Type_commit / MPI_Type_free: take the datatype by address, keep its
/// shape (commit) or end its life (free).
bool committsType(llvm::StringRef Name);
bool freesType(llvm::StringRef Name);

/// What a call does to the requests it is given.
enum class RequestEffect {
  None,      ///< takes no request
  Starts,    ///< creates a request (nonblocking or persistent-init call)
  Activates, ///< starts an inactive persistent request (MPI_Start)
  Completes, ///< waits for, tests or frees it (MPI_Wait*, MPI_Test*, MPI_Request_free)
  Other      ///< uses it without completing it (MPI_Cancel)
};
RequestEffect requestEffect(const FunctionModel &M);
/// The kinds of MPI handles a program's variables hold, by their C types.
enum class HandleClass { Datatype, Comm, Group, Op, Win, Info, Errhandler, Request };
/// The handle class of a C type spelled TypeName ("MPI_Comm"), if it is one.
std::optional<HandleClass> handleClassOf(llvm::StringRef TypeName);
/// Whether TypeName is the C type of MPI requests (MPI_Request).
bool isRequestType(llvm::StringRef TypeName);
/// Whether the MPI function Name may write a handle whose address it is
/// given after it returns, or keep the address (MPI_Comm_idup writes the new
/// communicator when its request completes; MPI_Comm_set_attr keeps a
/// pointer). Every other MPI function writes a handle output, or commits
/// or frees a handle given by address, before it returns.
bool writesHandleLater(llvm::StringRef Name);

llvm::StringRef roleName(Role R);
llvm::StringRef categoryName(Category C);
llvm::StringRef modeName(Mode M);
bool isBufferRole(Role R);
bool isCountRole(Role R);
bool isDatatypeRole(Role R);
bool isPeerRole(Role R); ///< Dest, Source, Root
bool isTagRole(Role R);

/// Kinds of predefined handles and special constants.
enum class HandleKind {
  Comm,
  Datatype,
  Op,
  Rank,     ///< MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT
  TagValue, ///< MPI_ANY_TAG
  Buffer,   ///< MPI_IN_PLACE, MPI_BOTTOM, NULL
  Status,   ///< MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE
  Request,  ///< MPI_REQUEST_NULL
  Win,      ///< MPI_WIN_NULL
  Other     ///< MPI_INFO_NULL, MPI_UNDEFINED, ...
};

struct HandleModel {
  std::string Name;
  HandleKind Kind;
  /// For datatypes: the C types whose sizes add up to MPI_Type_size, as a
  /// '+'-separated list of C type spellings ("double+int" for
  /// MPI_DOUBLE_INT); empty when the size is not a C type's (MPI_PACKED is
  /// "unsigned char", MPI_DATATYPE_NULL has none).
  std::string CTypes;
};

/// Whether the datatype matches a buffer of any C type (MPI_BYTE,
/// MPI_PACKED): no type-mismatch is possible.
bool isUntypedDatatype(llvm::StringRef Name);
/// Whether the datatype is sized as an address or offset (MPI_AINT,
/// MPI_OFFSET, MPI_COUNT), not as a C arithmetic type of fixed size.
bool isAddressSizedDatatype(llvm::StringRef Name);
/// Whether the predefined op combines values (MPI_SUM, ...), as opposed to
/// MPI_REPLACE, MPI_NO_OP and MPI_OP_NULL.
bool isReductionOp(llvm::StringRef Name);
/// Why the predefined op cannot combine values of the predefined datatype
/// (MPI-4.0 section 6.9.2: MPI_MAX with MPI_C_BOOL, MPI_LXOR with
/// MPI_FLOAT, MPI_MAXLOC with MPI_INT; MPI_REPLACE and MPI_NO_OP outside
/// one-sided accumulates), or "" when it can or either is not a predefined
/// one the table knows. MPI_CHAR, MPI_WCHAR and MPI_PACKED are left out
/// (MPICH accepts MPI_CHAR as an integer).
std::string opDatatypeError(llvm::StringRef Op, llvm::StringRef Type, bool Accumulate);
/// Whether the buffer constant means "the receive buffer is the input".
bool isInPlaceBuffer(llvm::StringRef Name);

/// The predefined handle or constant spelled Name, or null.
const HandleModel *lookupHandle(llvm::StringRef Name);
llvm::ArrayRef<HandleModel> allHandles();
llvm::StringRef handleKindName(HandleKind K);
/// The name of the handle Name is an alias of (MPI_LONG_LONG is
/// MPI_LONG_LONG_INT, MPI_C_COMPLEX is MPI_C_FLOAT_COMPLEX), or Name.
llvm::StringRef canonicalHandle(llvm::StringRef Name);

} // namespace ompi

#endif
