#!/usr/bin/env bash
# The LWS webhooks of `lws apiserver` seen through the real kubectl (v1.32 through
# /usr/bin/kubectl's dispatcher): a valid LeaderWorkerSet is created with the webhook's defaults,
# an invalid one is refused with upstream's message and field path (403 from the validating
# webhook, 422 from the CRD schema), --dry-run=server defaults without storing, updates are
# checked against the stored object, and a pod carrying the LWS name label gets the LWS env.
# `--no-webhooks` turns all of it off.
# Usage: lws_admission_kubectl.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_apiserver "$lws" "$tmp" || exit 1
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
out_has() { grep -qE "$1" "$tmp/out"; }
err_has() { grep -qE "$1" "$tmp/err"; }
jp() { kubectl get "$1" -o jsonpath="$2" 2>/dev/null; }

# lws_yaml NAME EXTRA_SPEC_YAML: a LeaderWorkerSet with replicas 2, size 2 and EXTRA in its spec.
lws_yaml() {
  cat <<EOF
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: $1
spec:
  replicas: 2
$2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.0
EOF
}

# A valid LWS: created, with the mutating webhook's defaults stored.
lws_yaml demo "" >"$tmp/demo.yaml"
k apply -f "$tmp/demo.yaml"
check "valid: created" out_has '^leaderworkerset\.leaderworkerset\.x-k8s\.io/demo created$'
check "valid: networkConfig defaulted" test "$(jp lws/demo '{.spec.networkConfig.subdomainPolicy}')" = Shared
check "valid: rollout defaulted" test \
  "$(jp lws/demo '{.spec.rolloutStrategy.type}/{.spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable}/{.spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge}')" \
  = RollingUpdate/1/0

# S105: 25% of 2 rounds down to 0 and maxSurge is 0: the validating webhook refuses it.
lws_yaml bad "  rolloutStrategy:
    rollingUpdateConfiguration:
      maxUnavailable: 25%
      maxSurge: 0" >"$tmp/bad.yaml"
k apply -f "$tmp/bad.yaml"
check "invalid: kubectl fails" test -s "$tmp/err"
check "invalid: upstream's message and field path" err_has \
  '^Error from server \(Forbidden\): error when creating ".*bad\.yaml": admission webhook "vleaderworkerset\.kb\.io" denied the request: spec\.rolloutStrategy\.rollingUpdateConfiguration\.maxUnavailable: Invalid value: intstr\.IntOrString\{Type:1, IntVal:0, StrVal:"25%"\}: must not be 0 when `maxSurge` is 0$'
check "invalid: not stored" test -z "$(jp lws/bad '{.metadata.name}')"

# S70: the name must be a DNS-1035 label (it names a Service).
sed 's/name: demo/name: 2cube/' "$tmp/demo.yaml" >"$tmp/2cube.yaml"
k apply -f "$tmp/2cube.yaml"
check "invalid name: DNS-1035 message" err_has \
  'admission webhook "vleaderworkerset\.kb\.io" denied the request: metadata\.name: Invalid value: "2cube": a DNS-1035 label must consist of lower case alphanumeric characters'

# S75: an enum violation is the CRD schema's own 422.
lws_yaml enum "  startupPolicy: invalidValue" >"$tmp/enum.yaml"
k apply -f "$tmp/enum.yaml"
check "schema: 422 Invalid" err_has \
  'The LeaderWorkerSet "enum" is invalid: spec\.startupPolicy: Unsupported value: "invalidValue": supported values: "LeaderCreated", "LeaderReady"'

# --dry-run=server: defaulted and validated, not stored.
lws_yaml dry "" >"$tmp/dry.yaml"
k apply --dry-run=server -f "$tmp/dry.yaml" -o jsonpath='{.spec.networkConfig.subdomainPolicy}'
check "dry-run: defaulted" out_has '^Shared$'
check "dry-run: not stored" test -z "$(jp lws/dry '{.metadata.name}')"
k apply --dry-run=server -f "$tmp/bad.yaml"
check "dry-run: invalid refused" err_has 'denied the request: spec\.rolloutStrategy'

# Updates are validated against the stored object (S84), scale is not a webhook matter.
k patch lws demo --type=merge -p '{"spec":{"leaderWorkerTemplate":{"subGroupPolicy":{"subGroupSize":2}}}}'
check "update: cannot enable subgroups" err_has \
  'denied the request: spec\.leaderWorkerTemplate\.SubGroupPolicy\.subGroupSize: Invalid value: 2: cannot enable subGroupSize after the lws is already created'
