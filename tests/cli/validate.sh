#!/usr/bin/env bash
# `lws validate` against the real binary: examples and upstream samples pass, broken manifests
# fail with every error on its own line, malformed YAML names the line, unknown fields follow
# --validate. Usage: validate.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$lws" validate "$root"/examples/*.yaml >"$tmp/out" 2>"$tmp/err"
check "examples validate" test $? -eq 0
check "examples print six objects" test "$(grep -c '^kind: LeaderWorkerSet' "$tmp/out")" -eq 6
check "defaults applied" grep -q 'restartPolicy: RecreateGroupOnPodRestart' "$tmp/out"
check "namespace defaulted" grep -q 'namespace: default' "$tmp/out"

"$lws" validate "$root/examples/lws/demo.yaml" >"$tmp/out" 2>"$tmp/err"
check "the demo's LWS (lws up --demo) validates" test $? -eq 0
check "the demo's LWS is named demo" grep -qx '  name: demo' "$tmp/out"

"$lws" validate "$root"/testdata/lws/samples/*.yaml >"$tmp/out" 2>"$tmp/err"
check "upstream samples validate" test $? -eq 0
check "configuration sample skipped" grep -q 'skipping Configuration/configuration-sample (not a LeaderWorkerSet or DisaggregatedSet)' "$tmp/err"

"$lws" validate "$root"/examples/disaggregatedset/*.yaml >"$tmp/out" 2>"$tmp/err"
check "DisaggregatedSet examples validate" test $? -eq 0
check "a role's LWS spec gets the LWS defaults" grep -q 'startupPolicy: LeaderCreated' "$tmp/out"
find "$root/testdata/disaggregatedset/upstream" -name '*.yaml' -not -name '*v1alpha1*' -print0 |
  xargs -0 "$lws" validate >"$tmp/out" 2>"$tmp/err"
check "upstream DisaggregatedSet samples validate" test $? -eq 0
check "all 17 of them" test "$(grep -c '^kind: DisaggregatedSet$' "$tmp/out")" -eq 17

f="$root/testdata/cli/invalid-ds.yaml"
"$lws" validate "$f" >"$tmp/out" 2>"$tmp/err"
check "invalid DisaggregatedSets exit 1" test $? -eq 1
check "CEL rule" grep -qxF "$f: DisaggregatedSet/mixed: spec: Invalid value: \"object\": replicas must be zero for all non-External roles or non-zero for all non-External roles" "$tmp/err"
check "webhook rule" grep -qxF "$f: DisaggregatedSet/partitioned: spec.roles[0].spec.rolloutStrategy.rollingUpdateConfiguration.partition: Forbidden: partition is not supported by DisaggregatedSet; rolling updates are managed across roles by the DisaggregatedSet controller" "$tmp/err"
check "webhook warning" grep -qF "$f: DisaggregatedSet/external: warning: role \"prefill\" sets scaling.mode: External and spec.replicas: 3" "$tmp/err"
check "the valid one is printed" test "$(grep -c '^kind: DisaggregatedSet$' "$tmp/out")" -eq 1

"$lws" validate -o json "$root/examples/rollout-maxsurge.yaml" >"$tmp/out" 2>"$tmp/err"
check "json output" python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if d['spec']['rolloutStrategy']['rollingUpdateConfiguration']['maxSurge']==1 and d['spec']['networkConfig']['subdomainPolicy']=='Shared' else 1)"

f="$root/testdata/cli/invalid-lws.yaml"
"$lws" validate "$f" >"$tmp/out" 2>"$tmp/err"
check "invalid exits 1" test $? -eq 1
expect_line() {
  check "error: $1" grep -qxF "$f: $1" "$tmp/err"
}
expect_line "LeaderWorkerSet/broken: spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: -1: must be greater than or equal to 0"
expect_line "LeaderWorkerSet/broken: spec.leaderWorkerTemplate.size: Invalid value: 0: size must be equal or greater than 1"
expect_line "LeaderWorkerSet/broken: spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: must not be 0 when \`maxSurge\` is 0"
expect_line "LeaderWorkerSet/Bad_Name: spec.startupPolicy: Unsupported value: \"Sometimes\": supported values: \"LeaderCreated\", \"LeaderReady\""
expect_line "LeaderWorkerSet/bad-restarts: metadata.annotations[lws-cpp.dev/max-group-restarts]: Invalid value: \"-1\": must be a non-negative integer"
expect_line "LeaderWorkerSet/bad-restarts: metadata.annotations[lws-cpp.dev/group-restart-backoff]: Invalid value: \"fast\": time: invalid duration \"fast\""
expect_line "LeaderWorkerSet/bad-restarts: metadata.annotations[lws-cpp.dev/rollout-before-scale-up]: Invalid value: \"yes\": must be \"true\" or \"false\""
expect_line "LeaderWorkerSet/bad-restarts: spec.leaderWorkerTemplate.restartPolicy: Invalid value: \"None\": must be RecreateGroupOnPodRestart or RecreateGroupAfterStart when lws-cpp.dev/max-group-restarts or lws-cpp.dev/group-restart-backoff is set"
check "configmap skipped" grep -q 'skipping ConfigMap/not-an-lws' "$tmp/err"
check "no object printed for invalid ones" test ! -s "$tmp/out"

"$lws" validate "$root/testdata/cli/malformed.yaml" >"$tmp/out" 2>"$tmp/err"
check "malformed exits 1" test $? -eq 1
check "malformed names line and column" grep -qE 'malformed.yaml: .*line [0-9]+, column [0-9]+' "$tmp/err"

"$lws" validate "$root/testdata/cli/unknown-field.yaml" >"$tmp/out" 2>"$tmp/err"
check "unknown field is an error by default" test $? -eq 1
check "unknown field named" grep -q 'spec.rolloutStrategy.rollingUpdateConfiguration.maxsurge: unknown field' "$tmp/err"
check "object with unknown field not printed" test ! -s "$tmp/out"
"$lws" validate --validate=warn "$root/testdata/cli/unknown-field.yaml" >"$tmp/out" 2>"$tmp/err"
check "unknown field only warns with --validate=warn" test $? -eq 0
check "warning printed" grep -q 'warning: spec.rolloutStrategy.rollingUpdateConfiguration.maxsurge' "$tmp/err"

cat "$root/examples/sglang-leader-ready.yaml" | "$lws" validate - >"$tmp/out" 2>"$tmp/err"
check "stdin" grep -q 'startupPolicy: LeaderReady' "$tmp/out"

"$lws" validate /nonexistent.yaml >"$tmp/out" 2>"$tmp/err"
check "missing file exits 1" test $? -eq 1
check "missing file reported" grep -q '/nonexistent.yaml: cannot read file' "$tmp/err"

echo "$failures failed"
[ "$failures" -eq 0 ]
