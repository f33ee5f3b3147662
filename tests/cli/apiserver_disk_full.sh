#!/usr/bin/env bash
# A full disk (issue 34): `lws apiserver --data-dir` on a 48 MiB tmpfs is filled with ConfigMaps
# until SQLite reports the disk full. Writes are then refused with the NOSPACE error (and lose
# nothing: what was stored stays readable), deletions still work through the API, and once they
# gave enough space back, writes are accepted again without a restart.
# Needs root (mount); skipped elsewhere.
# Usage: apiserver_disk_full.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
disk="$tmp/disk"
mkdir -p "$disk"
if ! mount -t tmpfs -o size=48m tmpfs "$disk" 2>/dev/null; then
  echo "SKIP: cannot mount a small tmpfs (needs root)"
  exit 77
fi
trap 'stop_apiserver KILL; umount "$disk" 2>/dev/null; rm -rf "$tmp"' EXIT
start_apiserver "$lws" "$tmp" --data-dir "$disk/data" || exit 1

# 900 KB ConfigMaps until a create fails.
payload=$(head -c 900000 /dev/zero | tr '\0' 'x')
stored=0
for i in $(seq 1 200); do
  printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fill-%d"},"data":{"v":"%s"}}' \
    "$i" "$payload" >"$tmp/cm.json"
  if ! kubectl create -f "$tmp/cm.json" >"$tmp/out" 2>"$tmp/err"; then break; fi
  stored=$i
done
echo "stored $stored ConfigMaps of 900 KB before the disk filled; df: $(df -h --output=avail "$disk" | tail -1)"
check "the disk filled before 200 ConfigMaps" test "$stored" -lt 200
check "the refusal names the NOSPACE alarm" grep -q "database space exceeded: the disk is full (NOSPACE alarm)" "$tmp/err"
cat "$tmp/err"

count() { kubectl get configmaps -o name | grep -c '^configmap/fill-'; }
check "what was stored stays readable" test "$(count)" -eq "$stored"
check "a label update is refused too" \
  bash -c "! kubectl label configmap fill-1 a=b >/dev/null 2>&1"
check "the server says so in its log" grep -q "NOSPACE alarm on" "$tmp/apiserver.err"

# Deletions work under the alarm and give their space back.
deleted=0
for i in $(seq 1 "$stored"); do
  kubectl delete configmap "fill-$i" --wait=false >"$tmp/out" 2>"$tmp/err" || break
  deleted=$i
done
check "every ConfigMap could be deleted under the alarm" test "$deleted" -eq "$stored"
check "the deleted are gone" test "$(count)" -eq 0
check "writes are accepted again without a restart" kubectl create configmap after --from-literal=a=b
check "the server said the alarm is off" grep -q "NOSPACE alarm off" "$tmp/apiserver.err"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
