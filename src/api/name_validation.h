// File: api/name_validation.h
//
// Name and metadata checks of k8s.io/apimachinery/pkg/util/validation and
// pkg/api/validation (ValidateObjectMeta), with their exact messages. Each Is* function returns
// the list of problems, empty when the value is valid, as upstream does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/meta.h"

namespace lws::api {

std::vector<std::string> IsDns1035Label(std::string_view value);
std::vector<std::string> IsDns1123Label(std::string_view value);
std::vector<std::string> IsDns1123Subdomain(std::string_view value);
// Label and annotation keys: an optional DNS-1123 subdomain prefix and a name of at most 63
// characters ("example.com/my-key").
std::vector<std::string> IsQualifiedName(std::string_view value);
std::vector<std::string> IsValidLabelValue(std::string_view value);
// "[0-9]+%".
std::vector<std::string> IsValidPercent(std::string_view value);

// validation.RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')".
std::string RegexError(std::string_view msg, std::string_view regex,
                       const std::vector<std::string>& examples);

enum class NameRule { kDns1035Label, kDns1123Label, kDns1123Subdomain };

// ValidateObjectMeta for a namespaced object whose name follows `rule`: name or generateName
// present and valid, namespace present and a DNS-1123 label, labels and annotations valid.
ErrorList ValidateObjectMeta(const ObjectMeta& meta, NameRule rule, const FieldPath& path);

}  // namespace lws::api
