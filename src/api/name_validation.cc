#include "api/name_validation.h"

namespace lws::api {

namespace {

constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDNS1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDNS1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDNS1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDNS1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool MatchesQualifiedName(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
bool MatchesDNS1123Label(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool MatchesDNS1123Subdomain(std::string_view s) {
  while (true) {
    const std::size_t dot = s.find('.');
    if (!MatchesDNS1123Label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

std::string MaxLenError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

std::string QualifiedNameRegexError() {
  return RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"});
}

}  // namespace

std::string RegexError(std::string_view message, std::string_view regex,
                       const std::vector<std::string_view>& examples) {
  std::string out(message);
  if (examples.empty()) return out + " (regex used for validation is '" + std::string(regex) + "')";
  out += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + std::string(examples[i]) + "', ";
  }
  return out + "regex used for validation is '" + std::string(regex) + "')";
}

std::string JoinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) out += "; ";
    out += errors[i];
  }
  return out;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a qualified name " + QualifiedNameRegexError() +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (auto& msg : IsDNS1123Subdomain(prefix)) errs.push_back("prefix part " + msg);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + MaxLenError(kQualifiedNameMaxLength));
  }
  if (!MatchesQualifiedName(name)) errs.push_back("name part " + QualifiedNameRegexError());
  return errs;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesQualifiedName(value)) {
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123LabelMaxLength) errs.push_back(MaxLenError(kDNS1123LabelMaxLength));
  if (!MatchesDNS1123Label(value)) {
    errs.push_back(RegexError(kDNS1123LabelErrMsg, kDNS1123LabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123SubdomainMaxLength) {
    errs.push_back(MaxLenError(kDNS1123SubdomainMaxLength));
  }
  if (!MatchesDNS1123Subdomain(value)) {
    errs.push_back(RegexError(kDNS1123SubdomainErrMsg, kDNS1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

}  // namespace lws::api
