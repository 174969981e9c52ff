#!/usr/bin/env bash
# The HTML diff report in a real browser: ompi-cc --ompi-diff=DIR builds two
# programs (one page each, and the index); headless Chromium renders every
# page, the page's own layout check must report both panes present, every
# code row aligned across the panes and every note right under a changed
# block; a screenshot of each page is kept under ARTEFACTS (build/test/artefacts).
# Skipped (exit 77) when Chromium is not installed (scripts/setup installs it).
# Environment: E2E_OMPI_CC E2E_SRC_ROOT E2E_WORK ARTEFACTS MPI_MPICH_CC.
set -euo pipefail
. "$(dirname "$0")/../mpi.sh"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "skipped: no Chromium (scripts/setup installs it)"; exit 77; }
rm -rf "$E2E_WORK" && mkdir -p "$E2E_WORK" "$ARTEFACTS"
cd "$E2E_WORK"
cp "$E2E_SRC_ROOT/examples/heat.c" heat.c
cp "$E2E_SRC_ROOT/benchmarks/variance/variance.c" variance.c
export OMPI_CC_MPICC=$MPI_MPICH_CC
"$E2E_OMPI_CC" --ompi-diff=report -O2 -o heat heat.c -lm
"$E2E_OMPI_CC" --ompi-diff=report -O2 -o variance variance.c -lm
[ -f report/heat.c.html ] && [ -f report/variance.c.html ] && [ -f report/index.html ] || fail "pages missing: $(ls report)"
grep -q 'href="heat.c.html"' report/index.html && grep -q 'href="variance.c.html"' report/index.html \
  || fail "the index does not list both pages"

render() { # render PAGE[#FRAGMENT]: print the DOM after the page's scripts ran; keep a screenshot
  local page=$1 png
  png=$ARTEFACTS/$(basename "${page%%#*}" .html).png
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
    --screenshot="$png" "file://$PWD/$page" > /dev/null 2>&1 || fail "Chromium could not render $page"
  [ -s "$png" ] || fail "no screenshot of $page"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --dump-dom \
    "file://$PWD/$page" 2> /dev/null
}
# #unfold opens every fold (their rows are built from the plain text the
# page holds once): they must line up too, and there must be more rows.
for page in report/heat.c.html report/variance.c.html report/heat.c.html#unfold report/variance.c.html#unfold; do
  dom=$(render "$page")
  check=$(echo "$dom" | grep -o 'data-check="[^"]*"' || true)
  if [ -z "$check" ]; then # under load a dump once came before the page's script ran: once more
    dom=$(render "$page")
    check=$(echo "$dom" | grep -o 'data-check="[^"]*"' || true)
  fi
  echo "$page: $check"
  case $check in
    *'"ok panes=2 rows='*' misaligned=0 notes='*' orphan-notes=0"') ;;
    *) fail "$page: layout check failed: ${check:-no result (the page script did not run)}" ;;
  esac
done
# variance.c has a static fusion and deferrals: notes must be shown.
dom=$(render report/variance.c.html)
notes=$(echo "$dom" | grep -o 'data-check="[^"]*"' | sed 's/.* notes=\([0-9]*\).*/\1/')
[ "$notes" -ge 2 ] || fail "variance.c: expected notes, got $notes"
# The summary's cells are static HTML: read the page itself (a DOM dump
# under load once came back without them).
grep -q 'class=better' report/variance.c.html || fail "variance.c: the summary shows no saving"
folded=$(render report/heat.c.html | grep -o 'data-check="[^"]*"' | sed 's/.* rows=\([0-9]*\).*/\1/')
open=$(render report/heat.c.html#unfold | grep -o 'data-check="[^"]*"' | sed 's/.* rows=\([0-9]*\).*/\1/')
[ "$open" -gt "$folded" ] || fail "heat.c: opening the folds added no rows ($folded, then $open)"
# The page holds the code as plain text; its script highlights it.
dom=$(render report/heat.c.html)
echo "$dom" | grep -q '<span class="m">MPI_Allreduce</span>' || fail "heat.c: the code was not highlighted"
echo "$dom" | grep -q '<span class="c">/\* ompi-opt: ' || fail "heat.c: the comments were not highlighted"
render report/index.html | grep -q "ompi-opt: project report" || fail "the index did not render"
ok "HTML report rendered in $(basename "$browser"); screenshots in $ARTEFACTS"
