#!/usr/bin/env bash
# Issue 6 end to end: the operator installed as deploy/ describes it, against the local cluster
# with no controller of its own (`lws up --no-controller`) over HTTPS, with the real kubectl.
#   - deploy/ is applied with kubectl (kustomize), then deploy/local/ points the webhook
#     configurations at https://127.0.0.1:9443; the Deployment is not run: two `lws controller`
#     processes are started here with its arguments (the ConfigMap's config file) and the
#     kubeconfig a pod of the Deployment has: the ServiceAccount's token from the TokenRequest API
#     (`kubectl create token`) and the cluster CA. RBAC is on (the server has an admin token), so
#     the operator runs with exactly the permissions deploy/rbac grants it;
#   - one of them takes the Lease; both serve the webhooks, each on its own port, behind a TCP
#     forwarder on 9443 that plays the Service in front of two pods (tests/lib/tcp_service.py),
#     and inject the CA into the webhook configurations;
#   - the webhooks reject an invalid LeaderWorkerSet with upstream's message;
#   - the upstream sample becomes Available; a rolling update starts; the leader is killed with
#     SIGKILL in the middle of it; the standby takes the Lease over and the rollout completes;
#   - no group is recreated more than the rollout requires: every group gets exactly one new
#     leader pod (its update), none more;
#   - `kubectl lws rollout status` (the lws binary as a kubectl plugin) follows that rollout to
#     its end, across the takeover;
#   - ours, opt-in: with lws-cpp.dev/failure-policy: Rollback, a crashing build is rolled back to
#     the previous template and every group runs it again; `kubectl lws rollout status` says the
#     rollout failed; with lws-cpp.dev/capacity-hand-off, the recreated groups' nodes are held by
#     placeholder pods that are all gone at the end.
# Usage: operator_e2e.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
trap 'kill -KILL ${controller_pids[*]:-} ${service_pid:-} 2>/dev/null; stop_apiserver KILL; rm -rf "$tmp"' EXIT
admin_token="e2e-admin-token"
start_up "$lws" "$tmp" --no-controller --tls-self-signed --data-dir "$tmp/data" --token "$admin_token" \
  --audit-log-path "$tmp/audit.log" \
  --config "$root/testdata/up/cluster.yaml" || exit 1
admin_kubeconfig="$KUBECONFIG"
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; return 1; }; }
jp() { kubectl get "$@" 2>/dev/null; }

# The install, as an administrator does it.
check "deploy/ applies" k apply --server-side -k "$root/deploy"
check "deploy/local/ applies" k apply --server-side --force-conflicts -f "$root/deploy/local"

# The Deployment's arguments and config file, and a kubeconfig as a pod's service account has.
kubectl get configmap -n lws-system lws-manager-config \
  -o jsonpath='{.data.controller_manager_config\.yaml}' >"$tmp/config.yaml"
mapfile -t args < <(kubectl get deployment -n lws-system lws-controller-manager \
  -o jsonpath='{range .spec.template.spec.containers[0].command[*]}{@}{"\n"}{end}')
check "the Deployment runs 'lws controller --config=...'" test "${args[1]:-}" = controller
args=("${args[@]:1}")  # the image's /usr/local/bin/lws is the binary under test here
args=("${args[@]/#--config=*/--config=$tmp/config.yaml}")
server=$(sed -n 's/^ *server: //p' "$admin_kubeconfig" | head -1)
ca_data=$(sed -n 's/^ *certificate-authority-data: //p' "$admin_kubeconfig" | head -1)
token=$(kubectl create token lws-controller-manager -n lws-system --duration=2h 2>"$tmp/err")
check "kubectl create token issues the operator's ServiceAccount token" test -n "$token"
kubectl --token "$token" auth whoami -o jsonpath='{.status.userInfo.username}' --kubeconfig "$admin_kubeconfig" >"$tmp/out" 2>&1
check "the token is the ServiceAccount" grep -qx "system:serviceaccount:lws-system:lws-controller-manager" "$tmp/out"
kubectl --token "$token" get configmaps -n kube-system >"$tmp/out" 2>"$tmp/err"
check "the ServiceAccount may not read ConfigMaps outside lws-system" grep -q \
  'configmaps is forbidden: User "system:serviceaccount:lws-system:lws-controller-manager" cannot list resource "configmaps" in API group "" in the namespace "kube-system"' "$tmp/err"
