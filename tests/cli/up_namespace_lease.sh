#!/usr/bin/env bash
# Namespace deletion and node heartbeats on `lws up`, with the real kubectl:
#   - a deleted namespace is Terminating while its content goes (new content is refused with
#     kube-apiserver's message); after the 5 s grace period the namespace controller deletes
#     what is in it (a Deployment's pods terminate through the kubelets), then the namespace;
#   - every Ready node holds a Lease in kube-node-lease renewed by its kubelet, which
#     `kubectl describe node` shows without complaint.
# Usage: up_namespace_lease.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 7
ns_gone() { ! kubectl get namespace scratch >/dev/null 2>&1; }
pods_ready() { [ "$(jp deploy/web '{.status.readyReplicas}' -n scratch 2>/dev/null)" = 2 ]; }
jpn() { kubectl get "$1" -n scratch -o jsonpath="$2" 2>/dev/null; }

k create namespace scratch
check "namespace: created" out_has '^namespace/scratch created$'
k create deployment web --image=nginx:1.27 --replicas=2 -n scratch
check "deployment: created" out_has '^deployment.apps/web created$'
k create configmap settings --from-literal=a=b -n scratch
check "configmap: created" out_has '^configmap/settings created$'
check "deployment: 2 pods ready" eventually 30 sh -c "[ \"\$(kubectl get deploy web -n scratch -o jsonpath='{.status.readyReplicas}')\" = 2 ]"

k delete namespace scratch --wait=false
check "namespace: delete answered" out_has '^namespace "scratch" deleted$'
check "namespace: Terminating while its pods stop" \
  test "$(kubectl get namespace scratch -o jsonpath='{.status.phase}' 2>/dev/null)" = Terminating
k create configmap late --from-literal=a=b -n scratch
check "namespace: new content refused" \
  grep -q 'configmaps "late" is forbidden: unable to create new content in namespace scratch because it is being terminated' "$tmp/err"
check "namespace: gone once empty" eventually 30 ns_gone
check "namespace: its content went with it" \
  test -z "$(kubectl get deploy,rs,pods,cm -n scratch -o name 2>/dev/null | grep -v kube-root-ca)"
k create namespace scratch
check "namespace: the name can be used again" out_has '^namespace/scratch created$'

node=$(kubectl get nodes -o jsonpath='{.items[0].metadata.name}')
lease_of() { kubectl get lease "$node" -n kube-node-lease -o jsonpath="$1" 2>/dev/null; }
held() { [ "$(lease_of '{.spec.holderIdentity}')" = "$node" ]; }
check "lease: node $node holds one" eventually 15 held
check "lease: 40 s, owned by the Node" \
  test "$(lease_of '{.spec.leaseDurationSeconds} {.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}')" = "40 Node/$node"
first=$(lease_of '{.spec.renewTime}')
renewed() { [ "$(lease_of '{.spec.renewTime}')" != "$first" ]; }
check "lease: renewed every 10 s" eventually 15 renewed
k describe node "$node"
check "describe node: no error" test ! -s "$tmp/err"
check "describe node: shows the lease holder" out_has "HolderIdentity: +$node"
k get leases -n kube-node-lease
check "get leases: one per node" test "$(grep -c . "$tmp/out")" -eq "$(( $(kubectl get nodes --no-headers | wc -l) + 1 ))"

exit $failures
