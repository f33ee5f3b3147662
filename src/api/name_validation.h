// File: api/name_validation.h
//
// The syntax checks of k8s.io/apimachinery/pkg/util/validation that label selectors and object
// validation share: qualified names (label keys), label values and DNS-1123 names. Each returns
// the list of problems with upstream's exact wording (empty when the value is valid), so callers
// can join them with "; " into a field error detail as Kubernetes does.
//
// The regular expressions are checked by hand (no std::regex): the patterns are simple character
// classes anchored at both ends, and hand checks cannot blow up on hostile input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lws::api {

inline constexpr std::size_t kQualifiedNameMaxLength = 63;
inline constexpr std::size_t kLabelValueMaxLength = 63;
inline constexpr std::size_t kDNS1123LabelMaxLength = 63;
inline constexpr std::size_t kDNS1123SubdomainMaxLength = 253;

// validation.IsQualifiedName: "[prefix/]name", the prefix a DNS-1123 subdomain, the name at most
// 63 characters of [-A-Za-z0-9_.] starting and ending alphanumeric. Used for label keys.
std::vector<std::string> IsQualifiedName(std::string_view value);

// validation.IsValidLabelValue: empty, or a name as above of at most 63 characters.
std::vector<std::string> IsValidLabelValue(std::string_view value);

// validation.IsDNS1123Label: at most 63 of [a-z0-9-], starting and ending alphanumeric.
std::vector<std::string> IsDNS1123Label(std::string_view value);

// validation.IsDNS1123Subdomain: at most 253 characters of dot-separated DNS-1123 labels.
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);

// validation.RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')",
// including upstream's doubled space before "or".
std::string RegexError(std::string_view message, std::string_view regex,
                       const std::vector<std::string_view>& examples);

// strings.Join(errs, "; ").
std::string JoinErrors(const std::vector<std::string>& errors);

}  // namespace lws::api
