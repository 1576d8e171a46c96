#!/usr/bin/env bash
# Shows a newcomer what Augur does: checks and runs every bundled example.
set -u
bin=${1:-bin/augur}
cd "$(dirname "$0")/.."
"$bin" version
