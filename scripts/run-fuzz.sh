#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan+UBSan) and runs each for a bounded time on its
# seed corpus, LWS_FUZZ_JOBS targets at a time (default: the number of cores). Exits non-zero
# when any target crashes, leaks or reports a sanitizer error; its log tail is printed.
#   scripts/run-fuzz.sh [seconds-per-target]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
jobs="${LWS_FUZZ_JOBS:-$(nproc)}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mkdir -p fuzz/corpus-run
# The fuzz build lets UBSan recover (it reports and goes on), so libFuzzer's exit code alone
# missed undefined behaviour: a report must stop the target and fail the run.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

# Runs one target; its report is written next to its log so parallel runs do not interleave.
fuzz_one() {
  local bin="$1" name work seeds=()
  name=$(basename "$bin")
  work="fuzz/corpus-run/$name"
  mkdir -p "$work"
  [ -d "fuzz/corpus/$name" ] && seeds=("fuzz/corpus/$name")
  if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$work/" "$work" "${seeds[@]}" > "$work.log" 2>&1; then
    grep -E "stat::number_of_executed_units" "$work.log" | sed "s/^/fuzz: $name /" > "$work.report" || true
    return 0
  fi
  { echo "fuzz: $name FAILED; last lines of $work.log:"; tail -40 "$work.log"; } > "$work.report"
  return 1
}

targets=(build-fuzz/fuzz/*_fuzz)
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, $jobs at a time"
status=0
pids=()
names=()
report() {  # waits for the i-th started target and prints its report
  local i="$1"
  wait "${pids[$i]}" || status=1
  cat "fuzz/corpus-run/${names[$i]}.report"
}
for i in "${!targets[@]}"; do
  fuzz_one "${targets[$i]}" &
  pids[$i]=$!
  names[$i]=$(basename "${targets[$i]}")
  if (( i >= jobs - 1 )); then report $((i - jobs + 1)); fi
done
for (( i = ${#targets[@]} - jobs + 1; i < ${#targets[@]}; i++ )); do
  (( i >= 0 )) && report "$i"
done
exit $status
