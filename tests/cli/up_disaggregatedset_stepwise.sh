#!/usr/bin/env bash
# A DisaggregatedSet rolled out on `lws up --kubelet manual` with the real kubectl: 3 prefill
# groups and 2 decode groups (testdata/disaggregatedset/stepwise.yaml) move to a new image.
# Pods are bound but never started; the test marks every formed group Ready through the pod
# status subresource, which is what lets the set take its next step (it waits for the new
# revision to be ready). A watch records every change of the role LeaderWorkerSets' replicas, and
# the sequence of (old prefill, old decode / new prefill, new decode) must be upstream planner's
# table for these counts, step for step (upstream planner.go arithmetic, sheet section 4):
#   3,2/0,0  3,2/1,1  2,2/1,1  2,1/1,1  2,1/2,2  1,1/2,2  1,1/3,2  0,0/3,2
# Between two steps only the writes of that step may show (a step is one or two patches). Then
# the set's status and events are checked, as upstream's e2e "Rolling Update Step Tracking" does.
# Usage: up_disaggregatedset_stepwise.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_kubectl_test
watch_pid=""
trap '[ -n "$watch_pid" ] && kill $watch_pid 2>/dev/null; stop_apiserver KILL; rm -rf "$tmp"' EXIT
start_up "$lws" "$tmp" --config "$root/testdata/up/cluster.yaml" --kubelet manual || exit 1

jp() { kubectl get "$1" -o jsonpath="$2" 2>/dev/null; }
revision() { jp lws '{range .items[?(@.metadata.labels.disaggregatedset\.x-k8s\.io/role=="prefill")]}{.metadata.labels.disaggregatedset\.x-k8s\.io/revision}{"\n"}{end}'; }
# Marks Ready every bound, live pod of the set that is not Ready yet.
ready_pods() {
  kubectl get pods -l disaggregatedset.x-k8s.io/name=pd \
    -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName} {.metadata.deletionTimestamp}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' |
    awk 'NF == 2 {print $1}' |
    while read -r p; do
      kubectl patch pod "$p" --subresource=status --type=strategic \
        -p '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}' >/dev/null 2>&1
    done
}
available() { [ "$(jp disaggregatedset/pd '{.status.conditions[?(@.type=="Available")].status}')" = True ]; }
# Readies pods until the set is Available at revision $1.
roll_until_available() {
  local deadline=$((SECONDS + 120))
  while [ "$SECONDS" -lt "$deadline" ]; do
    ready_pods
    if available && [ "$(revision | sort -u)" = "$1" ]; then return 0; fi
    sleep 0.5
  done
  return 1
}

check "apply" kubectl apply -f "$root/testdata/disaggregatedset/stepwise.yaml"
check "first revision available" eventually 5 sh -c '[ -n "$(kubectl get lws -o name)" ]'
first=$(revision | head -1)
check "first revision becomes Available" roll_until_available "$first"
check "role LWS names" sh -c "kubectl get lws -o name | sort | tr '\n' ' ' | grep -qx 'leaderworkerset.leaderworkerset.x-k8s.io/pd-0-$first-decode leaderworkerset.leaderworkerset.x-k8s.io/pd-0-$first-prefill '"

kubectl get lws -l disaggregatedset.x-k8s.io/name=pd --watch --output-watch-events \
  -o jsonpath='{.type} {.object.metadata.name} {.object.spec.replicas}{"\n"}' >"$tmp/watch" 2>"$tmp/watch.err" &
