// File: api/revision.h
//
// LeaderWorkerSet template revisions (spec section 7), as pure functions. A revision is a
// ControllerRevision whose `data` is a strategic-merge patch that re-applies the versioned part of
// the LWS, `spec.leaderWorkerTemplate` and `spec.networkConfig`:
//
//   {"spec":{"leaderWorkerTemplate":{...,"$patch":"replace"},
//            "networkConfig":{...,"$patch":"replace"}}}
//
// Its name and its template-revision-hash label derive from FNV-1 (32 bit) over the patch bytes,
// serialised as Go does (api/go_json.h). Invariants:
//   1. RevisionPatch is deterministic: it depends only on the semantic content of the two
//      sections, never on member order or on how empty values were spelled (see 2).
//   2. The sections go through our typed codec, then a normal form: members that are null or
//      empty arrays are dropped, and `{}` is dropped where the Go type is a map or a non-pointer
//      struct (so absent and `{}` decode to the same Go value). Then Go's always-present members
//      are re-added (pod template `metadata: {}`, container `resources: {}`, PVC
//      `metadata`/`spec`/`status`, `subdomainPolicy: null`), so that for ordinary templates the
//      bytes, and thus the hash, equal what the Go controller writes. Byte parity in general is not
//      a goal (DESIGN.md 'Adoption'); recognising a Go-written revision is: RevisionMatchesTemplate
//      compares normal forms.
//   3. A `{}` that means something (a pointer struct such as `emptyDir: {}` or an empty label
//      selector) is kept, so a real template change is never mistaken for noise.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/lws_types.h"
#include "api/revision_cache.h"
#include "base/result.h"

namespace lws::api {

// ---- Patch, hash and name (spec 7.2, 7.3) ----------------------------------------------------

// The patch of spec 7.2; a nil networkConfig counts as {subdomainPolicy: Shared}.
Json RevisionPatch(const LeaderWorkerSet& lws);
// The bytes LWS hashes and compares: the patch serialised as Go's json.Marshal does.
std::string PatchBytes(const Json& patch);
// FNV-1 (not FNV-1a), 32 bit, as Go's hash/fnv New32.
std::uint32_t Fnv1_32(std::string_view bytes);
// Maps each byte to "bcdfghjklmnpqrstvwxz2456789"[byte % 27], as k8s rand.SafeEncodeString does
// for ASCII input (Go indexes runes; the only input here is a decimal number).
std::string SafeEncodeString(std::string_view s);
// SafeEncodeString of the decimal FNV-1 hash: "a" -> 84696446 -> "d8bfb88b".
std::string RevisionHash(std::string_view patch_bytes);
// "<lws_name truncated to 220 bytes>-<hash>-<revision_number>".
std::string RevisionName(std::string_view lws_name, std::string_view hash,
                         std::int64_t revision_number);

// ---- Revision objects --------------------------------------------------------------------------

// A new revision of `lws` numbered `revision_number`. Its template-revision-hash label is the hash
// of its patch unless `key_override` is non-empty (adopting a key the leader sts already carries,
// spec section 6 step 3); the name always uses the hash.
ControllerRevision NewRevision(const LeaderWorkerSet& lws, std::int64_t revision_number,
                               std::string_view key_override = "");
// The revision's template-revision-hash label, or "" when absent.
std::string RevisionKey(const ControllerRevision& revision);
// The revision with the highest `.revision`, the last one on ties; null when the list is empty.
// As upstream, revisions numbered below 0 are never picked.
const ControllerRevision* HighestRevision(const std::vector<ControllerRevision>& revisions);
const ControllerRevision* HighestRevision(const std::vector<const ControllerRevision*>& revisions);
// Highest existing `.revision` + 1, or 1 when there is none (spec 7.3).
std::int64_t NextRevisionNumber(const std::vector<const ControllerRevision*>& revisions);
// Revisions by reference, as a controller's cache hands them out: a reconcile copies no
// revision and no template.
using RevisionRefs = std::vector<const ControllerRevision*>;
RevisionRefs RefsOf(const std::vector<ControllerRevision>& revisions);
// The revisions of `lws` (upstream ListRevisions): in its namespace, labelled with its name, and
// controlled by it (same UID) or by nothing. Order is kept.
RevisionRefs OwnedRevisions(const RevisionRefs& revisions, const LeaderWorkerSet& lws);
// The owned revision whose key is `key` (the highest if several); null when `key` is "" or none
// matches (upstream GetRevision).
const ControllerRevision* FindRevision(const RevisionRefs& revisions, const LeaderWorkerSet& lws,
                                       std::string_view key);

// ---- Applying and comparing (spec 7.4, 7.5) --------------------------------------------------

// `lws` with the sections stored in `revision` restored: a section marked "$patch":"replace"
// replaces the live one; any other section is merged as a JSON merge patch. replicas,
// rolloutStrategy, startupPolicy, metadata and status stay live. Fails (BadRequest) when the data
// is not a patch of that shape or the result does not decode.
Result<LeaderWorkerSet> ApplyRevision(const LeaderWorkerSet& lws,
                                      const ControllerRevision& revision);
// True iff both are null, or both are non-null with equal patch bytes (labels, and so keys, are
// ignored).
bool EqualRevision(const ControllerRevision* a, const ControllerRevision* b);
// True iff `stored` restores exactly the live template of `lws`: the normal form of the patch of
// ApplyRevision(lws, stored) equals RevisionPatch(lws). Recognises revisions written by the Go
// controller despite serializer differences (`"creationTimestamp":null`, `"resources":{}`, ...).
// Unlike upstream, data without a leaderWorkerTemplate section never matches.
bool RevisionMatchesTemplate(const ControllerRevision& stored, const LeaderWorkerSet& lws);
// Upstream SetMatchesRevision: true iff `existing`, applied to `lws` and re-serialised, gives the
// bytes of `proposed`. A positive result is remembered in `cache` under (lws uid, generation,
// existing resourceVersion) and returned from there on later calls. Data without a
// leaderWorkerTemplate section never matches (see RevisionMatchesTemplate).
bool SetMatchesRevision(const LeaderWorkerSet& lws, const ControllerRevision& proposed,
                        const ControllerRevision& existing, RevisionMatchCache* cache);
// True iff the live template of `lws` is an update over `current` (spec section 6 step 4): the
// patch bytes differ and the semantic check also says they differ. `cache` may be null.
bool IsTemplateUpdate(const LeaderWorkerSet& lws, const ControllerRevision& current,
                      RevisionMatchCache* cache = nullptr);

}  // namespace lws::api
