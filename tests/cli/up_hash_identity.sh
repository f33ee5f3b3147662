#!/usr/bin/env bash
# groupIdentity Hash (upstream KEP 898) on `lws up --kubelet manual`, step by step with the real
# kubectl: the leader Deployment and its shared Service; leaders with random group keys, hostname
# hashed-<key[:8]> and LWS_LEADER_ADDRESS; worker StatefulSets named after that hostname; the
# group-ready condition the controller writes once the workers are Ready; a rolling update that the
# Deployment performs in whole groups (maxSurge 1, maxUnavailable 0), where the replacement leader
# is held by the group-replacement scheduling gate (GroupReplacementDeferred) until the old group's
# pods are gone; the LWS status from the Deployment; scale and cascading deletion.
# Pods are bound but never started: the test marks pods Ready by patching their status. Also: the
# kubelet commands (exec, cp, attach, port-forward) say that no real kubelet runs the pod, and
# `kubectl logs` that the pod's status reports no container to read (no kubelet started one).
# Usage: up_hash_identity.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" --kubelet manual || exit 1

sel="leaderworkerset.sigs.k8s.io/name=hashed"
group_ready='{.status.conditions[?(@.type=="leaderworkerset.sigs.k8s.io/group-ready")].status}'
# Live (not terminating) leader pods, one name per line.
live_leaders() {
  kubectl get pods -l "$sel,leaderworkerset.sigs.k8s.io/worker-index=0" \
    -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}{"\n"}{end}' |
    awk 'NF == 1 {print $1}' | sort
}
leader_count_is() { [ "$(live_leaders | grep -c .)" = "$1" ]; }
bound() { [ -n "$(jp "pod/$1" '{.spec.nodeName}')" ]; }
ungated() { [ -z "$(jp "pod/$1" '{.spec.schedulingGates}')" ] && bound "$1"; }
is_group_ready() { [ "$(jp "pod/$1" "$group_ready")" = "$2" ]; }
set_ready() {  # set_ready POD [extra conditions]
  kubectl patch pod "$1" --subresource=status --type=strategic -p \
    "{\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}$2]}}" >/dev/null
}
# Makes leader $1's group Ready as a kubelet would: the worker, then (once the controller says the
# group is ready) the leader's containers and the leader itself.
ready_group() {
  local leader="$1" host
  host=$(jp "pod/$leader" '{.spec.hostname}')
  eventually 20 bound "$host-1" || { echo "     worker $host-1 never bound"; return 1; }
  set_ready "$host-1" "" || return 1
  eventually 20 is_group_ready "$leader" True || { echo "     $leader: group-ready never True"; return 1; }
  set_ready "$leader" ',{"type":"ContainersReady","status":"True"}'
}
# "deployment: replicas updated ready / lws: replicas ready updated Available UpdateInProgress"
state() {
  echo "$(jp deploy/hashed '{.spec.replicas} {.status.replicas} {.status.updatedReplicas} {.status.readyReplicas}') /" \
    "$(jp lws/hashed '{.status.replicas} {.status.readyReplicas} {.status.updatedReplicas} {.status.conditions[?(@.type=="Available")].status} {.status.conditions[?(@.type=="UpdateInProgress")].status}')"
}
state_is() { [ "$(state)" = "$1" ]; }
lws_revisions() {
  kubectl get controllerrevisions -l "$sel" \
    -o jsonpath='{range .items[?(@.metadata.ownerReferences[0].kind=="LeaderWorkerSet")]}{.metadata.name}{"\n"}{end}' | grep -c .
}
revisions_are() { [ "$(lws_revisions)" = "$1" ]; }
expect_state() {
  check "$1: $2" eventually 20 state_is "$2"
  [ "$(state)" = "$2" ] || echo "     got: $(state)"
}

check "apply" kubectl apply -f "$root/testdata/lws/hash.yaml"
check "one LWS revision" eventually 10 revisions_are 1
check "leader Deployment hashed" eventually 20 kubectl get deploy hashed -o name
check "Deployment: controlled by the LWS" test "$(jp deploy/hashed '{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}')" = LeaderWorkerSet/hashed/true
check "Deployment: replicas 2, maxSurge 1, maxUnavailable 0" test "$(jp deploy/hashed '{.spec.replicas} {.spec.strategy.rollingUpdate.maxSurge} {.spec.strategy.rollingUpdate.maxUnavailable}')" = "2 1 0"
check "Deployment: leader template with group-identity Hash and the group-ready gate" test \
  "$(jp deploy/hashed '{.spec.template.metadata.annotations.leaderworkerset\.sigs\.k8s\.io/group-identity} {.spec.template.spec.readinessGates[0].conditionType}')" = "Hash leaderworkerset.sigs.k8s.io/group-ready"
