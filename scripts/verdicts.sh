#!/usr/bin/env bash
# Records every verdict Augur gives on the project's own material, so that a
# change to the verifier can be shown to change none of them:
#
#   scripts/verdicts.sh BIN OUT     run BIN on everything, write OUT/
#   diff -r OUT_BEFORE OUT_AFTER    compare two runs
#
# Covered: the bundled examples (pairs, reductions, the .alg, .atl and .rink
# front ends), the corpus of testdata/corpus in every value model its header
# names, the benchmark pairs of bench/halide and bench/alg, and the Halide
# suite of frontend/halide/apps/suite.json (needs Halide 14; skipped without it).
# Each case gives OUT/<case>.json, the report of augur validate --json with
# its timings removed, and for a front end the files it wrote
# (OUT/<case>.d/). A case that errors records its exit status and output.
#
# JOBS cases run side by side (default 2); each validation runs with
# --jobs 1. interpolate with levels=5 is left out: it runs to the default
# step budget, minutes of CPU, for an UNKNOWN (docs/halide.md).
set -u
bin=$(realpath "${1:?usage: verdicts.sh BIN OUT}")
out=$(realpath -m "${2:?usage: verdicts.sh BIN OUT}")
jobs=${JOBS:-2}
cd "$(dirname "$0")/.."
mkdir -p "$out"
list=$(mktemp)
trap 'rm -f "$list"' EXIT

# strip removes what differs from run to run: times, and the resource
# units Z3 reports, which vary by a few percent between runs of one binary
# on one input (the verdicts they bound do not).
strip='walk(if type == "object" then del(.seconds, .timings, .elapsed, .resources) else . end)'

# One line per case: NAME<TAB>KIND<TAB>ARGS...
add() { printf '%s\n' "$*" >>"$list"; }

for dir in examples/*/ examples/reductions/*/; do
  spec=$(ls "$dir"*.sare 2>/dev/null | head -n 1)
  [ -n "$spec" ] || continue
  for prog in "$dir"*.sched; do
    add "$(echo "${prog%.sched}" | tr / _)" pair "$spec" "$prog"
  done
done
for prog in testdata/corpus/*.sched; do
  spec=testdata/corpus/$(sed -n 's/^# spec: *//p' "$prog" | head -n 1)
  name=$(echo "${prog%.sched}" | tr / _)
  add "$name" pair "$spec" "$prog"
  grep -q '^# ieee:' "$prog" && add "$name.ieee" pair "$spec" "$prog" --value-model ieee
  grep -q '^# no-garbage:' "$prog" && add "$name.no-garbage" pair "$spec" "$prog" --no-garbage-writes
done
for dir in bench/halide/*/; do
  add "$(echo "${dir%/}" | tr / _)" pair "$dir"spec.sare "$dir"prog.sched
done
for alg in examples/alg/*.alg bench/alg/*.alg; do
  add "$(echo "${alg%.alg}" | tr / _)" compile "$alg"
done
for src in examples/atl/*.atl; do
  add "$(echo "${src%.atl}" | tr / _)" atl "$src"
done
for src in examples/rink/*.rink; do
  add "$(echo "${src%.rink}" | tr / _)" rink "$src"
done
if [ -f /usr/include/halide14/Halide.h ]; then
  jq -r '.pipelines[] | select(.name != "interpolate5") |
    [.name, "halide", "frontend/halide/apps/" + .file, "-g", .generator] +
    (.params | to_entries | map("--param", "\(.key)=\(.value)")) | join(" ")' \
    frontend/halide/apps/suite.json >>"$list"
fi

# run NAME KIND ARGS...: one case.
run() {
  local name=$1 kind=$2
  shift 2
  local json=$out/$name.json
  case $kind in
  pair)
    "$bin" validate --json --jobs 1 "$@" >"$json.raw" 2>"$out/$name.err"
    ;;
  compile | atl | halide)
    local d=$out/$name.d
    rm -rf "$d" && mkdir -p "$d"
    if "$bin" "$kind" "$@" -o "$d" >"$d/stdout" 2>"$d/stderr"; then
      "$bin" validate --json --jobs 1 "$d/spec.sare" "$d/prog.sched" >"$json.raw" 2>"$out/$name.err"
    else
      echo "{\"error\": $?}" >"$json.raw"
    fi
    ;;
  rink)
    local d=$out/$name.d
    rm -rf "$d" && mkdir -p "$d"
    if "$bin" rink "$@" -o "$d" >"$d/stdout" 2>"$d/stderr"; then
      for impl in ref padded; do
        "$bin" validate --json --jobs 1 "$d/spec.sare" "$d/$impl.sched" >"$out/$name.$impl.json.raw" 2>>"$out/$name.err"
      done
    else
      echo "{\"error\": $?}" >"$json.raw"
    fi
    ;;
  esac
  echo "exit $?" >"$out/$name.status"
  for raw in "$json.raw" "$out/$name.ref.json.raw" "$out/$name.padded.json.raw"; do
    [ -f "$raw" ] || continue
    # Paths in reports name the run's directory: make them relative.
    sed "s|$out/||g" "$raw" | jq -S "$strip" >"${raw%.raw}" 2>/dev/null || mv "$raw" "${raw%.raw}"
    rm -f "$raw"
  done
  [ -s "$out/$name.err" ] || rm -f "$out/$name.err"
  echo "$name"
}
export -f run
export bin out strip

tr ' ' '\t' <"$list" | xargs -P "$jobs" -d '\n' -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r -a a <<<"{}"; run "${a[@]}"' >/dev/null
echo "$(wc -l <"$list") cases written to $out"
