#!/usr/bin/env bash
# Node maintenance under a PodDisruptionBudget on `lws up`, with the real kubectl: the
# disruption controller keeps the budget's status (expected pods from the StatefulSets' scale),
# `kubectl get pdb` prints kube-apiserver's columns, pods/eviction refuses with 429 and the
# DisruptionBudget cause while the budget has no disruption left (kubectl drain keeps retrying
# and times out), and once the budget allows one, `kubectl drain` of a node holding LWS pods
# completes: every pod leaves the cordoned node, the LeaderWorkerSet is whole again elsewhere.
# Usage: up_drain_pdb.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 5
lws_ready() { [ "$(jp lws/drainme '{.status.readyReplicas}')" = 3 ]; }
pdb_is() { [ "$(jp pdb/drainme '{.status.expectedPods} {.status.desiredHealthy} {.status.currentHealthy} {.status.disruptionsAllowed}')" = "$1" ]; }

k apply -f "$root/testdata/up/drain.yaml"
check "lws: created" out_has 'leaderworkerset.leaderworkerset.x-k8s.io/drainme created'
check "lws: 3 groups ready" eventually 60 lws_ready

# Every pod of the LWS: 6 expected (leader StatefulSet 3 + three worker StatefulSets of 1).
k create pdb drainme --selector=leaderworkerset.sigs.k8s.io/name=drainme --min-available=100%
check "pdb: created by kubectl's generator (protobuf)" out_has '^poddisruptionbudget.policy/drainme created$'
check "pdb: status 6 expected, 6 desired, 6 healthy, 0 allowed" eventually 15 pdb_is "6 6 6 0"
k get pdb drainme
check "pdb: kubectl get columns" out_has '^drainme +100% +N/A +0 '
check "pdb: DisruptionAllowed False InsufficientPods" \
  test "$(jp pdb/drainme '{.status.conditions[?(@.type=="DisruptionAllowed")].reason}')" = InsufficientPods

leader=drainme-0
node=$(jp "pod/$leader" '{.spec.nodeName}')
check "leader drainme-0 is bound" test -n "$node"

# The eviction API itself: 429 with the budget's cause.
cat >"$tmp/eviction.json" <<JSON
{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"$leader","namespace":"default"}}
JSON
k create --raw "/api/v1/namespaces/default/pods/$leader/eviction" -f "$tmp/eviction.json"
check "eviction: refused with TooManyRequests" grep -q 'Cannot evict pod as it would violate the pod' "$tmp/err"
check "eviction: the pod stays" test -z "$(jp "pod/$leader" '{.metadata.deletionTimestamp}')"

# drain cordons, then retries the refused evictions every 5 s until its timeout.
kubectl drain "$node" --ignore-daemonsets --timeout=8s >"$tmp/out" 2>"$tmp/err"
drain_rc=$?
check "drain under a full budget: times out (exit $drain_rc)" test "$drain_rc" != 0
check "drain under a full budget: retries with the budget's message" \
  grep -q "error when evicting pods/\"$leader\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget." "$tmp/err"
check "drain: the node is cordoned" test "$(jp "node/$node" '{.spec.unschedulable}')" = true
check "drain under a full budget: no LWS pod was evicted" \
  test "$(kubectl get pods -l leaderworkerset.sigs.k8s.io/name=drainme --field-selector spec.nodeName="$node" -o name | wc -l)" -ge 1

# One disruption at a time: the drain now completes, and the LWS recovers on other nodes.
k patch pdb drainme --type=merge -p '{"spec":{"minAvailable":null,"maxUnavailable":1}}'
check "pdb: patched to maxUnavailable 1" out_has 'poddisruptionbudget.policy/drainme patched'
check "pdb: 1 disruption allowed" eventually 15 pdb_is "6 5 6 1"
kubectl drain "$node" --ignore-daemonsets --timeout=120s >"$tmp/out" 2>"$tmp/err"
drain_rc=$?
check "drain: completes (exit $drain_rc)" test "$drain_rc" = 0
check "drain: node/$node drained" out_has "^node/$node drained$"
check "drain: evicted the leader" out_has "^pod/$leader evicted$"
check "drain: no LWS pod left on the node" \
  test "$(kubectl get pods -l leaderworkerset.sigs.k8s.io/name=drainme --field-selector spec.nodeName="$node" -o name | wc -l)" = 0
check "lws: 3 groups ready again" eventually 60 lws_ready
check "pdb: back to 1 disruption allowed" eventually 15 pdb_is "6 5 6 1"
check "leader: rescheduled to another node" test "$(jp "pod/$leader" '{.spec.nodeName}')" != "$node"
k uncordon "$node"
check "uncordon" out_has "node/$node uncordoned"

exit $failures
