#!/usr/bin/env bash
# Shows a newcomer what Augur does: validates every bundled example for all
# parameter values at once, then runs it on random inputs with the
# parameters named on its "# augur run:" line.
# Kernels whose name starts with broken_ are deliberately wrong; their
# reports show how Augur explains a failure.
set -u
bin=${1:-bin/augur}
cd "$(dirname "$0")/.."

for dir in examples/*/; do
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
