//===- ModelTest.cpp - The MPI call model's attributes --------------------===//
#include "mpi/MPIModel.h"
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
  EXPECT_EQ(plannedForms("MPI_Alltoall")->Cached, "");
  EXPECT_EQ(plannedForms("MPI_Allgatherv")->Planned, "mpiopt_allgatherv_planned");
  EXPECT_FALSE(plannedForms("MPI_Allgather").has_value());
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
