#!/usr/bin/env bash
# `lws simulate` against the real binary: bad scenarios are refused with the file and the field,
# results do not depend on --jobs or on sharding, the HTML report and the SVG timeline are
# written, and a rollout that cannot complete exits 3. Usage: simulate.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
example="$root/examples/simulate/h100-rollout.yaml"

cat >"$tmp/bad.yaml" <<'YAML'
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
cluster: {nodePools: [{name: gpu, nodes: 1, allocatable: {pods: "110"}, colour: red}]}
workloads: [{file: nope.yaml}]
timeline: [{at: 1m, lws: x, image: a}]
YAML
"$lws" simulate "$tmp/bad.yaml" >"$tmp/out" 2>"$tmp/err"
check "bad scenario: exit 2" test $? -eq 2
check "bad scenario: unknown field with its path" grep -q "bad.yaml: cluster.nodePools\[0\].colour: Forbidden: unknown field" "$tmp/err"
check "bad scenario: missing workload file" grep -q "bad.yaml: workloads\[0\].file: Invalid value: \"nope.yaml\"" "$tmp/err"
check "bad scenario: unknown LWS in the timeline" grep -q "bad.yaml: timeline\[0\].lws: Invalid value: \"x\"" "$tmp/err"

sed 's/nvidia.com\/gpu: "4"}/nvidia.com\/gpu: "16"}/; s/limits: {nvidia.com\/gpu: "4"}/limits: {nvidia.com\/gpu: "16"}/' "$example" >"$tmp/big.yaml"
"$lws" simulate "$tmp/big.yaml" >"$tmp/out" 2>"$tmp/err"
check "a pod that fits no node: exit 2 before running" test $? -eq 2
check "a pod that fits no node: says so" grep -q "fits no node of the cluster: it asks for nvidia.com/gpu 16 (pool h100 nodes have 8)" "$tmp/err"

"$lws" simulate "$example" --seeds 4 --jobs 1 -o json --no-progress >"$tmp/j1.json" 2>"$tmp/err"
code=$?
check "sweep runs (exit 0 or 3)" test $code -eq 0 -o $code -eq 3
"$lws" simulate "$example" --seeds 4 --jobs 2 -o json --no-progress >"$tmp/j2.json" 2>/dev/null
check "--jobs 1 and --jobs 2: the same bytes" cmp -s "$tmp/j1.json" "$tmp/j2.json"
"$lws" simulate "$example" --seeds 4 --shard 0/2 -o json --no-progress >"$tmp/s0.json" 2>/dev/null
"$lws" simulate "$example" --seeds 4 --shard 1/2 -o json --no-progress >"$tmp/s1.json" 2>/dev/null
"$lws" simulate merge "$tmp/s1.json" "$tmp/s0.json" -o json >"$tmp/merged.json" 2>"$tmp/err"
check "merged shards: the same bytes as the whole sweep" cmp -s "$tmp/merged.json" "$tmp/j1.json"
"$lws" simulate merge "$tmp/s0.json" "$tmp/s0.json" >"$tmp/out" 2>"$tmp/err"
check "a seed in two shards is refused" grep -q "is in two shards" "$tmp/err"
check "json has four strategies" test "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["strategies"]))' "$tmp/j1.json")" = 4

"$lws" simulate "$example" --seed 2 --no-progress --report "$tmp/report.html" --timeline "$tmp/timeline.svg" >"$tmp/table" 2>/dev/null
check "table has a row per strategy" test "$(grep -c '^mu' "$tmp/table")" -eq 4
check "HTML report written with an SVG per strategy" test "$(grep -c '<svg' "$tmp/report.html")" -eq 4
check "SVG timeline written" grep -q 'group 7' "$tmp/timeline.svg"