cat >"$tmp/sa.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: in-cluster
  cluster: {server: "$server", certificate-authority-data: "$ca_data"}
users:
- name: lws-controller-manager
  user: {token: "$token"}
contexts:
- name: in-cluster
  context: {cluster: in-cluster, user: lws-controller-manager, namespace: lws-system}
current-context: in-cluster
YAML

# Two replicas. Short lease timings keep the takeover quick; everything else is the manifests'.
# Replica a is `lws controller`, replica b the lws-controller executable (the same flags, built
# without the embedded API server): either may lead, and the takeover below goes from one to the
# other.
controller_pids=()
start_controller() {
  local name="$1" metrics="$2" health="$3" webhook="$4"
  local run=("$lws" "${args[@]/#--config=*/--config=$tmp/$name/config.yaml}")
  [ "$name" = b ] && run=("$(dirname "$lws")/lws-controller" "${run[@]:2}")
  mkdir -p "$tmp/$name"
  sed -e "s|certDir: .*|certDir: $tmp/$name/certs|" -e "s|port: 9443|port: $webhook|" \
    "$tmp/config.yaml" >"$tmp/$name/config.yaml"
  "${run[@]}" \
    --kubeconfig "$tmp/sa.kubeconfig" --namespace lws-system --identity "$name" \
    --webhook-cert-san 127.0.0.1 --metrics-bind-address "127.0.0.1:$metrics" \
    --health-probe-bind-address "127.0.0.1:$health" \
    --leader-elect-lease-duration 4s --leader-elect-renew-deadline 3s --leader-elect-retry-period 1s \
    >"$tmp/$name/out" 2>"$tmp/$name/err" &
  controller_pids+=($!)
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
webhook_a=$(free_port)
webhook_b=$(free_port)
start_controller a "$(free_port)" "$(free_port)" "$webhook_a"
start_controller b "$(free_port)" "$(free_port)" "$webhook_b"
/usr/bin/python3 "$root/tests/lib/tcp_service.py" 9443 "$webhook_a" "$webhook_b" &
service_pid=$!
holder() { jp lease -n lws-system b8b2488c.x-k8s.io -o jsonpath='{.spec.holderIdentity}'; }
has_holder() { test -n "$(holder)"; }
if ! check "a replica takes the Lease" eventually 30 has_holder; then
  for n in a b; do echo "--- controller $n"; tail -30 "$tmp/$n/err"; done
  exit 1
fi
leader=$(holder)
check "the leader is one of the two" test "$leader" = a -o "$leader" = b
ready() { grep -q "serving 5 webhooks on" "$tmp/$1/err" "$tmp/$1/out" 2>/dev/null; }
check "replica a serves webhooks" eventually 30 ready a
check "replica b serves webhooks" eventually 30 ready b
cabundle() { jp validatingwebhookconfiguration lws-validating-webhook-configuration -o jsonpath='{.webhooks[0].clientConfig.caBundle}'; }
has_cabundle() { test -n "$(cabundle)"; }
check "the CA is injected into the webhook configurations" eventually 30 has_cabundle

# The validating webhook, called over TLS by the API server, refuses an invalid LWS.
cat >"$tmp/bad.yaml" <<'YAML'
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: bad
spec:
  replicas: 2
  rolloutStrategy:
    rollingUpdateConfiguration:
      maxUnavailable: 25%
      maxSurge: 0
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.0
YAML
kubectl apply -f "$tmp/bad.yaml" >"$tmp/out" 2>"$tmp/err"
check "an invalid LWS is refused with upstream's message" grep -qE \
  'admission webhook "vleaderworkerset\.kb\.io" denied the request: spec\.rolloutStrategy\.rollingUpdateConfiguration\.maxUnavailable: Invalid value: intstr\.IntOrString\{Type:1, IntVal:0, StrVal:"25%"\}: must not be 0 when `maxSurge` is 0' "$tmp/err"

# The upstream sample becomes Available through the operator (defaults from its mutating webhook).
sample="$root/testdata/lws/samples/config_samples_leaderworkerset_v1_leaderworkerset.yaml"
check "the upstream sample applies" k apply -f "$sample"
lws=leaderworkerset-sample
available() { test "$(jp lws $lws -o jsonpath='{.status.conditions[?(@.type=="Available")].status}')" = True; }
check "the sample becomes Available" eventually 120 available
check "the pod webhook mutated the pods" test -n "$(jp pod $lws-0 -o jsonpath='{.spec.containers[0].env[?(@.name=="LWS_LEADER_ADDRESS")].value}')"

# The DisaggregatedSet webhook refuses a partition over TLS; upstream's sample (2 slices of 2
# roles) becomes Available through the operator's DisaggregatedSet controller.
cat >"$tmp/bad-ds.yaml" <<'YAML'
apiVersion: disaggregatedset.x-k8s.io/v1
kind: DisaggregatedSet
metadata:
  name: bad
spec:
  roles:
  - name: prefill
    spec:
      rolloutStrategy: {rollingUpdateConfiguration: {partition: 1}}
      leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c, image: nginx}]}}}
  - name: decode
    spec:
      leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c, image: nginx}]}}}
