// File: apiserver/apply.h
//
// Server-side apply (PATCH with Content-Type application/apply-patch+yaml) as one pure function:
// the stored object and the applied configuration in, the object to store out, with
// metadata.managedFields updated. It mirrors the API server's field manager stack
// (k8s.io/apimachinery/pkg/util/managedfields over sigs.k8s.io/structured-merge-diff):
//
//   1. The configuration is merged into the live object (apply_value.h: Merge), lists by their
//      schema type (apply_schema.h).
//   2. Fields the same manager applied last time but omits now are removed, unless some other
//      manager (Apply or Update) owns them too (structured-merge-diff's prune).
//   3. A field the apply changes that another manager owns is a conflict: 409 with one
//      FieldManagerConflict cause per field, unless `force`, which takes the field over. As
//      upstream, the manager "kubectl" may take over, without force, fields whose live value
//      still matches the object's kubectl.kubernetes.io/last-applied-configuration (the
//      client-side to server-side apply upgrade), and keeps that annotation in sync.
//   4. An object without managedFields first gives its existing fields to the Update manager
//      "before-first-apply", so applying over them conflicts.
//   5. The entry's time moves to `now` only when the object changed.
//
// Not here (the HTTP layer's job): requiring fieldManager (see FieldManagerRequired), dryRun,
// fieldValidation, defaulting, admission, and setting metadata.namespace on a created object.
#pragma once

#include "apiserver/managed_fields.h"
#include "base/result.h"

namespace lws::apiserver {

inline constexpr std::string_view kLastAppliedAnnotation =
    "kubectl.kubernetes.io/last-applied-configuration";

// 422 `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for
// apply patch`: an apply request without ?fieldManager=.
Status FieldManagerRequired();
// 422 `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for
// non-apply patch`: ?force= on another patch type.
Status ForceNotAllowed();

struct ApplyOptions {
  FieldManagerScope scope;  // manager (fieldManager), apiVersion, subresource, now, schema
  std::string kind;         // kind served at the URL: "StatefulSet"
  std::string name;         // name in the URL; the result's metadata.name must match
  std::string namespace_;   // namespace in the URL; a namespace in the config must match
  bool force = false;       // ?force=true
};

struct ApplyResult {
  Json object;           // the object to store, with metadata.managedFields
  bool created = false;  // no live object: answer 201
};

// Applies `config` to `live` (null when the object does not exist). Errors, as the API server
// words them:
//   400 "error decoding YAML: ..."                      config is not an object
//   400 "Incorrect version specified in apply patch. Specified patch version: X, expected: Y"
//   400 "metadata.managedFields must be nil"
//   500 "failed to create typed patch object (ns/name; apps/v1, Kind=K): <shape errors>"
//   500 "failed to create typed live object (...)" / "failed to decode managed fields: ..."
//   409 "Apply failed with N conflict(s): ..."          see ApplyConflict
//   400 "the name of the object (X) does not match the name on the URL (Y)"
Result<ApplyResult> Apply(const Json& live, const Json& config, const ApplyOptions& options);

// One field another manager owns.
struct ApplyConflictField {
  const ManagedFieldsEntry* owner;
  Path path;
};

// The 409 Status for `conflicts` (NewConflictError): causes {FieldManagerConflict, "conflict
// with <manager>", ".spec.replicas"}; message "Apply failed with 1 conflict: conflict with
// "m": .spec.replicas" or "Apply failed with N conflicts: conflicts with "m":\n- .a\n- .b".
Status ApplyConflict(const std::vector<ApplyConflictField>& conflicts);

}  // namespace lws::apiserver
