// File: config/tls_options.h
//
// The TLS settings of the configuration's `tls` section, checked as upstream's
// pkg/config/tls.go does with component-base's cli/flag helpers: minVersion is one of Go's
// crypto/tls version names and must be at least TLS 1.2; cipherSuites are Go crypto/tls suite
// names (secure or insecure, as cliflag.TLSCipherSuites accepts) and may not be given with
// VersionTLS13, whose suites are not configurable. The IANA ids are kept for the TLS server,
// which maps them onto OpenSSL's names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "config/configuration.h"

namespace lws::config {

struct CipherSuite {
  std::string_view name;  // Go crypto/tls name, e.g. "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
  std::uint16_t id;       // IANA id, e.g. 0xc02f
  bool secure;            // in tls.CipherSuites() (else tls.InsecureCipherSuites())
};

// Every suite name cliflag accepts, including the legacy CHACHA20_POLY1305 aliases.
const std::vector<CipherSuite>& KnownCipherSuites();

// The suite called `name`, if Go knows it.
std::optional<CipherSuite> FindCipherSuite(std::string_view name);

// cliflag.TLSVersion: "VersionTLS10" -> 0x0301 ... "VersionTLS13" -> 0x0304.
std::optional<std::uint16_t> TlsVersionId(std::string_view name);

// The lowest TLS version of a validated `tls` section as an IANA id (0x0303 when unset), and its
// cipher suites' ids, in order (empty when unset: the server's defaults).
std::uint16_t MinTlsVersionId(const TlsConfig& tls);
std::vector<std::uint16_t> CipherSuiteIds(const TlsConfig& tls);

// Field errors for the `tls` section at `path`, with upstream's messages as details.
api::ErrorList ValidateTls(const TlsConfig& tls, const api::FieldPath& path);

}  // namespace lws::config