YAML
kubectl apply -f "$tmp/bad-ds.yaml" >"$tmp/out" 2>"$tmp/err"
check "an invalid DisaggregatedSet is refused with upstream's message" grep -qF \
  'admission webhook "vdisaggregatedset.kb.io" denied the request: spec.roles[0].spec.rolloutStrategy.rollingUpdateConfiguration.partition: Forbidden: partition is not supported by DisaggregatedSet' "$tmp/err"
check "the DisaggregatedSet sample applies" k apply -f \
  "$root/testdata/disaggregatedset/upstream/config/samples/disaggregatedset_v1_disaggregatedset.yaml"
ds_available() { test "$(jp disaggregatedset disaggregatedset-sample -o jsonpath='{.status.conditions[?(@.type=="Available")].status}')" = True; }
check "the DisaggregatedSet sample becomes Available" eventually 120 ds_available
check "four role LeaderWorkerSets, two slices" test "$(jp lws -l disaggregatedset.x-k8s.io/name=disaggregatedset-sample -o name | wc -l)" = 4

# Every leader pod seen from now on, by name and uid; the ones before the update are set aside.
jp pods -l leaderworkerset.sigs.k8s.io/worker-index=0 \
  -o jsonpath='{range .items[*]}{.metadata.uid}{"\n"}{end}' >"$tmp/leader-uids-before"
kubectl get pods -l leaderworkerset.sigs.k8s.io/worker-index=0 --watch-only \
  -o jsonpath='{.metadata.name} {.metadata.uid}{"\n"}' >"$tmp/leader-pods" 2>/dev/null &
watch_pid=$!
sleep 1
mkdir -p "$tmp/bin"
ln -s "$(readlink -f "$1")" "$tmp/bin/kubectl-lws"  # $lws names the LWS by now
export PATH="$tmp/bin:$PATH"
check "a rolling update starts" k patch lws $lws --type=json \
  -p '[{"op":"replace","path":"/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image","value":"nginxinc/nginx-unprivileged:1.28"}]'
kubectl lws rollout status $lws --timeout 5m >"$tmp/status.out" 2>"$tmp/status.err" &
status_pid=$!
updating() { test "$(jp lws $lws -o jsonpath='{.status.conditions[?(@.type=="UpdateInProgress")].status}')" = True; }
check "the update is in progress" eventually 30 updating
leader=$(holder)
if [ "$leader" = a ]; then victim=${controller_pids[0]}; standby=b; else victim=${controller_pids[1]}; standby=a; fi
{ kill -KILL "$victim"; wait "$victim"; } 2>/dev/null
echo "     killed the leader $leader with SIGKILL mid-rollout"
holder_is() { test "$(holder)" = "$1"; }
check "the standby takes the Lease over" eventually 30 holder_is "$standby"
done_updating() {
  available && test "$(jp lws $lws -o jsonpath='{.status.updatedReplicas}/{.status.readyReplicas}')" = 3/3 &&
    test "$(jp lws $lws -o jsonpath='{.status.conditions[?(@.type=="UpdateInProgress")].status}')" = False
}
check "the rollout completes under the new leader" eventually 180 done_updating
wait "$status_pid"
check "kubectl lws rollout status follows the rollout to its end" test $? = 0 -a \
  "$(tail -1 "$tmp/status.out")" = "leaderworkerset \"$lws\" successfully rolled out"
check "kubectl lws rollout status shows the groups being updated" \
  grep -qE '^Waiting for leaderworkerset "'$lws'" rollout to finish: [0-2] out of 3 new groups have been updated\.\.\.$' "$tmp/status.out"
