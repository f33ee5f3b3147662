#!/usr/bin/env bash
# Kubernetes protobuf with the real kubectl against `lws apiserver`: the commands whose typed
# clients send `application/vnd.kubernetes.protobuf` bodies and read protobuf answers (create
# generators, --dry-run=server, auth can-i, delete with options, drain) work and store what the JSON path
# stores; a custom resource still answers in JSON; a protobuf watch streams length-prefixed events;
# a wrong JSON type in a built-in kind is refused with kube-apiserver's words.
# Usage: apiserver_protobuf.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_apiserver "$lws" "$tmp" || exit 1
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
jp() { kubectl get "$@" 2>/dev/null; }

check "create namespace" k create namespace proto
check "namespace stored" test "$(jp ns proto -o jsonpath='{.status.phase}')" = Active
check "create namespace --dry-run=server" k create namespace dry --dry-run=server
check "dry run stored nothing" test -z "$(jp ns dry -o name)"
check "create configmap" k create configmap cm -n proto --from-literal=a=1 --from-literal=empty=
check "configmap data" test "$(jp cm cm -n proto -o jsonpath='{.data.a}/{.data.empty}/')" = "1//"
check "create secret generic" k create secret generic s -n proto --from-literal=password=hunter2
check "secret data is base64 of the value" test "$(jp secret s -n proto -o jsonpath='{.data.password}')" = "$(printf hunter2 | base64)"
check "create deployment" k create deployment web -n proto --image=nginx --replicas=0
check "replicas 0 kept (a Go pointer field)" test "$(jp deploy web -n proto -o jsonpath='{.spec.replicas}')" = 0
check "create service clusterip" k create service clusterip web -n proto --tcp=80:8080
check "service port and targetPort" test "$(jp svc web -n proto -o jsonpath='{.spec.ports[0].port}/{.spec.ports[0].targetPort}')" = "80/8080"
check "create serviceaccount" k create serviceaccount robot -n proto
check "create priorityclass" k create priorityclass gpu-high --value=1000 --description=x
check "priorityclass value" test "$(jp pc gpu-high -o jsonpath='{.value}')" = 1000
check "create role" k create role reader -n proto --verb=get,list --resource=pods
check "role rules" test "$(jp role reader -n proto -o jsonpath='{.rules[0].verbs}')" = '["get","list"]'
check "auth can-i create pods" sh -c "kubectl auth can-i create pods -n proto | grep -qx yes"
check "auth can-i --list" k auth can-i --list -n proto
check "can-i --list shows every resource" out_has "^\\*\\.\\* +\\[\\] +\\[\\] +\\[\\*\\]"
check "auth whoami" k auth whoami
check "whoami names the local user" out_has "system:admin"
check "delete with grace period 0" k delete configmap cm -n proto --grace-period=0 --force
check "configmap gone" test -z "$(jp cm cm -n proto -o name)"
check "delete namespace" k delete namespace proto --wait=false

# kubectl drain: cordon (a JSON patch), the node's pods listed and deleted in protobuf (this
# server has no Eviction API yet, so drain deletes as it does on such clusters).
printf '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}' | kubectl create -f - >/dev/null
printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"on-n1"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}' |
  kubectl create -f - >/dev/null
check "drain" k drain n1 --force --grace-period=0 --timeout=30s
check "drain deleted the pod" test -z "$(jp pod on-n1 -o name)"
check "drain cordoned the node" test "$(jp node n1 -o jsonpath='{.spec.unschedulable}')" = true

# A wrong JSON type in a built-in kind, as kube-apiserver words it.
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad"},"data":{"k":{"deep":1}}}' >"$tmp/bad.json"
check "wrong type refused" sh -c "! kubectl create -f '$tmp/bad.json' >'$tmp/out' 2>'$tmp/err'"
check "wrong type message" grep -qF 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string' "$tmp/err"

# Raw protobuf over HTTP: answers, lists and watches of built-in kinds in protobuf, custom
# resources in JSON.
curl_ct() {  # prints the Content-Type of GET $1 with Accept $2
  api_curl -o /dev/null -w '%{content_type}' -H "Accept: $2" "$APISERVER_URL$1"
}
pb="application/vnd.kubernetes.protobuf"
check "namespace in protobuf" test "$(curl_ct /api/v1/namespaces/default "$pb, */*")" = "$pb"
check "namespace list in protobuf" test "$(curl_ct /api/v1/namespaces "$pb, */*")" = "$pb"
check "a JSON client still gets JSON" test "$(curl_ct /api/v1/namespaces/default 'application/json')" = "application/json"
check "*/* is JSON" test "$(curl_ct /api/v1/namespaces/default '*/*')" = "application/json"
check "custom resources answer in JSON" test \
  "$(curl_ct /apis/leaderworkerset.x-k8s.io/v1/namespaces/default/leaderworkersets "$pb, */*")" = "application/json"
check "envelope magic" test "$(api_curl -H "Accept: $pb" "$APISERVER_URL/api/v1/namespaces/default" | head -c 3)" = "k8s"
watch_type=$(api_curl -m 2 -o "$tmp/watch" -w '%{content_type}' -H "Accept: $pb" \
  "$APISERVER_URL/api/v1/namespaces?watch=1&timeoutSeconds=1")
check "watch in protobuf" test "$watch_type" = "$pb;stream=watch"
check "watch frames carry ADDED events" grep -qa ADDED "$tmp/watch"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
