#include "api/object_meta_validation.h"

#include <cctype>

#include "api/name_validation.h"
#include "api/schema.h"

namespace lws::api {

namespace {

constexpr std::size_t kDNS1035LabelMaxLength = 63;
constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// "[a-z]([-a-z0-9]*[a-z0-9])?", checked by hand like the other name rules.
bool MatchesDNS1035Label(std::string_view s) {
  if (s.empty() || !(s.front() >= 'a' && s.front() <= 'z') || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool MatchesPercent(std::string_view s) {
  if (s.size() < 2 || s.back() != '%') return false;
  for (char c : s.substr(0, s.size() - 1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::vector<std::string> NameProblems(NameRule rule, std::string_view value) {
  switch (rule) {
    case NameRule::kDNS1035Label:
      return IsDNS1035Label(value);
    case NameRule::kDNS1123Label:
      return IsDNS1123Label(value);
    case NameRule::kDNS1123Subdomain:
      return IsDNS1123Subdomain(value);
  }
  return {};
}

}  // namespace

std::vector<std::string> IsDNS1035Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1035LabelMaxLength) {
    errs.push_back("must be no more than " + std::to_string(kDNS1035LabelMaxLength) +
                   " characters");
  }
  if (!MatchesDNS1035Label(value)) {
    errs.push_back(RegexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
        "alphabetic character, and end with an alphanumeric character",
        "[a-z]([-a-z0-9]*[a-z0-9])?", {"my-name", "abc-123"}));
  }
  return errs;
}

std::vector<std::string> IsValidPercent(std::string_view value) {
  if (MatchesPercent(value)) return {};
  return {RegexError("a valid percent string must be a numeric string followed by an ending '%'",
                     "[0-9]+%", {"1%", "93%"})};
}

ErrorList ValidateObjectMeta(const ObjectMeta& meta, NameRule rule, const FieldPath& path,
                             MetaScope scope) {
  ErrorList errs;
  auto check_name = [&](std::string_view value, const FieldPath& at) {
    for (auto& p : NameProblems(rule, value)) errs.push_back(Invalid(at, std::string(value), p));
  };
  if (!meta.generate_name.empty()) {
    // A generated name gets a random suffix: the prefix is validated with its trailing dash
    // removed, as upstream's name functions do with prefix=true.
    std::string prefix = meta.generate_name;
    if (prefix.back() == '-') prefix.pop_back();
    if (!prefix.empty()) check_name(prefix, path.Child("generateName"));
  }
  if (meta.name.empty()) {
    if (meta.generate_name.empty()) {
      errs.push_back(Required(path.Child("name"), "name or generateName is required"));
    }
  } else {
    check_name(meta.name, path.Child("name"));
  }
  if (scope == MetaScope::kCluster) {
    if (!meta.namespace_.empty()) {
      errs.push_back(Forbidden(path.Child("namespace"), "not allowed on this type"));
    }
  } else if (meta.namespace_.empty()) {
    errs.push_back(Required(path.Child("namespace"), ""));
  } else {
    for (auto& p : IsDNS1123Label(meta.namespace_)) {
      errs.push_back(Invalid(path.Child("namespace"), meta.namespace_, p));
    }
  }
  for (const auto& [key, value] : meta.labels) {
    for (auto& p : IsQualifiedName(key)) errs.push_back(Invalid(path.Child("labels"), key, p));
    for (auto& p : IsValidLabelValue(value))
      errs.push_back(Invalid(path.Child("labels"), value, p));
  }
  std::size_t total = 0;
  for (const auto& [key, value] : meta.annotations) {
    std::string lower = key;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& p : IsQualifiedName(lower))
      errs.push_back(Invalid(path.Child("annotations"), key, p));
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    FieldError too_long =
        Invalid(path.Child("annotations"), Json(),
                "must have at most " + std::to_string(kTotalAnnotationSizeLimit) + " bytes");
    too_long.type = FieldErrorType::kTooLong;
    errs.push_back(std::move(too_long));
  }
  return errs;
}

ErrorList ValidateCustomResource(const Json& object, const ObjectMeta& meta,
                                 const StructuralSchema& schema) {
  ErrorList errors = ValidateObjectMeta(meta, NameRule::kDNS1123Subdomain, FieldPath("metadata"));
  schema.Validate(object, &errors);
  return errors;
}

}  // namespace lws::api
