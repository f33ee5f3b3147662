// File: apiserver/tls_certificate_files.cc
//
// LoadOrCreateSelfSigned: the self-signed identity kept across restarts in a directory. The CA's
// key is never written (tls_certificates.h says why), so an identity that no longer verifies
// (expired, or the requested names changed) is replaced as a whole, CA included; the server
// writes its kubeconfig after this, so the file it hands out always trusts the CA in use.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "base/file.h"
#include "transport/tls_certificates.h"

namespace lws::transport {
namespace {

constexpr const char* kCaFile = "ca.crt";
constexpr const char* kCertFile = "tls.crt";
constexpr const char* kKeyFile = "tls.key";

// The identity stored in `dir`, when it is complete and good for every requested name.
std::optional<TlsIdentity> LoadValid(const std::filesystem::path& dir,
                                     const SelfSignedRequest& request, Time now) {
  Result<std::string> ca = ReadFile((dir / kCaFile).string());
  Result<std::string> cert = ReadFile((dir / kCertFile).string());
  Result<std::string> key = ReadFile((dir / kKeyFile).string());
  if (!ca.ok() || !cert.ok() || !key.ok() || !CheckKeyMatches(*cert, *key).ok())
    return std::nullopt;
  std::vector<std::string> hosts = request.dns_names;
  hosts.insert(hosts.end(), request.ip_addresses.begin(), request.ip_addresses.end());
  for (const std::string& host : hosts) {
    if (!VerifyServingCertificate(*cert, *ca, host, now).ok()) return std::nullopt;
  }
  return TlsIdentity{std::move(*ca), std::move(*cert), std::move(*key)};
}

}  // namespace

Result<TlsIdentity> LoadOrCreateSelfSigned(const std::string& dir, const SelfSignedRequest& request,
                                           Time now) {
  const std::filesystem::path base(dir);
  if (std::optional<TlsIdentity> stored = LoadValid(base, request, now)) return *stored;
  ASSIGN_OR_RETURN(TlsIdentity identity, CreateSelfSigned(request, now));
  std::error_code ec;
  std::filesystem::create_directories(base, ec);
  if (ec) return Status::Internal("cannot create " + dir + ": " + ec.message());
  // The key goes first: a crash after it leaves a pair that fails to match and is replaced.
  RETURN_IF_ERROR(WriteFileAtomically((base / kKeyFile).string(), identity.key_pem, true));
  RETURN_IF_ERROR(WriteFileAtomically((base / kCertFile).string(), identity.cert_pem, false));
  RETURN_IF_ERROR(WriteFileAtomically((base / kCaFile).string(), identity.ca_pem, false));
  return identity;
}

}  // namespace lws::transport
