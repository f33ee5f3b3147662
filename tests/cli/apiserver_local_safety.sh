#!/usr/bin/env bash
# What a second local user or a stale process could do to `lws apiserver` (issue 34, item 3),
# with the defaults (no security flag given):
#  - it serves HTTPS with its own CA and makes an administrator's token, both in the kubeconfig;
#  - the kubeconfig, the token file, the data directory and the database are the owner's alone
#    (0600, 0600, 0700, 0600): another user (uid 65534 when run as root) can read neither;
#  - a wrong token is refused (compared in constant time; the answer is the same 401);
#  - no token is system:anonymous: RBAC refuses everything but /version and health (403);
#  - a restart on the same data directory keeps the token, so the kubeconfig keeps working;
#  - a busy port is a clear start-up error (no SO_REUSEPORT: a second server cannot quietly take
#    part of the connections);
#  - --insecure-plain-http gives all of that up, says so at start, refuses --token, and refuses
#    --bind beyond loopback unless --insecure-allow-unauthenticated-remote says so too.
# Usage: apiserver_local_safety.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
require_kubectl
tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
mode() { stat -c %a "$1"; }

chmod 755 "$tmp"  # so that another user could reach the files if their modes let them
start_apiserver "$lws" "$tmp" --data-dir "$tmp/data" || exit 1
check "HTTPS by default" grep -q '^https://' <<<"$APISERVER_URL"
check "the banner says access control is on" grep -q "authentication and RBAC on" "$tmp/apiserver.out"
check "the kubeconfig holds the CA" test -s "$API_CA"
check "and a 64-hex-digit token" grep -qE '^[0-9a-f]{64}$' <<<"$API_TOKEN"
check "kubeconfig is 0600" test "$(mode "$tmp/kubeconfig")" = 600
check "admin.token is 0600" test "$(mode "$tmp/data/admin.token")" = 600
check "data directory is 0700" test "$(mode "$tmp/data")" = 700
check "store.db is 0600" test "$(mode "$tmp/data/store.db")" = 600
for f in "$tmp"/data/store.db-*; do
  [ -e "$f" ] && check "$(basename "$f") is 0600" test "$(mode "$f")" = 600
done
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  readable_by_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups cat "$1" >/dev/null 2>&1; }
  unreadable_by_nobody() { ! readable_by_nobody "$1"; }
  check "another user cannot read the kubeconfig" unreadable_by_nobody "$tmp/kubeconfig"
  check "nor the database" unreadable_by_nobody "$tmp/data/store.db"
  touch "$tmp/probe" && chmod 644 "$tmp/probe"
  check "but can read a 0644 file beside them (the check can fail)" readable_by_nobody "$tmp/probe"
fi
port="${APISERVER_URL##*:}"
code() { curl -s -o /dev/null -w '%{http_code}' --cacert "$API_CA" "$@"; }
# The wrong token differs from the right one in its last digit (replacing it with a fixed digit
# would give the right token back one run in sixteen).
case "$API_TOKEN" in *0) wrong="${API_TOKEN%?}1" ;; *) wrong="${API_TOKEN%?}0" ;; esac
check "a wrong token is 401" test "$(code -H "Authorization: Bearer $wrong" "$APISERVER_URL/api/v1/namespaces")" = 401
check "the kubeconfig's token is 200" test "$(api_curl -o /dev/null -w '%{http_code}' "$APISERVER_URL/api/v1/namespaces")" = 200
check "kubectl works with the kubeconfig alone" kubectl get namespace kube-system
# Another local user without the token is system:anonymous, which RBAC lets read /version and
# the health paths only: Secrets and namespaces are refused with kube-apiserver's 403.
check "no token: /version is 200" test "$(code "$APISERVER_URL/version")" = 200
curl -s --cacert "$API_CA" "$APISERVER_URL/api/v1/namespaces/kube-system/secrets" >"$tmp/anon.json"
check "no token: Secrets are 403 for system:anonymous" grep -q \
  '"message":"secrets is forbidden: User \\"system:anonymous\\" cannot list resource \\"secrets\\" in API group \\"\\" in the namespace \\"kube-system\\""' "$tmp/anon.json"
check "no token: deleting kube-system is 403" test "$(code -X DELETE "$APISERVER_URL/api/v1/namespaces/kube-system")" = 403
check "plain HTTP to the HTTPS port is refused" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/namespaces")" != 200

"$lws" apiserver --port "$port" >"$tmp/second.out" 2>"$tmp/second.err"
check "a second server on the busy port exits 1" test $? -eq 1
check "and says the port is in use" grep -q "127.0.0.1:$port is already in use by another process" "$tmp/second.err"
stop_apiserver
first_token="$API_TOKEN"
cp "$tmp/kubeconfig" "$tmp/kubeconfig.first"
start_apiserver "$lws" "$tmp" --data-dir "$tmp/data" || exit 1
check "a restart keeps the token" test "$API_TOKEN" = "$first_token"
check "and the first kubeconfig's credentials still work" \
  kubectl --kubeconfig "$tmp/kubeconfig.first" --server "$APISERVER_URL" get namespace default
stop_apiserver

"$lws" apiserver --port 0 --insecure-plain-http --token x >"$tmp/both.out" 2>"$tmp/both.err"
check "--insecure-plain-http with --token exits 1" test $? -eq 1
check "and says why" grep -q -- "--token cannot be combined with --insecure-plain-http" "$tmp/both.err"
"$lws" apiserver --port 0 --bind 0.0.0.0 --insecure-plain-http >"$tmp/open.out" 2>"$tmp/open.err"
check "--bind 0.0.0.0 with --insecure-plain-http exits 1" test $? -eq 1
check "and says what to do" grep -q -- "--bind 0.0.0.0 listens beyond this machine, and with --insecure-plain-http" "$tmp/open.err"
mkdir -p "$tmp/wide"
chmod 755 "$tmp/wide"
start_apiserver "$lws" "$tmp/wide" --bind 0.0.0.0 --insecure-plain-http --insecure-allow-unauthenticated-remote --data-dir "$tmp/wide" || exit 1
check "the explicit flags start it" grep -q '^http://' <<<"$APISERVER_URL"
check "with a warning of what it gave up" grep -q "WARNING: --insecure-plain-http: no TLS, no authentication, no RBAC" "$tmp/wide/apiserver.out"
check "an existing data directory is made private" test "$(mode "$tmp/wide")" = 700
check "everyone is the administrator" test "$(curl -s -o /dev/null -w '%{http_code}' "$APISERVER_URL/api/v1/namespaces/kube-system/secrets")" = 200
stop_apiserver
start_apiserver "$lws" "$tmp/remote" --bind 0.0.0.0 || exit 1
check "--bind 0.0.0.0 with the defaults (HTTPS and a token) starts" grep -q '^https://' <<<"$APISERVER_URL"
stop_apiserver

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
