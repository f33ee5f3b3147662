// The demo's manifests, built into the binary so that `lws up --demo` runs from any directory.
// Each is a copy of a file under examples/ (demo_test.cc checks they stay identical): edit the
// file and paste it here.
#include "cli/demo.h"

namespace lws::cli {

std::string_view DemoManifest() {
  return R"yaml(# The LeaderWorkerSet `lws up --demo` creates and then rolls out to vllm/vllm-openai:v0.6.1.
# Four replicas of one vLLM server, each a group of four pods (a leader and three workers, 2 GPUs
# each) that start, fail and update together. The rolling update takes at most one desired group
# down at a time (maxUnavailable: 1) and runs one extra group on the new image while it does
# (maxSurge: 1), so at least 3 groups serve throughout.
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: demo
  namespace: default
spec:
  replicas: 4
  rolloutStrategy:
    type: RollingUpdate
    rollingUpdateConfiguration:
      maxUnavailable: 1
      maxSurge: 1
  startupPolicy: LeaderCreated
  leaderWorkerTemplate:
    size: 4
    restartPolicy: RecreateGroupOnPodRestart
    leaderTemplate:
      metadata:
        labels:
          role: leader
      spec:
        containers:
        - name: vllm-leader
          image: vllm/vllm-openai:v0.6.0
          command:
          - sh
          - -c
          - bash /vllm-workspace/examples/multi-node-serving.sh leader --ray_cluster_size=$(LWS_GROUP_SIZE);
            python3 -m vllm.entrypoints.openai.api_server --port 8080 --model meta-llama/Meta-Llama-3.1-70B-Instruct
            --tensor-parallel-size 2 --pipeline-parallel-size 4
          ports:
          - containerPort: 8080
          resources:
            requests:
              nvidia.com/gpu: "2"
            limits:
              nvidia.com/gpu: "2"
    workerTemplate:
      spec:
        containers:
        - name: vllm-worker
          image: vllm/vllm-openai:v0.6.0
          command:
          - sh
          - -c
          - bash /vllm-workspace/examples/multi-node-serving.sh worker --ray_address=$(LWS_LEADER_ADDRESS)
          resources:
            requests:
              nvidia.com/gpu: "2"
            limits:
              nvidia.com/gpu: "2"
)yaml";
}

std::string_view DemoClusterConfig() {
  return R"yaml(# The cluster of scripts/demo.sh: the default shape (two pools of 4 a3-highgpu-8g nodes: 208
# vCPUs, 1,872 GB, 8 x H100 each), with pods Ready 3-8 s after binding so that the demo's
# rolling update takes seconds, not minutes.
apiVersion: lws-cpp.dev/v1alpha1
kind: Cluster
nodePools:
- name: gpu-a
  nodes: 4
  maxNodes: 6
  allocatable: {cpu: "208", memory: 1872Gi, nvidia.com/gpu: "8", ephemeral-storage: 6000G, pods: "110"}
  labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, node.kubernetes.io/instance-type: a3-highgpu-8g}
  zones: [zone-a, zone-b]
  nodesPerRack: 2
  provisioningDelay: 20s
  startup: {distribution: uniform, min: 3s, max: 8s}
  termination: 2s
- name: gpu-b
  nodes: 4
  maxNodes: 6
  allocatable: {cpu: "208", memory: 1872Gi, nvidia.com/gpu: "8", ephemeral-storage: 6000G, pods: "110"}
  labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, node.kubernetes.io/instance-type: a3-highgpu-8g}
  zones: [zone-a, zone-b]
  nodesPerRack: 2
  provisioningDelay: 20s
  startup: {distribution: uniform, min: 3s, max: 8s}
  termination: 2s
)yaml";
}

}  // namespace lws::cli
