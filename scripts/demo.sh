#!/usr/bin/env bash
# Sets up, builds and runs the main job. Today: validate and default every shipped example and
# upstream sample with `lws validate`. (The local-cluster demo, `lws up --demo`, replaces this as
# soon as the cluster lands.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
./build/src/cmd/lws validate examples/*.yaml
