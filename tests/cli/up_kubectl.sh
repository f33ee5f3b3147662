#!/usr/bin/env bash
# `lws up` with the real kubectl (v1.32 through /usr/bin/kubectl's dispatcher): plain
# StatefulSets (OrderedReady, Parallel, then a partitioned rolling update with maxUnavailable 2)
# watched with `kubectl get pods -o wide -w`; pods land on nodes, become Ready and are replaced
# in the right order; a pod no pool can hold stays Pending with the scheduler's reason; the
# autoscaler adds a node up to the pool's maximum; a failed node's pods move elsewhere.
# The cluster file (testdata/up/cluster.yaml) makes pods Ready 2 s after binding.
# Usage: up_kubectl.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 7
# Line number of the first line of the pod watch matching $1 after line ${2:-0} (0 if none).
at() { awk -v re="$1" -v after="${2:-0}" 'NR > after && $0 ~ re { print NR; found = 1; exit } END { if (!found) print 0 }' "$tmp/watch"; }
ready_count() { kubectl get pods -l app="$1" --no-headers 2>/dev/null | grep -c ' 1/1 *Running'; }
# For `eventually`: re-evaluated on every try.
jp_is() { [ "$(jp "$1" "$2")" = "$3" ]; }
ready_is() { [ "$(ready_count "$1")" = "$2" ]; }
nodes_ready() { [ "$(kubectl get nodes --no-headers 2>/dev/null | grep -c ' Ready ')" = "$1" ]; }

check "up: banner names the cluster" grep -q '4 nodes, 32 accelerators' "$tmp/up.out"
check "nodes: 4 Ready" eventually 10 nodes_ready 4
k get nodes -L topology.kubernetes.io/zone,node.lws-cpp.dev/pool
check "nodes: zones and pool labels" out_has '^gpu-0 +Ready .* zone-a +gpu$'
check "nodes: 8 GPUs allocatable" test "$(jp node/gpu-1 '{.status.allocatable.nvidia\.com/gpu}')" = 8

kubectl get pods -o wide -w --output-watch-events >"$tmp/watch" 2>&1 &
watch_pid=$!
sleep 1

# OrderedReady: ordered-1 is created only after ordered-0 is Ready, and so on.
k apply -f "$data/ordered.yaml"
check "ordered: created" out_has '^statefulset.apps/ordered created$'
check "ordered: rollout status completes" kubectl rollout status sts/ordered --timeout=60s
check "ordered: 3 pods Ready" test "$(ready_count ordered)" = 3
check "ordered: ordered-1 added after ordered-0 Ready" \
  test "$(at 'ADDED +ordered-1 ')" -gt "$(at 'ordered-0 +1/1 +Running')" -a "$(at 'ordered-0 +1/1 +Running')" -gt 0
check "ordered: ordered-2 added after ordered-1 Ready" \
  test "$(at 'ADDED +ordered-2 ')" -gt "$(at 'ordered-1 +1/1 +Running')" -a "$(at 'ordered-1 +1/1 +Running')" -gt 0
check "ordered: watch shows the node of each pod" grep -qE 'ordered-0 +1/1 +Running +0 +[0-9a-z]+ +[0-9.]+ +gpu-[0-9]' "$tmp/watch"
k get sts ordered
check "ordered: get sts READY 3/3" out_has '^ordered +3/3 '

# Parallel: every pod is created before any is Ready.
k apply -f "$data/parallel.yaml"
check "parallel: rollout status completes" kubectl rollout status sts/parallel --timeout=60s
first_ready=$(at 'parallel-[0-9] +1/1 +Running')
check "parallel: all 3 added before the first is Ready" \
  test "$(at 'ADDED +parallel-2 ')" -lt "$first_ready" -a "$(at 'ADDED +parallel-1 ')" -lt "$first_ready" -a "$(at 'ADDED +parallel-0 ')" -lt "$first_ready"

# Partitioned rolling update, maxUnavailable 2: ordinals 5 and 4 go first, together; 3 and 2
# follow once a replacement is Ready; 0 and 1 stay on the old revision.
k apply -f "$data/rolling.yaml"
check "rolling: 6 Ready" kubectl rollout status sts/rolling --timeout=60s
start=$(wc -l <"$tmp/watch")
k set image sts/rolling server=vllm/vllm-openai:v0.6.1
check "rolling: image set" out_has 'statefulset.apps/rolling image updated'
check "rolling: partitioned rollout completes" kubectl rollout status sts/rolling --timeout=90s
for i in 2 3 4 5; do
  check "rolling: rolling-$i updated" eventually 20 jp_is pod/rolling-$i '{.spec.containers[0].image}' vllm/vllm-openai:v0.6.1
