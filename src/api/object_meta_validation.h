// File: api/object_meta_validation.h
//
// ValidateObjectMeta of k8s.io/apimachinery/pkg/api/validation for namespaced objects, plus the
// two name rules name_validation.h does not cover (DNS-1035 labels, percent strings), with their
// exact messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/meta.h"

namespace lws::api {

// validation.IsDNS1035Label: at most 63 of [a-z0-9-], starting alphabetic, ending alphanumeric.
std::vector<std::string> IsDNS1035Label(std::string_view value);
// validation.IsValidPercent: "[0-9]+%".
std::vector<std::string> IsValidPercent(std::string_view value);

enum class NameRule { kDNS1035Label, kDNS1123Label, kDNS1123Subdomain };

enum class MetaScope { kNamespaced, kCluster };

// ValidateObjectMeta for an object whose name follows `rule`: name or generateName present and
// valid; for a namespaced object the namespace present and a DNS-1123 label, for a
// cluster-scoped one absent; labels and annotation keys valid, annotations within 256 KiB.
ErrorList ValidateObjectMeta(const ObjectMeta& meta, NameRule rule, const FieldPath& path,
                             MetaScope scope = MetaScope::kNamespaced);

class StructuralSchema;

// What kube-apiserver checks of a namespaced custom resource itself, before any validating
// webhook: its metadata (the name a DNS-1123 subdomain), then `schema` with its CEL rules, which
// the metadata's errors hold back as the schema's own blocking errors do.
ErrorList ValidateCustomResource(const Json& object, const ObjectMeta& meta,
                                 const StructuralSchema& schema);

}  // namespace lws::api
