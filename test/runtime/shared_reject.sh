#!/usr/bin/env bash
# shared_reject.sh MPICXX INCLUDE_DIR SOURCE NCASES: CASE=0 compiles, every
# CASE from 1 to NCASES is rejected by the compiler with an error.
set -uo pipefail
cxx=$1 inc=$2 src=$3 n=$4
"$cxx" -std=c++17 -fsyntax-only -DCASE=0 -I"$inc" "$src" || { echo "FAIL: the accepted forms do not compile"; exit 1; }
for c in $(seq 1 "$n"); do
  if out=$("$cxx" -std=c++17 -fsyntax-only -DCASE=$c -I"$inc" "$src" 2>&1); then
    echo "FAIL: case $c compiled"; exit 1
  fi
  echo "$out" | grep -q "error" || { echo "FAIL: case $c: no error message"; exit 1; }
  echo "ok: case $c rejected: $(echo "$out" | grep -m1 error | sed 's/.*error: //')"
done