done
for i in 0 1; do
  check "rolling: rolling-$i kept (partition 2)" test "$(jp pod/rolling-$i '{.spec.containers[0].image}')" = vllm/vllm-openai:v0.6.0
done
t5=$(at 'rolling-5 .*Terminating' "$start"); t4=$(at 'rolling-4 .*Terminating' "$start")
t3=$(at 'rolling-3 .*Terminating' "$start"); t2=$(at 'rolling-2 .*Terminating' "$start")
check "rolling: 5 and 4 terminate before 3 and 2" \
  test "$t5" -gt 0 -a "$t4" -gt 0 -a "$t5" -lt "$t3" -a "$t4" -lt "$t3" -a "$t5" -lt "$t2" -a "$t4" -lt "$t2"
r5=$(at 'rolling-5 +1/1 +Running' "$t5"); r4=$(at 'rolling-4 +1/1 +Running' "$t4")
first_replacement=$(( r5 < r4 ? r5 : r4 ))
check "rolling: 3 terminates only after a replacement is Ready (maxUnavailable 2)" \
  test "$first_replacement" -gt 0 -a "$t3" -gt "$first_replacement"
check "rolling: 0 and 1 never terminated" test "$(at 'rolling-[01] .*Terminating' "$start")" = 0
check "rolling: status updatedReplicas 4" test "$(jp sts/rolling '{.status.updatedReplicas}')" = 4

# A pod no node of any pool can hold: Pending, Unschedulable, FailedScheduling and
# NotTriggerScaleUp events.
kubectl run huge --image=vllm/vllm-openai:v0.6.0 --restart=Never \
  --overrides='{"spec":{"containers":[{"name":"huge","image":"vllm/vllm-openai:v0.6.0","resources":{"limits":{"nvidia.com/gpu":"16"}}}]}}' >/dev/null 2>&1
check "huge: Unschedulable" eventually 10 jp_is pod/huge '{.status.conditions[?(@.type=="PodScheduled")].reason}' Unschedulable
check "huge: still Pending" test "$(jp pod/huge '{.status.phase}')" = Pending
k describe pod huge
check "huge: describe shows FailedScheduling with the reason" out_has 'FailedScheduling .*0/4 nodes are available: 4 Insufficient nvidia.com/gpu'
check "huge: describe shows NotTriggerScaleUp" eventually 15 bash -c "kubectl describe pod huge | grep -q NotTriggerScaleUp"
kubectl delete pod huge --wait=false >/dev/null 2>&1

# Autoscaling within the maximum (4 -> 5 nodes): two whole-node pods find room for one.
cat >"$tmp/burst.yaml" <<YAML
$(sed 's/ordered/burst/g; s/replicas: 3/replicas: 2/; s/"2"/"8"/; s/OrderedReady/Parallel/' "$data/ordered.yaml")
YAML
k apply -f "$tmp/burst.yaml"
check "autoscale: a fifth node joins" eventually 30 nodes_ready 5
check "autoscale: TriggeredScaleUp event" eventually 10 bash -c "kubectl get events --field-selector reason=TriggeredScaleUp --no-headers | grep -q 'burst-'"
check "autoscale: at most the pool maximum" bash -c "sleep 5; [ \$(kubectl get nodes --no-headers | wc -l) = 5 ]"
kubectl delete sts burst >/dev/null 2>&1

# Node failure: the node goes NotReady; its pods fail and are replaced on other nodes.
victim=$(jp pod/ordered-0 '{.spec.nodeName}')
kubectl patch node "$victim" --subresource=status --type=strategic \
  -p '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status."}]}}' >/dev/null
check "node failure: node NotReady" eventually 5 bash -c "kubectl get node $victim --no-headers | grep -q NotReady"
check "node failure: ordered-0 moved to another node" eventually 60 bash -c \
  "n=\$(kubectl get pod ordered-0 -o jsonpath='{.spec.nodeName}' 2>/dev/null); [ -n \"\$n\" ] && [ \"\$n\" != $victim ]"
check "node failure: ordered back to 3 Ready" eventually 60 ready_is ordered 3

# Clean shutdown on SIGINT.
kill -INT "$APISERVER_PID"
check "shutdown: exits 0 on SIGINT" wait "$APISERVER_PID"
APISERVER_PID=""
[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
