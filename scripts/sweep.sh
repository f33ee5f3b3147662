#!/usr/bin/env bash
# The seeded simulation sweep over many seeds, for nightly-style runs: seeds FIRST..FIRST+COUNT-1
# split into SHARDS consecutive ranges, each run by its own scenario_sweep_test process
# (LWS_SWEEP_FIRST, LWS_SWEEP_COUNT), JOBS at a time. Prints a line per shard as it ends, then
# every failing seed with the command that replays it; exits non-zero when any seed failed or a
# shard failed otherwise (a crash).
#
#   scripts/sweep.sh [--count N] [--first SEED] [--shards K] [--jobs J] [--filter GTEST_FILTER]
#                    [--build DIR] [--out DIR]
#
# Defaults: 240 seeds from 1, 4 shards per job, one job per core, the Ordinal and Hash sweeps
# (RolloutSweep.RandomShapesAreSafeAndConverge, HashRolloutSweep.RandomShapesAreSafeAndConverge),
# build/ (the test binary must be built: ninja -C build src/scenario/scenario_sweep_test), logs in
# build/sweep/. See docs/controller.md, "Seeded sweep".
set -euo pipefail
cd "$(dirname "$0")/.."

count=240
first=1
shards=""
jobs="$(nproc)"
filter="RolloutSweep.RandomShapesAreSafeAndConverge:HashRolloutSweep.RandomShapesAreSafeAndConverge"
build=build
out=""

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --first) first="$2"; shift 2 ;;
    --shards) shards="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "sweep: unknown argument $1" >&2; usage ;;
  esac
done
for n in "$count" "$first" "$jobs" ${shards:+"$shards"}; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "sweep: not a number: $n" >&2; exit 2; }
done
[ "$count" -ge 1 ] && [ "$jobs" -ge 1 ] || { echo "sweep: --count and --jobs must be >= 1" >&2; exit 2; }
shards="${shards:-$((jobs * 4))}"
[ "$shards" -ge 1 ] || { echo "sweep: --shards must be >= 1" >&2; exit 2; }
[ "$shards" -le "$count" ] || shards="$count"
binary="$build/src/scenario/scenario_sweep_test"
[ -x "$binary" ] || { echo "sweep: $binary not built (ninja -C $build src/scenario/scenario_sweep_test)" >&2; exit 2; }
out="${out:-$build/sweep}"
mkdir -p "$out"

# Shard i (0-based) gets seeds [start_i, start_i + size_i): the first count % shards shards one
# more, so sizes differ by at most one.
shard_start() { echo $((first + $1 * (count / shards) + ($1 < count % shards ? $1 : count % shards))); }
shard_size() { echo $((count / shards + ($1 < count % shards ? 1 : 0))); }

# Runs shard $1; its log is $out/shard-<first seed>.log, its outcome one line in .result.
run_shard() {
  local i="$1" start size log begin status
  start=$(shard_start "$i")
  size=$(shard_size "$i")
  log="$out/shard-$start.log"
  begin=$SECONDS
  status=0
  LWS_SWEEP_FIRST="$start" LWS_SWEEP_COUNT="$size" "$binary" --gtest_filter="$filter" \
    > "$log" 2>&1 || status=$?
  local seconds=$((SECONDS - begin)) failed
  failed=$(grep -c '^replay: ' "$log" || true)
  if [ "$status" -eq 0 ]; then
    echo "ok $start $size $seconds" > "$log.result"
  elif [ "$failed" -gt 0 ]; then
    echo "failed $start $size $seconds $failed" > "$log.result"
  else  # no seed named: the process died (an assertion) or a check of the whole shard failed
    echo "error $start $size $seconds $status" > "$log.result"
  fi
}

# Prints shard $1's outcome and the sweep's progress.
report_shard() {
  local i="$1" start log kind size seconds rest last progress
  start=$(shard_start "$i")
  log="$out/shard-$start.log"
  read -r kind _ size seconds rest < "$log.result"
  last=$((start + size - 1))
  progress="[$((done_count + 1))/$shards shards, $((SECONDS - begin))s]"
  case "$kind" in
    ok) echo "sweep: shard $((i + 1))/$shards seeds $start-$last ok (${seconds}s) $progress" ;;
    failed) echo "sweep: shard $((i + 1))/$shards seeds $start-$last FAILED: $rest failure line(s) (${seconds}s), log $log $progress" ;;
    *) echo "sweep: shard $((i + 1))/$shards seeds $start-$last FAILED without naming a seed (exit $rest, ${seconds}s): tail of $log:"
       tail -20 "$log" | sed 's/^/    /'
       echo "    rerun: LWS_SWEEP_FIRST=$start LWS_SWEEP_COUNT=$size $binary --gtest_filter='$filter'" ;;
  esac
}

echo "sweep: seeds $first-$((first + count - 1)) ($count), $shards shards, $jobs at a time, filter $filter"
rm -f "$out"/shard-*.log "$out"/shard-*.log.result
begin=$SECONDS
done_count=0
declare -A pid_shard=()
next=0
while [ "$next" -lt "$shards" ] || [ "${#pid_shard[@]}" -gt 0 ]; do
  while [ "$next" -lt "$shards" ] && [ "${#pid_shard[@]}" -lt "$jobs" ]; do
    run_shard "$next" &
    pid_shard[$!]=$next
    next=$((next + 1))
  done
  wait -n -p ended || true
  if [ -n "${ended:-}" ] && [ -n "${pid_shard[$ended]+x}" ]; then
    report_shard "${pid_shard[$ended]}"
    done_count=$((done_count + 1))
    unset "pid_shard[$ended]"
  fi
done

# Failing runs, once each, with their replay commands (a seed may fail in both sweeps).
failures=$(cat "$out"/shard-*.log | grep -E '^replay: ' | sort -V -u || true)
unfinished=$( (grep -l '^error' "$out"/shard-*.log.result 2>/dev/null || true) | wc -l)
echo "sweep: $count seeds in $((SECONDS - begin))s"
if [ -n "$failures" ] || [ "$unfinished" -gt 0 ]; then
  if [ -n "$failures" ]; then
    echo "sweep: failing seeds:"
    echo "$failures" | sed 's/^replay: /    /'
  fi
  if [ "$unfinished" -gt 0 ]; then
    echo "sweep: $unfinished shard(s) failed without naming a seed (see above)"
  fi
  exit 1
fi
echo "sweep: every seed passed"
