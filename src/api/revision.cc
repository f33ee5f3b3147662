#include "api/revision.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>

#include "api/go_json.h"

namespace lws::api {

namespace {

const std::string kTemplateSection = "leaderWorkerTemplate";
const std::string kNetworkSection = "networkConfig";
const std::string kPatchDirective = "$patch";

// ---- Normal form (header invariant 2) ---------------------------------------------------------

// True when Go decodes `"key": {}` to the same value as an absent member, for every place the key
// occurs under a LeaderWorkerTemplate: maps (omitempty drops them when empty) and non-pointer
// structs (absent means the zero struct). Pointer structs such as emptyDir, labelSelector or
// namespaceSelector are absent here on purpose: for them `{}` is not the same as nothing.
bool EmptyObjectMeansAbsent(std::string_view key) {
  static constexpr std::array<std::string_view, 18> kKeys = {
      // Non-pointer structs: ObjectMeta, PodSpec, PVC spec and status, ResourceRequirements,
      // VolumeResourceRequirements, PreferredSchedulingTerm.preference,
      // WeightedPodAffinityTerm.podAffinityTerm. PodSpec.resources is a pointer, but empty
      // pod-level requirements request nothing, like absent ones.
      "metadata", "spec", "status", "resources", "preference", "podAffinityTerm",
      // Maps.
      "labels", "annotations", "nodeSelector", "overhead", "limits", "requests", "matchLabels",
      "volumeAttributes", "options", "capacity", "allocatedResources", "allocatedResourceStatuses"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

// Drops, bottom-up, the object members that carry nothing in Go's typed model: null (decodes to
// the zero value, like an absent member), empty arrays (Kubernetes' semantic equality treats
// empty and nil slices alike; omitempty drops both), and `{}` where EmptyObjectMeansAbsent.
void DropEmptyMembers(Json& value) {
  if (value.is_array()) {
    for (auto& item : value) DropEmptyMembers(item);
    return;
  }
  if (!value.is_object()) return;
  for (auto it = value.begin(); it != value.end();) {
    DropEmptyMembers(*it);
    const bool drop = it->is_null() || (it->is_array() && it->empty()) ||
                      (it->is_object() && it->empty() && EmptyObjectMeansAbsent(it.key()));
    it = drop ? value.erase(it) : std::next(it);
  }
}

// Sets `object[key]` to `value` when the key is missing. REQUIRES: object is an object.
void AddIfMissing(Json& object, const std::string& key, Json value) {
  if (!object.contains(key)) object[key] = std::move(value);
}

// Re-adds what Go's encoding/json always writes for a PodTemplateSpec: metadata and spec (structs
// are never omitted), spec.containers (no omitempty: null when nil) and every container's
// resources (a struct).
void AddGoMembersToPodTemplate(Json& pod_template) {
  if (!pod_template.is_object()) return;
  AddIfMissing(pod_template, "metadata", Json::object());
  AddIfMissing(pod_template, "spec", Json::object());
  Json& spec = pod_template["spec"];
  if (!spec.is_object()) return;
  AddIfMissing(spec, "containers", nullptr);
  for (const char* list : {"initContainers", "containers", "ephemeralContainers"}) {
    auto it = spec.find(list);
    if (it == spec.end() || !it->is_array()) continue;
    for (auto& container : *it) {
      if (container.is_object()) AddIfMissing(container, "resources", Json::object());
    }
  }
}

// PersistentVolumeClaim: metadata, spec, status and spec.resources are structs.
void AddGoMembersToClaim(Json& claim) {
  if (!claim.is_object()) return;
  AddIfMissing(claim, "metadata", Json::object());
  AddIfMissing(claim, "spec", Json::object());
  AddIfMissing(claim, "status", Json::object());
  if (claim["spec"].is_object()) AddIfMissing(claim["spec"], "resources", Json::object());
}

// The normal form of the leaderWorkerTemplate section (without the directive).
Json NormalTemplateSection(Json section) {
  if (!section.is_object()) return section;
  DropEmptyMembers(section);
  if (section.contains("leaderTemplate")) AddGoMembersToPodTemplate(section["leaderTemplate"]);
  AddIfMissing(section, "workerTemplate", Json::object());
  AddGoMembersToPodTemplate(section["workerTemplate"]);
  auto claims = section.find("volumeClaimTemplates");
  if (claims != section.end() && claims->is_array()) {
    for (auto& claim : *claims) AddGoMembersToClaim(claim);
  }
  return section;
}

// The normal form of the networkConfig section: subdomainPolicy has no omitempty in Go.
Json NormalNetworkSection(Json section) {
  if (!section.is_object()) return section;
  DropEmptyMembers(section);
  AddIfMissing(section, "subdomainPolicy", nullptr);
  return section;
}

// ---- Applying a patch (spec 7.4) ----------------------------------------------------------------

// Applies `patch` to `target` the way a strategic merge patch treats maps: "$patch": "replace"
// replaces the whole value, "$patch": "delete" removes it (target becomes null), anything else
// merges member by member, null members deleting. Lists and scalars replace. LWS revisions only
// use "replace"; merging is there for hand-written or foreign data.
Status ApplyPatch(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return Status::Ok();
  }
  std::string directive = "merge";
  if (auto it = patch.find(kPatchDirective); it != patch.end()) {
    if (!it->is_string()) return Status::BadRequest("$patch directive is not a string");
    directive = it->get<std::string>();
  }
  if (directive == "replace") {
    target = patch;
    target.erase(kPatchDirective);
    return Status::Ok();
  }
  if (directive == "delete") {
    target = nullptr;
    return Status::Ok();
  }
  if (directive != "merge") {
    return Status::BadRequest("unknown $patch directive \"" + directive + "\"");
  }
  if (!target.is_object()) target = Json::object();
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.key() == kPatchDirective) continue;
    if (it->is_null()) {
      target.erase(it.key());
      continue;
    }
    Json& member = target[it.key()];
    RETURN_IF_ERROR(ApplyPatch(member, *it));
    if (member.is_null()) target.erase(it.key());
  }
  return Status::Ok();
}

// PatchBytes of the patch regenerated from `lws` with `stored` applied; nullopt when the stored
// data cannot be applied or holds no leaderWorkerTemplate. Applying data without a template
// restores nothing and so would "match" any LWS; upstream accepts that, we do not, so a damaged
// revision reads as an update rather than silently as the live template. (A missing networkConfig
// is fine: revisions from before networkConfig existed carry only the template.)
std::optional<std::string> RestoredPatchBytes(const LeaderWorkerSet& lws,
                                              const ControllerRevision& stored) {
  const Json& data = stored.data;
  if (!data.is_object() || !data.contains("spec") || !data["spec"].is_object() ||
      !data["spec"].contains(kTemplateSection)) {
    return std::nullopt;
  }
  auto restored = ApplyRevision(lws, stored);
  if (!restored.ok()) return std::nullopt;
  return PatchBytes(RevisionPatch(*restored));
}

bool OwnedBy(const ControllerRevision& revision, const LeaderWorkerSet& lws) {
  if (revision.metadata.namespace_ != lws.metadata.namespace_) return false;
  if (revision.metadata.Label(kSetNameLabel) != lws.metadata.name) return false;
  const OwnerReference* controller = revision.metadata.ControllerRef();
  return controller == nullptr || controller->uid == lws.metadata.uid;
}

}  // namespace

