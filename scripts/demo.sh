#!/usr/bin/env bash
# Sets up, builds and runs the main job: `lws up` starts a local GPU cluster (embedded API server,
# two pools of simulated H100 nodes, scheduler, kubelets, StatefulSet controller); the real
# kubectl deploys a StatefulSet of vLLM servers onto it, waits for it, rolls out a new image
# with partition 2 and maxUnavailable 2, and shows where every pod ran. (`lws up --demo` with a
# LeaderWorkerSet replaces the StatefulSet as soon as the LWS controller lands.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
lws=./build/src/cmd/lws
$lws validate examples/*.yaml >/dev/null
echo "== lws validate: every LeaderWorkerSet example is valid"

work=$(mktemp -d)
trap 'kill "$up" 2>/dev/null; wait "$up" 2>/dev/null; rm -rf "$work"' EXIT
$lws up --port 0 --config examples/cluster/demo-cluster.yaml --kubeconfig-out "$work/kubeconfig" \
  >"$work/out" 2>"$work/err" &
up=$!
until grep -q 'Ctrl-C stops the cluster' "$work/out" 2>/dev/null; do
  kill -0 "$up" 2>/dev/null || { cat "$work/err"; exit 1; }
  sleep 0.1
done
cat "$work/out"
export KUBECONFIG="$work/kubeconfig" HOME="$work"
step() { echo; echo "== $*"; "$@"; }
step kubectl get nodes -L topology.kubernetes.io/zone,node.lws-cpp.dev/pool
step kubectl apply -f examples/statefulset/vllm-sts.yaml
step kubectl rollout status statefulset/vllm --timeout=300s
step kubectl get pods -o wide
step kubectl set image statefulset/vllm vllm=vllm/vllm-openai:v0.6.1
kubectl get pods -o wide -w --output-watch-events &
watch=$!
kubectl rollout status statefulset/vllm --timeout=300s
kill "$watch"
step kubectl get pods -L controller-revision-hash -o wide
step kubectl get statefulset vllm
step kubectl get events --field-selector involvedObject.kind=StatefulSet
