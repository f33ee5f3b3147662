#!/usr/bin/env bash
# The Helm chart deploy/helm/lws/ cannot drift from deploy/: scripts/gen-helm-chart.py check
# regenerates it into a temporary directory and compares it with the committed chart, renders
# the default values (the subset of Helm's template language the chart uses) and compares the
# result with deploy/ byte for byte, and renders it into another namespace (parseable, nothing
# left in lws-system). Helm itself is not installable here.
# Usage: helm_chart.sh LWS_BINARY REPO_ROOT   (the binary is not used)
set -uo pipefail
root="$2"
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  echo "SKIP: /usr/bin/python3 has no yaml module (python3-yaml)"
  exit 77
fi
/usr/bin/python3 "$root/scripts/gen-helm-chart.py" check
