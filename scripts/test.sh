#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything and runs every test:
# unit, integration and simulation tests through CTest, then each fuzz target for a bounded time.
#   scripts/test.sh            full run (what CI runs)
#   LWS_FUZZ_SECONDS=0 scripts/test.sh   skip fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Includes across layers first: a wrong one fails in a second, before the build.
python3 scripts/check_layers.py
# Formatting as .clang-format says (scripts/check_format.sh).
bash scripts/check_format.sh
# Paths relative to the checkout and no working directory in the hash: two checkouts (a clone,
# a worktree, CI's clean checkout) share ccache's objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
cmake --preset default
cmake --build --preset default
ctest --preset default -j2
fuzz_seconds="${LWS_FUZZ_SECONDS:-20}"
if [ "$fuzz_seconds" != "0" ]; then
  bash scripts/run-fuzz.sh "$fuzz_seconds"
fi
