// The pure certificate decisions: names, the Secret's entries, the keep/re-issue plan at the
// lookahead, and caBundle injection.
#include "operator/webhook/cert_secret.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/base64.h"
#include "transport/tls_certificates.h"

namespace lws::operator_webhook {
namespace {

using ::testing::ElementsAre;
using namespace std::chrono_literals;

const Time kNow = Time(std::chrono::seconds(1'700'000'000));

class CertSecretTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    names_ = new CertificateNames(
        WebhookCertificateNames("lws-webhook-service", "lws-system", {}, {"127.0.0.1"}));
    fresh_ = new CertificateMaterial(
        IssueCertificates({}, CertificateAction::kIssueAll, *names_, {}, kNow).value());
  }
  static void TearDownTestSuite() {
    delete names_;
    delete fresh_;
  }
  static const CertificateNames* names_;
  static const CertificateMaterial* fresh_;  // issued at kNow, RSA keys are slow to make
};
const CertificateNames* CertSecretTest::names_ = nullptr;
const CertificateMaterial* CertSecretTest::fresh_ = nullptr;

TEST_F(CertSecretTest, NamesAreTheServiceNamesThenTheExtras) {
  const CertificateNames names =
      WebhookCertificateNames("svc", "ns", {"webhook.example"}, {"127.0.0.1"});
  EXPECT_EQ(names.ca_name, "lws-ca");
  EXPECT_EQ(names.ca_organization, "lws");
  EXPECT_THAT(names.dns_names,
              ElementsAre("svc.ns.svc", "svc.ns.svc.cluster.local", "webhook.example"));
  EXPECT_THAT(names.ip_addresses, ElementsAre("127.0.0.1"));
}

TEST_F(CertSecretTest, IssuedMaterialIsWhatCertControllerWrites) {
  EXPECT_EQ(fresh_->ca_key.rfind("-----BEGIN RSA PRIVATE KEY-----", 0), 0u);
  EXPECT_EQ(fresh_->serving_key.rfind("-----BEGIN RSA PRIVATE KEY-----", 0), 0u);
  EXPECT_THAT(transport::SubjectAltNames(fresh_->ca_cert).value(), ElementsAre("DNS:lws-ca"));
  EXPECT_THAT(transport::SubjectAltNames(fresh_->serving_cert).value(),
              ElementsAre("DNS:lws-webhook-service.lws-system.svc",
                          "DNS:lws-webhook-service.lws-system.svc.cluster.local", "IP:127.0.0.1"));
  for (const char* host : {"lws-webhook-service.lws-system.svc", "127.0.0.1"}) {
    EXPECT_TRUE(
        transport::VerifyServingCertificate(fresh_->serving_cert, fresh_->ca_cert, host, kNow).ok())
        << host;
  }
  // Valid from an hour before issuing; the serving certificate for a year.
  EXPECT_TRUE(transport::VerifyServingCertificate(fresh_->serving_cert, fresh_->ca_cert,
                                                  "127.0.0.1", kNow - 59min)
                  .ok());
  EXPECT_FALSE(transport::VerifyServingCertificate(fresh_->serving_cert, fresh_->ca_cert,
                                                   "127.0.0.1", kNow + 24h * 366)
                   .ok());
}

TEST_F(CertSecretTest, SecretDataRoundTrips) {
  Json secret = NewCertificateSecret("lws-system", "lws-webhook-server-cert", *fresh_);
  EXPECT_EQ(secret["type"], "Opaque");
  EXPECT_EQ(secret["metadata"]["namespace"], "lws-system");
  EXPECT_EQ(secret["data"]["tls.crt"], api::Base64Encode(fresh_->serving_cert));
  EXPECT_EQ(MaterialFromSecret(secret), *fresh_);
  secret["data"]["other"] = "eA==";
  const Json rewritten = SecretWithMaterial(secret, CertificateMaterial{"a", "b", "c", "d"});
  EXPECT_EQ(rewritten["data"]["other"], "eA==");
  EXPECT_EQ(MaterialFromSecret(rewritten), (CertificateMaterial{"a", "b", "c", "d"}));
  // deploy/webhook/secret.yaml ships the Secret without data; garbage reads as missing.
  EXPECT_EQ(MaterialFromSecret(Json::parse(R"({"data":{"ca.crt":"%%%"}})")), CertificateMaterial{});
}

TEST_F(CertSecretTest, PlanKeepsValidMaterialUntilTheLookahead) {
  const CertificateValidity validity;
  EXPECT_EQ(PlanCertificates(*fresh_, *names_, validity, kNow), CertificateAction::kKeep);
  // 90 days before the serving certificate's year is over, it is re-issued; the CA stays.
  EXPECT_EQ(PlanCertificates(*fresh_, *names_, validity, kNow + 24h * (365 - 91)),
            CertificateAction::kKeep);
  EXPECT_EQ(PlanCertificates(*fresh_, *names_, validity, kNow + 24h * (365 - 89)),
            CertificateAction::kIssueServing);
  // And the CA 90 days before its ten years.
  EXPECT_EQ(PlanCertificates(*fresh_, *names_, validity, kNow + 24h * (3650 - 89)),
            CertificateAction::kIssueAll);
}

TEST_F(CertSecretTest, PlanReissuesWhatIsMissingBrokenOrForOtherNames) {
  const CertificateValidity validity;
  EXPECT_EQ(PlanCertificates({}, *names_, validity, kNow), CertificateAction::kIssueAll);
  CertificateMaterial broken = *fresh_;
  broken.ca_key = fresh_->serving_key;  // not the CA's key
  EXPECT_EQ(PlanCertificates(broken, *names_, validity, kNow), CertificateAction::kIssueAll);
  broken = *fresh_;
  broken.serving_key = fresh_->ca_key;
  EXPECT_EQ(PlanCertificates(broken, *names_, validity, kNow), CertificateAction::kIssueServing);
  broken = *fresh_;
  broken.serving_cert.clear();
  EXPECT_EQ(PlanCertificates(broken, *names_, validity, kNow), CertificateAction::kIssueServing);
  const CertificateNames other =
      WebhookCertificateNames("lws-webhook-service", "lws-system", {}, {"10.0.0.1"});
  EXPECT_EQ(PlanCertificates(*fresh_, other, validity, kNow), CertificateAction::kIssueServing);
}

TEST_F(CertSecretTest, IssueServingKeepsTheCa) {
  const CertificateMaterial renewed =
      IssueCertificates(*fresh_, CertificateAction::kIssueServing, *names_, {}, kNow + 24h * 300)
          .value();
  EXPECT_EQ(renewed.ca_cert, fresh_->ca_cert);
  EXPECT_EQ(renewed.ca_key, fresh_->ca_key);
  EXPECT_NE(renewed.serving_cert, fresh_->serving_cert);
  EXPECT_EQ(PlanCertificates(renewed, *names_, {}, kNow + 24h * 300), CertificateAction::kKeep);
  EXPECT_EQ(IssueCertificates(*fresh_, CertificateAction::kKeep, *names_, {}, kNow).value(),
            *fresh_);
}

TEST_F(CertSecretTest, InjectCaBundleSetsEveryWebhookOnce) {
  Json configuration = Json::parse(R"({"webhooks":[
      {"name":"a","clientConfig":{"service":{"name":"s"}}},
      {"name":"b","clientConfig":{"url":"https://127.0.0.1:9443/x","caBundle":"b2xk"}},
      {"name":"c"}]})");
  EXPECT_TRUE(InjectCaBundle(&configuration, "Y2E="));
  for (const Json& webhook : configuration["webhooks"]) {
    EXPECT_EQ(webhook["clientConfig"]["caBundle"], "Y2E=") << webhook.dump();
  }
  EXPECT_EQ(configuration["webhooks"][0]["clientConfig"]["service"]["name"], "s");
  EXPECT_FALSE(InjectCaBundle(&configuration, "Y2E="));
  Json empty = Json::object();
  EXPECT_FALSE(InjectCaBundle(&empty, "Y2E="));
}

}  // namespace
}  // namespace lws::operator_webhook
