#!/usr/bin/env bash
# Tests the CI recipe (github-actions.yml, gitlab-ci.yml, steps.sh) by
# running its steps, as both jobs run them, on a copy of the example
# project laid out as a project of its own, with this checkout of Augur:
# install, configure and build succeed, the tests fail because the
# diagonal stencil is INVALID (the blur passes), and the SARIF gathered
# for the upload holds the diagonal's failure on its generator's source.
#   examples/halide-cmake/ci/test-recipe.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
augur_dir=$(cd "$here/../../.." && pwd)

fail() { echo "test-recipe: $*" >&2; exit 1; }

# Both jobs run every step, through the script, in order.
for yml in github-actions.yml gitlab-ci.yml; do
  steps=$(grep -oE 'ci/augur-steps.sh [a-z]+' "$here/$yml" | awk '{print $2}' | tr '\n' ' ')
  [ "$steps" = "install configure build test sarif " ] || fail "$yml runs the steps '$steps'"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project="$work/project"
mkdir -p "$project/ci"
cp -r "$here/../CMakeLists.txt" "$here/../include" "$here"/../*.cpp "$project/"
cp "$here/steps.sh" "$project/ci/augur-steps.sh"
cd "$project"
export AUGUR_DIR="$augur_dir" BUILD_DIR=build
unset AUGUR_SERVER

ci/augur-steps.sh install
ci/augur-steps.sh configure
ci/augur-steps.sh build
if ci/augur-steps.sh test > "$work/test.log" 2>&1; then
  cat "$work/test.log"
  fail "the tests passed; the diagonal stencil must fail"
fi
cat "$work/test.log"
grep -Eq 'augur\.blur \.+ +Passed' "$work/test.log" || fail "augur.blur did not pass"
grep -Eq 'augur\.diagonal \.+\*+Failed' "$work/test.log" || fail "augur.diagonal did not fail"
grep -q 'INVALID: undefined read' "$work/test.log" || fail "no counterexample in the log"
[ -f build/augur-junit.xml ] || fail "no JUnit report"
ci/augur-steps.sh sarif
jq -e '.runs | length == 1' build/augur.sarif >/dev/null || fail "the SARIF has not one run"
jq -e '[.runs[0].results[] | select(.level == "error" and .locations[0].physicalLocation.artifactLocation.uri == "diagonal_generator.cpp")] | length > 0' \
  build/augur.sarif >/dev/null || fail "the SARIF has no error on diagonal_generator.cpp"
echo "test-recipe: ok"