cat >"$tmp/stuck.yaml" <<'YAML'
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
cluster:
  nodePools: [{name: gpu, nodes: 1, maxNodes: 2, allocatable: {nvidia.com/gpu: "8", pods: "110"}, startup: {distribution: fixed, value: 10s}}]
  capacityChanges: [{at: 0s, stockout: gpu, for: 10h}]
workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: m}
    spec:
      replicas: 1
      rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: 0, maxSurge: 1}}
      leaderWorkerTemplate:
        size: 1
        workerTemplate: {spec: {containers: [{name: c, image: a, resources: {limits: {nvidia.com/gpu: "8"}}}]}}
timeline: [{at: 2m, lws: m, image: b}]
limits: {horizon: 20m, stall: 2m}
YAML
"$lws" simulate "$tmp/stuck.yaml" --seed 1 --no-progress -o json >"$tmp/stuck.json" 2>"$tmp/err"
check "a rollout that cannot complete: exit 3" test $? -eq 3
check "its stall names the scheduler's reason" grep -q "Insufficient nvidia.com/gpu" "$tmp/stuck.json"

# A DisaggregatedSet against its roles as independent LWSs (examples/simulate/prefill-decode.yaml):
# the roles and the service in the table and the JSON, the same bytes with any --jobs and merged.
pd="$root/examples/simulate/prefill-decode.yaml"
"$lws" simulate "$pd" --seeds 2 --jobs 1 -o json --no-progress >"$tmp/pd1.json" 2>/dev/null
check "set: runs (exit 3: the surge strategies cannot complete)" test $? -eq 3
"$lws" simulate "$pd" --seeds 2 --jobs 2 -o json --no-progress >"$tmp/pd2.json" 2>/dev/null
check "set: --jobs 1 and --jobs 2, the same bytes" cmp -s "$tmp/pd1.json" "$tmp/pd2.json"
"$lws" simulate merge "$tmp/pd1.json" -o json >"$tmp/pdm.json" 2>/dev/null
check "set: read back by merge, the same bytes" cmp -s "$tmp/pdm.json" "$tmp/pd1.json"
check "set: both ways of deploying watched" test "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lws"])' "$tmp/pd1.json")" = "vllm-pd; vllm-pd-prefill,vllm-pd-decode"
check "set: the roles of a run" test "$(/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["strategies"][0]["runs"][0]; print(",".join(x["name"] for x in r["roles"]), r["service"]["capacityMin"])' "$tmp/pd1.json")" = "prefill,decode 0.5"
"$lws" simulate "$pd" --seeds 2 --no-progress >"$tmp/pd.table" 2>/dev/null
check "set: the service columns" grep -q "CAPACITY MIN SERVICE-H LOST IDLE ACC-H" "$tmp/pd.table"
check "set: a line per role" grep -q "^role vllm-pd-decode (independent): min ready 2/2 of 2 (floor 2)" "$tmp/pd.table"

