#!/usr/bin/env bash
# Durable writes, lws apiserver against etcd 3.4 (Debian's etcd-server), in one sitting, with
# one load tool (bench/durable_write_load.cc) and the same value size: at 1, 16 and 64
# connections, each pair run A B A B so that a noisy neighbour hits both. Both servers keep
# their data on the same disk and flush before acknowledging (etcd always; lws apiserver unless
# --unsafe-no-fsync). Prints every run as JSON, then a table of the medians and the ratios.
#   bench/durable_writes.sh [seconds-per-run] [build-dir]     (defaults: 10, build)
# LWS_THREADS sets `lws apiserver --threads` (default 4, its own default: the HTTP I/O threads;
# a write waits for its flush without holding a thread, base/deferred_ack.h).
# Needs etcd (apt-get install etcd-server); exits 77 without it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
build="${2:-build}"
load="$build/bench/durable_write_load"
lws="$build/src/cmd/lws"
command -v etcd >/dev/null || { echo "durable_writes: etcd not installed (apt-get install etcd-server)"; exit 77; }
[ -x "$load" ] && [ -x "$lws" ] || { echo "durable_writes: build $load and $lws first"; exit 1; }

work=$(mktemp -d "$PWD/$build/durable-writes.XXXXXX")  # on the build's disk, not a tmpfs
lws_port=16443 etcd_port=23790
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
pids=()
trap cleanup EXIT

etcd --name bench --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
  --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls http://127.0.0.1:23800 \
  --initial-advertise-peer-urls http://127.0.0.1:23800 --initial-cluster bench=http://127.0.0.1:23800 \
  --log-level error > "$work/etcd.log" 2>&1 &
pids+=($!)
# Plain HTTP without authentication, as the etcd it is compared with: the comparison is of
# durable writes, not of TLS or token checks.
"$lws" apiserver --port "$lws_port" --data-dir "$work/lws" --threads "${LWS_THREADS:-4}" \
  --insecure-plain-http --kubeconfig-out "" > "$work/lws.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null 2>&1 &&
    curl -sf "http://127.0.0.1:$lws_port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done

echo "lws apiserver --threads ${LWS_THREADS:-4}; machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); disk of $work: $(df --output=source "$work" | tail -1)"
results="$work/results.jsonl"
for connections in 1 16 64; do
  for round in 1 2; do
    for target in lws etcd; do
      port=$lws_port; [ "$target" = etcd ] && port=$etcd_port
      "$load" --target "$target" --port "$port" --connections "$connections" --seconds "$seconds" \
        --prefix "r$round-c$connections" | tee -a "$results"
    done
  done
done

python3 - "$results" <<'PY'
import json, sys, statistics
runs = [json.loads(line) for line in open(sys.argv[1])]
print(f"{'CONNECTIONS':>11} {'LWS WRITES/S':>13} {'ETCD WRITES/S':>14} {'RATIO':>6} {'LWS p99 ms':>11} {'ETCD p99 ms':>12}")
for c in (1, 16, 64):
    def med(target, key):
        return statistics.median(r[key] for r in runs if r["target"] == target and r["connections"] == c)
    l, e = med("lws", "writesPerSecond"), med("etcd", "writesPerSecond")
    print(f"{c:>11} {l:>13.0f} {e:>14.0f} {l / e:>6.2f} {med('lws', 'p99Ms'):>11.2f} {med('etcd', 'p99Ms'):>12.2f}")
PY
