#!/usr/bin/env bash
# `lws up` runs Deployments as kube-controller-manager does, checked with the real kubectl:
# the ReplicaSet "<name>-<pod-template-hash>" and its pods, `kubectl rollout status`, a rolling
# update that keeps maxUnavailable 0 / maxSurge 1 (never fewer than 4 Ready, never more than 5
# pods), `rollout history` and `rollout undo` (revision 3 is the first template again, reusing
# its ReplicaSet), `kubectl scale`, a Recreate rollout, and cascading deletion.
# Usage: up_deployment.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 11
rs_count() { kubectl get rs -l app=router --no-headers 2>/dev/null | wc -l; }
image_of_pods() { kubectl get pods -l app=router -o jsonpath='{range .items[*]}{.spec.containers[0].image}{"\n"}{end}' | sort -u | tr '\n' ' '; }
# `rollout status` is done once the new pods are available; old ones may still be terminating.
images_are() { [ "$(image_of_pods)" = "$1 " ]; }
pods_gone() { [ -z "$(kubectl get pods -l app=router -o name 2>/dev/null)" ]; }

k apply -f "$data/router.yaml"
check "router: created" out_has '^deployment.apps/router created$'
check "router: rollout status completes" kubectl rollout status deploy/router --timeout=60s
k get deploy router
check "router: get deploy READY 4/4 UP-TO-DATE 4 AVAILABLE 4" out_has '^router +4/4 +4 +4 '
hash1=$(kubectl get rs -l app=router -o jsonpath='{.items[0].metadata.labels.pod-template-hash}')
check "router: one ReplicaSet router-<pod-template-hash>" test "$(rs_count)" = 1 -a -n "$hash1"
k get rs "router-$hash1"
check "router: get rs DESIRED 4 CURRENT 4 READY 4" out_has "^router-$hash1 +4 +4 +4 "
check "router: ReplicaSet owned by the Deployment" \
  test "$(jp rs/router-$hash1 '{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')" = Deployment/router
check "router: revision 1" test "$(jp deploy/router '{.metadata.annotations.deployment\.kubernetes\.io/revision}')" = 1
check "router: pods named router-<hash>-xxxxx" \
  test "$(kubectl get pods -l app=router -o name | grep -cE "^pod/router-$hash1-[bcdfghjklmnpqrstvwxz2456789]{5}$")" = 4
check "router: Available and Progressing conditions" \
  test "$(jp deploy/router '{.status.conditions[?(@.type=="Available")].reason}/{.status.conditions[?(@.type=="Progressing")].reason}')" = MinimumReplicasAvailable/NewReplicaSetAvailable

# Rolling update, maxSurge 1 / maxUnavailable 0: watched pod by pod.
kubectl get pods -l app=router -w --output-watch-events -o wide >"$tmp/watch" 2>&1 &
watch_pid=$!
sleep 1
k set image deploy/router router=lmcache/lmstack-router:v0.2.0
check "update: image set" out_has 'deployment.apps/router image updated'
check "update: rollout status completes" kubectl rollout status deploy/router --timeout=90s
check "update: every pod runs v0.2.0" eventually 15 images_are lmcache/lmstack-router:v0.2.0
check "update: two ReplicaSets, the old one at 0" test "$(rs_count)" = 2 -a "$(jp rs/router-$hash1 '{.spec.replicas}')" = 0
k get events --field-selector involvedObject.name=router
check "update: ScalingReplicaSet events with upstream's wording" out_has 'ScalingReplicaSet +deployment/router +Scaled down replica set router-'"$hash1"' from 4 to 3'
k rollout history deploy/router
check "history: revision 1" out_has '^1 '
check "history: revision 2" out_has '^2 '
# Bounds held throughout: replay the watch into pod states. Terminating pods do not count (an
# old pod shuts down while the next new one starts, as on any cluster).
bounds=$(awk '$1 == "ADDED" || $1 == "MODIFIED" { ready[$2] = ($3 == "1/1" && $4 == "Running"); alive[$2] = ($4 != "Terminating") }
              $1 == "DELETED" { delete ready[$2]; delete alive[$2] }
              $1 != "" { r = 0; a = 0; for (p in ready) r += ready[p]; for (p in alive) a += alive[p];
                         if (NR > 4 && r < minr) minr = r; if (a > maxa) maxa = a }
              BEGIN { minr = 99; maxa = 0 } END { print minr, maxa }' "$tmp/watch")
check "update: never fewer than 4 Ready pods once started (maxUnavailable 0): $bounds" test "${bounds%% *}" -ge 4
check "update: never more than 5 pods that are not terminating (maxSurge 1): $bounds" test "${bounds##* }" -le 5
kill $watch_pid 2>/dev/null; watch_pid=""

# Undo: back to the first template, by its own ReplicaSet, now revision 3.
k rollout undo deploy/router
check "undo: rolled back" out_has 'deployment.apps/router rolled back'
check "undo: rollout status completes" kubectl rollout status deploy/router --timeout=90s
check "undo: every pod runs v0.1.0 again" eventually 15 images_are lmcache/lmstack-router:v0.1.0
check "undo: the first ReplicaSet is back at 4 with revision 3" \
  test "$(jp rs/router-$hash1 '{.spec.replicas} {.metadata.annotations.deployment\.kubernetes\.io/revision} {.metadata.annotations.deployment\.kubernetes\.io/revision-history}')" = "4 3 1"
check "undo: still two ReplicaSets" test "$(rs_count)" = 2

k scale deploy/router --replicas=6
check "scale: scaled" out_has 'deployment.apps/router scaled'
check "scale: rollout status completes" kubectl rollout status deploy/router --timeout=60s
check "scale: 6 Ready" test "$(jp deploy/router '{.status.readyReplicas}')" = 6

# Recreate: every old pod is gone before the first new one is created.
k patch deploy/router --type=merge -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'
check "recreate: strategy patched" out_has 'deployment.apps/router patched'
kubectl get pods -l app=router -w --output-watch-events >"$tmp/watch2" 2>&1 &
watch_pid=$!
sleep 1
k set image deploy/router router=lmcache/lmstack-router:v0.3.0
check "recreate: rollout status completes" kubectl rollout status deploy/router --timeout=90s
hash3=$(kubectl get rs -l app=router -o jsonpath='{range .items[?(@.spec.replicas>0)]}{.metadata.labels.pod-template-hash}{end}')
last_delete=$(awk '$1 == "DELETED" { n = NR } END { print n + 0 }' "$tmp/watch2")
first_new=$(awk -v h="$hash3" '$1 == "ADDED" && index($2, "router-" h "-") == 1 { print NR; exit }' "$tmp/watch2")
check "recreate: the first new pod comes after the last old pod is gone ($last_delete < $first_new)" \
  test "$last_delete" -gt 0 -a "${first_new:-0}" -gt "$last_delete"
kill $watch_pid 2>/dev/null; watch_pid=""

k delete deploy router
check "delete: deployment deleted" out_has 'deployment.apps "router" deleted'
check "delete: its ReplicaSets and pods are collected" eventually 30 pods_gone
check "delete: no ReplicaSet left" test "$(rs_count)" = 0
[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