# --from-cluster against a running `lws up`: the scenario it builds (written with
# --emit-scenario) gives the same result as a file; the live cluster is left as it was.
if command -v kubectl >/dev/null 2>&1; then
  source "$root/tests/lib/apiserver.sh"
  failures_before=$failures
  failures=0
  start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" --seed 3 || exit 1
  trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
  kubectl apply -f - >/dev/null <<'YAML'
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: live}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate: {spec: {containers: [{name: c, image: "img:1", resources: {limits: {nvidia.com/gpu: "2"}}}]}}
YAML
  kubectl run other --image=batch --overrides='{"spec":{"containers":[{"name":"other","image":"batch","resources":{"limits":{"nvidia.com/gpu":"4"}}}]}}' >/dev/null 2>&1
  kubectl wait --for=condition=Available lws/live --timeout=60s >/dev/null 2>&1
  check "from-cluster: the live LWS is Available" test $? -eq 0
  echo '{"spec":{"leaderWorkerTemplate":{"workerTemplate":{"spec":{"containers":[{"name":"c","image":"img:2","resources":{"limits":{"nvidia.com/gpu":"2"}}}]}}}}}' >"$tmp/change.json"
  "$lws" simulate --from-cluster --kubeconfig "$KUBECONFIG" --lws default/live --change "$tmp/change.json" \
    --horizon 1h --emit-scenario "$tmp/built.yaml" --seeds 2 -o json --no-progress >"$tmp/live.json" 2>"$tmp/err"
  check "from-cluster: runs and completes (exit 0)" test $? -eq 0
  check "from-cluster: one pool of the live nodes" grep -q "nodes: 4" "$tmp/built.yaml"
  check "from-cluster: the other pod holds its GPUs" grep -q "other-1" "$tmp/built.yaml"
  check "from-cluster: the observed startup time" grep -q "value: 2s" "$tmp/built.yaml"
  "$lws" simulate "$tmp/built.yaml" --seeds 2 -o json --no-progress >"$tmp/file.json" 2>/dev/null
  check "from-cluster: the same result as the scenario file" cmp -s "$tmp/live.json" "$tmp/file.json"
  check "from-cluster: nothing written to the cluster" test "$(kubectl get lws live -o jsonpath='{.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].image}')" = "img:1"
  # The same for a DisaggregatedSet: its pods (every role's) give the startup time, the LWS
  # above becomes another tenant's pods, and the run watches the set role by role.
  kubectl apply -f - >/dev/null <<'YAML'
apiVersion: disaggregatedset.x-k8s.io/v1
kind: DisaggregatedSet
metadata: {name: pd}
spec:
  roles:
  - name: prefill
    spec: {replicas: 1, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c, image: "img:1", resources: {limits: {nvidia.com/gpu: "2"}}}]}}}}
  - name: decode
    spec: {replicas: 1, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c, image: "img:1", resources: {limits: {nvidia.com/gpu: "2"}}}]}}}}
YAML
  kubectl wait --for=condition=Available disaggregatedset/pd --timeout=60s >/dev/null 2>&1
  check "from-cluster set: the live set is Available" test $? -eq 0
  role='{"replicas":1,"leaderWorkerTemplate":{"workerTemplate":{"spec":{"containers":[{"name":"c","image":"img:2","resources":{"limits":{"nvidia.com/gpu":"2"}}}]}}}}'
  echo "{\"spec\":{\"roles\":[{\"name\":\"prefill\",\"spec\":$role},{\"name\":\"decode\",\"spec\":$role}]}}" >"$tmp/ds-change.json"
  "$lws" simulate --from-cluster --kubeconfig "$KUBECONFIG" --disaggregatedset default/pd --change "$tmp/ds-change.json" \
    --horizon 1h --emit-scenario "$tmp/ds-built.yaml" --seeds 2 -o json --no-progress >"$tmp/ds-live.json" 2>"$tmp/err"
  check "from-cluster set: runs and completes (exit 0)" test $? -eq 0
  check "from-cluster set: the set in the scenario" grep -q "kind: DisaggregatedSet" "$tmp/ds-built.yaml"
  check "from-cluster set: the change names it" grep -q "disaggregatedset: pd" "$tmp/ds-built.yaml"
  check "from-cluster set: its pods' startup time" grep -q "value: 2s" "$tmp/ds-built.yaml"
  check "from-cluster set: watched role by role" test "$(/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["strategies"][0]["runs"][0]; print(",".join(x["name"] for x in r["roles"]))' "$tmp/ds-live.json")" = "prefill,decode"
  "$lws" simulate "$tmp/ds-built.yaml" --seeds 2 -o json --no-progress >"$tmp/ds-file.json" 2>/dev/null
  check "from-cluster set: the same result as the scenario file" cmp -s "$tmp/ds-live.json" "$tmp/ds-file.json"
  check "from-cluster set: nothing written to the cluster" test "$(kubectl get disaggregatedset pd -o jsonpath='{.spec.roles[0].spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].image}')" = "img:1"
  failures=$((failures + failures_before))
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
