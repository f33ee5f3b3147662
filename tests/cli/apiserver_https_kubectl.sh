#!/usr/bin/env bash
# `lws apiserver --tls-self-signed` with the real kubectl and the Debian Python client: both reach
# it through the kubeconfig it writes (https:// and the CA as certificate-authority-data), both
# refuse it without that CA, and a restart on the same --data-dir keeps the CA, so kubeconfigs
# written earlier stay valid.
# Usage: apiserver_https_kubectl.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
data="$tmp/data"
start_apiserver "$lws" "$tmp" --tls-self-signed --data-dir "$data" || exit 1
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
out_has() { grep -qE "$1" "$tmp/out"; }
err_has() { grep -qE "$1" "$tmp/err"; }
differ() { ! cmp -s "$1" "$2"; }
ca_of() { sed -n 's/^ *certificate-authority-data: //p' "$1" | base64 -d; }

check "prints an https URL" grep -qE 'serving the Kubernetes API on https://127\.0\.0\.1:[0-9]+' "$tmp/apiserver.out"
check "kubeconfig: https server" grep -qE "^ +server: $APISERVER_URL\$" "$KUBECONFIG"
check "kubeconfig: CA is DATA_DIR/tls/ca.crt" test "$(ca_of "$KUBECONFIG")" = "$(cat "$data/tls/ca.crt")"
check "serving certificate is not the CA" differ "$data/tls/ca.crt" "$data/tls/tls.crt"
check "key readable by the owner only" test "$(stat -c %a "$data/tls/tls.key")" = 600

k get ns
check "kubectl get ns over HTTPS" out_has '^default +Active'
cat >"$tmp/cm.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: over-tls
data:
  greeting: hello
YAML
k apply -f "$tmp/cm.yaml"
check "kubectl apply over HTTPS" out_has '^configmap/over-tls created$'
check "the ConfigMap is stored" test "$(kubectl get cm over-tls -o jsonpath='{.data.greeting}')" = hello

# Without our CA: a kubeconfig lacking it (the system roots), and another CA named on the command line.
grep -v 'certificate-authority-data' "$KUBECONFIG" >"$tmp/no-ca.kubeconfig"
k --kubeconfig "$tmp/no-ca.kubeconfig" --insecure-skip-tls-verify=false get ns
check "kubectl without the CA: refused" err_has 'x509: certificate signed by unknown authority'
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=other-ca \
  -keyout "$tmp/other.key" -out "$tmp/other.crt" 2>/dev/null
k --certificate-authority "$tmp/other.crt" get ns
check "kubectl with another CA: refused" err_has 'x509: certificate signed by unknown authority'
k --server "${APISERVER_URL/https/http}" get ns
check "plain HTTP to the HTTPS port: no answer" test -s "$tmp/err" -a ! -s "$tmp/out"

py() { /usr/bin/python3 - "$@" >"$tmp/out" 2>"$tmp/err"; }
list_namespaces='
import sys
from kubernetes import client, config
config.load_kube_config(config_file=sys.argv[1])
print(" ".join(ns.metadata.name for ns in client.CoreV1Api().list_namespace().items))
'
py "$KUBECONFIG" <<<"$list_namespaces"
check "python client lists namespaces over HTTPS" out_has '(^| )default( |$)'
py "$tmp/no-ca.kubeconfig" <<<"$list_namespaces"
check "python client without the CA: refused" err_has 'CERTIFICATE_VERIFY_FAILED'

# A restart on the same data dir serves the same CA: the first kubeconfig's CA still verifies.
cp "$KUBECONFIG" "$tmp/first.kubeconfig"
stop_apiserver TERM
start_apiserver "$lws" "$tmp" --tls-self-signed --data-dir "$data" || exit 1
check "restart: same CA in the new kubeconfig" test "$(ca_of "$KUBECONFIG")" = "$(ca_of "$tmp/first.kubeconfig")"
k get cm over-tls -o jsonpath='{.data.greeting}'
check "restart: data and TLS both there" out_has '^hello$'

# The operator's own pair: here the serving certificate and key made above, chained with its CA.
stop_apiserver TERM
cat "$data/tls/tls.crt" "$data/tls/ca.crt" >"$tmp/chain.crt"
start_apiserver "$lws" "$tmp" --tls-cert "$tmp/chain.crt" --tls-key "$data/tls/tls.key" || exit 1
check "--tls-cert: kubeconfig trusts the chain's last certificate" test "$(ca_of "$KUBECONFIG")" = "$(cat "$data/tls/ca.crt")"
k get ns
check "--tls-cert: kubectl get ns" out_has '^default +Active'
stop_apiserver TERM
"$lws" apiserver --port 0 --tls-cert "$tmp/chain.crt" --tls-key "$tmp/other.key" >"$tmp/out" 2>"$tmp/err"
check "--tls-key of another certificate: refused at start" err_has 'does not belong to the certificate'

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
