#!/usr/bin/env bash
# Sets up, builds and runs the main job: `lws up --demo` starts a local GPU cluster (embedded API
# server, two pools of simulated H100 nodes, scheduler, kubelets, StatefulSet and LeaderWorkerSet
# controllers), creates the LeaderWorkerSet of examples/lws/demo.yaml (4 groups of 4 pods), waits
# until it is Available, rolls out a new image with maxUnavailable 1 and maxSurge 1 and shows the
# rollout live. Then the real kubectl shows the same objects, and the cluster stops.
# Extra arguments go to `lws up` (e.g. --seed 3).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
# Only the binary the demo runs (the tests are scripts/test.sh's).
cmake --build --preset default --target lws
lws=./build/src/cmd/lws
$lws validate examples/*.yaml examples/lws/*.yaml >/dev/null
echo "== lws validate: every LeaderWorkerSet example is valid"

work=$(mktemp -d)
tailer=""
trap '[ -n "$tailer" ] && kill "$tailer" 2>/dev/null; kill "$up" 2>/dev/null; wait "$up" 2>/dev/null; rm -rf "$work"' EXIT
# lws up writes to a file that tail shows: on a terminal, tell it so (--progress tty redraws the
# rollout in place) and how wide the terminal is; otherwise (a pipe, CI) it is a log of 80 columns.
progress=plain
if [ -t 1 ] && [ "${TERM:-dumb}" != dumb ]; then
  progress=tty
  : "${COLUMNS:=$(tput cols 2>/dev/null || echo 80)}"
  export COLUMNS
fi
# --keep-running: the cluster stays up after the rollout so that kubectl can look at it below.
$lws up --demo --keep-running --progress "$progress" --port 0 --kubeconfig-out "$work/kubeconfig" "$@" \
  >"$work/out" 2>"$work/err" &
up=$!
# kubectl watches one resource type at a time.
echo "== lws up --demo; in another terminal, watch its pods with"
echo "   KUBECONFIG=$work/kubeconfig kubectl get pods -w"
tail -n +1 -s 0.1 -f "$work/out" &
tailer=$!
# The demo ends with its summary and hints ("kubectl get events ...") or with an error line.
until grep -qE '^  kubectl get events|^lws up --demo: ' "$work/out" 2>/dev/null; do
  kill -0 "$up" 2>/dev/null || break
  sleep 0.2
done
sleep 0.3  # let tail print the last lines
kill "$tailer"
tailer=""
if ! grep -q '^rollout complete in' "$work/out"; then
  cat "$work/err" >&2
  exit 1
fi
export KUBECONFIG="$work/kubeconfig" HOME="$work"
step() { echo; echo "== $*"; "$@"; }
step kubectl get lws demo
step kubectl get sts -L leaderworkerset.sigs.k8s.io/template-revision-hash
# Custom columns keep kubectl's tables within 80 columns, as the rollout view is (-o wide adds
# IPs and empty columns; events carry long messages).
label='leaderworkerset\.sigs\.k8s\.io'
pods=NAME:.metadata.name,STATUS:.status.phase,NODE:.spec.nodeName
pods+=,GROUP:.metadata.labels.$label/group-index,REVISION:.metadata.labels.$label/template-revision-hash
echo; echo "== kubectl get pods -o custom-columns=NAME,STATUS,NODE,GROUP,REVISION"
kubectl get pods -o custom-columns="$pods"
echo; echo "== kubectl get events --field-selector involvedObject.kind=LeaderWorkerSet"
echo "   -o custom-columns=MESSAGE:.message"
kubectl get events --field-selector involvedObject.kind=LeaderWorkerSet -o custom-columns=MESSAGE:.message
