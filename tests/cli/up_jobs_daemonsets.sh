#!/usr/bin/env bash
# `lws up` runs Jobs and DaemonSets as kube-controller-manager does, checked with the real
# kubectl: `kubectl create job` (protobuf) gets the generated selector and runs; a Job applied with the simulated
# kubelet's exit annotations completes 3 of 3 with 2 in parallel and SuccessCriteriaMet before
# Complete; a failing Job backs off and ends Failed with BackoffLimitExceeded; `get jobs,ds`
# columns; a DaemonSet runs one pod per node, follows a node added by the pool and rolls out
# an image change (`rollout status ds`), narrows to a node selector; deleting the owners collects their pods.
# Usage: up_jobs_daemonsets.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 17
pods_of() { kubectl get pods -l "$1" --no-headers 2>/dev/null | wc -l; }
no_pods() { [ "$(pods_of "$1")" = 0 ]; }
agents_on_every_node() {
  [ "$(kubectl get pods -l app=node-agent -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | sort -u | grep -c .)" = "$1" ]
}

# kubectl create job: protobuf body, generated selector and labels (its container never exits).
k create job hello --image=busybox:1.36
check "create job: created" out_has '^job.batch/hello created$'
uid=$(jp job/hello '{.metadata.uid}')
check "create job: generated selector names the uid" \
  test "$(jp job/hello '{.spec.selector.matchLabels.batch\.kubernetes\.io/controller-uid}')" = "$uid"
check "create job: template labels job-name and controller-uid" \
  test "$(jp job/hello '{.spec.template.metadata.labels.job-name}/{.spec.template.metadata.labels.controller-uid}')" = "hello/$uid"
check "create job: defaults (backoffLimit 6, NonIndexed, parallelism 1, completions 1)" \
  test "$(jp job/hello '{.spec.backoffLimit} {.spec.completionMode} {.spec.parallelism} {.spec.completions} {.spec.podReplacementPolicy}')" = "6 NonIndexed 1 1 TerminatingOrFailed"
hello_runs() { [ "$(kubectl get pods -l job-name=hello -o jsonpath='{.items[0].status.phase}')" = Running ]; }
check "create job: its pod runs" eventually 20 hello_runs
k get jobs hello
check "get jobs: Running 0/1" out_has '^hello +Running +0/1 +[0-9]+s +[0-9]+s$'
check "create job: pod owned by the Job (controller, blockOwnerDeletion)" \
  test "$(kubectl get pods -l job-name=hello -o jsonpath='{.items[0].metadata.ownerReferences[0].kind}/{.items[0].metadata.ownerReferences[0].controller}/{.items[0].metadata.ownerReferences[0].blockOwnerDeletion}')" = "Job/true/true"
k apply -f - <<'YAML'
apiVersion: batch/v1
kind: Job
metadata: {name: always}
spec:
  template:
    spec:
      containers: [{name: c, image: busybox}]
YAML
check "validation: restartPolicy Always refused with kube-apiserver's message" \
  grep -q 'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"' "$tmp/err"

# Jobs whose containers exit: one succeeds, one fails past its backoff limit.
k apply -f "$data/jobs.yaml"
check "apply: jobs created" out_has '^job.batch/squares created$'
check "squares: kubectl wait --for=condition=complete" kubectl wait --for=condition=complete job/squares --timeout=60s
k get jobs squares
check "squares: get jobs Complete 3/3" out_has '^squares +Complete +3/3 +[0-9]+s +[0-9]+s$'
check "squares: SuccessCriteriaMet then Complete, CompletionsReached" \
  test "$(jp job/squares '{.status.conditions[*].type} {.status.conditions[1].reason}')" = "SuccessCriteriaMet Complete CompletionsReached"
check "squares: succeeded 3, completionTime set" \
  test "$(jp job/squares '{.status.succeeded}')" = 3 -a -n "$(jp job/squares '{.status.completionTime}')"
pod=$(kubectl get pods -l job-name=squares -o jsonpath='{.items[0].metadata.name}')
check "squares: pods Succeeded, container terminated Completed exit 0" \
  test "$(jp pod/$pod '{.status.phase} {.status.containerStatuses[0].state.terminated.reason} {.status.containerStatuses[0].state.terminated.exitCode}')" = "Succeeded Completed 0"
k get pods -l job-name=squares
check "squares: get pods STATUS Completed" out_has "^$pod +0/1 +Completed +0 "
k get events --field-selector involvedObject.name=squares
check "squares: SuccessfulCreate and Completed events" out_has 'SuccessfulCreate +job/squares +Created pod: squares-' && check "squares: Completed event" out_has 'Completed +job/squares +Job completed'
check "flaky: kubectl wait --for=condition=failed" kubectl wait --for=condition=failed job/flaky --timeout=90s
check "flaky: BackoffLimitExceeded with upstream's message" \
  test "$(jp job/flaky '{.status.conditions[?(@.type=="Failed")].reason}: {.status.conditions[?(@.type=="Failed")].message}')" = "BackoffLimitExceeded: Job has reached the specified backoff limit"
