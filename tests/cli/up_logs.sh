#!/usr/bin/env bash
# `kubectl logs` against `lws up`: each container instance's log is its lifecycle as the
# simulated kubelet drives it. Checked with the real kubectl: the log of a pod, -c, the
# container kubectl picks for a pod of two (and the server's own error without a container),
# --previous before and after a crash, --tail, --timestamps, -f that sees a line arrive and ends
# with the container, a container still waiting, an LWS leader pod, and the clear 400 of exec,
# cp and debug (no process runs).
# Usage: up_logs.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 13
ready() { [ "$(jp "pod/$1" '{.status.containerStatuses[0].ready}')" = true ]; }
restarts_at_least() { [ "$(jp "pod/$1" '{.status.containerStatuses[0].restartCount}')" -ge "$2" ] 2>/dev/null; }
err_has() { grep -qE "$1" "$tmp/err"; }
lines() { wc -l <"$tmp/out"; }
simulated='^lws-cpp simulated container: no process runs; this log records its lifecycle$'

k apply -f "$data/logs.yaml"
check "pods created" out_has '^pod/slow created$'
check "solo: Ready" eventually 20 ready solo

k logs solo
check "logs: first line says the container is simulated" test "$(head -1 "$tmp/out")" = "${simulated:1:-1}"
check "logs: created from its image" out_has '^created container app from image nginx:1.27$'
check "logs: started" out_has '^started container app$'
check "logs: ready without a probe" out_has '^container is ready \(no readiness probe\)$'
k logs solo -c app
check "logs -c app: the same log" out_has '^started container app$'
k logs solo -c nope
check "logs -c nope: not valid" err_has 'container nope is not valid for pod solo'
k logs solo --tail=1
check "logs --tail=1: only the last line" test "$(lines)" = 1 -a "$(cat "$tmp/out")" = "container is ready (no readiness probe)"
k logs solo --timestamps
check "logs --timestamps: RFC 3339 time first" \
  test "$(grep -cE '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z ' "$tmp/out")" = "$(lines)"
check "logs --timestamps: the message after the time" grep -qE 'Z started container app$' "$tmp/out"
k logs solo --previous
check "logs --previous before any restart: kubelet's words" \
  err_has 'previous terminated container "app" in pod "solo" not found'

# Two containers: kubectl picks the first (and says so); the server alone asks which.
check "duo: Ready" eventually 20 ready duo
k logs duo
check "duo: kubectl defaults to the first container" err_has 'Defaulted container "a" out of: a, b, setup \(init\)'
check "duo: a's log, with its readiness probe" out_has '^readiness probe passed: container is ready$'
k logs duo -c b
check "duo -c b: b's log" out_has '^created container b from image busybox:1.36$'
k get --raw /api/v1/namespaces/default/pods/duo/log
check "duo without a container: kube-apiserver's words" \
  err_has 'a container name must be specified for pod duo, choose one of: \[setup a b\]'
k get --raw '/api/v1/namespaces/default/pods/duo/log?container=a&tailLines=-1'
check "tailLines=-1: Invalid" err_has 'The PodLogOptions "duo" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0'
k get --raw '/api/v1/namespaces/default/pods/duo/log?container=a&limitBytes=10'
check "limitBytes=10: ten bytes" test "$(cat "$tmp/out")" = "lws-cpp si"

k logs slow
check "slow: waiting to start" err_has 'container "app" in pod "slow" is waiting to start: ContainerCreating'

# A crash: the log of the instance that crashed is --previous; the current one says it restarted.
check "crashy: restarted once" eventually 30 restarts_at_least crashy 1
k logs crashy --previous
check "crashy --previous: the crash and its exit code" out_has '^container exited with code 1 \(Error\)$'
check "crashy --previous: a log of its own" out_has "$simulated"
k logs crashy
check "crashy: the new instance says it restarted" out_has '^restarting container after it exited \(restart [0-9]+, restartPolicy Always\)$'

# -f ends when the container instance ends: the next crash.
check "crashy: Ready again" eventually 20 ready crashy
timeout 20 kubectl logs -f crashy >"$tmp/follow" 2>"$tmp/err"
rc=$?
check "logs -f crashy: the stream ends with the container (exit $rc)" test "$rc" = 0
check "logs -f crashy: the exit line arrived" grep -qE '^container exited with code 1 \(Error\)$' "$tmp/follow"

# -f sees a new line arrive: the deletion, then ends when the pod is gone.
kubectl logs -f solo >"$tmp/follow2" 2>&1 &
follow_pid=$!
sleep 1
k delete pod solo --wait=false
check "logs -f solo: the stop arrives" eventually 10 grep -q '^stopping container: the pod is being deleted (SIGTERM, grace period 5s)$' "$tmp/follow2"
check "logs -f solo: the stream ends when the pod is gone" eventually 15 bash -c "! kill -0 $follow_pid 2>/dev/null"
check "logs -f solo: the last line" grep -q '^container stopped: the pod was deleted$' "$tmp/follow2"

# An LWS leader pod.
cat >"$tmp/lws.yaml" <<'YAML'
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: serve
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.0
          resources: {limits: {nvidia.com/gpu: "1"}}
YAML
k apply -f "$tmp/lws.yaml"
check "lws: created" out_has 'leaderworkerset.leaderworkerset.x-k8s.io/serve created'
check "lws: leader Ready" eventually 30 ready serve-0
k logs serve-0
check "lws: the leader's log" out_has '^created container vllm from image vllm/vllm-openai:v0.6.0$'
k logs serve-0-1
check "lws: a worker's log" out_has '^started container vllm$'

# No process runs: exec, cp and debug say so.
k exec duo -c a -- ls
check "exec: no process to run a command in" err_has 'runs on a simulated kubelet \(lws-cpp\), which starts no containers'
k cp duo:/etc/hosts "$tmp/hosts" -c a
check "cp: the same (it runs tar through exec)" err_has 'runs on a simulated kubelet \(lws-cpp\), which starts no containers'
k debug duo --image=busybox:1.36 -c dbg
check "debug: no debug container to start" err_has 'there is no debug container to start'
[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