check "every group runs the new image" test "$(jp pods -l leaderworkerset.sigs.k8s.io/name=$lws -o jsonpath='{.items[*].spec.containers[0].image}' | tr ' ' '\n' | sort -u)" = nginxinc/nginx-unprivileged:1.28
kill "$watch_pid" 2>/dev/null
# A pod appears in the watch once per change: keep the new uids, one line per (name, uid).
sort -u "$tmp/leader-pods" | awk 'NF == 2' | grep -v -F -f "$tmp/leader-uids-before" >"$tmp/new-leaders"
created=$(awk '{print $1}' "$tmp/new-leaders" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')
check "each group's leader pod was recreated exactly once ($created)" \
  test "$(awk '{print $1}' "$tmp/new-leaders" | sort | uniq -c | awk '$1 == 1' | wc -l)" = 3 -a \
       "$(wc -l <"$tmp/new-leaders")" = 3

# Ours, opt-in (docs/scarcity.md): with the Rollback failure policy, a build whose worker crashes
# 2 s after it is Ready is rolled back to the previous template.
check "failure policy: the LWS is annotated (with the capacity hand-off)" \
  k annotate lws $lws lws-cpp.dev/failure-policy=Rollback lws-cpp.dev/failure-threshold=1 \
  lws-cpp.dev/capacity-hand-off=1m
check "a failing build is rolled out" k patch lws $lws --type=json -p '[
  {"op":"add","path":"/spec/leaderWorkerTemplate/workerTemplate/metadata","value":{"annotations":{"sim.lws-cpp.dev/crash-after-seconds":"2"}}},
  {"op":"replace","path":"/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image","value":"nginxinc/nginx-unprivileged:broken"}]'
rolled_back() {
  test "$(jp lws $lws -o jsonpath='{.status.conditions[?(@.type=="RolloutFailed")].reason}')" = RolledBack
}
check "the failing revision is rolled back" eventually 120 rolled_back
check "the template is the previous one again" \
  test "$(jp lws $lws -o jsonpath='{.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].image}')" = nginxinc/nginx-unprivileged:1.28
check "a Warning event says why" eventually 10 kubectl get events --field-selector reason=RolloutFailed -o name
back_on_previous() {
  done_updating &&
    test "$(jp pods -l leaderworkerset.sigs.k8s.io/name=$lws -o jsonpath='{.items[*].spec.containers[0].image}' | tr ' ' '\n' | sort -u)" = nginxinc/nginx-unprivileged:1.28
}
check "every group runs the previous image again" eventually 120 back_on_previous
# The capacity hand-off through the REST client: the recreated groups' nodes were held for their
# replacements by placeholder pods, and none is left once the groups run again.
check "capacity hand-off: a CapacityHeld event" eventually 10 \
  bash -c "kubectl get events --field-selector reason=CapacityHeld -o name | grep -q ."
no_holds() { test -z "$(jp pods -l lws-cpp.dev/capacity-hand-off-of=$lws -o name)"; }
check "capacity hand-off: no placeholder is left" eventually 90 no_holds
kubectl lws rollout status $lws >"$tmp/out" 2>"$tmp/err"
check "kubectl lws rollout status: the rollout failed (exit 1)" test $? = 1
check "kubectl lws rollout status: says why" grep -qE \
  '^error: leaderworkerset "'$lws'" rollout failed: revision [0-9a-f]+ failed: .*; rolled back to revision [0-9a-f]+$' "$tmp/err"

# SIGTERM: the standby-turned-leader stops cleanly and releases the Lease.
if [ "$standby" = a ]; then pid=${controller_pids[0]}; else pid=${controller_pids[1]}; fi
kill -TERM "$pid"
wait "$pid"
check "SIGTERM exits 0" test $? = 0
check "the Lease is released on SIGTERM" test -z "$(holder)"

# deploy/rbac grants what the operator needs: no request of its ServiceAccount was refused, and
# every rule allowed one of them (so the run fails without it), but for the rules the script
# lists with the reason this run does not exercise them (tests/python/rbac_coverage.py).
check "deploy/rbac: each rule needed, or why not" /usr/bin/python3 "$root/tests/python/rbac_coverage.py" \
  "$tmp/audit.log" "$root/deploy/rbac" system:serviceaccount:lws-system:lws-controller-manager

if [ "$failures" -gt 0 ]; then
  for n in a b; do echo "--- controller $n"; tail -30 "$tmp/$n/err"; done
fi
exit $((failures > 0))
