/* The root fills an array of structs, packs it field by field into a
 * buffer of doubles, broadcasts it and the other ranks unpack it (as
 * miniAMR's objects); it also broadcasts a value under a flag it sets with
 * it. The time loop reads the structs directly and through a local pointer
 * to an element, and its reductions, proved to run on every rank alike,
 * are fused; rank 0 prints what it computed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int kind;
  double cen[3];
} shape;

shape *objects;
int num_objects, use_time;
double end_time = 5.0;

int main(int argc, char **argv) {
  int rank, size, i, o, params[2];
  double *objs, a, b, t;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    num_objects = 3;
    objects = malloc(num_objects * sizeof(shape));
    for (o = 0; o < num_objects; o++) {
      objects[o].kind = o + argc;
      objects[o].cen[0] = 0.5 * o;
      objects[o].cen[1] = 1.5;
      objects[o].cen[2] = 0.25 * argc;
    }
    if (argc > 1 && !strcmp(argv[1], "--time")) {
      end_time = 3.0;
      use_time = 1;
    }
    params[0] = num_objects;
    params[1] = use_time;
    MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (use_time)
      MPI_Bcast(&end_time, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    objs = malloc(4 * num_objects * sizeof(double));
    for (i = o = 0; o < num_objects; o++) {
      objs[i++] = (double)objects[o].kind;
      objs[i++] = objects[o].cen[0];
      objs[i++] = objects[o].cen[1];
      objs[i++] = objects[o].cen[2];
    }
    MPI_Bcast(objs, 4 * num_objects, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
    num_objects = params[0];
    use_time = params[1];
    if (use_time)
      MPI_Bcast(&end_time, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    objects = malloc(num_objects * sizeof(shape));
    objs = malloc(4 * num_objects * sizeof(double));
    MPI_Bcast(objs, 4 * num_objects, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = o = 0; o < num_objects; o++) {
      objects[o].kind = (int)objs[i++];
      objects[o].cen[0] = objs[i++];
      objects[o].cen[1] = objs[i++];
      objects[o].cen[2] = objs[i++];
    }
  }
  free(objs);
  for (t = 0; t < end_time; t += 1.0) {
    shape *op;
    double most = 0;
    for (o = 0; o < num_objects; o++) {
      op = &objects[o];
      if (op->cen[0] > most)
        most = op->cen[0];
    }
    a = rank + t;
    b = most * (rank + 1);
    if (objects[1].kind > 0 && most > 0.5) {
      MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
      printf("t %.1f a %.2f b %.2f\n", t, a, b);
    for (o = 0; o < num_objects; o++)
      objects[o].cen[0] += 0.1;
  }
  free(objects);
  MPI_Finalize();
  return 0;
}
