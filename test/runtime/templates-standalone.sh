#!/usr/bin/env bash
# Every header of templates/mpiopt compiles on its own, first in a file,
# as ompi-opt includes it into a user's file: as strict ISO C90 (the
# strictest C a user's build may ask for: -ansi -pedantic-errors, no
# declarations after statements), as C99 and as C++, warnings as errors.
# MPICH's mpi.h (Open MPI's uses long long, which C90 lacks).
# usage: templates-standalone.sh SRC_ROOT MPICC MPICXX
set -u
root=$1 cc=$2 cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 n=0
for h in "$root"/templates/mpiopt/*.h; do
  name=$(basename "$h")
  printf '#include "mpiopt/%s"\nint main(void) { return 0; }\n' "$name" > "$work/t.c"
  cp "$work/t.c" "$work/t.cpp"
  for mode in "c:-ansi -pedantic-errors -Wdeclaration-after-statement" "c:-std=c99 -pedantic-errors" \
              "cpp:-std=c++11 -pedantic-errors"; do
    lang=${mode%%:*} flags=${mode#*:}
    compiler=$cc
    [ "$lang" = cpp ] && compiler=$cxx
    n=$((n + 1))
    # shellcheck disable=SC2086
    if ! "$compiler" $flags -Wall -Wextra -Werror -I"$root/templates" -c "$work/t.$lang" -o "$work/t.o" \
         > "$work/out.txt" 2>&1; then
      echo "FAIL: $name with $compiler $flags:"
      head -5 "$work/out.txt"
      fail=1
    fi
  done
done
echo "$n compiles of $(ls "$root"/templates/mpiopt/*.h | wc -l) headers"
exit $fail