check "flaky: two pods failed (backoffLimit 1)" test "$(jp job/flaky '{.status.failed}')" = 2
fpod=$(kubectl get pods -l job-name=flaky -o jsonpath='{.items[0].metadata.name}')
check "flaky: pod Failed, container terminated Error exit 1" \
  test "$(jp pod/$fpod '{.status.phase} {.status.containerStatuses[0].state.terminated.reason} {.status.containerStatuses[0].state.terminated.exitCode}')" = "Failed Error 1"
k get events --field-selector involvedObject.name=flaky
check "flaky: BackoffLimitExceeded event" out_has 'Warning +BackoffLimitExceeded +job/flaky +Job has reached the specified backoff limit'

# DaemonSet: one pod per node, a new node gets one, an image change rolls out.
k apply -f "$data/daemonset.yaml"
check "ds: created" out_has '^daemonset.apps/node-agent created$'
check "ds: rollout status completes" kubectl rollout status ds/node-agent --timeout=60s
check "ds: a pod on each of the 4 nodes" agents_on_every_node 4
k get ds node-agent
check "get ds: DESIRED 4 CURRENT 4 READY 4 UP-TO-DATE 4 AVAILABLE 4 NODE SELECTOR <none>" \
  out_has '^node-agent +4 +4 +4 +4 +4 +<none> +[0-9]+s$'
k get jobs,ds
check "get jobs,ds: both kinds listed" out_has '^job.batch/squares +Complete' && check "get jobs,ds: ds row" out_has '^daemonset.apps/node-agent +4 '
k get ds node-agent -o wide
check "get ds -o wide: CONTAINERS IMAGES SELECTOR" out_has 'agent +fluent/fluent-bit:3.0 +app=node-agent$'
check "ds: pods carry controller-revision-hash and pod-template-generation 1" \
  test "$(kubectl get pods -l app=node-agent -o jsonpath='{.items[0].metadata.labels.pod-template-generation}')" = 1 -a \
       -n "$(kubectl get pods -l app=node-agent -o jsonpath='{.items[0].metadata.labels.controller-revision-hash}')"
check "ds: pods pinned by matchFields metadata.name" \
  test "$(kubectl get pods -l app=node-agent -o jsonpath='{.items[0].spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key}')" = metadata.name
# A fifth node, added by the pool for GPU pods that fit nowhere else, gets its agent.
k create deployment gpu-hog --image=busybox --replicas=5
k set resources deployment gpu-hog --requests=nvidia.com/gpu=8 --limits=nvidia.com/gpu=8
check "ds: the pool's new fifth node gets an agent" eventually 60 agents_on_every_node 5
k delete deployment gpu-hog
k label node "$(kubectl get nodes -o jsonpath='{.items[0].metadata.name}')" extra=yes
k patch ds node-agent --type=merge -p '{"spec":{"template":{"spec":{"nodeSelector":{"extra":"yes"}}}}}'
check "ds: a node selector narrows it to the labelled node" eventually 30 agents_on_every_node 1
check "ds: rollout status after the selector change" kubectl rollout status ds/node-agent --timeout=60s
k patch ds node-agent --type=json -p '[{"op":"remove","path":"/spec/template/spec/nodeSelector"}]'
check "ds: back on all 5 nodes" eventually 30 agents_on_every_node 5
k set image ds/node-agent agent=fluent/fluent-bit:3.1
check "ds: image updated" out_has 'daemonset.apps/node-agent image updated'
check "ds: rollout status after the image change" kubectl rollout status ds/node-agent --timeout=90s
check "ds: every pod runs 3.1" test "$(kubectl get pods -l app=node-agent -o jsonpath='{range .items[*]}{.spec.containers[0].image}{"\n"}{end}' | sort -u)" = fluent/fluent-bit:3.1
check "ds: updatedNumberScheduled = desiredNumberScheduled, observedGeneration = generation" \
  test "$(jp ds/node-agent '{.status.updatedNumberScheduled} {.status.observedGeneration}')" = \
       "$(jp ds/node-agent '{.status.desiredNumberScheduled} {.metadata.generation}')"

# Cascading deletion.
k delete job squares flaky hello
check "delete: jobs deleted" out_has 'job.batch "squares" deleted'
check "delete: the Jobs' pods are collected" eventually 30 no_pods batch.kubernetes.io/controller-uid
k delete ds node-agent
check "delete: daemonset deleted" out_has 'daemonset.apps "node-agent" deleted'
check "delete: its pods are collected" eventually 30 no_pods app=node-agent
[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
