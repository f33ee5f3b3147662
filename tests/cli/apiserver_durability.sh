#!/usr/bin/env bash
# Durability: a writer sends acknowledged writes to `lws apiserver --data-dir`, the server is
# killed with SIGKILL mid-stream, restarted on the same data directory, and every acknowledged
# write must be there with its resourceVersion, and the counter must continue past them.
# Usage: apiserver_durability.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
mkdir -p "$tmp/data"
start_apiserver "$lws" "$tmp" --data-dir "$tmp/data" || exit 1
/usr/bin/python3 "$root/tests/python/durability_writer.py" "$APISERVER_URL" "$tmp/acks" "$API_CA" "$API_TOKEN" &
writer=$!
acks_at_least() { [ -f "$tmp/acks" ] && [ "$(wc -l <"$tmp/acks")" -ge "$1" ]; }
check "writer gets acknowledgements" eventually 30 acks_at_least 500
kill -KILL "$APISERVER_PID"
wait "$APISERVER_PID" 2>/dev/null
wait "$writer"
check "writer stopped when the server died" test $? -eq 0
acked=$(wc -l <"$tmp/acks")
echo "acknowledged writes before SIGKILL: $acked"

start_apiserver "$lws" "$tmp" --data-dir "$tmp/data" || exit 1
kubectl get configmaps -o json >"$tmp/list.json" 2>"$tmp/err"
list_status=$?
check "list after restart" test "$list_status" -eq 0
# Keep what kubectl said if it fails (a stale kubeconfig once made it: tests/lib/apiserver.sh).
[ "$list_status" -eq 0 ] || { echo "kubectl get configmaps failed:"; cat "$tmp/err"; }
/usr/bin/python3 - "$tmp/acks" "$tmp/list.json" <<'PY'
import json, sys
acks = [line.split() for line in open(sys.argv[1]) if line.strip()]
items = {i["metadata"]["name"]: i for i in json.load(open(sys.argv[2]))["items"]}
missing = [name for name, rv in acks if name not in items]
changed = [name for name, rv in acks if name in items and items[name]["metadata"]["resourceVersion"] != rv]
print("acknowledged %d, present %d, missing %d, changed %d" % (len(acks), len(acks) - len(missing), len(missing), len(changed)))
sys.exit(1 if missing or changed or not acks else 0)
PY
check "every acknowledged write survived" test $? -eq 0
last_rv=$(tail -1 "$tmp/acks" | cut -d' ' -f2)
new_rv=$(kubectl create configmap after-restart --dry-run=client -o json | kubectl create -f - -o jsonpath='{.metadata.resourceVersion}')
check "resourceVersion continues after restart ($new_rv > $last_rv)" test "$new_rv" -gt "$last_rv"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
