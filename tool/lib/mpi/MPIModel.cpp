//===- MPIModel.cpp - The MPI call and handle table ------------------------===//
//
// The table of every MPI function the tool understands, with the role of each
// argument, and the table of predefined handles. Signatures follow MPI-3.1
// (persistent collectives, the _init forms, follow MPI-4.0).
//
// Each entry is "MPI_Name", category, mode, then "param:role" pairs in
// argument order. Roles: sbuf rbuf buf scount rcount count scounts rcounts
// sdispls rdispls stype rtype type stypes rtypes dest source stag rtag tag
// comm op root req reqs status statuses msg info rank size out other.
//
// Every blocking collective in the Collectives list also gets its
// nonblocking form (MPI_I..., with a trailing request) and its persistent
// form (..._init, with trailing info and request), by rule.
//
//===----------------------------------------------------------------------===//
#include "mpi/MPIModel.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include <vector>

using namespace ompi;

namespace {

struct Entry {
  const char *Name;
  Category Cat;
  Mode M;
  const char *Args;
};

constexpr Category P2P = Category::PointToPoint;
constexpr Category PRB = Category::Probe;
constexpr Category CPL = Category::Completion;
constexpr Category COL = Category::Collective;
constexpr Category LOC = Category::Local;
constexpr Category QRY = Category::Query;
constexpr Category ENV = Category::Environment;
constexpr Category RMA = Category::OneSided;
constexpr Mode BLK = Mode::Blocking;
constexpr Mode NBK = Mode::Nonblocking;
constexpr Mode PER = Mode::Persistent;
constexpr Mode NON = Mode::None;

// Point-to-point, probe, completion, queries and environment.
const Entry Table[] = {
    // Blocking sends and receive.
    {"MPI_Send", P2P, BLK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm"},
    {"MPI_Bsend", P2P, BLK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm"},
    {"MPI_Ssend", P2P, BLK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm"},
    {"MPI_Rsend", P2P, BLK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm"},
    {"MPI_Recv", P2P, BLK, "buf:rbuf count:count datatype:type source:source tag:tag comm:comm status:status"},
    // Nonblocking.
    {"MPI_Isend", P2P, NBK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Ibsend", P2P, NBK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Issend", P2P, NBK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Irsend", P2P, NBK, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Irecv", P2P, NBK, "buf:rbuf count:count datatype:type source:source tag:tag comm:comm request:req"},
    // Persistent.
    {"MPI_Send_init", P2P, PER, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Bsend_init", P2P, PER, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Ssend_init", P2P, PER, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Rsend_init", P2P, PER, "buf:sbuf count:count datatype:type dest:dest tag:tag comm:comm request:req"},
    {"MPI_Recv_init", P2P, PER, "buf:rbuf count:count datatype:type source:source tag:tag comm:comm request:req"},
    // Combined.
    {"MPI_Sendrecv", P2P, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype dest:dest sendtag:stag recvbuf:rbuf recvcount:rcount "
     "recvtype:rtype source:source recvtag:rtag comm:comm status:status"},
    {"MPI_Sendrecv_replace", P2P, BLK,
     "buf:buf count:count datatype:type dest:dest sendtag:stag source:source recvtag:rtag comm:comm status:status"},
    // Probe and matched probe.
    {"MPI_Probe", PRB, BLK, "source:source tag:tag comm:comm status:status"},
    {"MPI_Iprobe", PRB, NBK, "source:source tag:tag comm:comm flag:out status:status"},
    {"MPI_Mprobe", PRB, BLK, "source:source tag:tag comm:comm message:msg status:status"},
    {"MPI_Improbe", PRB, NBK, "source:source tag:tag comm:comm flag:out message:msg status:status"},
    {"MPI_Mrecv", P2P, BLK, "buf:rbuf count:count datatype:type message:msg status:status"},
    {"MPI_Imrecv", P2P, NBK, "buf:rbuf count:count datatype:type message:msg request:req"},
    // Completion.
    {"MPI_Start", CPL, NON, "request:req"},
    {"MPI_Startall", CPL, NON, "count:other array_of_requests:reqs"},
    {"MPI_Wait", CPL, BLK, "request:req status:status"},
    {"MPI_Waitall", CPL, BLK, "count:other array_of_requests:reqs array_of_statuses:statuses"},
    {"MPI_Waitany", CPL, BLK, "count:other array_of_requests:reqs index:out status:status"},
    {"MPI_Waitsome", CPL, BLK,
     "incount:other array_of_requests:reqs outcount:out array_of_indices:out array_of_statuses:statuses"},
    {"MPI_Test", CPL, NBK, "request:req flag:out status:status"},
    {"MPI_Testall", CPL, NBK, "count:other array_of_requests:reqs flag:out array_of_statuses:statuses"},
    {"MPI_Testany", CPL, NBK, "count:other array_of_requests:reqs index:out flag:out status:status"},
    {"MPI_Testsome", CPL, NBK,
     "incount:other array_of_requests:reqs outcount:out array_of_indices:out array_of_statuses:statuses"},
    {"MPI_Request_free", CPL, NON, "request:req"},
    {"MPI_Cancel", CPL, NON, "request:req"},
    // Local reduction.
    {"MPI_Reduce_local", LOC, BLK, "inbuf:sbuf inoutbuf:buf count:count datatype:type op:op"},
    // Queries.
    {"MPI_Comm_rank", QRY, NON, "comm:comm rank:rank"},
    {"MPI_Comm_size", QRY, NON, "comm:comm size:size"},
    {"MPI_Get_count", QRY, NON, "status:status datatype:type count:out"},
    {"MPI_Get_elements", QRY, NON, "status:status datatype:type count:out"},
    // Queries whose outputs the call writes before it returns and never
    // keeps: a variable given to one keeps its value until the next.
    {"MPI_Comm_remote_size", QRY, NON, "comm:comm size:out"},
    {"MPI_Comm_compare", QRY, NON, "comm1:other comm2:other result:out"},
    {"MPI_Comm_test_inter", QRY, NON, "comm:comm flag:out"},
    {"MPI_Cart_shift", QRY, NON, "comm:comm direction:other disp:other rank_source:out rank_dest:out"},
    {"MPI_Cart_coords", QRY, NON, "comm:comm rank:other maxdims:other coords:out"},
    {"MPI_Cart_rank", QRY, NON, "comm:comm coords:other rank:out"},
    {"MPI_Cartdim_get", QRY, NON, "comm:comm ndims:out"},
    {"MPI_Topo_test", QRY, NON, "comm:comm status:out"},
    {"MPI_Group_size", QRY, NON, "group:other size:out"},
    {"MPI_Group_rank", QRY, NON, "group:other rank:out"},
    {"MPI_Type_size", QRY, NON, "datatype:other size:out"},
    {"MPI_Type_get_extent", QRY, NON, "datatype:other lb:out extent:out"},
    {"MPI_Type_get_true_extent", QRY, NON, "datatype:other true_lb:out true_extent:out"},
    {"MPI_Initialized", QRY, NON, "flag:out"},
    {"MPI_Finalized", QRY, NON, "flag:out"},
    {"MPI_Query_thread", QRY, NON, "provided:out"},
    // Environment.
    {"MPI_Init", ENV, NON, "argc:other argv:other"},
    {"MPI_Init_thread", ENV, NON, "argc:other argv:other required:other provided:out"},
    {"MPI_Finalize", ENV, NON, ""},
    {"MPI_Abort", ENV, NON, "comm:comm errorcode:other"},
    {"MPI_Wtime", ENV, NON, ""},
    {"MPI_Wtick", ENV, NON, ""},
    // One-sided: windows (the window keeps its memory, so the creating calls
    // are nonblocking: the memory is in use until MPI_Win_free).
    {"MPI_Win_create", RMA, NBK, "base:wbase size:wsize disp_unit:dispunit info:info comm:comm win:winout"},
    {"MPI_Win_allocate", RMA, NON, "size:wsize disp_unit:dispunit info:info comm:comm baseptr:out win:winout"},
    {"MPI_Win_allocate_shared", RMA, NON, "size:wsize disp_unit:dispunit info:info comm:comm baseptr:out win:winout"},
    {"MPI_Win_create_dynamic", RMA, NON, "info:info comm:comm win:winout"},
    {"MPI_Win_attach", RMA, NBK, "win:win base:wbase size:wsize"},
    {"MPI_Win_detach", RMA, NON, "win:win base:other"},
    {"MPI_Win_free", RMA, NON, "win:other"},
    // One-sided: synchronisation.
    {"MPI_Win_fence", RMA, NON, "assert:assert win:win"},
    {"MPI_Win_lock", RMA, NON, "lock_type:locktype rank:dest assert:assert win:win"},
    {"MPI_Win_unlock", RMA, NON, "rank:dest win:win"},
    {"MPI_Win_lock_all", RMA, NON, "assert:assert win:win"},
    {"MPI_Win_unlock_all", RMA, NON, "win:win"},
    {"MPI_Win_flush", RMA, NON, "rank:dest win:win"},
    {"MPI_Win_flush_local", RMA, NON, "rank:dest win:win"},
    {"MPI_Win_flush_all", RMA, NON, "win:win"},
    {"MPI_Win_flush_local_all", RMA, NON, "win:win"},
    {"MPI_Win_sync", RMA, NON, "win:win"},
    {"MPI_Win_start", RMA, NON, "group:other assert:assert win:win"},
    {"MPI_Win_complete", RMA, NON, "win:win"},
    {"MPI_Win_post", RMA, NON, "group:other assert:assert win:win"},
    {"MPI_Win_wait", RMA, NON, "win:win"},
    {"MPI_Win_test", RMA, NON, "win:win flag:out"},
    // One-sided: communication. The origin buffer is in use until the epoch
    // (or the request) completes.
    {"MPI_Put", RMA, NBK,
     "origin_addr:sbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype win:win"},
    {"MPI_Get", RMA, NBK,
     "origin_addr:rbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype win:win"},
    {"MPI_Accumulate", RMA, NBK,
     "origin_addr:sbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype op:op win:win"},
    {"MPI_Get_accumulate", RMA, NBK,
     "origin_addr:sbuf origin_count:scount origin_datatype:stype result_addr:rbuf result_count:rcount "
     "result_datatype:rtype target_rank:dest target_disp:tdisp target_count:tcount target_datatype:ttype op:op "
     "win:win"},
    {"MPI_Fetch_and_op", RMA, NBK,
     "origin_addr:sbuf result_addr:rbuf datatype:type target_rank:dest target_disp:tdisp op:op win:win"},
    {"MPI_Compare_and_swap", RMA, NBK,
     "origin_addr:sbuf compare_addr:other result_addr:rbuf datatype:type target_rank:dest target_disp:tdisp "
     "win:win"},
    {"MPI_Rput", RMA, NBK,
     "origin_addr:sbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype win:win request:req"},
    {"MPI_Rget", RMA, NBK,
     "origin_addr:rbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype win:win request:req"},
    {"MPI_Raccumulate", RMA, NBK,
     "origin_addr:sbuf origin_count:count origin_datatype:type target_rank:dest target_disp:tdisp "
     "target_count:tcount target_datatype:ttype op:op win:win request:req"},
    {"MPI_Rget_accumulate", RMA, NBK,
     "origin_addr:sbuf origin_count:scount origin_datatype:stype result_addr:rbuf result_count:rcount "
     "result_datatype:rtype target_rank:dest target_disp:tdisp target_count:tcount target_datatype:ttype op:op "
     "win:win request:req"},
};

// Blocking collectives; the nonblocking and persistent forms are derived.
const Entry Collectives[] = {
    {"MPI_Barrier", COL, BLK, "comm:comm"},
    {"MPI_Bcast", COL, BLK, "buffer:buf count:count datatype:type root:root comm:comm"},
    {"MPI_Gather", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype root:root "
     "comm:comm"},
    {"MPI_Gatherv", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcounts:rcounts displs:rdispls "
     "recvtype:rtype root:root comm:comm"},
    {"MPI_Scatter", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype root:root "
     "comm:comm"},
    {"MPI_Scatterv", COL, BLK,
     "sendbuf:sbuf sendcounts:scounts displs:sdispls sendtype:stype recvbuf:rbuf recvcount:rcount "
     "recvtype:rtype root:root comm:comm"},
    {"MPI_Allgather", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype comm:comm"},
    {"MPI_Allgatherv", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcounts:rcounts displs:rdispls "
     "recvtype:rtype comm:comm"},
    {"MPI_Alltoall", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype comm:comm"},
    {"MPI_Alltoallv", COL, BLK,
     "sendbuf:sbuf sendcounts:scounts sdispls:sdispls sendtype:stype recvbuf:rbuf recvcounts:rcounts "
     "rdispls:rdispls recvtype:rtype comm:comm"},
    {"MPI_Alltoallw", COL, BLK,
     "sendbuf:sbuf sendcounts:scounts sdispls:sdispls sendtypes:stypes recvbuf:rbuf recvcounts:rcounts "
     "rdispls:rdispls recvtypes:rtypes comm:comm"},
    {"MPI_Reduce", COL, BLK, "sendbuf:sbuf recvbuf:rbuf count:count datatype:type op:op root:root comm:comm"},
    {"MPI_Allreduce", COL, BLK, "sendbuf:sbuf recvbuf:rbuf count:count datatype:type op:op comm:comm"},
    {"MPI_Reduce_scatter_block", COL, BLK, "sendbuf:sbuf recvbuf:rbuf recvcount:count datatype:type op:op comm:comm"},
    {"MPI_Reduce_scatter", COL, BLK, "sendbuf:sbuf recvbuf:rbuf recvcounts:rcounts datatype:type op:op comm:comm"},
    {"MPI_Scan", COL, BLK, "sendbuf:sbuf recvbuf:rbuf count:count datatype:type op:op comm:comm"},
    {"MPI_Exscan", COL, BLK, "sendbuf:sbuf recvbuf:rbuf count:count datatype:type op:op comm:comm"},
    {"MPI_Neighbor_allgather", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype comm:comm"},
    {"MPI_Neighbor_allgatherv", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcounts:rcounts displs:rdispls "
     "recvtype:rtype comm:comm"},
    {"MPI_Neighbor_alltoall", COL, BLK,
     "sendbuf:sbuf sendcount:scount sendtype:stype recvbuf:rbuf recvcount:rcount recvtype:rtype comm:comm"},
    {"MPI_Neighbor_alltoallv", COL, BLK,
     "sendbuf:sbuf sendcounts:scounts sdispls:sdispls sendtype:stype recvbuf:rbuf recvcounts:rcounts "
     "rdispls:rdispls recvtype:rtype comm:comm"},
    {"MPI_Neighbor_alltoallw", COL, BLK,
     "sendbuf:sbuf sendcounts:scounts sdispls:sdispls sendtypes:stypes recvbuf:rbuf recvcounts:rcounts "
     "rdispls:rdispls recvtypes:rtypes comm:comm"},
};

// Predefined handles and special constants. Datatype sizes are given as the
// C types they are made of, so that sizes follow the target.
const HandleModel Handles[] = {
    {"MPI_COMM_WORLD", HandleKind::Comm, ""},
    {"MPI_COMM_SELF", HandleKind::Comm, ""},
    {"MPI_COMM_NULL", HandleKind::Comm, ""},
    {"MPI_CHAR", HandleKind::Datatype, "char"},
    {"MPI_SIGNED_CHAR", HandleKind::Datatype, "signed char"},
    {"MPI_UNSIGNED_CHAR", HandleKind::Datatype, "unsigned char"},
    {"MPI_BYTE", HandleKind::Datatype, "unsigned char"},
    {"MPI_PACKED", HandleKind::Datatype, "unsigned char"},
    {"MPI_WCHAR", HandleKind::Datatype, "wchar_t"},
    {"MPI_SHORT", HandleKind::Datatype, "short"},
    {"MPI_UNSIGNED_SHORT", HandleKind::Datatype, "unsigned short"},
    {"MPI_INT", HandleKind::Datatype, "int"},
    {"MPI_UNSIGNED", HandleKind::Datatype, "unsigned int"},
    {"MPI_LONG", HandleKind::Datatype, "long"},
    {"MPI_UNSIGNED_LONG", HandleKind::Datatype, "unsigned long"},
    {"MPI_LONG_LONG_INT", HandleKind::Datatype, "long long"},
    {"MPI_LONG_LONG", HandleKind::Datatype, "long long"},
    {"MPI_UNSIGNED_LONG_LONG", HandleKind::Datatype, "unsigned long long"},
    {"MPI_FLOAT", HandleKind::Datatype, "float"},
    {"MPI_DOUBLE", HandleKind::Datatype, "double"},
    {"MPI_LONG_DOUBLE", HandleKind::Datatype, "long double"},
    {"MPI_C_BOOL", HandleKind::Datatype, "_Bool"},
    {"MPI_INT8_T", HandleKind::Datatype, "int8_t"},
    {"MPI_INT16_T", HandleKind::Datatype, "int16_t"},
    {"MPI_INT32_T", HandleKind::Datatype, "int32_t"},
    {"MPI_INT64_T", HandleKind::Datatype, "int64_t"},
    {"MPI_UINT8_T", HandleKind::Datatype, "uint8_t"},
    {"MPI_UINT16_T", HandleKind::Datatype, "uint16_t"},
    {"MPI_UINT32_T", HandleKind::Datatype, "uint32_t"},
    {"MPI_UINT64_T", HandleKind::Datatype, "uint64_t"},
    {"MPI_AINT", HandleKind::Datatype, "MPI_Aint"},
    {"MPI_OFFSET", HandleKind::Datatype, "MPI_Offset"},
    {"MPI_COUNT", HandleKind::Datatype, "MPI_Count"},
    {"MPI_C_COMPLEX", HandleKind::Datatype, "float+float"},
    {"MPI_C_FLOAT_COMPLEX", HandleKind::Datatype, "float+float"},
    {"MPI_C_DOUBLE_COMPLEX", HandleKind::Datatype, "double+double"},
    {"MPI_C_LONG_DOUBLE_COMPLEX", HandleKind::Datatype, "long double+long double"},
    {"MPI_FLOAT_INT", HandleKind::Datatype, "float+int"},
    {"MPI_DOUBLE_INT", HandleKind::Datatype, "double+int"},
    {"MPI_LONG_INT", HandleKind::Datatype, "long+int"},
    {"MPI_2INT", HandleKind::Datatype, "int+int"},
    {"MPI_SHORT_INT", HandleKind::Datatype, "short+int"},
    {"MPI_LONG_DOUBLE_INT", HandleKind::Datatype, "long double+int"},
    {"MPI_DATATYPE_NULL", HandleKind::Datatype, ""},
    {"MPI_MAX", HandleKind::Op, ""},
    {"MPI_MIN", HandleKind::Op, ""},
    {"MPI_SUM", HandleKind::Op, ""},
    {"MPI_PROD", HandleKind::Op, ""},
    {"MPI_LAND", HandleKind::Op, ""},
    {"MPI_BAND", HandleKind::Op, ""},
    {"MPI_LOR", HandleKind::Op, ""},
    {"MPI_BOR", HandleKind::Op, ""},
    {"MPI_LXOR", HandleKind::Op, ""},
    {"MPI_BXOR", HandleKind::Op, ""},
    {"MPI_MAXLOC", HandleKind::Op, ""},
    {"MPI_MINLOC", HandleKind::Op, ""},
    {"MPI_REPLACE", HandleKind::Op, ""},
    {"MPI_NO_OP", HandleKind::Op, ""},
    {"MPI_OP_NULL", HandleKind::Op, ""},
    {"MPI_ANY_SOURCE", HandleKind::Rank, ""},
    {"MPI_PROC_NULL", HandleKind::Rank, ""},
    {"MPI_ROOT", HandleKind::Rank, ""},
    {"MPI_ANY_TAG", HandleKind::TagValue, ""},
    {"MPI_IN_PLACE", HandleKind::Buffer, ""},
    {"MPI_BOTTOM", HandleKind::Buffer, ""},
    {"NULL", HandleKind::Buffer, ""},
    {"MPI_STATUS_IGNORE", HandleKind::Status, ""},
    {"MPI_STATUSES_IGNORE", HandleKind::Status, ""},
    {"MPI_REQUEST_NULL", HandleKind::Request, ""},
    {"MPI_MESSAGE_NULL", HandleKind::Other, ""},
    {"MPI_MESSAGE_NO_PROC", HandleKind::Other, ""},
    {"MPI_INFO_NULL", HandleKind::Other, ""},
    {"MPI_WIN_NULL", HandleKind::Win, ""},
    {"MPI_MODE_NOCHECK", HandleKind::Other, ""},
    {"MPI_MODE_NOSTORE", HandleKind::Other, ""},
    {"MPI_MODE_NOPUT", HandleKind::Other, ""},
    {"MPI_MODE_NOPRECEDE", HandleKind::Other, ""},
    {"MPI_MODE_NOSUCCEED", HandleKind::Other, ""},
    {"MPI_LOCK_SHARED", HandleKind::Other, ""},
    {"MPI_LOCK_EXCLUSIVE", HandleKind::Other, ""},
    {"MPI_UNDEFINED", HandleKind::Other, ""},
    {"MPI_ERRCODES_IGNORE", HandleKind::Other, ""},
    {"MPI_UNWEIGHTED", HandleKind::Other, ""},
    {"MPI_WEIGHTS_EMPTY", HandleKind::Other, ""},
};

Role parseRole(llvm::StringRef S) {
  auto R = llvm::StringSwitch<std::optional<Role>>(S)
               .Case("sbuf", Role::SendBuf)
               .Case("rbuf", Role::RecvBuf)
               .Case("buf", Role::Buf)
               .Case("scount", Role::SendCount)
               .Case("rcount", Role::RecvCount)
               .Case("count", Role::Count)
               .Case("scounts", Role::SendCounts)
               .Case("rcounts", Role::RecvCounts)
               .Case("sdispls", Role::SendDispls)
               .Case("rdispls", Role::RecvDispls)
               .Case("stype", Role::SendType)
               .Case("rtype", Role::RecvType)
               .Case("type", Role::Type)
               .Case("stypes", Role::SendTypes)
               .Case("rtypes", Role::RecvTypes)
               .Case("dest", Role::Dest)
               .Case("source", Role::Source)
               .Case("stag", Role::SendTag)
               .Case("rtag", Role::RecvTag)
               .Case("tag", Role::Tag)
               .Case("comm", Role::Comm)
               .Case("op", Role::Op)
               .Case("root", Role::Root)
               .Case("req", Role::Request)
               .Case("reqs", Role::Requests)
               .Case("status", Role::Status)
               .Case("statuses", Role::Statuses)
               .Case("msg", Role::Message)
               .Case("info", Role::Info)
               .Case("rank", Role::RankOut)
               .Case("size", Role::SizeOut)
               .Case("out", Role::Out)
               .Case("other", Role::Other)
               .Case("win", Role::Win)
               .Case("winout", Role::WinOut)
               .Case("wbase", Role::WinBase)
               .Case("wsize", Role::WinSize)
               .Case("dispunit", Role::DispUnit)
               .Case("tdisp", Role::TargetDisp)
               .Case("tcount", Role::TargetCount)
               .Case("ttype", Role::TargetType)
               .Case("assert", Role::Assert)
               .Case("locktype", Role::LockType)
               .Default(std::nullopt);
  if (!R)
    llvm::report_fatal_error(llvm::Twine("MPI model: unknown role '") + S + "'");
  return *R;
}

FunctionModel makeModel(llvm::StringRef Name, Category C, Mode M, llvm::StringRef Args) {
  FunctionModel F{Name.str(), C, M, {}};
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Args.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    auto [ArgName, RoleName] = P.split(':');
    F.Args.push_back({ArgName.str(), parseRole(RoleName)});
  }
  return F;
}

struct Model {
  std::vector<FunctionModel> Functions;
  llvm::StringMap<unsigned> ByName;
  llvm::StringMap<unsigned> HandleByName;

  Model() {
    for (const Entry &E : Table)
      Functions.push_back(makeModel(E.Name, E.Cat, E.M, E.Args));
    for (const Entry &E : Collectives) {
      llvm::StringRef Name(E.Name);
      Functions.push_back(makeModel(Name, E.Cat, E.M, E.Args));
      // MPI_Allreduce -> MPI_Iallreduce: "MPI_I" + the rest in lower case first.
      std::string Rest = Name.drop_front(4).str();
      Rest[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(Rest[0])));
      Functions.push_back(
          makeModel("MPI_I" + Rest, E.Cat, Mode::Nonblocking, (llvm::Twine(E.Args) + " request:req").str()));
      Functions.push_back(makeModel((Name + llvm::Twine("_init")).str(), E.Cat, Mode::Persistent,
                                    (llvm::Twine(E.Args) + " info:info request:req").str()));
    }
    for (unsigned I = 0; I < Functions.size(); ++I) {
      bool Inserted = ByName.try_emplace(Functions[I].Name, I).second;
      if (!Inserted)
        llvm::report_fatal_error("MPI model: duplicate entry " + llvm::Twine(Functions[I].Name));
    }
    for (unsigned I = 0; I < std::size(Handles); ++I)
      HandleByName.try_emplace(Handles[I].Name, I);
  }
};

const Model &model() {
  static const Model M;
  return M;
}

} // namespace

std::optional<unsigned> FunctionModel::find(Role R) const {
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I].R == R)
      return I;
  return std::nullopt;
}

bool FunctionModel::isReduction() const { return Cat == Category::Collective && find(Role::Op).has_value(); }

const FunctionModel *ompi::lookupFunction(llvm::StringRef Name) {
  const Model &M = model();
  auto It = M.ByName.find(Name);
  return It == M.ByName.end() ? nullptr : &M.Functions[It->second];
}

llvm::ArrayRef<FunctionModel> ompi::allFunctions() { return model().Functions; }

const HandleModel *ompi::lookupHandle(llvm::StringRef Name) {
  const Model &M = model();
  auto It = M.HandleByName.find(Name);
  return It == M.HandleByName.end() ? nullptr : &Handles[It->second];
}

llvm::ArrayRef<HandleModel> ompi::allHandles() { return Handles; }

llvm::StringRef ompi::roleName(Role R) {
  switch (R) {
  case Role::SendBuf:
    return "send-buffer";
  case Role::RecvBuf:
    return "recv-buffer";
  case Role::Buf:
    return "buffer";
  case Role::SendCount:
    return "send-count";
  case Role::RecvCount:
    return "recv-count";
  case Role::Count:
    return "count";
  case Role::SendCounts:
    return "send-counts";
  case Role::RecvCounts:
    return "recv-counts";
  case Role::SendDispls:
    return "send-displs";
  case Role::RecvDispls:
    return "recv-displs";
  case Role::SendType:
    return "send-datatype";
  case Role::RecvType:
    return "recv-datatype";
  case Role::Type:
    return "datatype";
  case Role::SendTypes:
    return "send-datatypes";
  case Role::RecvTypes:
    return "recv-datatypes";
  case Role::Dest:
    return "dest";
  case Role::Source:
    return "source";
  case Role::SendTag:
    return "send-tag";
  case Role::RecvTag:
    return "recv-tag";
  case Role::Tag:
    return "tag";
  case Role::Comm:
    return "comm";
  case Role::Op:
    return "op";
  case Role::Root:
    return "root";
  case Role::Request:
    return "request";
  case Role::Requests:
    return "requests";
  case Role::Status:
    return "status";
  case Role::Statuses:
    return "statuses";
  case Role::Message:
    return "message";
  case Role::Info:
    return "info";
  case Role::RankOut:
    return "rank-out";
  case Role::SizeOut:
    return "size-out";
  case Role::Out:
    return "out";
  case Role::Other:
    return "other";
  case Role::Win:
    return "window";
  case Role::WinOut:
    return "window-out";
  case Role::WinBase:
    return "window-memory";
  case Role::WinSize:
    return "window-size";
  case Role::DispUnit:
    return "disp-unit";
  case Role::TargetDisp:
    return "target-disp";
  case Role::TargetCount:
    return "target-count";
  case Role::TargetType:
    return "target-datatype";
  case Role::Assert:
    return "assert";
  case Role::LockType:
    return "lock-type";
  }
  llvm_unreachable("role");
}

llvm::StringRef ompi::categoryName(Category C) {
  switch (C) {
  case Category::PointToPoint:
    return "point-to-point";
  case Category::Probe:
    return "probe";
  case Category::Completion:
    return "completion";
  case Category::Collective:
    return "collective";
  case Category::Local:
    return "local";
  case Category::OneSided:
    return "one-sided";
  case Category::Query:
    return "query";
  case Category::Environment:
    return "environment";
  }
  llvm_unreachable("category");
}

llvm::StringRef ompi::modeName(Mode M) {
  switch (M) {
  case Mode::Blocking:
    return "blocking";
  case Mode::Nonblocking:
    return "nonblocking";
  case Mode::Persistent:
    return "persistent";
  case Mode::None:
    return "none";
  }
  llvm_unreachable("mode");
}

llvm::StringRef ompi::handleKindName(HandleKind K) {
  switch (K) {
  case HandleKind::Comm:
    return "communicator";
  case HandleKind::Datatype:
    return "datatype";
  case HandleKind::Op:
    return "op";
  case HandleKind::Rank:
    return "rank";
  case HandleKind::TagValue:
    return "tag";
  case HandleKind::Buffer:
    return "buffer";
  case HandleKind::Status:
    return "status";
  case HandleKind::Request:
    return "request";
  case HandleKind::Win:
    return "window";
  case HandleKind::Other:
    return "other";
  }
  llvm_unreachable("handle kind");
}

llvm::StringRef ompi::canonicalHandle(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Case("MPI_LONG_LONG", "MPI_LONG_LONG_INT")
      .Case("MPI_C_COMPLEX", "MPI_C_FLOAT_COMPLEX")
      .Default(Name);
}

bool ompi::isBufferRole(Role R) { return R == Role::SendBuf || R == Role::RecvBuf || R == Role::Buf; }
bool ompi::isCountRole(Role R) { return R == Role::SendCount || R == Role::RecvCount || R == Role::Count; }
bool ompi::isDatatypeRole(Role R) { return R == Role::SendType || R == Role::RecvType || R == Role::Type; }
bool ompi::isPeerRole(Role R) { return R == Role::Dest || R == Role::Source || R == Role::Root; }
bool ompi::isTagRole(Role R) { return R == Role::Tag || R == Role::SendTag || R == Role::RecvTag; }

bool ompi::sameOnEveryRank(const FunctionModel &M, Role R) {
  if (R == Role::SizeOut)
    return true;
  if (M.M != Mode::Blocking)
    return false;
  return llvm::StringSwitch<bool>(M.Name)
      .Cases("MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv", R == Role::RecvBuf)
      .Case("MPI_Bcast", R == Role::Buf)
      .Default(false);
}

bool ompi::endsCommunicator(llvm::StringRef Name) { return Name == "MPI_Comm_free" || Name == "MPI_Comm_disconnect"; }

bool ompi::createsCommunicator(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Comm_dup", "MPI_Comm_idup", "MPI_Comm_dup_with_info", "MPI_Comm_split", "MPI_Comm_split_type", true)
      .Cases("MPI_Comm_create", "MPI_Comm_create_group", "MPI_Cart_create", "MPI_Cart_sub", "MPI_Graph_create", true)
      .Cases("MPI_Dist_graph_create", "MPI_Dist_graph_create_adjacent", "MPI_Intercomm_create", true)
      .Cases("MPI_Intercomm_merge", "MPI_Comm_accept", "MPI_Comm_connect", "MPI_Comm_spawn", true)
      .Default(false);
}

bool ompi::abortsJob(llvm::StringRef Name) { return Name == "MPI_Abort"; }

bool ompi::setsUpOrQueries(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Init", "MPI_Init_thread", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Initialized", true)
      .Cases("MPI_Get_processor_name", "MPI_Wtime", "MPI_Query_thread", true)
      .Default(false);
}

bool ompi::isMPIFunctionName(llvm::StringRef Name) { return Name.starts_with("MPI_") || Name.starts_with("PMPI_"); }

bool ompi::returnsLocalValue(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Wtime", "MPI_Wtick", "PMPI_Wtime", "PMPI_Wtick", true)
      .Default(false);
}

bool ompi::carriesData(const FunctionModel &M) {
  return M.Cat != Category::Probe && !llvm::StringRef(M.Name).starts_with("MPI_Barrier") && M.Name != "MPI_Ibarrier";
}

bool ompi::isFusibleReduction(llvm::StringRef Name) { return Name == "MPI_Allreduce" || Name == "MPI_Reduce"; }

bool ompi::setsErrorHandler(llvm::StringRef Name) {
  Name.consume_front("P");
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Comm_set_errhandler", "MPI_Errhandler_set", "MPI_Win_set_errhandler", "MPI_File_set_errhandler",
             "MPI_Session_set_errhandler", true)
      .Default(false);
}

bool ompi::endsProcess(llvm::StringRef Name) { return Name == "MPI_Abort" || Name == "PMPI_Abort"; }

llvm::StringRef ompi::lazyCounterpart(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Case("MPI_Allreduce", "mpiopt_lazy_allreduce")
      .Case("MPI_Reduce", "mpiopt_lazy_reduce")
      .Default("");
}

llvm::StringRef ompi::persistentCounterpart(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Cases("MPI_Send", "MPI_Isend", "MPI_Send_init")
      .Cases("MPI_Ssend", "MPI_Issend", "MPI_Ssend_init")
      .Cases("MPI_Bsend", "MPI_Ibsend", "MPI_Bsend_init")
      .Cases("MPI_Rsend", "MPI_Irsend", "MPI_Rsend_init")
      .Cases("MPI_Recv", "MPI_Irecv", "MPI_Recv_init")
      .Default("");
}

bool ompi::hasPlannedForm(llvm::StringRef Name) { return plannedForms(Name).has_value(); }

std::optional<PlannedForms> ompi::plannedForms(llvm::StringRef Name) {
  if (Name == "MPI_Alltoallv")
    return PlannedForms{"mpiopt_alltoallv_planned", "mpiopt_alltoallv_cached"};
  if (Name == "MPI_Alltoall")
    return PlannedForms{"mpiopt_alltoall_planned", "mpiopt_alltoall_cached", true};
  if (Name == "MPI_Allgatherv")
    return PlannedForms{"mpiopt_allgatherv_planned", "mpiopt_allgatherv_cached"};
  if (Name == "MPI_Allgather") // an Allgatherv plan of equal blocks
    return PlannedForms{"mpiopt_allgather_planned", "mpiopt_allgather_cached", true};
  return std::nullopt;
}

bool ompi::isPlanRole(Role R) {
  return R == Role::SendCounts || R == Role::RecvCounts || R == Role::SendDispls || R == Role::RecvDispls ||
         R == Role::SendCount || R == Role::RecvCount || isDatatypeRole(R) || R == Role::Comm;
}

llvm::StringRef ompi::largeVectorCounterpart(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Case("MPI_Allreduce", "mpiopt_allreduce")
      .Case("MPI_Reduce", "mpiopt_reduce")
      .Default("");
}

bool ompi::reassociates(llvm::StringRef Op) { return Op == "MPI_SUM" || Op == "MPI_PROD"; }

std::optional<bool> ompi::floatingArithmetic(llvm::StringRef Datatype) {
  const HandleModel *H = lookupHandle(Datatype);
  if (!H || H->Kind != HandleKind::Datatype || H->CTypes.empty() || H->CTypes.find('+') != std::string::npos ||
      isUntypedDatatype(H->Name) || H->CTypes.find("_Complex") != std::string::npos ||
      H->CTypes.find("_Bool") != std::string::npos)
    return std::nullopt;
  return H->CTypes == "float" || H->CTypes == "double" || H->CTypes == "long double";
}

ompi::RequestEffect ompi::requestEffect(const FunctionModel &M) {
  if (!M.find(Role::Request) && !M.find(Role::Requests))
    return RequestEffect::None;
  llvm::StringRef N = M.Name;
  if (N.starts_with("MPI_Wait") || N.starts_with("MPI_Test") || N == "MPI_Request_free")
    return RequestEffect::Completes;
  if (N == "MPI_Start" || N == "MPI_Startall")
    return RequestEffect::Activates;
  if (N == "MPI_Cancel")
    return RequestEffect::Other;
  return RequestEffect::Starts;
}

std::optional<ompi::HandleClass> ompi::handleClassOf(llvm::StringRef TypeName) {
  return llvm::StringSwitch<std::optional<HandleClass>>(TypeName)
      .Case("MPI_Datatype", HandleClass::Datatype)
      .Case("MPI_Comm", HandleClass::Comm)
      .Case("MPI_Group", HandleClass::Group)
      .Case("MPI_Op", HandleClass::Op)
      .Case("MPI_Win", HandleClass::Win)
      .Case("MPI_Info", HandleClass::Info)
      .Case("MPI_Errhandler", HandleClass::Errhandler)
      .Case("MPI_Request", HandleClass::Request)
      .Default(std::nullopt);
}

bool ompi::isRequestType(llvm::StringRef TypeName) { return handleClassOf(TypeName) == HandleClass::Request; }

bool ompi::writesHandleLater(llvm::StringRef Name) {
  return Name.contains("_idup") || Name.contains("_set_attr") || Name.contains("Attr_put") ||
         Name == "MPI_Grequest_start";
}

bool ompi::isUntypedDatatype(llvm::StringRef Name) { return Name == "MPI_BYTE" || Name == "MPI_PACKED"; }

bool ompi::isAddressSizedDatatype(llvm::StringRef Name) {
  return Name == "MPI_AINT" || Name == "MPI_OFFSET" || Name == "MPI_COUNT";
}

bool ompi::isReductionOp(llvm::StringRef Name) {
  const HandleModel *H = lookupHandle(Name);
  return H && H->Kind == HandleKind::Op && Name != "MPI_REPLACE" && Name != "MPI_NO_OP" && Name != "MPI_OP_NULL";
}

std::string ompi::opDatatypeError(llvm::StringRef Op, llvm::StringRef Type, bool Accumulate) {
  enum Group { Integer = 1, Floating = 2, Logical = 4, Complex = 8, Byte = 16, Pair = 32 };
  static const llvm::StringMap<unsigned> Types = {{"MPI_INT", Integer},
                                                  {"MPI_LONG", Integer},
                                                  {"MPI_SHORT", Integer},
                                                  {"MPI_UNSIGNED_SHORT", Integer},
                                                  {"MPI_UNSIGNED", Integer},
                                                  {"MPI_UNSIGNED_LONG", Integer},
                                                  {"MPI_LONG_LONG_INT", Integer},
                                                  {"MPI_LONG_LONG", Integer},
                                                  {"MPI_UNSIGNED_LONG_LONG", Integer},
                                                  {"MPI_SIGNED_CHAR", Integer},
                                                  {"MPI_UNSIGNED_CHAR", Integer},
                                                  {"MPI_INT8_T", Integer},
                                                  {"MPI_INT16_T", Integer},
                                                  {"MPI_INT32_T", Integer},
                                                  {"MPI_INT64_T", Integer},
                                                  {"MPI_UINT8_T", Integer},
                                                  {"MPI_UINT16_T", Integer},
                                                  {"MPI_UINT32_T", Integer},
                                                  {"MPI_UINT64_T", Integer},
                                                  {"MPI_AINT", Integer},
                                                  {"MPI_OFFSET", Integer},
                                                  {"MPI_COUNT", Integer},
                                                  {"MPI_FLOAT", Floating},
                                                  {"MPI_DOUBLE", Floating},
                                                  {"MPI_LONG_DOUBLE", Floating},
                                                  {"MPI_C_BOOL", Logical},
                                                  {"MPI_C_COMPLEX", Complex},
                                                  {"MPI_C_FLOAT_COMPLEX", Complex},
                                                  {"MPI_C_DOUBLE_COMPLEX", Complex},
                                                  {"MPI_C_LONG_DOUBLE_COMPLEX", Complex},
                                                  {"MPI_BYTE", Byte},
                                                  {"MPI_FLOAT_INT", Pair},
                                                  {"MPI_DOUBLE_INT", Pair},
                                                  {"MPI_LONG_INT", Pair},
                                                  {"MPI_2INT", Pair},
                                                  {"MPI_SHORT_INT", Pair},
                                                  {"MPI_LONG_DOUBLE_INT", Pair}};
  struct Allowed {
    unsigned Groups;
    const char *Words;
  };
  static const llvm::StringMap<Allowed> Ops = {
      {"MPI_MAX", {Integer | Floating, "integer and floating-point"}},
      {"MPI_MIN", {Integer | Floating, "integer and floating-point"}},
      {"MPI_SUM", {Integer | Floating | Complex, "integer, floating-point and complex"}},
      {"MPI_PROD", {Integer | Floating | Complex, "integer, floating-point and complex"}},
      {"MPI_LAND", {Integer | Logical, "integer and logical (MPI_C_BOOL)"}},
      {"MPI_LOR", {Integer | Logical, "integer and logical (MPI_C_BOOL)"}},
      {"MPI_LXOR", {Integer | Logical, "integer and logical (MPI_C_BOOL)"}},
      {"MPI_BAND", {Integer | Byte, "integer and MPI_BYTE"}},
      {"MPI_BOR", {Integer | Byte, "integer and MPI_BYTE"}},
      {"MPI_BXOR", {Integer | Byte, "integer and MPI_BYTE"}},
      {"MPI_MAXLOC", {Pair, "value-index pair (MPI_DOUBLE_INT, MPI_2INT, ...)"}},
      {"MPI_MINLOC", {Pair, "value-index pair (MPI_DOUBLE_INT, MPI_2INT, ...)"}}};
  if (Op == "MPI_REPLACE" || Op == "MPI_NO_OP")
    return Accumulate ? "" : (Op + " is only for one-sided accumulate operations, not for reductions").str();
  auto T = Types.find(canonicalHandle(Type));
  auto O = Ops.find(Op);
  if (T == Types.end() || O == Ops.end() || (O->second.Groups & T->second))
    return "";
  return (Op + " is not defined for " + Type + ": it combines only " + O->second.Words + " types").str();
}

bool ompi::isInPlaceBuffer(llvm::StringRef Name) { return Name == "MPI_IN_PLACE"; }

const TypeConstructorModel *ompi::lookupTypeConstructor(llvm::StringRef Name) {
  static const TypeConstructorModel Table[] = {
      {"MPI_Type_contiguous", TypeConstructorModel::Contiguous, 0, -1, -1, 1, 2},
      {"MPI_Type_vector", TypeConstructorModel::Vector, 0, 1, 2, 3, 4},
      {"MPI_Type_create_hvector", TypeConstructorModel::HVector, 0, 1, 2, 3, 4},
      {"MPI_Type_hvector", TypeConstructorModel::HVector, 0, 1, 2, 3, 4}, // MPI-1 name, still in some mpi.h
      {"MPI_Type_create_subarray", TypeConstructorModel::Subarray, 0, -1, -1, 5, 6, 1, 2, 3, 4},
      {"MPI_Type_create_resized", TypeConstructorModel::Resized, -1, -1, -1, 0, 3, -1, -1, -1, -1, 1, 2},
      {"MPI_Type_create_indexed_block", TypeConstructorModel::IndexedBlock, 0, 1, -1, 3, 4, -1, -1, -1, -1, -1, -1, 2},
      {"MPI_Type_create_hindexed_block", TypeConstructorModel::HIndexedBlock, 0, 1, -1, 3, 4, -1, -1, -1, -1, -1, -1,
       2},
  };
  for (const TypeConstructorModel &T : Table)
    if (T.Name == Name)
      return &T;
  return nullptr;
}

const HandleCallModel *ompi::lookupHandleCall(llvm::StringRef Name) {
  using H = HandleCallModel;
  auto Make = [](llvm::StringRef Name, H::Shape K, int Parent, int Out) {
    H M{Name, K};
    M.Parent = Parent, M.Out = Out;
    return M;
  };
  static const std::vector<H> Table = [&] {
    std::vector<H> T;
    for (llvm::StringRef S : {"MPI_Type_create_struct", "MPI_Type_struct"}) {
      H M = Make(S, H::Struct, -1, 4); // (count, blocklengths, displacements, types, newtype)
      M.Count = 0, M.BlockLengths = 1, M.Displs = 2, M.Types = 3;
      T.push_back(M);
    }
    H Split = Make("MPI_Comm_split", H::Split, 0, 3); // (comm, color, key, newcomm)
    Split.Colour = 1, Split.Key = 2;
    H SplitType = Make("MPI_Comm_split_type", H::SplitType, 0, 4); // (comm, split_type, key, info, newcomm)
    SplitType.Key = 2;
    H Create = Make("MPI_Comm_create", H::Create, 0, 2),
      CreateGroup = Make("MPI_Comm_create_group", H::CreateGroup, 0, 3);
    Create.Group = 1, CreateGroup.Group = 1;
    H Cart = Make("MPI_Cart_create", H::CartCreate, 0, 5); // (comm_old, ndims, dims, periods, reorder, comm_cart)
    Cart.Count = 1, Cart.Dims = 2;
    T.insert(T.end(),
             {Split, SplitType, Make("MPI_Comm_dup", H::Dup, 0, 1), Make("MPI_Comm_dup_with_info", H::Dup, 0, 2),
              Create, CreateGroup, Cart, Make("MPI_Cart_sub", H::CartSub, 0, 2),
              Make("MPI_Cart_get", H::CartGet, 0, -1), Make("MPI_Comm_free", H::Free, -1, 0),
              Make("MPI_Win_free", H::Free, -1, 0), Make("MPI_Comm_group", H::CommGroup, 0, 1)});
    return T;
  }();
  for (const H &M : Table)
    if (M.Name == Name)
      return &M;
  return nullptr;
}

std::optional<unsigned> ompi::duplicatedCommArg(llvm::StringRef Name) {
  if (Name == "MPI_Comm_dup" || Name == "MPI_Comm_dup_with_info" || Name == "MPI_Comm_idup" ||
      Name == "MPI_Comm_idup_with_info")
    return 0u; // (comm, [info,] newcomm[, request])
  return std::nullopt;
}

std::optional<AddressCallArgs> ompi::addressCallArgs(llvm::StringRef Name) {
  if (Name == "MPI_Get_address")
    return AddressCallArgs{0, 1};
  return std::nullopt;
}

std::optional<AddressDiffArgs> ompi::addressDiffArgs(llvm::StringRef Name) {
  if (Name == "MPI_Aint_diff")
    return AddressDiffArgs{0, 1};
  return std::nullopt;
}

bool ompi::mayGiveNullCommunicator(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Comm_create", "MPI_Comm_create_group", "MPI_Comm_split", "MPI_Comm_split_type", true)
      .Cases("MPI_Cart_create", "MPI_Graph_create", "MPI_Comm_accept", "MPI_Comm_connect", "MPI_Comm_spawn", true)
      .Default(false);
}

bool ompi::needsCartesianTopology(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("MPI_Cart_get", "MPI_Cart_shift", "MPI_Cart_coords", "MPI_Cart_rank", "MPI_Cartdim_get", true)
      .Case("MPI_Cart_sub", true)
      .Default(false);
}

bool ompi::finalizesMPI(llvm::StringRef Name) { return Name == "MPI_Finalize" || Name == "PMPI_Finalize"; }

/// The thread levels and their spellings, in order (threadLevelOf and
/// threadLevelName read the one table).
static const std::pair<ThreadLevel, llvm::StringLiteral> ThreadLevels[] = {
    {ThreadLevel::Single, "MPI_THREAD_SINGLE"},
    {ThreadLevel::Funneled, "MPI_THREAD_FUNNELED"},
    {ThreadLevel::Serialized, "MPI_THREAD_SERIALIZED"},
    {ThreadLevel::Multiple, "MPI_THREAD_MULTIPLE"}};

std::optional<ThreadLevel> ompi::threadLevelOf(llvm::StringRef Handle) {
  for (const auto &[L, Name] : ThreadLevels)
    if (Handle == Name)
      return L;
  return std::nullopt;
}

llvm::StringRef ompi::threadLevelName(ThreadLevel L) {
  for (const auto &[K, Name] : ThreadLevels)
    if (K == L)
      return Name;
  return "";
}

std::optional<unsigned> ompi::requiredThreadLevelArg(const FunctionModel &M) {
  if (M.Name != "MPI_Init_thread")
    return std::nullopt;
  for (unsigned I = 0; I < M.Args.size(); ++I)
    if (M.Args[I].Name == "required")
      return I;
  return std::nullopt;
}

std::optional<InfoSetArgs> ompi::infoSetArgs(llvm::StringRef Name) {
  if (Name == "MPI_Info_set" || Name == "PMPI_Info_set")
    return InfoSetArgs{0, 1, 2};
  return std::nullopt;
}

std::optional<unsigned> ompi::requestCountArg(const FunctionModel &M) {
  // In every call that takes an array of requests, its count comes just
  // before it.
  std::optional<unsigned> I = M.find(Role::Requests);
  return I && *I > 0 ? std::optional<unsigned>(*I - 1) : std::nullopt;
}

std::string ompi::blockingForm(llvm::StringRef Name) {
  std::string N = Name.str();
  if (llvm::StringRef(N).ends_with("_init"))
    N.resize(N.size() - 5);
  if (llvm::StringRef(N).starts_with("MPI_I") && N.size() > 5 && lookupFunction("MPI_" + N.substr(5)) &&
      lookupFunction("MPI_" + N.substr(5))->isCollective())
    N = "MPI_" + N.substr(5);
  return N;
}

bool ompi::significantOnlyAtRoot(llvm::StringRef Name, Role R) {
  std::string B = blockingForm(Name);
  if (B == "MPI_Gather" || B == "MPI_Gatherv")
    return R == Role::RecvBuf || R == Role::RecvCount || R == Role::RecvCounts || R == Role::RecvType ||
           R == Role::RecvDispls;
  if (B == "MPI_Scatter" || B == "MPI_Scatterv")
    return R == Role::SendBuf || R == Role::SendCount || R == Role::SendCounts || R == Role::SendType ||
           R == Role::SendDispls;
  return B == "MPI_Reduce" && R == Role::RecvBuf;
}

bool ompi::blockPerProcess(llvm::StringRef Name, Role R) {
  std::string B = blockingForm(Name);
  return llvm::StringSwitch<bool>(B)
      .Cases("MPI_Gather", "MPI_Allgather", R == Role::RecvBuf)
      .Case("MPI_Scatter", R == Role::SendBuf)
      .Case("MPI_Alltoall", R == Role::SendBuf || R == Role::RecvBuf)
      .Default(false);
}

bool ompi::isNullHandle(llvm::StringRef Name) {
  return Name != "MPI_PROC_NULL" && Name.starts_with("MPI_") && Name.ends_with("_NULL");
}

bool ompi::committsType(llvm::StringRef Name) { return Name == "MPI_Type_commit"; }
bool ompi::freesType(llvm::StringRef Name) { return Name == "MPI_Type_free"; }
