#!/usr/bin/env bash
# Sets up, builds and runs the main job. Today: validate and default every shipped example with
# `lws validate`, then serve them from the embedded API server (`lws apiserver`) and show them
# with the real kubectl. (The local-cluster demo, `lws up --demo`, replaces this as soon as the
# cluster and the controller land.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
lws=./build/src/cmd/lws
$lws validate examples/*.yaml >/dev/null
echo "== lws validate: every example is a valid LeaderWorkerSet"

work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
$lws apiserver --port 0 --kubeconfig-out "$work/kubeconfig" >"$work/out" 2>"$work/err" &
server=$!
until grep -q 'serving the Kubernetes API' "$work/out" 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { cat "$work/err"; exit 1; }
  sleep 0.1
done
cat "$work/out"
export KUBECONFIG="$work/kubeconfig" HOME="$work"
echo "== kubectl apply -f examples/"
kubectl apply -f examples/
echo "== kubectl get leaderworkersets"
kubectl get lws
echo "== kubectl scale lws vllm-llama3-405b --replicas=3; kubectl get lws vllm-llama3-405b"
kubectl scale lws vllm-llama3-405b --replicas=3
kubectl get lws vllm-llama3-405b
