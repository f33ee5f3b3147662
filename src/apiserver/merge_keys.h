// File: apiserver/merge_keys.h
//
// Patch metadata of the built-in kinds: how a strategic merge patch treats each field. Upstream
// reads it from the Go struct tags `patchStrategy` and `patchMergeKey` of k8s.io/api (core/v1,
// apps/v1) and k8s.io/apimachinery (meta/v1); here the same facts live in a small type graph.
// A PatchSchema is one Go struct type: it maps a JSON field name to that field's metadata, and
// the metadata points at the schema of the field's struct type (or, for a list, of its
// elements), so a lookup walks down the object exactly as upstream walks down reflect types.
//
// Only fields that carry metadata, or lead to fields that do, are declared. Everything else
// (maps such as labels, scalars, atomic lists such as tolerations, and fields we do not model)
// gets the empty metadata: maps merge key by key, lists are replaced whole. Every kind has
// metadata.finalizers (a merged set of strings) and metadata.ownerReferences (merged by uid).
//
// The schemas are immutable and built once; lookups are safe from any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace lws::apiserver {

class PatchSchema;

enum class PatchStrategy {
  kNone,     // maps merge key by key, lists are replaced (no patchStrategy tag)
  kMerge,    // `patchStrategy:"merge"`: lists merge by merge_key, or as a set of primitives
  kReplace,  // `patchStrategy:"replace"`: the patch value replaces the field whole
};

struct FieldPatchMeta {
  PatchStrategy strategy = PatchStrategy::kNone;
  // `retainKeys` in the tag: clients (kubectl apply) send a $retainKeys directive for this
  // field. The server honours $retainKeys wherever it appears, so this only documents intent.
  bool retain_keys = false;
  // The merge key of a merged list of objects ("name"); empty for primitives and atomic lists.
  std::string merge_key;
  // The struct type of the field, or of its elements for a list; null when nothing below it
  // carries metadata.
  const PatchSchema* type = nullptr;

  bool operator==(const FieldPatchMeta&) const = default;
};

class PatchSchema {
 public:
  PatchSchema() = default;
  PatchSchema(const PatchSchema&) = delete;
  PatchSchema& operator=(const PatchSchema&) = delete;

  // Declares `field`; returns *this for chaining.
  PatchSchema& Set(std::string field, FieldPatchMeta meta);

  // The metadata of `field`; the empty metadata when the field is not declared.
  const FieldPatchMeta& Lookup(std::string_view field) const;

 private:
  std::map<std::string, FieldPatchMeta, std::less<>> fields_;
};

// Lookup on a possibly null schema (null stands for a map or an unmodelled type).
const FieldPatchMeta& LookupField(const PatchSchema* schema, std::string_view field);

// The schema of a built-in kind ("Pod", "StatefulSet", ...). Kinds without list metadata beyond
// ObjectMeta (ConfigMap, Secret, Event, Lease, ControllerRevision, ...) and unknown kinds get the
// ObjectMeta-only schema.
const PatchSchema& PatchSchemaForKind(std::string_view kind);

// The metadata at a dot-separated path of `kind`, walking through list elements implicitly:
// ("Pod", "spec.containers.env") is the env list of each container. Empty metadata when any step
// is unknown. Used by tests and diagnostics.
FieldPatchMeta LookupPatchMeta(std::string_view kind, std::string_view path);

}  // namespace lws::apiserver
