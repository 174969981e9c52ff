// --report=json: the same facts as the text report, as JSON (schema in
// docs/user-guide.md, "JSON report"). The output must be valid JSON.
// RUN: %ompi-opt --report=json %s -- %mpich_cflags > %t.json
// RUN: %python -m json.tool %t.json > /dev/null
// RUN: FileCheck --match-full-lines %s < %t.json
// RUN: %ompi-opt --report=json --report-file=%t.file.json %s -- %openmpi_cflags
// RUN: FileCheck --match-full-lines %s < %t.file.json
#include <mpi.h>

void f(int *x, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Send(x, 4, MPI_INT, rank + 1, 9, MPI_COMM_WORLD);
  MPI_Type_free(0);
}
// CHECK: {
// CHECK-NEXT:   "files": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "calls": [
// CHECK:               "function": "MPI_Comm_rank",
// CHECK:               "class": "dynamic",
// CHECK-NEXT:          "index": 0,
// CHECK-NEXT:          "name": "buf",
// CHECK-NEXT:          "reason": "x is a parameter of f, which other files may call",
// CHECK-NEXT:          "role": "send-buffer",
// CHECK-NEXT:          "text": "x"
// CHECK:               "class": "static",
// CHECK-NEXT:          "index": 1,
// CHECK-NEXT:          "int": 4,
// CHECK-NEXT:          "name": "count",
// CHECK-NEXT:          "role": "count",
// CHECK-NEXT:          "text": "4",
// CHECK-NEXT:          "value": "4"
// CHECK:               "class": "rank-relative",
// CHECK-NEXT:          "index": 3,
// CHECK-NEXT:          "name": "dest",
// CHECK-NEXT:          "role": "dest",
// CHECK-NEXT:          "text": "rank + 1",
// CHECK-NEXT:          "value": "rank+1"
// CHECK:           "caller": "f",
// CHECK-NEXT:      "category": "point-to-point",
// CHECK-NEXT:      "column": 3,
// CHECK-NEXT:      "file": "{{.*}}json.c",
// CHECK-NEXT:      "function": "MPI_Send",
// CHECK-NEXT:      "line": 13,
// CHECK-NEXT:      "mode": "blocking",
// CHECK-NEXT:      "modelled": true,
// CHECK-NEXT:      "sets": {
// CHECK-NEXT:        "Buffer": {
// CHECK-NEXT:          "class": "dynamic",
// CHECK-NEXT:          "value": "buf=x"
// CHECK-NEXT:        },
// CHECK-NEXT:        "CommNode": {
// CHECK-NEXT:          "class": "rank-relative",
// CHECK-NEXT:          "value": "dest=rank+1 @ MPI_COMM_WORLD"
// CHECK-NEXT:        },
// CHECK-NEXT:        "CommSize": {
// CHECK-NEXT:          "bytes": 16,
// CHECK-NEXT:          "class": "static",
// CHECK-NEXT:          "value": "16 bytes"
// CHECK-NEXT:        },
// CHECK-NEXT:        "Tag": {
// CHECK-NEXT:          "class": "static",
// CHECK-NEXT:          "value": "tag=9"
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "caller": "f",
// CHECK-NEXT:      "column": 3,
// CHECK-NEXT:      "file": "{{.*}}json.c",
// CHECK-NEXT:      "function": "MPI_Type_free",
// CHECK-NEXT:      "line": 14,
// CHECK-NEXT:      "modelled": false
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK-NEXT:  "changes": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "applied": false,
// CHECK-NEXT:      "column": 3,
// CHECK-NEXT:      "file": "{{.*}}json.c",
// CHECK-NEXT:      "kind": "declined",
// CHECK-NEXT:      "line": 13,
// CHECK-NEXT:      "transform": "persistent-requests",
// CHECK-NEXT:      "what": "MPI_Send not through a persistent request",
// CHECK-NEXT:      "why": "it is in no loop of f, so no request can live through one; a per-site cache: {{.*}}"
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK-NEXT:  "file": "{{.*}}json.c"
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "schema": 1,
// CHECK-NEXT: "tool": "ompi-opt"
// CHECK-NEXT: }
