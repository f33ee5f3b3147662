#!/usr/bin/env bash
# The official Python client against `lws apiserver` (tests/python/client_test.py).
# Usage: apiserver_python.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
start_apiserver "$lws" "$tmp" --watch-history 50 || exit 1
/usr/bin/python3 "$root/tests/python/client_test.py" "$KUBECONFIG"
