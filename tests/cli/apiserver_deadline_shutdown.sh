#!/usr/bin/env bash
# Bounded work per request and a bounded shutdown (issue 34, item 2), with a validating webhook
# that accepts connections and never answers, so that a ConfigMap create hangs in admission:
#  - the client gets kube-apiserver's 504 Timeout after --request-timeout, not after the
#    webhook's 30 s;
#  - while writes hang, reads, watches and health checks are answered (handlers run on pools,
#    reads apart from writes);
#  - SIGTERM ends the server within its shutdown grace (10 s) even with requests stuck.
# Usage: apiserver_deadline_shutdown.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
silent_pid=""
trap '[ -n "$silent_pid" ] && kill $silent_pid 2>/dev/null; stop_apiserver KILL; rm -rf "$tmp"' EXIT

# A listener that accepts every connection and says nothing (a webhook pod gone silent).
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])
' >"$tmp/silent.port" &
silent_pid=$!
eventually 10 test -s "$tmp/silent.port"
silent_port=$(cat "$tmp/silent.port")

start_apiserver "$lws" "$tmp" --request-timeout 2 || exit 1
ca=$(base64 -w0 "$API_CA")
kubectl apply -f - >/dev/null <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: silent
webhooks:
- name: silent.example.com
  clientConfig:
    url: https://127.0.0.1:$silent_port/validate
    caBundle: $ca
  rules:
  - operations: ["CREATE"]
    apiGroups: [""]
    apiVersions: ["v1"]
    resources: ["configmaps"]
  failurePolicy: Fail
  timeoutSeconds: 30
  sideEffects: None
  admissionReviewVersions: ["v1"]
YAML
check "the webhook is registered" kubectl get validatingwebhookconfiguration silent

start=$SECONDS
kubectl create configmap slow --from-literal=a=b >"$tmp/slow.out" 2>"$tmp/slow.err"
elapsed=$((SECONDS - start))
check "a create stuck in the webhook fails" grep -q "Timeout: request did not complete within requested timeout" "$tmp/slow.err"
check "after the 2 s request timeout, not the webhook's 30 s (took ${elapsed} s)" test "$elapsed" -lt 15
check "the server logged why" grep -q "answered 504 (the handler runs on)" "$tmp/apiserver.err"

# Keep writes stuck (each holds a handler thread for 30 s) and read meanwhile.
for i in 1 2 3 4; do
  kubectl create configmap "stuck-$i" --from-literal=a=b >/dev/null 2>&1 &
done
sleep 1
check "reads are answered while writes hang" kubectl get namespaces default
check "health is answered" test "$(api_curl -m 5 "$APISERVER_URL/readyz")" = ok
check "a watch starts" bash -c "timeout 5 kubectl get configmaps --watch-only --request-timeout=2s >/dev/null 2>&1; [ \$? -ne 124 ]"

start=$SECONDS
kill -TERM "$APISERVER_PID"
wait "$APISERVER_PID" 2>/dev/null
elapsed=$((SECONDS - start))
check "SIGTERM with writes stuck ends the server within its 10 s grace (took ${elapsed} s)" test "$elapsed" -lt 20
check "and says why it did not wait longer" grep -q "requests still running 10 s after the shutdown signal" "$tmp/apiserver.err"


[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
