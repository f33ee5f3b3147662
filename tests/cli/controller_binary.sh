#!/usr/bin/env bash
# lws-controller, `lws controller` alone for the operator image (issue 36): it takes the same
# flags at the top level, and is linked without the embedded API server, the simulated cluster
# and the simulator, which `lws` carries (so the symbol checks below can fail). operator_e2e.sh
# runs it as one of the two replicas against a real API server.
# Usage: controller_binary.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/check.sh"
controller="$(dirname "$lws")/lws-controller"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "lws-controller is built beside lws" test -x "$controller"
"$controller" --version >"$tmp/out" 2>&1
check "--version" grep -qx 'lws 0.1.0' "$tmp/out"
"$controller" --help >"$tmp/help" 2>&1
"$lws" controller --help >"$tmp/lws-help" 2>&1
flags() { grep -o -- '--[a-z][a-z0-9-]*' "$1" | sort -u; }
check "the flags of 'lws controller' (and --log-level, --version)" \
  diff <(flags "$tmp/lws-help") <(flags "$tmp/help" | grep -vx -- '--log-level\|--version')
"$controller" --no-such-flag >"$tmp/out" 2>&1
check "an unknown flag exits non-zero" test $? -ne 0
check "and names it" grep -q -- '--no-such-flag' "$tmp/out"
"$controller" --config "$tmp/missing.yaml" >"$tmp/out" 2>&1
check "a missing --config file exits non-zero" test $? -ne 0
check "and names the file" grep -q "$tmp/missing.yaml" "$tmp/out"

symbols() { nm -C "$1" 2>/dev/null | grep -c "$2"; }
for ns in 'lws::apiserver::' 'lws::cluster::' 'lws::simulate::'; do
  check "lws carries $ns (the check can fail)" test "$(symbols "$lws" "$ns")" -gt 0
  check "lws-controller does not" test "$(symbols "$controller" "$ns")" -eq 0
done
size() { stat -c %s "$1"; }
echo "sizes: lws $(size "$lws") bytes, lws-controller $(size "$controller") bytes"
check "lws-controller is smaller" test "$(size "$controller")" -lt "$(size "$lws")"
echo "$failures failed"
[ "$failures" -eq 0 ]
