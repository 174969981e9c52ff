// A compilation database whose "file" entries are relative to their
// "directory", in two directories: u/u.c includes "uh.h" beside it, and
// p/p.c includes "ph.h", which includes "uh.h" through -I../u. Clang's file
// manager, shared by the files of one run, cached "./uh.h" under the first
// file's directory, so the second file's quoted include failed ("cannot
// open file './uh.h'"). Every file must be processed, in either order.
// RUN: rm -rf %t && mkdir -p %t && cp -r %S/Inputs/relative-db/p %S/Inputs/relative-db/u %t/
// RUN: echo '[{"directory": "%t/p", "command": "cc -c -I../u %mpich_cflags p.c", "file": "p.c"}, {"directory": "%t/u", "command": "cc -c u.c", "file": "u.c"}]' > %t/compile_commands.json
// RUN: cd %t && %ompi-opt --summary -p . 2>&1 | FileCheck --check-prefix=ONE %s
// RUN: echo '[{"directory": "%t/u", "command": "cc -c u.c", "file": "u.c"}, {"directory": "%t/p", "command": "cc -c -I../u %mpich_cflags p.c", "file": "p.c"}]' > %t/compile_commands.json
// RUN: cd %t && %ompi-opt --summary -p . 2>&1 | FileCheck --check-prefix=ONE %s
// ONE-NOT: error
// ONE: ompi-opt summary: 2 communication call sites in 2 files
// ONE-NEXT: 2 {{.*}} changed
