#!/usr/bin/env bash
# The official JavaScript client, @kubernetes/client-node 1.4.0, against `lws apiserver
# --tls-self-signed --token` (tests/node/client_test.mjs). client-node sends no bearer token over
# plain HTTP, so HTTPS is the way in; it trusts the server through the kubeconfig's
# certificate-authority-data. 1.4.0 is pinned because 2.x needs Node >= 22.19 and Debian 12 has
# Node 18. The package is installed with `npm ci` from the committed lockfile into the build
# directory, never the source tree; where npm cannot reach its registry the test is skipped
# (exit 77) and says why.
# Usage: apiserver_node.sh LWS_BINARY REPO_ROOT   (LWS_BUILD_DIR: where to install; set by CTest)
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
    exit 77
  fi
done

# npm ci again only when the lockfile changed: it deletes and refetches node_modules each time.
work="${LWS_BUILD_DIR:-$(dirname "$lws")}/tests/node"
mkdir -p "$work"
if ! cmp -s "$root/tests/node/package-lock.json" "$work/node_modules/.lws-installed-lock.json"; then
  cp "$root/tests/node/package.json" "$root/tests/node/package-lock.json" "$work/"
  if ! (cd "$work" && npm ci --no-audit --no-fund >npm.out 2>npm.err); then
    network='E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH)'
    if grep -qE "$network" "$work/npm.err"; then
      echo "SKIP: npm could not fetch @kubernetes/client-node from its registry:"
      grep -m1 -E 'npm (ERR!|error) (code|network)' "$work/npm.err"
      exit 77
    fi
    echo "npm ci failed:"; cat "$work/npm.err"
    exit 1
  fi
  cp "$root/tests/node/package-lock.json" "$work/node_modules/.lws-installed-lock.json"
fi
# Node resolves the client from the test file's own folder, so the test runs from the install.
cp "$root/tests/node/client_test.mjs" "$work/"
client_version=$(cd "$work" && node -p 'require("@kubernetes/client-node/package.json").version')
echo "node $(node --version), @kubernetes/client-node $client_version"

tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
# A short watch history, so that the test can push a resourceVersion out of it (410 Expired).
start_apiserver "$lws" "$tmp" --tls-self-signed --token "node-$RANDOM$RANDOM" --watch-history 50 ||
  exit 1
node --test "$work/client_test.mjs"