// ---- Patch, hash and name ---------------------------------------------------------------------

Json RevisionPatch(const LeaderWorkerSet& lws) {
  Json network = lws.spec.network_config ? Encode(*lws.spec.network_config)
                                         : Json{{"subdomainPolicy", kSubdomainShared}};
  Json templ = NormalTemplateSection(Encode(lws.spec.leader_worker_template));
  network = NormalNetworkSection(std::move(network));
  templ[kPatchDirective] = "replace";
  network[kPatchDirective] = "replace";
  Json spec = Json::object();
  spec[kTemplateSection] = std::move(templ);
  spec[kNetworkSection] = std::move(network);
  return Json{{"spec", std::move(spec)}};
}

std::string PatchBytes(const Json& patch) { return MarshalGoJson(patch); }

std::uint32_t Fnv1_32(std::string_view bytes) {
  std::uint32_t hash = 2166136261u;
  for (char c : bytes) {
    hash *= 16777619u;  // FNV-1 multiplies first; FNV-1a would xor first.
    hash ^= static_cast<unsigned char>(c);
  }
  return hash;
}

std::string SafeEncodeString(std::string_view s) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  out.reserve(s.size());
  for (char c : s) out.push_back(kAlphabet[static_cast<unsigned char>(c) % kAlphabet.size()]);
  return out;
}

std::string RevisionHash(std::string_view patch_bytes) {
  return SafeEncodeString(std::to_string(Fnv1_32(patch_bytes)));
}

std::string RevisionName(std::string_view lws_name, std::string_view hash,
                         std::int64_t revision_number) {
  // 220 leaves room for the hash and number within the 253-byte name limit.
  std::string name(lws_name.substr(0, 220));
  name += "-";
  name += hash;
  name += "-" + std::to_string(revision_number);
  return name;
}

// ---- Revision objects -------------------------------------------------------------------------

