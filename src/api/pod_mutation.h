// File: api/pod_mutation.h
//
// The LeaderWorkerSet pod mutating webhook (mpod.kb.io, /mutate--v1-pod, CREATE) as pure
// functions over the typed Pod, so that the embedded API server's admission chain and a real
// webhook server run the same code (spec sections 4, 14, 15, 16; upstream
// pkg/webhooks/pod_webhook.go). A pod belongs to an LWS iff it has the label
// leaderworkerset.sigs.k8s.io/name; other pods pass through untouched. For LWS pods, in order:
//
//   1. the size annotation is required and must parse as an integer;
//   2. leader (worker-index "0"): group-index from the name's ordinal if absent, subdomain := name
//      under UniquePerReplica, group-key := sha1("<ns>/<name>") if absent, group exclusive
//      placement, subgroup 0 labels (unless LeaderExcluded) and subgroup exclusive placement;
//      a Hash leader (annotation group-identity: Hash, KEP 898) instead gets group-key =
//      group-index = sha1("<ns>/<16 random characters>") (kept when already set), hostname
//      "<lws>-<key[:8]>", subdomain := hostname under UniquePerReplica, subgroup keys from the
//      group key, and the group-replacement scheduling gate;
//      worker (anything else): worker-index := the name's ordinal (always), subgroup labels
//      (keyed by the group key for Hash workers, by the leader's name otherwise);
//   3. gang scheduling: annotation scheduling.k8s.io/group-name = "<name>-<group>-<revision>";
//   4. TPU variables when some container asks for google.com/tpu (tpu_env.h);
//   5. LWS_LEADER_ADDRESS, LWS_GROUP_SIZE, LWS_WORKER_INDEX prepended to every container.
//
// Errors carry upstream's messages. Webhook denials have code Forbidden; the admission chain adds
// the `admission webhook "mpod.kb.io" denied the request: ` prefix as the API server does.
//
// The validating pod webhook (vpod.kb.io, CREATE and UPDATE) admits every pod, LWS or not;
// ValidateLwsPod below is that decision, kept so that the admission chain names both webhooks.
#pragma once

#include <functional>
#include <string>

#include "api/pod.h"
#include "base/result.h"
#include "base/rng.h"

namespace lws::api {

struct PodMutationOptions {
  // Gang scheduling is configured (gangSchedulingManagement.schedulerProvider: volcano).
  bool gang_scheduling = false;
  // 16 random characters for a new Hash leader's group key (upstream utilrand.String(16)). The
  // embedded API server passes a seeded source, so that simulated runs stay deterministic.
  std::function<std::string()> random_key_suffix;
};

// A random_key_suffix drawing from `rng`: 16 characters of upstream utilrand's alphabet (the one
// generated names use). Safe to call from several threads (the API server admits requests on
// its I/O threads); the sequence is the seed's, so a simulated run keys its groups the same way
// every time.
std::function<std::string()> SeededKeySuffix(Rng rng);

// Mutates a pod at CREATE as upstream's webhook does (see the file comment). On error *pod is
// left unchanged and the request must be rejected.
Status MutateLwsPod(Pod* pod, const PodMutationOptions& options = {});

// Prepends LWS_LEADER_ADDRESS = the leader-address annotation when set, else
// "<host>.<subdomain>.<namespace>" with host the leader's own hostname (a leader that has one)
// or "<name>-<group-index>", LWS_GROUP_SIZE =
// the size annotation and LWS_WORKER_INDEX = the worker-index label, in this order, to the env of
// every container and init container. Existing entries with those names are dropped, as are
// later duplicates of any name (upstream keeps the first occurrence only); the rest keep their
// order. Errors when the name, group-index or worker-index label or the size annotation is
// missing: "Failure constructing environment variables, no name label found for pod <ns>/<name>".
Status AddLwsVariables(Pod* pod);

// The Volcano PodGroup a pod belongs to: "<lws name>-<group index>-<revision key>".
std::string PodGroupName(std::string_view lws_name, std::string_view group_index,
                         std::string_view revision);

// vpod.kb.io: upstream accepts every pod on create and update.
inline Status ValidateLwsPod(const Pod& /*pod*/) { return Status::Ok(); }

// An RFC 6902 JSON Patch that turns `before` into `after` (what an AdmissionReview response
// carries). Object keys are escaped per RFC 6901 ("a/b" -> "a~1b").
Json JsonPatchBetween(const Json& before, const Json& after);

// The whole webhook on the wire format: decodes `pod_json`, mutates it and returns the patch that
// applies the mutation to `pod_json` (empty when nothing changed). The patch is taken between the
// re-encoded original and the encoded result, so it names only what the webhook changed even
// where encoding fills a default (a missing apiVersion). Decode errors are BadRequest.
Result<Json> MutationPatch(const Json& pod_json, const PodMutationOptions& options = {});

}  // namespace lws::api
