#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan+UBSan) and runs each for a bounded time on its
# seed corpus. Exits non-zero on the first crash, leak or sanitizer report.
#   scripts/run-fuzz.sh [seconds-per-target]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mkdir -p fuzz/corpus-run
status=0
for bin in build-fuzz/fuzz/*_fuzz; do
  name=$(basename "$bin")
  work="fuzz/corpus-run/$name"
  mkdir -p "$work"
  seeds=()
  [ -d "fuzz/corpus/$name" ] && seeds=("fuzz/corpus/$name")
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/" "$work" "${seeds[@]}" > "$work.log" 2>&1; then
    echo "fuzz: $name FAILED; last lines of $work.log:"
    tail -40 "$work.log"
    status=1
  else
    grep -E "stat::number_of_executed_units" "$work.log" | sed "s/^/fuzz: $name /" || true
  fi
done
exit $status
