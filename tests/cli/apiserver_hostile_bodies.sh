#!/usr/bin/env bash
# Bodies that once crashed or froze `lws apiserver` (issue 34, items 1 and 2), sent with curl:
#  - a ConfigMap whose value nests 70,000 levels (SIGSEGV in the serializer): refused with Go's
#    "exceeded max depth"; one that nests less but is not a string: refused with kube-apiserver's
#    type error; a ControllerRevision whose raw data nests 9,000 levels (as deep as Go allows, with
#    room for the envelope) is stored, read, listed, watched, patched and deleted;
#  - a pod given 20,000 tolerations by one merge patch: later writes to it stay fast (they cost
#    83-108 s of CPU each, and two of them starved every other request).
# The server must answer a health check after each step.
# Usage: apiserver_hostile_bodies.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_apiserver "$lws" "$tmp" || exit 1
api="$APISERVER_URL"
post() {  # post PATH FILE -> prints the HTTP code; body in $tmp/answer
  api_curl -o "$tmp/answer" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data-binary @"$2" "$api$1"
}
alive() { [ "$(api_curl -m 5 "$api/healthz")" = ok ]; }
nest() {  # nest DEPTH: a JSON value nested DEPTH levels
  /usr/bin/python3 -c "import sys; d=int(sys.argv[1]); sys.stdout.write('{\"a\":'*d + '1' + '}'*d)" "$1"
}

{ printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":{"k":'; nest 70000; printf '}}'; } >"$tmp/deep.json"
check "70,000 levels: 400" test "$(post /api/v1/namespaces/default/configmaps "$tmp/deep.json")" = 400
check "70,000 levels: Go's message" grep -q "exceeded max depth" "$tmp/answer"
check "alive after 70,000 levels" alive
{ printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"obj"},"data":{"k":'; nest 5; printf '}}'; } >"$tmp/obj.json"
check "object as a ConfigMap value: 400" test "$(post /api/v1/namespaces/default/configmaps "$tmp/obj.json")" = 400
check "object as a ConfigMap value: kube's words" grep -qF 'cannot unmarshal object into Go struct field ConfigMap.data of type string' "$tmp/answer"

{ printf '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"rev"},"revision":1,"data":'; nest 9000; printf '}'; } >"$tmp/rev.json"
check "9,000 levels of raw data: created" test "$(post /apis/apps/v1/namespaces/default/controllerrevisions "$tmp/rev.json")" = 201
check "read back" test "$(api_curl -o /dev/null -w '%{http_code}' "$api/apis/apps/v1/namespaces/default/controllerrevisions/rev")" = 200
check "listed" test "$(api_curl -o /dev/null -w '%{http_code}' "$api/apis/apps/v1/namespaces/default/controllerrevisions")" = 200
check "listed as a Table" sh -c "kubectl get controllerrevisions rev >/dev/null"
watched() { api_curl -m 2 "$api/apis/apps/v1/namespaces/default/controllerrevisions?watch=1&timeoutSeconds=1" | grep -q ADDED; }
check "watched" watched
check "merge-patched" sh -c "kubectl patch controllerrevision rev --type=merge -p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}' >/dev/null"
check "strategic-patched" sh -c "kubectl patch controllerrevision rev -p '{\"metadata\":{\"labels\":{\"c\":\"d\"}}}' >/dev/null"
check "deleted" sh -c "kubectl delete controllerrevision rev >/dev/null"
check "alive after deep revisions" alive
# A merge patch that nests a document past Go's limit is refused, not stored.
{ printf '{"data":'; nest 10001; printf '}'; } >"$tmp/deep-patch.json"
check "revision for the patch" sh -c "printf '{\"apiVersion\":\"apps/v1\",\"kind\":\"ControllerRevision\",\"metadata\":{\"name\":\"r2\"},\"revision\":1}' | kubectl create -f - >/dev/null"
code=$(api_curl -o "$tmp/answer" -w '%{http_code}' -X PATCH -H 'Content-Type: application/merge-patch+json' \
  --data-binary @"$tmp/deep-patch.json" "$api/apis/apps/v1/namespaces/default/controllerrevisions/r2")
check "too deep a merge patch: 400" test "$code" = 400
check "alive after the deep patch" alive

# 20,000 tolerations, then ordinary writes to the same pod.
cat >"$tmp/pod.json" <<'POD'
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"tol"},"spec":{"containers":[{"name":"c","image":"i"}]}}
POD
check "pod created" test "$(post /api/v1/namespaces/default/pods "$tmp/pod.json")" = 201
/usr/bin/python3 -c "
import json
print(json.dumps({'spec': {'tolerations': [{'key': 'k%d' % i, 'operator': 'Exists'} for i in range(20000)]}}))
" >"$tmp/tolerations.json"
check "20,000 tolerations merged" sh -c "timeout 60 kubectl patch pod tol --type=merge --patch-file '$tmp/tolerations.json' >/dev/null"
# Each of these took 83-108 s of CPU before; 60 s is a hang detector, not a performance bound.
check "one-label merge patch afterwards" timeout 60 kubectl patch pod tol --type=merge -p '{"metadata":{"labels":{"a":"b"}}}'
check "strategic patch afterwards" timeout 60 kubectl patch pod tol -p '{"metadata":{"labels":{"c":"d"}}}'
check "server-side apply afterwards" sh -c "printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: tol\n  labels:\n    e: f\n' | timeout 60 kubectl apply --server-side -f - >/dev/null"
check "alive after the tolerations" alive

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