ControllerRevision NewRevision(const LeaderWorkerSet& lws, std::int64_t revision_number,
                               std::string_view key_override) {
  ControllerRevision revision;
  revision.data = RevisionPatch(lws);
  revision.revision = revision_number;
  const std::string hash = RevisionHash(PatchBytes(revision.data));
  revision.metadata.name = RevisionName(lws.metadata.name, hash, revision_number);
  revision.metadata.namespace_ = lws.metadata.namespace_;
  revision.metadata.labels[kSetNameLabel] = lws.metadata.name;
  revision.metadata.labels[kRevisionLabel] =
      key_override.empty() ? hash : std::string(key_override);
  OwnerReference owner;
  owner.api_version = kLwsApiVersion;
  owner.kind = kLwsKind;
  owner.name = lws.metadata.name;
  owner.uid = lws.metadata.uid;
  owner.controller = true;
  owner.block_owner_deletion = true;
  revision.metadata.owner_references.push_back(std::move(owner));
  return revision;
}

std::string RevisionKey(const ControllerRevision& revision) {
  return revision.metadata.Label(kRevisionLabel);
}

const ControllerRevision* HighestRevision(const std::vector<const ControllerRevision*>& revisions) {
  // Mirrors upstream getHighestRevision: the running maximum starts at 0 and `<=` lets the last
  // of equal revisions win.
  std::int64_t max = 0;
  const ControllerRevision* best = nullptr;
  for (const ControllerRevision* revision : revisions) {
    if (max <= revision->revision) {
      max = revision->revision;
      best = revision;
    }
  }
  return best;
}

const ControllerRevision* HighestRevision(const std::vector<ControllerRevision>& revisions) {
  std::vector<const ControllerRevision*> pointers;
  pointers.reserve(revisions.size());
  for (const auto& revision : revisions) pointers.push_back(&revision);
  return HighestRevision(pointers);
}

std::int64_t NextRevisionNumber(const std::vector<const ControllerRevision*>& revisions) {
  const ControllerRevision* highest = HighestRevision(revisions);
  return highest == nullptr ? 1 : highest->revision + 1;
}

RevisionRefs RefsOf(const std::vector<ControllerRevision>& revisions) {
  RevisionRefs refs;
  refs.reserve(revisions.size());
  for (const ControllerRevision& revision : revisions) refs.push_back(&revision);
  return refs;
}

RevisionRefs OwnedRevisions(const RevisionRefs& revisions, const LeaderWorkerSet& lws) {
  RevisionRefs owned;
  for (const ControllerRevision* revision : revisions) {
    if (OwnedBy(*revision, lws)) owned.push_back(revision);
  }
  return owned;
}

const ControllerRevision* FindRevision(const RevisionRefs& revisions, const LeaderWorkerSet& lws,
                                       std::string_view key) {
  if (key.empty()) return nullptr;
  std::vector<const ControllerRevision*> matching;
  for (const ControllerRevision* revision : OwnedRevisions(revisions, lws)) {
    if (RevisionKey(*revision) == key) matching.push_back(revision);
  }
  if (matching.size() == 1) return matching.front();
  return HighestRevision(matching);
}

// ---- Applying and comparing -------------------------------------------------------------------

Result<LeaderWorkerSet> ApplyRevision(const LeaderWorkerSet& lws,
                                      const ControllerRevision& revision) {
  const std::string what = "controllerrevision \"" + revision.metadata.name + "\": ";
  if (!revision.data.is_object()) return Status::BadRequest(what + "data is not a JSON object");
  Json target = Encode(lws);
  Status applied = ApplyPatch(target, revision.data);
  if (!applied.ok()) return Status::BadRequest(what + applied.message());
  auto restored = Decode<LeaderWorkerSet>(target);
  if (!restored.ok()) return Status::BadRequest(what + restored.status().message());
  return restored;
}

bool EqualRevision(const ControllerRevision* a, const ControllerRevision* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return PatchBytes(a->data) == PatchBytes(b->data);
}

bool RevisionMatchesTemplate(const ControllerRevision& stored, const LeaderWorkerSet& lws) {
  const std::optional<std::string> restored = RestoredPatchBytes(lws, stored);
  return restored.has_value() && *restored == PatchBytes(RevisionPatch(lws));
}

bool SetMatchesRevision(const LeaderWorkerSet& lws, const ControllerRevision& proposed,
                        const ControllerRevision& existing, RevisionMatchCache* cache) {
  const RevisionMatchCache::Key key{lws.metadata.uid, lws.metadata.generation,
                                    existing.metadata.resource_version};
  if (cache != nullptr && cache->Lookup(key)) return true;
  const std::optional<std::string> restored = RestoredPatchBytes(lws, existing);
  if (!restored.has_value() || *restored != PatchBytes(proposed.data)) return false;
  if (cache != nullptr) cache->Add(key);
  return true;
}

bool IsTemplateUpdate(const LeaderWorkerSet& lws, const ControllerRevision& current,
                      RevisionMatchCache* cache) {
  ControllerRevision proposed;
  proposed.data = RevisionPatch(lws);
  if (EqualRevision(&proposed, &current)) return false;
  return !SetMatchesRevision(lws, proposed, current, cache);
}

}  // namespace lws::api
