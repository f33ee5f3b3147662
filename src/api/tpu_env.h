// File: api/tpu_env.h
//
// TPU environment variables (spec 14.4, upstream pkg/utils/accelerators/tpu.go). A multi-host TPU
// slice is one LWS group: every TPU process must know all peers (TPU_WORKER_HOSTNAMES,
// TPU_PROCESS_ADDRESSES), its own rank (TPU_WORKER_ID) and the slice name (TPU_NAME). The pod
// webhook computes them from the pod's name, labels and annotations alone:
//
//   leader "s-1", size 3, subdomain "d"  ->  hostnames "s-1.d,s-1-1.d,s-1-2.d", worker id 0
//   worker "s-1-2" of that group         ->  same hostnames, worker id 2
//   worker "s-1-2", leader without TPUs  ->  hostnames "s-1-1.d,s-1-2.d", worker id 1
//
// The leader counts as a TPU host only when it is the pod being admitted or when the worker
// carries the annotation leader-requests-tpus="true" (set by the pod controller from the leader
// pod's actual spec). With subgroups (annotation subgroup-size) each subgroup is its own slice.
//
// Variables are appended after the container's own env. Injection is skipped when the first TPU
// container already has TPU_WORKER_HOSTNAMES or TPU_WORKER_ID, so a re-admitted pod is unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/pod.h"
#include "base/result.h"

namespace lws::api {

inline const std::string kTpuResourceName = "google.com/tpu";
inline const std::string kTpuWorkerHostnamesEnv = "TPU_WORKER_HOSTNAMES";
inline const std::string kTpuWorkerIdEnv = "TPU_WORKER_ID";
inline const std::string kTpuNameEnv = "TPU_NAME";
inline const std::string kTpuProcessAddressesEnv = "TPU_PROCESS_ADDRESSES";
inline const std::string kTpuProcessPortEnv = "TPU_PROCESS_PORT";
inline constexpr int kTpuProcessDefaultPort = 8476;

// Upper bound on the bytes of TPU variables added to one pod. Upstream has none and would build
// lists of any length; a pod beyond the API server's 3 MiB request limit could never be stored, so
// we refuse earlier instead of allocating without bound on a hostile size annotation.
inline constexpr std::size_t kMaxTpuEnvBytes = 3 * 1024 * 1024;

// The TPUs a container asks for: its limit for google.com/tpu when non-zero, else its request
// (rounded up to an integer), else 0.
std::int64_t NumTpusRequested(const Container& container);

// True iff some container or init container asks for a non-zero number of TPUs.
bool PodRequestsTpus(const PodSpec& spec);

// The containers asking for TPUs: regular containers first, then init containers, in order.
std::vector<Container*> ContainersRequestingTpus(PodSpec* spec);

// Injects the TPU variables into every TPU container of a group of `size` pods, or, when the pod
// has the subgroup-size annotation, delegates to AddTpuVariablesSubGroup. With n TPU containers
// each peer host appears n times and container i gets TPU_WORKER_ID = podIndex*n + i and port
// TPU_PROCESS_PORT (its own value, else 8476 + i). A no-op when no container asks for TPUs.
// Errors: a worker whose name has no "-<ordinal>" suffix ("parsing parent name from pod <name>").
Status AddTpuVariables(Pod* pod, std::int64_t size);

// The subgroup variant: only the first TPU container is configured, with the hosts of the pod's
// subgroup and a worker id relative to it. Reads subgroup-size (annotation), subgroup-index and
// worker-index (labels); each must parse as an integer (strconv.Atoi errors otherwise).
Status AddTpuVariablesSubGroup(Pod* pod);

}  // namespace lws::api
