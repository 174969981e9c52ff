//===- ModelTest.cpp - The MPI call model's attributes --------------------===//
#include "mpi/MPIModel.h"
#include "mpi/Names.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace ompi;

namespace {

TEST(Model, RolesByName) {
  const FunctionModel *M = lookupFunction("MPI_Allreduce");
  ASSERT_NE(M, nullptr);
  EXPECT_TRUE(M->isReduction());
  EXPECT_EQ(M->find(Role::SendBuf), 0u);
  EXPECT_EQ(M->find(Role::RecvBuf), 1u);
  EXPECT_EQ(M->find(Role::Comm), 5u);
  EXPECT_FALSE(M->find(Role::Root).has_value());
}

/// The names other layers spell through mpi/Names.h are names the model
/// knows: a typo there (MPI_COMM_WROLD) would make a check silently never
/// match. The few the model's tables leave out are the handle calls the
/// handle traces name for their effect alone and the subarray orders.
TEST(Model, SpelledNamesAreModelled) {
  const llvm::StringRef Untabled[] = {"MPI_Comm_disconnect", "MPI_Comm_get_parent", "MPI_Comm_idup",
                                      "MPI_Errhandler_free", "MPI_Errhandler_set",  "MPI_Group_free",
                                      "MPI_Info_free",       "MPI_Op_free",         "MPI_Type_dup",
                                      "MPI_Type_match_size", "MPI_ORDER_C",         "MPI_ORDER_FORTRAN"};
  auto Modelled = [&](llvm::StringRef N) {
    return lookupFunction(N) || lookupHandleCall(N) || lookupTypeConstructor(N) || setsUpOrQueries(N) ||
           finalizesMPI(N) || committsType(N) || freesType(N) || lookupHandle(N) || llvm::is_contained(Untabled, N);
  };
  for (llvm::StringRef N : mpi::spelledFunctions())
    EXPECT_TRUE(Modelled(N)) << N.str();
  for (llvm::StringRef N : mpi::spelledHandles())
    EXPECT_TRUE(Modelled(N)) << N.str();
  EXPECT_FALSE(Modelled("MPI_COMM_WROLD"));
  EXPECT_EQ(mpi::MPI_Waitall, "MPI_Waitall");
  EXPECT_EQ(threadLevelName(ThreadLevel::Funneled), "MPI_THREAD_FUNNELED");
  EXPECT_EQ(threadLevelOf(threadLevelName(ThreadLevel::Multiple)), ThreadLevel::Multiple);
}

TEST(Model, Counterparts) {
  EXPECT_EQ(persistentCounterpart("MPI_Isend"), "MPI_Send_init");
  EXPECT_EQ(persistentCounterpart("MPI_Allreduce"), "");
  EXPECT_EQ(lazyCounterpart("MPI_Reduce"), "mpiopt_lazy_reduce");
  EXPECT_TRUE(isFusibleReduction("MPI_Allreduce"));
  EXPECT_FALSE(isFusibleReduction("MPI_Iallreduce"));
}

TEST(Model, PlannedAndLargeVectorForms) {
  ASSERT_TRUE(plannedForms("MPI_Alltoallv").has_value());
  EXPECT_EQ(plannedForms("MPI_Alltoallv")->Planned, "mpiopt_alltoallv_planned");
  EXPECT_EQ(plannedForms("MPI_Alltoallv")->Cached, "mpiopt_alltoallv_cached");
  EXPECT_EQ(plannedForms("MPI_Alltoall")->Cached, "mpiopt_alltoall_cached");
  EXPECT_TRUE(plannedForms("MPI_Alltoall")->ScalarKey); // one plan per site, no agreement
  EXPECT_FALSE(plannedForms("MPI_Alltoallv")->ScalarKey);
  EXPECT_EQ(plannedForms("MPI_Allgatherv")->Planned, "mpiopt_allgatherv_planned");
  ASSERT_TRUE(plannedForms("MPI_Allgather").has_value()); // an Allgatherv plan of equal blocks
  EXPECT_EQ(plannedForms("MPI_Allgather")->Planned, "mpiopt_allgather_planned");
  EXPECT_EQ(plannedForms("MPI_Allgather")->Cached, "mpiopt_allgather_cached");
  EXPECT_TRUE(plannedForms("MPI_Allgather")->ScalarKey);
  EXPECT_FALSE(plannedForms("MPI_Alltoallw").has_value());
  EXPECT_TRUE(isPlanRole(Role::SendCounts));
  EXPECT_TRUE(isPlanRole(Role::Comm));
  EXPECT_FALSE(isPlanRole(Role::SendBuf));
  EXPECT_EQ(largeVectorCounterpart("MPI_Allreduce"), "mpiopt_allreduce");
  EXPECT_EQ(largeVectorCounterpart("MPI_Reduce"), "mpiopt_reduce");
  EXPECT_EQ(largeVectorCounterpart("MPI_Scan"), "");
  EXPECT_TRUE(reassociates("MPI_SUM"));
  EXPECT_FALSE(reassociates("MPI_MAX"));
}

TEST(Model, RequestEffects) {
  EXPECT_EQ(requestEffect(*lookupFunction("MPI_Isend")), RequestEffect::Starts);
  EXPECT_EQ(requestEffect(*lookupFunction("MPI_Wait")), RequestEffect::Completes);
  EXPECT_EQ(requestEffect(*lookupFunction("MPI_Start")), RequestEffect::Activates);
  EXPECT_EQ(requestEffect(*lookupFunction("MPI_Send")), RequestEffect::None);
}

// The calls outside the function table, by what their arguments are.
TEST(Model, InfoSetArguments) {
  auto A = infoSetArgs("MPI_Info_set");
  ASSERT_TRUE(A.has_value());
  EXPECT_EQ(A->Info, 0u);
  EXPECT_EQ(A->Key, 1u);
  EXPECT_EQ(A->Value, 2u);
  EXPECT_FALSE(infoSetArgs("MPI_Info_get").has_value());
}

TEST(Model, HandleCallArguments) {
  const HandleCallModel *S = lookupHandleCall("MPI_Type_create_struct");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->Kind, HandleCallModel::Struct);
  EXPECT_EQ(S->Count, 0);
  EXPECT_EQ(S->BlockLengths, 1);
  EXPECT_EQ(S->Displs, 2);
  EXPECT_EQ(S->Types, 3);
  EXPECT_EQ(S->Out, 4);
  EXPECT_EQ(lookupHandleCall("MPI_Type_struct")->Types, 3);
  const HandleCallModel *Split = lookupHandleCall("MPI_Comm_split");
  ASSERT_NE(Split, nullptr);
  EXPECT_EQ(Split->Kind, HandleCallModel::Split);
  EXPECT_EQ(Split->Parent, 0);
  EXPECT_EQ(Split->Colour, 1);
  EXPECT_EQ(Split->Key, 2);
  EXPECT_EQ(Split->Out, 3);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_split_type")->Key, 2);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_split_type")->Colour, -1);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_dup")->Out, 1);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_dup_with_info")->Out, 2);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_create")->Group, 1);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_create_group")->Out, 3);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_group")->Out, 1);
  const HandleCallModel *Cart = lookupHandleCall("MPI_Cart_create");
  EXPECT_EQ(Cart->Count, 1);
  EXPECT_EQ(Cart->Dims, 2);
  EXPECT_EQ(Cart->Out, 5);
  EXPECT_EQ(lookupHandleCall("MPI_Cart_get")->Parent, 0);
  EXPECT_EQ(lookupHandleCall("MPI_Win_free")->Kind, HandleCallModel::Free);
  EXPECT_EQ(lookupHandleCall("MPI_Comm_free")->Out, 0);
  EXPECT_EQ(lookupHandleCall("MPI_Send"), nullptr);
  EXPECT_EQ(requestCountArg(*lookupFunction("MPI_Waitall")), 0u);
  EXPECT_EQ(requestCountArg(*lookupFunction("MPI_Waitsome")), 0u);
  EXPECT_FALSE(requestCountArg(*lookupFunction("MPI_Wait")).has_value());
  // What the request flow and the templates read by role: a test's flag,
  // the run a Waitany/Testall covers and its count, a fence's assertion.
  EXPECT_EQ(lookupFunction("MPI_Test")->find(Role::Out), 1u);
  EXPECT_EQ(lookupFunction("MPI_Test")->find(Role::Request), 0u);
  EXPECT_EQ(lookupFunction("MPI_Testall")->find(Role::Out), 2u);
  EXPECT_EQ(lookupFunction("MPI_Testall")->find(Role::Requests), 1u);
  EXPECT_EQ(requestCountArg(*lookupFunction("MPI_Waitany")), 0u);
  EXPECT_EQ(lookupFunction("MPI_Win_fence")->find(Role::Assert), 0u);
  for (const char *Dup : {"MPI_Comm_dup", "MPI_Comm_dup_with_info", "MPI_Comm_idup", "MPI_Comm_idup_with_info"})
    EXPECT_EQ(duplicatedCommArg(Dup), 0u) << Dup;
  EXPECT_FALSE(duplicatedCommArg("MPI_Comm_split").has_value());
  ASSERT_TRUE(addressCallArgs("MPI_Get_address").has_value());
  EXPECT_EQ(addressCallArgs("MPI_Get_address")->Location, 0u);
  EXPECT_EQ(addressCallArgs("MPI_Get_address")->Address, 1u);
  ASSERT_TRUE(addressDiffArgs("MPI_Aint_diff").has_value());
  EXPECT_EQ(addressDiffArgs("MPI_Aint_diff")->Subtrahend, 1u);
  EXPECT_FALSE(addressCallArgs("MPI_Aint_diff").has_value());
  EXPECT_TRUE(needsCartesianTopology("MPI_Cart_shift"));
  EXPECT_FALSE(needsCartesianTopology("MPI_Comm_split"));
  EXPECT_TRUE(mayGiveNullCommunicator("MPI_Comm_create"));
  EXPECT_FALSE(mayGiveNullCommunicator("MPI_Comm_dup"));
}

TEST(Model, HandleAttributes) {
  EXPECT_TRUE(isReductionOp("MPI_SUM"));
  EXPECT_FALSE(isReductionOp("MPI_REPLACE"));
  EXPECT_FALSE(isReductionOp("MPI_INT"));
  EXPECT_TRUE(isUntypedDatatype("MPI_BYTE"));
  EXPECT_TRUE(isAddressSizedDatatype("MPI_AINT"));
  EXPECT_EQ(canonicalHandle("MPI_LONG_LONG"), "MPI_LONG_LONG_INT");
  EXPECT_TRUE(createsCommunicator("MPI_Comm_split"));
  EXPECT_TRUE(endsCommunicator("MPI_Comm_free"));
  EXPECT_FALSE(carriesData(*lookupFunction("MPI_Barrier")));
  EXPECT_TRUE(carriesData(*lookupFunction("MPI_Bcast")));
}

} // namespace
