// File: bench/typical_pod.h
//
// The "typical" pod the benchmarks share: a running LWS worker pod of about 2.5 KB of JSON
// (labels, annotations, owner reference, one container with command, env, resources and a volume
// mount, tolerations, four conditions, one container status). Realistic rather than worst case:
// the 61 KB testdata fixture is the worst case.
#pragma once

#include <string>

namespace lws::bench {

inline const std::string& TypicalPodText() {
  static const std::string text = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-0-1",
    "namespace":"default","uid":"8d3f0a4e-2f7c-4b1e-9b7a-0c1d2e3f4a5b","resourceVersion":"12345",
    "creationTimestamp":"2026-11-29T10:00:00Z","labels":{"leaderworkerset.sigs.k8s.io/name":"vllm",
    "leaderworkerset.sigs.k8s.io/group-index":"0","leaderworkerset.sigs.k8s.io/worker-index":"1",
    "leaderworkerset.sigs.k8s.io/group-key":"95e88034e460983f51a9952fe128729fbc0663b5",
    "leaderworkerset.sigs.k8s.io/template-revision-hash":"fcf8694b5",
    "statefulset.kubernetes.io/pod-name":"vllm-0-1","apps.kubernetes.io/pod-index":"1",
    "controller-revision-hash":"vllm-0-6d5b7c9f8"},"annotations":{
    "leaderworkerset.sigs.k8s.io/size":"2","leaderworkerset.sigs.k8s.io/leader-name":"vllm-0"},
    "ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"vllm-0",
    "uid":"1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e","controller":true,"blockOwnerDeletion":true}]},
    "spec":{"containers":[{"name":"vllm-worker","image":"vllm/vllm-openai:v0.8.5",
    "command":["sh","-c"],"args":["ray start --address=$(LWS_LEADER_ADDRESS):6379 --block"],
    "env":[{"name":"LWS_LEADER_ADDRESS","value":"vllm-0.vllm.default"},{"name":"LWS_GROUP_SIZE",
    "value":"2"},{"name":"LWS_WORKER_INDEX","value":"1"}],"resources":{"limits":{
    "nvidia.com/gpu":"8","memory":"1200Gi"},"requests":{"cpu":"125","memory":"1200Gi",
    "nvidia.com/gpu":"8"}},"volumeMounts":[{"name":"dshm","mountPath":"/dev/shm"}],
    "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
    "imagePullPolicy":"IfNotPresent"}],"volumes":[{"name":"dshm","emptyDir":{"medium":"Memory",
    "sizeLimit":"15Gi"}}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,
    "dnsPolicy":"ClusterFirst","nodeName":"gpu-a-3","hostname":"vllm-0-1","subdomain":"vllm",
    "schedulerName":"default-scheduler","tolerations":[{"key":"nvidia.com/gpu",
    "operator":"Exists","effect":"NoSchedule"}]},"status":{"phase":"Running","conditions":[
    {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-29T10:00:01Z"},
    {"type":"Initialized","status":"True","lastTransitionTime":"2026-11-29T10:00:02Z"},
    {"type":"ContainersReady","status":"True","lastTransitionTime":"2026-11-29T10:00:40Z"},
    {"type":"Ready","status":"True","lastTransitionTime":"2026-11-29T10:00:40Z"}],
    "hostIP":"10.0.0.13","podIP":"10.64.3.7","startTime":"2026-11-29T10:00:01Z",
    "containerStatuses":[{"name":"vllm-worker","state":{"running":{"startedAt":
    "2026-11-29T10:00:05Z"}},"ready":true,"restartCount":0,"image":"vllm/vllm-openai:v0.8.5",
    "imageID":"docker.io/vllm/vllm-openai@sha256:0123","containerID":"containerd://abc",
    "started":true}]}})";
  return text;
}

}  // namespace lws::bench
