#!/usr/bin/env bash
# What a second local user or a stale process could do to `lws apiserver` (issue 34, item 3):
#  - the kubeconfig (it holds the token), the data directory and the database are the owner's
#    alone (0600, 0700, 0600): another user cannot read Secrets from SQLite;
#  - --bind beyond loopback without --token is refused with what to do instead, unless
#    --insecure-allow-unauthenticated-remote says so;
#  - a busy port is a clear start-up error (no SO_REUSEPORT: a second server cannot quietly take
#    part of the connections);
#  - a wrong token is refused (compared in constant time; the answer is the same 401);
#  - no token is system:anonymous: RBAC refuses everything but /version and health (403).
# Usage: apiserver_local_safety.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
mode() { stat -c %a "$1"; }

start_apiserver "$lws" "$tmp" --data-dir "$tmp/data" --token s3cret || exit 1
check "kubeconfig is 0600" test "$(mode "$tmp/kubeconfig")" = 600
check "data directory is 0700" test "$(mode "$tmp/data")" = 700
check "store.db is 0600" test "$(mode "$tmp/data/store.db")" = 600
for f in "$tmp"/data/store.db-*; do
  [ -e "$f" ] && check "$(basename "$f") is 0600" test "$(mode "$f")" = 600
done
port="${APISERVER_URL##*:}"
check "a wrong token is 401" test "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cres' "$APISERVER_URL/api/v1/namespaces")" = 401
check "the right token is 200" test "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cret' "$APISERVER_URL/api/v1/namespaces")" = 200
# Another local user without the token is system:anonymous, which RBAC lets read /version and
# the health paths only: Secrets and namespaces are refused with kube-apiserver's 403.
check "no token: /version is 200" test "$(curl -s -o /dev/null -w '%{http_code}' "$APISERVER_URL/version")" = 200
curl -s "$APISERVER_URL/api/v1/namespaces/kube-system/secrets" >"$tmp/anon.json"
check "no token: Secrets are 403 for system:anonymous" grep -q \
  '"message":"secrets is forbidden: User \\"system:anonymous\\" cannot list resource \\"secrets\\" in API group \\"\\" in the namespace \\"kube-system\\""' "$tmp/anon.json"
check "no token: deleting kube-system is 403" test "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$APISERVER_URL/api/v1/namespaces/kube-system")" = 403

"$lws" apiserver --port "$port" >"$tmp/second.out" 2>"$tmp/second.err"
check "a second server on the busy port exits 1" test $? -eq 1
check "and says the port is in use" grep -q "127.0.0.1:$port is already in use by another process" "$tmp/second.err"
stop_apiserver

mkdir -p "$tmp/wide"
chmod 755 "$tmp/wide"
"$lws" apiserver --port 0 --bind 0.0.0.0 >"$tmp/open.out" 2>"$tmp/open.err"
check "--bind 0.0.0.0 without a token exits 1" test $? -eq 1
check "and says what to do" grep -q -- "--bind 0.0.0.0 listens beyond this machine, and without --token" "$tmp/open.err"
start_apiserver "$lws" "$tmp/wide" --bind 0.0.0.0 --insecure-allow-unauthenticated-remote --data-dir "$tmp/wide" || exit 1
check "the explicit flag starts it" test -n "$APISERVER_URL"
check "an existing data directory is made private" test "$(mode "$tmp/wide")" = 700
stop_apiserver

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
