#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds everything and runs every test:
# unit, integration and simulation tests through CTest, then each fuzz target for a bounded time.
#   scripts/test.sh            full run (what CI runs)
#   LWS_FUZZ_SECONDS=0 scripts/test.sh   skip fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
# A full run leaves about 6 GB behind (measured: build/ 3.6 GB, build-fuzz/ 1.6 GB, the ccache
# 0.5 GB). With less free space it would fail mid-build with "No space left on device": say so
# at once instead. LWS_DISK_NEEDED_GB overrides the margin.
need_gb="${LWS_DISK_NEEDED_GB:-8}"
avail_kb=$(df -Pk . | awk 'NR == 2 {print $4}')
if [ "$avail_kb" -lt $((need_gb * 1024 * 1024)) ]; then
  echo "scripts/test.sh: only $((avail_kb / 1024)) MB free on $(df -P . | awk 'NR == 2 {print $6}');" \
       "a full run needs about ${need_gb} GB (build/, build-fuzz/, the ccache)" >&2
  exit 1
fi
bash scripts/install-deps.sh
# Includes across layers first: a wrong one fails in a second, before the build.
python3 scripts/check_layers.py
# Stored objects' JSON read where a typed view should be (scripts/document_reads.txt).
python3 scripts/check_documents.py
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
