#!/usr/bin/env bash
# benchmarks/platforms/plot.py (scripts/simulate --plot) on two small tables
# of the plankton and reduce sections at 16 and 64 ranks: a PNG each, a section without
# tables skipped with a line; exit 77 (skipped) without matplotlib.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
python3 -c "import matplotlib" 2> /dev/null || { echo "matplotlib not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sim/plankton"
for np in 16 64; do
  cat > "$work/sim/plankton/plankton-smpi-np$np.md" <<MD
**Simulated** (test): Plankton benchmark, smpi, $np ranks

| build | seconds | vs original | / hand-optimised | synchronisations per step |
|---|---:|---:|---:|---:|
| original | 0.0$((np / 8)) | +0.0% | 2.0 | 27.0 |
| hand-optimised | 0.01 | +50.0% | 1.000 | 6.0 |
| ompi-cc (deferred) | 0.011 | +45.0% | 1.1 | 7.0 |
MD
done
mkdir -p "$work/sim/reduce"
for np in 16 64; do
  cat > "$work/sim/reduce/reduce-smpi-np$np.md" <<MD
**Simulated** (test): Large-vector reductions, smpi, $np ranks

allreduce, 0% zeros:

| floats | MPI us | selector | chose | binomial | redscat | ring |
|---:|---:|---:|---|---:|---:|---:|
| 262144 | $((np * 10)).0 | 0.71 | redscat | 1.51 | 0.71 | 0.73 |

reduce, 0% zeros:

| floats | MPI us | selector | chose | binomial | redscat | ring |
|---:|---:|---:|---|---:|---:|---:|
| 262144 | 245.3 | 1.00 | native | 1.83 | 1.42 | 1.44 |
MD
done
out=$(python3 "$REPO/benchmarks/platforms/plot.py" "$work/sim" "$work/img")
echo "$out"
grep -q "sim-plankton.png" <<< "$out" || { echo "FAIL: no plot for plankton"; exit 1; }
grep -q "sim-reduce.png" <<< "$out" || { echo "FAIL: no plot for reduce"; exit 1; }
grep -q "bsp: tables at fewer than two rank counts" <<< "$out" || { echo "FAIL: bsp not reported as skipped"; exit 1; }
head -c 8 "$work/img/sim-plankton.png" | od -An -c | grep -q "P   N   G" || { echo "FAIL: not a PNG"; exit 1; }
[ ! -e "$work/img/sim-bsp.png" ] || { echo "FAIL: a plot without data"; exit 1; }
echo "ok: plot.py"
