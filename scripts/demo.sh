#!/usr/bin/env bash
# Shows a newcomer what Augur does: validates every bundled example for all
# parameter values at once, then runs it on random inputs with the
# parameters named on its "# augur run:" line.
# Kernels whose name starts with broken_ are deliberately wrong; their
# reports show how Augur explains a failure.
set -u
bin=${1:-bin/augur}
cd "$(dirname "$0")/.."

for dir in examples/*/ examples/reductions/*/; do
  spec=$(ls "$dir"*.sare 2>/dev/null | head -n 1)
  [ -n "$spec" ] || continue
  for prog in "$dir"*.sched; do
    printf '\n\033[1m$ augur validate %s %s\033[0m\n' "$spec" "$prog"
    "$bin" validate "$spec" "$prog"
    echo "(exit status $?)"
    args=$(sed -n 's/^# augur run: *//p' "$prog" | head -n 1)
    printf '\n\033[1m$ augur run %s %s %s\033[0m\n' "$spec" "$prog" "$args"
    # shellcheck disable=SC2086
    "$bin" run "$spec" "$prog" $args
    echo "(exit status $?)"
  done
done

# The front ends: every ATL program whose default lowering is expected to
# give a verdict, and every Rink program, compiled to a specification and
# annotated kernels and validated (the same pairs augur serve --examples
# submits).
out=$(mktemp -d)
for src in examples/atl/*.atl; do
  expect=$(sed -n 's/^# expect: *//p' "$src" | head -n 1)
  [ -n "$expect" ] && [ "$expect" != rejected ] || continue
  printf '\n\033[1m$ augur atl %s -o %s --validate\033[0m   (expected: %s)\n' "$src" "$out" "$expect"
  "$bin" atl "$src" -o "$out" --validate
  echo "(exit status $?)"
done
for src in examples/rink/*.rink; do
  impl=both
  grep -q -- '--impl ref$' "${src%.rink}.expected" 2>/dev/null && impl=ref
  printf '\n\033[1m$ augur rink %s -o %s --validate --impl %s\033[0m\n' "$src" "$out" "$impl"
  "$bin" rink "$src" -o "$out" --validate --impl "$impl"
  echo "(exit status $?)"
done
rm -rf "$out"

# The bundled compiler: a scheduled algorithm compiled and validated, then
# the same with a miscompilation injected on purpose, which Augur catches.
out=$(mktemp -d)
for alg in examples/alg/blur_fold.alg examples/alg/matmul_vec_par.alg; do
  printf '\n\033[1m$ augur compile %s -o %s --validate\033[0m\n' "$alg" "$out"
  "$bin" compile "$alg" -o "$out" --validate
  echo "(exit status $?)"
done
printf '\n\033[1m$ augur compile examples/alg/blur_fold.alg -o %s --inject fold-too-small --validate\033[0m\n' "$out"
"$bin" compile examples/alg/blur_fold.alg -o "$out" --inject fold-too-small --validate
echo "(exit status $?)"
rm -rf "$out"
