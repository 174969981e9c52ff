/* Prints MPI_Type_size of every predefined datatype the tool models, as
 * "NAME SIZE" lines, to check the tool's sizes against the real MPI. */
#include <mpi.h>
#include <stdio.h>

#define SHOW(t)                                                                                                \
  do {                                                                                                         \
    int s;                                                                                                     \
    MPI_Type_size(t, &s);                                                                                      \
    printf("%s %d\n", #t, s);                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  SHOW(MPI_CHAR); SHOW(MPI_SIGNED_CHAR); SHOW(MPI_UNSIGNED_CHAR); SHOW(MPI_BYTE); SHOW(MPI_PACKED);
  SHOW(MPI_WCHAR); SHOW(MPI_SHORT); SHOW(MPI_UNSIGNED_SHORT); SHOW(MPI_INT); SHOW(MPI_UNSIGNED);
  SHOW(MPI_LONG); SHOW(MPI_UNSIGNED_LONG); SHOW(MPI_LONG_LONG_INT); SHOW(MPI_LONG_LONG);
  SHOW(MPI_UNSIGNED_LONG_LONG); SHOW(MPI_FLOAT); SHOW(MPI_DOUBLE); SHOW(MPI_LONG_DOUBLE); SHOW(MPI_C_BOOL);
  SHOW(MPI_INT8_T); SHOW(MPI_INT16_T); SHOW(MPI_INT32_T); SHOW(MPI_INT64_T); SHOW(MPI_UINT8_T);
  SHOW(MPI_UINT16_T); SHOW(MPI_UINT32_T); SHOW(MPI_UINT64_T); SHOW(MPI_AINT); SHOW(MPI_OFFSET); SHOW(MPI_COUNT);
  SHOW(MPI_C_COMPLEX); SHOW(MPI_C_FLOAT_COMPLEX); SHOW(MPI_C_DOUBLE_COMPLEX); SHOW(MPI_C_LONG_DOUBLE_COMPLEX);
  SHOW(MPI_FLOAT_INT); SHOW(MPI_DOUBLE_INT); SHOW(MPI_LONG_INT); SHOW(MPI_2INT); SHOW(MPI_SHORT_INT);
  SHOW(MPI_LONG_DOUBLE_INT);
  MPI_Finalize();
  return 0;
}
