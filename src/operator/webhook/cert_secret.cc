// File: operator/webhook/cert_secret.cc
#include "operator/webhook/cert_secret.h"

#include <utility>

#include "api/base64.h"
#include "transport/tls_certificates.h"

namespace lws::operator_webhook {
namespace {

std::string DataEntry(const Json& secret, std::string_view key) {
  auto data = secret.find("data");
  if (data == secret.end() || !data->is_object()) return "";
  auto entry = data->find(std::string(key));
  if (entry == data->end() || !entry->is_string()) return "";
  Result<std::string> decoded = api::Base64Decode(entry->get<std::string>());
  return decoded.ok() ? *decoded : "";
}

void SetData(Json* secret, const CertificateMaterial& material) {
  Json& data = (*secret)["data"];
  if (!data.is_object()) data = Json::object();
  data[std::string(kCaCertKey)] = api::Base64Encode(material.ca_cert);
  data[std::string(kCaKeyKey)] = api::Base64Encode(material.ca_key);
  data[std::string(kServingCertKey)] = api::Base64Encode(material.serving_cert);
  data[std::string(kServingKeyKey)] = api::Base64Encode(material.serving_key);
}

bool ValidAuthority(const CertificateMaterial& material, const CertificateNames& names, Time at) {
  if (material.ca_cert.empty() || material.ca_key.empty()) return false;
  return transport::CheckKeyMatches(material.ca_cert, material.ca_key).ok() &&
         transport::VerifyServingCertificate(material.ca_cert, material.ca_cert, names.ca_name, at)
             .ok();
}

bool ValidServing(const CertificateMaterial& material, const CertificateNames& names, Time at) {
  if (material.serving_cert.empty() || material.serving_key.empty()) return false;
  if (!transport::CheckKeyMatches(material.serving_cert, material.serving_key).ok()) return false;
  std::vector<std::string> hosts = names.dns_names;
  hosts.insert(hosts.end(), names.ip_addresses.begin(), names.ip_addresses.end());
  for (const std::string& host : hosts) {
    if (!transport::VerifyServingCertificate(material.serving_cert, material.ca_cert, host, at)
             .ok()) {
      return false;
    }
  }
  return true;
}

}  // namespace

CertificateNames WebhookCertificateNames(std::string_view service, std::string_view ns,
                                         std::vector<std::string> extra_dns_names,
                                         std::vector<std::string> extra_ip_addresses) {
  CertificateNames names;
  const std::string svc = std::string(service) + "." + std::string(ns) + ".svc";
  names.dns_names = {svc, svc + ".cluster.local"};
  names.dns_names.insert(names.dns_names.end(), extra_dns_names.begin(), extra_dns_names.end());
  names.ip_addresses = std::move(extra_ip_addresses);
  return names;
}

CertificateMaterial MaterialFromSecret(const Json& secret) {
  return {DataEntry(secret, kCaCertKey), DataEntry(secret, kCaKeyKey),
          DataEntry(secret, kServingCertKey), DataEntry(secret, kServingKeyKey)};
}

Json SecretWithMaterial(Json secret, const CertificateMaterial& material) {
  SetData(&secret, material);
  return secret;
}

Json NewCertificateSecret(std::string_view ns, std::string_view name,
                          const CertificateMaterial& material) {
  Json secret = {{"apiVersion", "v1"},
                 {"kind", "Secret"},
                 {"metadata", {{"name", std::string(name)}, {"namespace", std::string(ns)}}},
                 {"type", "Opaque"}};
  SetData(&secret, material);
  return secret;
}

std::string_view ToString(CertificateAction action) {
  switch (action) {
    case CertificateAction::kKeep:
      return "keep";
    case CertificateAction::kIssueServing:
      return "issue a serving certificate";
    case CertificateAction::kIssueAll:
      return "issue a CA and a serving certificate";
  }
  return "?";
}

CertificateAction PlanCertificates(const CertificateMaterial& material,
                                   const CertificateNames& names,
                                   const CertificateValidity& validity, Time now) {
  const Time at = now + validity.lookahead;
  if (!ValidAuthority(material, names, at)) return CertificateAction::kIssueAll;
  if (!ValidServing(material, names, at)) return CertificateAction::kIssueServing;
  return CertificateAction::kKeep;
}

Result<CertificateMaterial> IssueCertificates(const CertificateMaterial& current,
                                              CertificateAction action,
                                              const CertificateNames& names,
                                              const CertificateValidity& validity, Time now) {
  if (action == CertificateAction::kKeep) return current;
  transport::CertificateAuthority ca{current.ca_cert, current.ca_key};
  if (action == CertificateAction::kIssueAll) {
    ASSIGN_OR_RETURN(ca, transport::CreateCertificateAuthority(
                             {names.ca_name, names.ca_organization, validity.ca}, now));
  }
  ASSIGN_OR_RETURN(transport::TlsIdentity serving,
                   transport::IssueServingCertificate(
                       ca, {names.dns_names, names.ip_addresses, validity.serving}, now));
  return CertificateMaterial{ca.cert_pem, ca.key_pem, serving.cert_pem, serving.key_pem};
}

bool InjectCaBundle(Json* configuration, std::string_view ca_bundle_base64) {
  auto webhooks = configuration->find("webhooks");
  if (webhooks == configuration->end() || !webhooks->is_array()) return false;
  bool changed = false;
  for (Json& webhook : *webhooks) {
    if (!webhook.is_object()) continue;
    Json& client_config = webhook["clientConfig"];
    if (!client_config.is_object()) client_config = Json::object();
    Json& bundle = client_config["caBundle"];
    if (bundle.is_string() && bundle.get_ref<const std::string&>() == ca_bundle_base64) continue;
    bundle = std::string(ca_bundle_base64);
    changed = true;
  }
  return changed;
}

}  // namespace lws::operator_webhook