watch_pid=$!
sleep 1
# Both roles in one request: two requests would make two revisions, the first one's rollout
# interrupted by the second (sheet 4.6.5).
image='/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image'
kubectl patch disaggregatedset pd --type=json -p "[
  {\"op\":\"replace\",\"path\":\"/spec/roles/0$image\",\"value\":\"vllm/vllm-openai:v0.6.1\"},
  {\"op\":\"replace\",\"path\":\"/spec/roles/1$image\",\"value\":\"vllm/vllm-openai:v0.6.1\"}]" >/dev/null
check "a new revision starts" eventually 10 sh -c "[ \"\$(kubectl get lws -o name | grep -vc -- '-$first-')\" -ge 2 ]"
second=$(revision | grep -v "^$first$" | head -1)
check "second revision becomes Available" roll_until_available "$second"
check "old revision deleted" eventually 10 sh -c "! kubectl get lws -o name | grep -q -- '-$first-'"
sleep 1
kill "$watch_pid" 2>/dev/null
watch_pid=""

# The watch, folded into states: replicas of each LWS by name, summed per role and revision.
steps=$(/usr/bin/python3 - "$tmp/watch" "$second" <<'PY'
import sys
replicas, states = {}, []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) != 3:
        continue
    kind, name, count = parts
    if kind == "DELETED":
        replicas.pop(name, None)
    else:
        replicas[name] = int(count)
    def total(role, new):
        return sum(v for n, v in replicas.items()
                   if n.endswith("-" + role) and ((("-" + sys.argv[2] + "-") in n) == new))
    state = "%d,%d/%d,%d" % (total("prefill", False), total("decode", False),
                             total("prefill", True), total("decode", True))
    if not states or states[-1] != state:
        states.append(state)
print(" ".join(states))
PY
)
echo "observed: $steps"
[ -n "${KEEP_WATCH:-}" ] && cp "$tmp/watch" "$KEEP_WATCH"
expected="3,2/0,0 3,2/1,1 2,2/1,1 2,1/1,1 2,1/2,2 1,1/2,2 1,1/3,2 0,0/3,2"
# Every expected step in order; anything between two steps lies between them, role by role.
check "the planner's steps, in order" /usr/bin/python3 - "$expected" "$steps" <<'PY'
import sys
def parse(s):
    old, new = s.split("/")
    return [int(x) for x in old.split(",") + new.split(",")]
expected = [parse(s) for s in sys.argv[1].split()]
observed = [parse(s) for s in sys.argv[2].split()]
# The watch starts at rest: drop states before the first expected one.
while observed and observed[0] != expected[0]:
    observed.pop(0)
k = 0
for state in observed:
    if k + 1 < len(expected) and state == expected[k + 1]:
        k += 1
        continue
    if state == expected[k]:
        continue
    lo = [min(a, b) for a, b in zip(expected[k], expected[min(k + 1, len(expected) - 1)])]
    hi = [max(a, b) for a, b in zip(expected[k], expected[min(k + 1, len(expected) - 1)])]
    if not all(l <= s <= h for l, s, h in zip(lo, state, hi)):
        sys.exit("state %s is not between steps %d and %d" % (state, k, k + 1))
sys.exit(0 if k == len(expected) - 1 else "reached step %d of %d" % (k, len(expected) - 1))
PY

check "status: roles ready and updated" sh -c "[ \"\$(kubectl get disaggregatedset pd -o jsonpath='{range .status.roleStatuses[*]}{.name}={.replicas}/{.readyReplicas}/{.updatedReplicas} {end}')\" = 'prefill=3/3/3 decode=2/2/2 ' ]"
check "status: Available, AllRolesReady" test "$(jp disaggregatedset/pd '{.status.conditions[?(@.type=="Available")].reason}')" = AllRolesReady
check "status: Progressing False" test "$(jp disaggregatedset/pd '{.status.conditions[?(@.type=="Progressing")].status}')" = False
check "events: started, scaled, completed" sh -c "kubectl get events.events.k8s.io --field-selector regarding.name=pd -o jsonpath='{.items[*].reason}' | tr ' ' '\n' | sort -u | tr '\n' ' ' | grep -q 'LWSDeleted RollingUpdateStarted ScalingDown ScalingUp'"
check "Services of the new revision" sh -c "[ \"\$(kubectl get services -l disaggregatedset.x-k8s.io/name=pd -o name | sort | tr '\n' ' ')\" = 'service/pd-0-$second-decode-prv service/pd-0-$second-prefill-prv ' ]"
echo "$failures failures"
[ "$failures" -eq 0 ]