# Ours: the opt-in restart annotations are checked with their field path; valid ones are kept.
k annotate lws demo lws-cpp.dev/max-group-restarts=-1
check "restart budget: refused with the annotation's path" err_has \
  'denied the request: metadata\.annotations\[lws-cpp\.dev/max-group-restarts\]: Invalid value: "-1": must be a non-negative integer'
k annotate lws demo lws-cpp.dev/group-restart-backoff=500ms
check "restart backoff: refused below 1s" err_has \
  'metadata\.annotations\[lws-cpp\.dev/group-restart-backoff\]: Invalid value: "500ms": must be between 1s and 1h'
k annotate lws demo lws-cpp.dev/max-group-restarts=3 lws-cpp.dev/group-restart-backoff=30s
check "restart budget and backoff: accepted" test "$(jp lws/demo '{.metadata.annotations.lws-cpp\.dev/max-group-restarts}')" = 3
k annotate lws demo lws-cpp.dev/failure-policy=Retry
check "failure policy: refused with the supported values" err_has \
  'metadata\.annotations\[lws-cpp\.dev/failure-policy\]: Unsupported value: "Retry": supported values: "Pause", "Rollback"'
k annotate lws demo lws-cpp.dev/surge-fallback-after=1d
check "surge fallback: refused with the annotation's path" err_has \
  'metadata\.annotations\[lws-cpp\.dev/surge-fallback-after\]: Invalid value: "1d": time: unknown unit "d" in duration "1d"'
k annotate lws demo lws-cpp.dev/rollout-before-scale-up=yes
check "rollout before scale-up: refused with the annotation's path" err_has \
  'metadata\.annotations\[lws-cpp\.dev/rollout-before-scale-up\]: Invalid value: "yes": must be "true" or "false"'
k annotate lws demo lws-cpp.dev/rollout-before-scale-up=true
check "rollout before scale-up: accepted" test "$(jp lws/demo '{.metadata.annotations.lws-cpp\.dev/rollout-before-scale-up}')" = true
k scale lws demo --replicas=3
check "scale: scaled" out_has 'leaderworkerset\.leaderworkerset\.x-k8s\.io/demo scaled'
check "scale: replicas 3" test "$(jp lws/demo '{.spec.replicas}')" = 3

# A pod with the LWS labels gets labels and env from mpod.kb.io.
cat >"$tmp/pod.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: demo-1
  labels:
    leaderworkerset.sigs.k8s.io/name: demo
    leaderworkerset.sigs.k8s.io/worker-index: "0"
  annotations:
    leaderworkerset.sigs.k8s.io/size: "2"
spec:
  subdomain: demo
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.6.0
EOF
k apply -f "$tmp/pod.yaml"
check "pod: created" out_has '^pod/demo-1 created$'
check "pod: LWS env" test "$(jp pod/demo-1 '{range .spec.containers[0].env[*]}{.name}={.value};{end}')" \
  = 'LWS_LEADER_ADDRESS=demo-1.demo.default;LWS_GROUP_SIZE=2;LWS_WORKER_INDEX=0;'
check "pod: group-index from the name" test "$(jp pod/demo-1 '{.metadata.labels.leaderworkerset\.sigs\.k8s\.io/group-index}')" = 1
check "pod: group-key" test "$(jp pod/demo-1 '{.metadata.labels.leaderworkerset\.sigs\.k8s\.io/group-key}' | wc -c)" = 40
sed -e 's/name: demo-1$/name: demo-2/' -e '/annotations:/d' -e '/size: "2"/d' "$tmp/pod.yaml" >"$tmp/pod2.yaml"
k apply -f "$tmp/pod2.yaml"
check "pod: missing size annotation refused" err_has \
  '^Error from server \(Forbidden\): error when creating ".*pod2\.yaml": admission webhook "mpod\.kb\.io" denied the request: size annotation is unexpectedly missing for pod demo-2$'

# --no-webhooks: the same invalid LWS is stored with the schema's defaults only.
# (A fresh directory: start_apiserver waits for the banner in DIR/apiserver.out.)
stop_apiserver
mkdir -p "$tmp/plain"
start_apiserver "$lws" "$tmp/plain" --no-webhooks || exit 1
k apply -f "$tmp/bad.yaml"
check "no webhooks: invalid LWS created" out_has '^leaderworkerset\.leaderworkerset\.x-k8s\.io/bad created$'
check "no webhooks: no networkConfig default" test -z "$(jp lws/bad '{.spec.networkConfig}')"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