check "shared headless Service" test "$(jp svc/hashed '{.spec.clusterIP} {.spec.publishNotReadyAddresses}')" = "None true"
check "two leaders admitted" eventually 20 leader_count_is 2
leaders=$(live_leaders)
for l in $leaders; do
  check "$l: gate lifted and bound" eventually 20 ungated "$l"
  host=$(jp "pod/$l" '{.spec.hostname}')
  key=$(jp "pod/$l" '{.metadata.labels.leaderworkerset\.sigs\.k8s\.io/group-index}')
  check "$l: group key is 40 hex characters" test -n "$(echo "$key" | grep -xE '[0-9a-f]{40}')"
  check "$l: hostname hashed-<key[:8]>" test "$host" = "hashed-${key:0:8}"
  check "$l: LWS_LEADER_ADDRESS" test "$(jp "pod/$l" '{.spec.containers[0].env[?(@.name=="LWS_LEADER_ADDRESS")].value}')" = "$host.hashed.default"
  check "$l: worker StatefulSet $host controlled by the leader" eventually 20 sh -c \
    "[ \"\$(kubectl get sts $host -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')\" = Pod/$l ]"
  check "$l: worker $host-1 has the leader's address" eventually 20 sh -c \
    "[ \"\$(kubectl get pod $host-1 -o jsonpath='{.spec.containers[0].env[?(@.name==\"LWS_LEADER_ADDRESS\")].value}')\" = $host.hashed.default ]"
  check "$l: group-ready False before the workers are" eventually 20 is_group_ready "$l" False
done
check "GroupReplacementAdmitted events" eventually 10 sh -c "[ \"\$(kubectl get events --field-selector reason=GroupReplacementAdmitted -o name | wc -l)\" = 2 ]"
expect_state "created, nothing Ready" "2 2 2  / 2  2  "
for l in $leaders; do check "$l: group Ready" ready_group "$l"; done
expect_state "at rest" "2 2 2 2 / 2 2 2 True "

kubectl patch lws hashed --type=merge \
  -p '{"spec":{"leaderWorkerTemplate":{"workerTemplate":{"spec":{"containers":[{"name":"worker","image":"vllm/vllm-openai:v0.6.1"}]}}}}}' >/dev/null
expect_state "template changed: one surge group" "2 3 1 2 / 3 2 1 False True"
new1=$(comm -13 <(echo "$leaders") <(live_leaders))
check "surge leader $new1 admitted at once" eventually 20 ungated "$new1"
check "$new1: group Ready" ready_group "$new1"
# The Deployment deletes an old leader and creates a second new one, which must wait for the old
# group's pods (its workers are deleted by the garbage collector once the leader is gone).
check "replacement waits for the old group" eventually 20 sh -c "kubectl get events --field-selector reason=GroupReplacementDeferred -o jsonpath='{.items[*].message}' | grep -q 'waits for 1 terminating group(s)'"
check "three live leaders: one old, two new" eventually 20 leader_count_is 3
new2=$(comm -13 <( (echo "$leaders"; echo "$new1") | sort) <(live_leaders) | head -1)
check "replacement $new2 admitted once the old group is gone" eventually 30 ungated "$new2"
check "$new2: group Ready" ready_group "$new2"
expect_state "rolled out" "2 2 2 2 / 2 2 2 True False"
check "old groups' worker StatefulSets gone" eventually 20 sh -c "[ \"\$(kubectl get sts -l $sel -o name | wc -l)\" = 2 ]"
check "one LWS revision left" eventually 10 revisions_are 1

leader=$(live_leaders | head -1)
kubelet_refused() { ! kubectl "$@" >"$tmp/out" 2>&1 && grep -q "runs on a simulated kubelet" "$tmp/out"; }
logs_refused() { ! kubectl logs "$1" >"$tmp/out" 2>&1 && grep -qE "$2" "$tmp/out"; }
check "kubectl logs: no container reported, in the kubelet's words" \
  logs_refused "$leader" "container \"[a-z0-9-]+\" in pod \"$leader\" is not available"
check "kubectl exec: no real kubelet" kubelet_refused exec "$leader" -- true
check "kubectl cp: no real kubelet" kubelet_refused cp "$leader:/etc/hosts" "$tmp/hosts"
check "kubectl attach: no real kubelet" kubelet_refused attach "$leader"
check "kubectl port-forward: no real kubelet" kubelet_refused port-forward "$leader" 18080:80
check "kubectl logs of a missing pod: NotFound" sh -c "kubectl logs no-such-pod 2>&1 | grep -q NotFound"

check "scale to 3" kubectl scale lws hashed --replicas=3
check "Deployment follows: 3 replicas" eventually 20 sh -c "[ \"\$(kubectl get deploy hashed -o jsonpath='{.spec.replicas}')\" = 3 ]"
check "delete" kubectl delete lws hashed
check "Deployment, ReplicaSets and pods deleted" eventually 30 sh -c \
  "[ -z \"\$(kubectl get deploy,rs,sts,pods -l $sel -o name 2>/dev/null)\" ]"
echo "$failures failures"
[ "$failures" -eq 0 ]
