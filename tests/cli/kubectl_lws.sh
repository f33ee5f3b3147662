#!/usr/bin/env bash
# `kubectl lws` (docs/scarcity.md, "kubectl lws"): the lws binary installed as kubectl-lws on the
# PATH is a kubectl plugin, run through the real kubectl against `lws up`:
#   - `rollout status` follows a rolling update to its end, and exits 0;
#   - `rollout pause` stops it where it is (no group replaced), `resume` lets it finish;
#   - `rollout history` lists the revisions, `--revision N` shows one's templates;
#   - `rollout undo` restores the previous template while a rollout is in progress;
#   - the namespace comes from -n, else the kubeconfig context; errors read as kubectl's.
# Usage: kubectl_lws.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" --seed 3 || exit 1
mkdir -p "$tmp/bin"
ln -s "$(readlink -f "$lws")" "$tmp/bin/kubectl-lws"
export PATH="$tmp/bin:$PATH"
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
out_has() { grep -qE "$1" "$tmp/out"; }
err_has() { grep -qE "$1" "$tmp/err"; }
jp() { kubectl get "$@" 2>/dev/null; }

check "kubectl finds the plugin" bash -c "kubectl plugin list 2>/dev/null | grep -q kubectl-lws"
k lws rollout --help
check "the help names it kubectl lws" out_has 'Usage: kubectl lws rollout'

cat >"$tmp/lws.yaml" <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: serving}
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: llama, namespace: serving}
spec:
  replicas: 3
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.0
          resources: {limits: {nvidia.com/gpu: "1"}}
YAML
check "the LWS is created" k apply -f "$tmp/lws.yaml"
k lws rollout status llama -n serving --timeout 60s
check "status: the first rollout completes" out_has '^leaderworkerset "llama" successfully rolled out$'
k lws rollout status llama
check "status: the context's namespace (default) has no llama" err_has \
  '^Error from server \(NotFound\): leaderworkersets.leaderworkerset.x-k8s.io "llama" not found$'

image() { k -n serving patch lws llama --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image\",\"value\":\"$1\"}]"; }
check "a rolling update starts" image vllm/vllm-openai:v0.6.1
k lws rollout status llama -n serving --timeout 2m
check "status: exits 0 at the end" test $? = 0
check "status: says how far it got" out_has '^Waiting for leaderworkerset "llama" rollout to finish: [0-2] out of 3 new groups have been updated\.\.\.$'
check "status: ends with the success line" test "$(tail -1 "$tmp/out")" = 'leaderworkerset "llama" successfully rolled out'
k lws rollout history llama -n serving
check "history: the old revision is gone once the rollout completed" test "$(grep -c . "$tmp/out")" = 3
check "history: the revision in force" out_has '^[0-9]+ +[0-9a-f]+ +current$'

# Paused before a template change: no group is replaced.
check "pause" k lws rollout pause llama -n serving
check "pause: kubectl's words" out_has '^leaderworkerset.leaderworkerset.x-k8s.io/llama paused$'
k lws rollout pause llama -n serving
check "pause again: refused" err_has 'leaderworkersets.leaderworkerset.x-k8s.io "llama" is already paused'
check "a second update while paused" image vllm/vllm-openai:v0.6.2
paused_shown() {
  k lws rollout status llama -n serving --watch=false && out_has 'new groups have been updated\.\.\. \(paused: kubectl lws rollout resume llama\)$'
}
check "status --watch=false: one look, paused" eventually 20 paused_shown
sleep 3
check "paused: no leader pod runs the new image" test -z "$(jp pods -n serving -l leaderworkerset.sigs.k8s.io/worker-index=0 -o jsonpath='{.items[*].spec.containers[0].image}' | tr ' ' '\n' | grep -F v0.6.2)"
k lws rollout history llama -n serving
check "history: two revisions during the rollout" test "$(grep -c . "$tmp/out")" = 4
old=$(awk 'NR == 3 {print $1}' "$tmp/out")
k lws rollout history llama -n serving --revision "$old"
check "history --revision: the templates of that revision" out_has 'image: vllm/vllm-openai:v0\.6\.1$'
k lws rollout undo llama -n serving --to-revision 99
check "undo to a missing revision: refused" err_has 'unable to find specified revision 99 in history'
check "undo" k lws rollout undo llama -n serving
check "undo: kubectl's words" out_has '^leaderworkerset.leaderworkerset.x-k8s.io/llama rolled back$'
check "undo: the previous template again" test "$(jp lws -n serving llama -o jsonpath='{.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].image}')" = vllm/vllm-openai:v0.6.1
check "resume" k lws rollout resume llama -n serving
k lws rollout resume llama -n serving
check "resume again: refused" err_has 'leaderworkersets.leaderworkerset.x-k8s.io "llama" is not paused'
k lws rollout status llama -n serving --timeout 2m
check "status after the undo: complete" test "$(tail -1 "$tmp/out")" = 'leaderworkerset "llama" successfully rolled out'
check "every pod runs the restored image" test "$(jp pods -n serving -o jsonpath='{.items[*].spec.containers[0].image}' | tr ' ' '\n' | sort -u)" = vllm/vllm-openai:v0.6.1

# The same binary's simulate, as the plugin.
k lws simulate "$root/examples/simulate/h100-rollout.yaml" --seeds 1 --no-progress
code=$?
check "kubectl lws simulate runs (exit 0 or 3)" test $code -eq 0 -o $code -eq 3
exit $((failures > 0))
