#!/usr/bin/env bash
# `lws up --no-controller` with the real kubectl: the cluster runs without the in-process LWS
# controllers and webhooks (a LeaderWorkerSet is stored as written and nothing reconciles it),
# and writes call the webhooks that deploy/local/ registers. No operator listens on
# 127.0.0.1:9443 here, so with failurePolicy Fail a write is refused with kube-apiserver's
# "failed calling webhook" error and with Ignore it goes through. The reviews of the operator's
# metrics filter answer from the server's --token and RBAC: /metrics is refused to a
# ServiceAccount until a ClusterRoleBinding grants it.
# Usage: up_no_controller.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
err_has() { grep -qE "$1" "$tmp/err" || { echo "---- expected /$1/ in:"; cat "$tmp/out" "$tmp/err"; return 1; }; }
jp() { kubectl get "$1" -o jsonpath="$2" 2>/dev/null; }

check "--demo excludes --no-controller" sh -c "! '$lws' up --demo --no-controller --port 0 \
  --kubeconfig-out '$tmp/unused' >/dev/null 2>&1"

# Over TLS: kubectl sends the bearer token only over https.
start_up "$lws" "$tmp" --no-controller --token s3cret --tls-self-signed --data-dir "$tmp/data" || exit 1
check "banner says how to run the operator" grep -q 'lws controller --kubeconfig' "$tmp/up.out"

lws_yaml() {
  cat <<YAML
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: $1
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: c, image: vllm:1}]
YAML
}

check "LWS created without webhooks" sh -c "$(declare -f lws_yaml); lws_yaml plain | kubectl apply -f - >/dev/null"
check "no in-process defaulting" test -z "$(jp lws/plain '{.spec.rolloutStrategy.type}')"
# Nothing reconciles it: give a controller, were there one, time to create the leader StatefulSet.
sleep 2
check "no leader StatefulSet" test -z "$(kubectl get sts -o name 2>/dev/null)"

check "deploy/local applied" k apply -f "$root/deploy/local/"
if k apply -f - <<<"$(lws_yaml refused)"; then
  echo "FAIL webhook down, failurePolicy Fail: the write went through"; failures=$((failures + 1))
else
  check "webhook down, failurePolicy Fail: refused" err_has \
    'Internal error occurred: failed calling webhook "mleaderworkerset.kb.io": failed to call webhook: '
fi
sed 's/failurePolicy: Fail/failurePolicy: Ignore/' "$root/deploy/local/webhooks.yaml" >"$tmp/ignore.yaml"
check "failurePolicy Ignore applied" k apply -f "$tmp/ignore.yaml"
check "webhook down, failurePolicy Ignore: admitted" k apply -f - <<<"$(lws_yaml admitted)"
check "webhook configurations are never sent to webhooks" k delete -f "$tmp/ignore.yaml"

review() {
  printf '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"%s"}}' "$1" |
    kubectl create -f - -o jsonpath='{.status.authenticated}/{.status.user.username}' 2>&1
}
check "TokenReview: the server's token" test "$(review s3cret)" = "true/system:admin"
check "TokenReview: another token" test "$(review other)" = "/"
# (`kubectl auth can-i` would ask the same, but it sends protobuf, which this server does not read.)
metrics_access() {
  printf '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"%s",%s}}' \
    system:serviceaccount:monitoring:prometheus '"nonResourceAttributes":{"path":"/metrics","verb":"get"}' |
    kubectl create -f - -o jsonpath='{.status.allowed}' 2>&1
}
check "SubjectAccessReview: /metrics refused without a binding" test "$(metrics_access)" = false
check "a ClusterRole for /metrics" k create clusterrole metrics-reader --verb=get --non-resource-url=/metrics
check "bound to the ServiceAccount" k create clusterrolebinding prometheus-metrics \
  --clusterrole=metrics-reader --serviceaccount=monitoring:prometheus
check "SubjectAccessReview: /metrics allowed once bound" test "$(metrics_access)" = true
check "api-resources lists the reviews" sh -c \
  "kubectl api-resources --api-group=authentication.k8s.io --no-headers | grep -q '^tokenreviews '"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
