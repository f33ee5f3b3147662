#include "api/name_validation.h"

#include <regex>

namespace lws::api {

namespace {

constexpr std::size_t kDns1035LabelMaxLength = 63;
constexpr std::size_t kDns1123LabelMaxLength = 63;
constexpr std::size_t kDns1123SubdomainMaxLength = 253;
constexpr std::size_t kQualifiedNameMaxLength = 63;
constexpr std::size_t kLabelValueMaxLength = 63;
constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

constexpr const char* kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

bool FullMatch(std::string_view value, const char* fmt) {
  // Regexes are compiled once per pattern; std::regex is slow to build, fast enough to run here.
  static thread_local std::map<const char*, std::regex> cache;
  auto it = cache.find(fmt);
  if (it == cache.end()) it = cache.emplace(fmt, std::regex(std::string("^(") + fmt + ")$")).first;
  return std::regex_match(value.begin(), value.end(), it->second);
}

std::string MaxLenError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

}  // namespace

std::string RegexError(std::string_view msg, std::string_view regex,
                       const std::vector<std::string>& examples) {
  std::string out(msg);
  if (examples.empty()) return out + " (regex used for validation is '" + std::string(regex) + "')";
  out += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + examples[i] + "', ";
  }
  return out + "regex used for validation is '" + std::string(regex) + "')";
}

std::vector<std::string> IsDns1035Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1035LabelMaxLength) errs.push_back(MaxLenError(kDns1035LabelMaxLength));
  if (!FullMatch(value, kDns1035LabelFmt)) {
    errs.push_back(RegexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
        "alphabetic character, and end with an alphanumeric character",
        kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errs;
}

std::vector<std::string> IsDns1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(MaxLenError(kDns1123LabelMaxLength));
  if (!FullMatch(value, kDns1123LabelFmt)) {
    errs.push_back(RegexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
        "must start and end with an alphanumeric character",
        kDns1123LabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsDns1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(MaxLenError(kDns1123SubdomainMaxLength));
  }
  if (!FullMatch(value, kDns1123SubdomainFmt)) {
    errs.push_back(RegexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
        "'.', and must start and end with an alphanumeric character",
        kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  auto slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(RegexError(
          "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
          "and end with an alphanumeric character",
          kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const auto& e : IsDns1123Subdomain(prefix)) errs.push_back("prefix part " + e);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + MaxLenError(kQualifiedNameMaxLength));
  }
  if (!name.empty() && !FullMatch(name, kQualifiedNameFmt)) {
    errs.push_back("name part " +
                   RegexError("must consist of alphanumeric characters, '-', '_' or '.', and must "
                              "start and end with an alphanumeric character",
                              kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (!FullMatch(value, kLabelValueFmt)) {
    errs.push_back(RegexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
        "'.', and must start and end with an alphanumeric character",
        kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> IsValidPercent(std::string_view value) {
  if (FullMatch(value, "[0-9]+%")) return {};
  return {RegexError("a valid percent string must be a numeric string followed by an ending '%'",
                     "[0-9]+%", {"1%", "93%"})};
}

ErrorList ValidateObjectMeta(const ObjectMeta& meta, NameRule rule, const FieldPath& path) {
  ErrorList errs;
  auto check_name = [&](std::string_view value, const FieldPath& at) {
    std::vector<std::string> problems;
    switch (rule) {
      case NameRule::kDns1035Label: problems = IsDns1035Label(value); break;
      case NameRule::kDns1123Label: problems = IsDns1123Label(value); break;
      case NameRule::kDns1123Subdomain: problems = IsDns1123Subdomain(value); break;
    }
    for (auto& p : problems) errs.push_back(Invalid(at, std::string(value), p));
  };
  if (!meta.generate_name.empty()) {
    // A generated name gets a random suffix: validate the prefix as upstream does (trailing
    // dash allowed).
    std::string prefix = meta.generate_name;
    if (!prefix.empty() && prefix.back() == '-') prefix.pop_back();
    if (!prefix.empty()) check_name(prefix, path.Child("generateName"));
  }
  if (meta.name.empty()) {
    if (meta.generate_name.empty()) {
      errs.push_back(Required(path.Child("name"), "name or generateName is required"));
    }
  } else {
    check_name(meta.name, path.Child("name"));
  }
  if (meta.namespace_.empty()) {
    errs.push_back(Required(path.Child("namespace"), ""));
  } else {
    for (auto& p : IsDns1123Label(meta.namespace_)) {
      errs.push_back(Invalid(path.Child("namespace"), meta.namespace_, p));
    }
  }
  for (const auto& [key, value] : meta.labels) {
    for (auto& p : IsQualifiedName(key)) errs.push_back(Invalid(path.Child("labels"), key, p));
    for (auto& p : IsValidLabelValue(value)) errs.push_back(Invalid(path.Child("labels"), value, p));
  }
  std::size_t total = 0;
  for (const auto& [key, value] : meta.annotations) {
    std::string lower = key;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (auto& p : IsQualifiedName(lower)) errs.push_back(Invalid(path.Child("annotations"), key, p));
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    errs.push_back({FieldErrorType::kTooLong, path.Child("annotations").String(), Json(),
                    "must have at most " + std::to_string(kTotalAnnotationSizeLimit) + " bytes"});
  }
  return errs;
}

}  // namespace lws::api
