#!/usr/bin/env bash
# A LeaderWorkerSet rolled out step by step on `lws up --kubelet manual` with the real kubectl:
# worked example C of the LWS spec (4 groups, maxUnavailable 0, maxSurge 1). Pods are bound but
# never started; the test marks a group Ready by patching its pods' status subresource, and after
# each step checks the leader StatefulSet's partition and replicas, the LWS status counts and its
# conditions, as the upstream integration tests do.
# Usage: up_lws_stepwise.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" --kubelet manual || exit 1

jp() { kubectl get "$1" -o jsonpath="$2" 2>/dev/null; }
# "partition replicas ready updated Available UpdateInProgress", e.g. "4 5 4 1 False True".
state() {
  local sts lws
  sts=$(jp statefulset/step '{.spec.updateStrategy.rollingUpdate.partition} {.spec.replicas}')
  lws=$(jp lws/step '{.status.readyReplicas} {.status.updatedReplicas} {.status.conditions[?(@.type=="Available")].status} {.status.conditions[?(@.type=="UpdateInProgress")].status}')
  echo "$sts $lws"
}
state_is() { [ "$(state)" = "$1" ]; }
# Marks every live pod of group $1 Running and Ready, once the group has its 2 pods, all bound.
ready_group() {
  local g="$1" pods
  eventually 30 group_formed "$g" || { echo "group $g never formed"; return 1; }
  pods=$(kubectl get pods -l "leaderworkerset.sigs.k8s.io/name=step,leaderworkerset.sigs.k8s.io/group-index=$g" \
    -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}{"\n"}{end}' | awk 'NF == 1')
  for p in $pods; do
    kubectl patch pod "$p" --subresource=status --type=strategic \
      -p '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}' >/dev/null || return 1
  done
}
group_formed() {
  local listed
  listed=$(kubectl get pods -l "leaderworkerset.sigs.k8s.io/name=step,leaderworkerset.sigs.k8s.io/group-index=$1" \
    -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName} {.metadata.deletionTimestamp}{"\n"}{end}')
  [ "$(echo "$listed" | awk 'NF == 2' | wc -l)" = 2 ] && [ "$(echo "$listed" | awk 'NF != 2 && NF > 0' | wc -l)" = 0 ]
}
step() {  # step NAME GROUP EXPECTED
  ready_group "$2"
  check "$1: $3" eventually 20 state_is "$3"
  [ "$(state)" = "$3" ] || echo "     got: $(state)"
}

check "apply" kubectl apply -f "$root/testdata/lws/stepwise.yaml"
for g in 0 1 2 3; do ready_group "$g"; done
check "at rest: partition 0, 4 groups, Available" eventually 20 state_is "0 4 4 4 True "
kubectl patch lws step --type=merge \
  -p '{"spec":{"leaderWorkerTemplate":{"workerTemplate":{"spec":{"containers":[{"name":"worker","image":"vllm/vllm-openai:v0.6.1"}]}}}}}' >/dev/null
check "template changed: partition 4, surge group 4" eventually 20 state_is "4 5 4 1 False True"
step "group 4 ready" 4 "3 5 4 2 False True"
step "group 3 ready" 3 "2 5 4 3 False True"
step "group 2 ready" 2 "1 5 4 4 False True"
step "group 1 ready" 1 "0 5 4 5 False True"
step "group 0 ready" 0 "0 4 4 4 True False"
check "surge event" eventually 10 sh -c 'kubectl get events --field-selector reason=GroupsProgressing -o jsonpath="{.items[*].message}" | grep -q "deleting surge replica step-4"'
check "one revision left" eventually 10 sh -c '[ "$(kubectl get controllerrevisions -o name | grep -c "step-[a-z0-9]*-[0-9]*$")" = 1 ]'
echo "$failures failures"
[ "$failures" -eq 0 ]
