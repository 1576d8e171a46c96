#!/usr/bin/env bash
# The steps of the CI recipe for a Halide project validated by Augur
# (docs/halide.md, "Halide projects"). github-actions.yml and
# gitlab-ci.yml run them one by one, on Debian 12 (Halide 14):
#
#   steps.sh install    # cmake, g++, Halide 14, Z3, jq if missing; builds augur from AUGUR_DIR
#   steps.sh configure  # cmake -S SOURCE_DIR -B BUILD_DIR with Augur's CMake module
#   steps.sh build      # cmake --build
#   steps.sh test       # ctest -R '^augur[.]': fails on INVALID (or an error); JUnit in BUILD_DIR/augur-junit.xml
#   steps.sh sarif      # every test's SARIF merged into BUILD_DIR/augur.sarif, one run
#
# SOURCE_DIR (default .) is the project, BUILD_DIR (default build) its
# build tree, AUGUR_DIR (default augur) a checkout of Augur's repository.
# AUGUR_SERVER, when set, makes the tests validate on that service
# (AUGUR_TOKEN its token).
set -euo pipefail

SOURCE_DIR=${SOURCE_DIR:-.}
BUILD_DIR=${BUILD_DIR:-build}
AUGUR_DIR=${AUGUR_DIR:-augur}

step_install() {
  local need=()
  command -v cmake >/dev/null 2>&1 || need+=(cmake)
  command -v g++ >/dev/null 2>&1 || need+=(g++)
  command -v jq >/dev/null 2>&1 || need+=(jq)
  [ -f /usr/include/halide14/Halide.h ] || need+=(libhalide14-0-dev)
  [ -f /usr/include/z3.h ] || need+=(libz3-dev)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
  fi
  (cd "$AUGUR_DIR" && go build -o bin/augur ./cmd/augur)
}

step_configure() {
  local augur_dir
  augur_dir=$(cd "$AUGUR_DIR" && pwd)
  cmake -S "$SOURCE_DIR" -B "$BUILD_DIR" -DAUGUR_SOURCE_DIR="$augur_dir" -DAUGUR_EXECUTABLE="$augur_dir/bin/augur"
}

step_build() {
  cmake --build "$BUILD_DIR" -j "$(nproc)"
}

step_test() {
  ctest --test-dir "$BUILD_DIR" -R '^augur[.]' --output-on-failure --output-junit augur-junit.xml
}

step_sarif() {
  local files=()
  while IFS= read -r f; do files+=("$f"); done < <(find "$BUILD_DIR/augur" -name augur.sarif | sort)
  if [ ${#files[@]} -eq 0 ]; then
    echo "steps.sh sarif: no SARIF under $BUILD_DIR/augur (did the tests run?)" >&2
    return 1
  fi
  # One run of one tool: code scanning takes one run per tool and category.
  jq -s '{version: .[0].version, "$schema": .[0]["$schema"],
          runs: [{tool: {driver: (.[0].runs[0].tool.driver + {rules: ([.[].runs[0].tool.driver.rules[]] | unique_by(.id))})},
                  results: [.[].runs[0].results[]]}]}' "${files[@]}" > "$BUILD_DIR/augur.sarif"
  echo "steps.sh sarif: $BUILD_DIR/augur.sarif, from ${#files[@]} tests"
}

case "${1:-}" in
  install | configure | build | test | sarif) "step_$1" ;;
  *)
    echo "usage: steps.sh install|configure|build|test|sarif" >&2
    exit 2
    ;;
esac
