#include "config/tls_options.h"

#include <algorithm>

namespace lws::config {

const std::vector<CipherSuite>& KnownCipherSuites() {
  // Go 1.22's tls.CipherSuites() and tls.InsecureCipherSuites(), plus cliflag's legacy aliases.
  static const std::vector<CipherSuite> kSuites = {
      {"TLS_AES_128_GCM_SHA256", 0x1301, true},
      {"TLS_AES_256_GCM_SHA384", 0x1302, true},
      {"TLS_CHACHA20_POLY1305_SHA256", 0x1303, true},
      {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", 0xc009, true},
      {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", 0xc02b, true},
      {"TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", 0xc00a, true},
      {"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", 0xc02c, true},
      {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305", 0xcca9, true},
      {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", 0xcca9, true},
      {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 0xc013, true},
      {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 0xc02f, true},
      {"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", 0xc014, true},
      {"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", 0xc030, true},
      {"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305", 0xcca8, true},
      {"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", 0xcca8, true},
      {"TLS_RSA_WITH_AES_128_CBC_SHA", 0x002f, true},
      {"TLS_RSA_WITH_AES_128_GCM_SHA256", 0x009c, true},
      {"TLS_RSA_WITH_AES_256_CBC_SHA", 0x0035, true},
      {"TLS_RSA_WITH_AES_256_GCM_SHA384", 0x009d, true},
      {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", 0xc023, false},
      {"TLS_ECDHE_ECDSA_WITH_RC4_128_SHA", 0xc007, false},
      {"TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", 0xc012, false},
      {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", 0xc027, false},
      {"TLS_ECDHE_RSA_WITH_RC4_128_SHA", 0xc011, false},
      {"TLS_RSA_WITH_3DES_EDE_CBC_SHA", 0x000a, false},
      {"TLS_RSA_WITH_AES_128_CBC_SHA256", 0x003c, false},
      {"TLS_RSA_WITH_RC4_128_SHA", 0x0005, false},
  };
  return kSuites;
}

std::optional<CipherSuite> FindCipherSuite(std::string_view name) {
  for (const CipherSuite& suite : KnownCipherSuites()) {
    if (suite.name == name) return suite;
  }
  return std::nullopt;
}

std::optional<std::uint16_t> TlsVersionId(std::string_view name) {
  if (name == "VersionTLS10") return 0x0301;
  if (name == "VersionTLS11") return 0x0302;
  if (name == "VersionTLS12") return 0x0303;
  if (name == "VersionTLS13") return 0x0304;
  return std::nullopt;
}

namespace {

// cliflag.PreferredTLSCipherNames() printed with %v: the sorted secure names in brackets.
std::string PreferredNamesForMessage() {
  std::vector<std::string_view> names;
  for (const CipherSuite& suite : KnownCipherSuites()) {
    if (suite.secure) names.push_back(suite.name);
  }
  std::sort(names.begin(), names.end());
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += " ";
    out += names[i];
  }
  return out + "]";
}

std::optional<api::FieldError> ValidateMinVersion(const std::string& version,
                                                  const api::FieldPath& path) {
  if (version.empty()) return std::nullopt;  // Go's defaults apply
  if (version == "VersionTLS10" || version == "VersionTLS11") {
    return api::Invalid(path, version,
                        "invalid minVersion. Please use VersionTLS12 or VersionTLS13");
  }
  if (!TlsVersionId(version)) {
    return api::Invalid(path, version,
                        "invalid minVersion: unknown tls version " + api::GoQuote(version) +
                            ". Please use VersionTLS12 or VersionTLS13");
  }
  return std::nullopt;
}

}  // namespace

api::ErrorList ValidateTls(const TlsConfig& tls, const api::FieldPath& path) {
  api::ErrorList errors;
  // Upstream checks this first and stops there: nothing else matters when 1.3 is forced.
  if (tls.min_version == "VersionTLS13" && !tls.cipher_suites.empty()) {
    errors.push_back(
        api::Forbidden(path.Child("cipherSuites"),
                       "cipher suites may not be specified when minVersion is 'VersionTLS13'"));
    return errors;
  }
  if (auto e = ValidateMinVersion(tls.min_version, path.Child("minVersion"))) errors.push_back(*e);
  for (std::size_t i = 0; i < tls.cipher_suites.size(); ++i) {
    const std::string& name = tls.cipher_suites[i];
    if (FindCipherSuite(name)) continue;
    errors.push_back(
        api::Invalid(path.Child("cipherSuites").Index(i), name,
                     "invalid cipher suites: Cipher suite " + name +
                         " not supported or doesn't exist. Please use the secure cipher names: " +
                         PreferredNamesForMessage()));
  }
  return errors;
}

std::uint16_t MinTlsVersionId(const TlsConfig& tls) {
  return TlsVersionId(tls.min_version).value_or(0x0303);
}

std::vector<std::uint16_t> CipherSuiteIds(const TlsConfig& tls) {
  std::vector<std::uint16_t> ids;
  for (const std::string& name : tls.cipher_suites) {
    if (std::optional<CipherSuite> suite = FindCipherSuite(name)) ids.push_back(suite->id);
  }
  return ids;
}

}  // namespace lws::config
