#!/usr/bin/env bash
# kubectl's errors as kube-apiserver's users know them (issue 35, item 7), with the real kubectl
# against `lws apiserver`:
#  - a kind that does not exist, or a custom resource whose CRD is not installed: kubectl's
#    "no matches for kind ... ensure CRDs are installed first" (its validation falls back to the
#    OpenAPI v2 document, which the server now serves);
#  - an unknown field of a built-in kind: refused by strict field validation (kubectl's default)
#    with the strict decoder's words, a warning with --validate=warn, and dropped from what is
#    stored;
#  - a malformed patch body: Go's encoding/json words.
# Usage: apiserver_kubectl_errors.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_apiserver "$lws" "$tmp" || exit 1
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
err_has() { grep -qF -- "$1" "$tmp/err"; }

printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n' >"$tmp/widget.yaml"
check "missing CRD refused" sh -c "! kubectl apply -f '$tmp/widget.yaml' 2>'$tmp/err'"
check "missing CRD: no matches for kind" err_has 'no matches for kind "Widget" in version "example.com/v1"'
check "missing CRD: ensure CRDs are installed" err_has 'ensure CRDs are installed first'
printf 'apiVersion: v1\nkind: Podd\nmetadata:\n  name: p\n' >"$tmp/typo.yaml"
check "kind typo refused" sh -c "! kubectl create -f '$tmp/typo.yaml' 2>'$tmp/err'"
check "kind typo: no matches for kind" err_has 'no matches for kind "Podd" in version "v1"'

cat >"$tmp/pod.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    image: i
    imagePullPolcy: Always
YAML
check "unknown field refused (strict)" sh -c "! kubectl apply -f '$tmp/pod.yaml' 2>'$tmp/err'"
check "unknown field: the strict decoder's words" err_has \
  'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolcy"'
check "unknown field with --validate=warn" k apply --validate=warn -f "$tmp/pod.yaml"
check "a warning names the field" err_has 'Warning: unknown field "spec.containers[0].imagePullPolcy"'
check "and it is not stored" test "$(kubectl get pod p -o jsonpath='{.spec.containers[0].imagePullPolcy}')" = ""

check "malformed merge patch refused" sh -c "! kubectl patch pod p --type=merge -p '[1]' 2>'$tmp/err'"
check "malformed patch: Go's words" err_has 'json: cannot unmarshal array into Go value of type map[string]interface {}'

check "malformed JSON patch refused" sh -c "! kubectl patch pod p --type=merge -p '{bad' 2>'$tmp/err'"
check "malformed JSON: Go's syntax error" err_has "invalid character 'b' looking for beginning of object key string"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
