// The certificate manager on the virtual loop against the embedded control plane: it creates or
// fills the Secret, writes the files, injects caBundle (again after someone overwrites it),
// rotates before expiry, and two replicas racing end up serving one Secret.
#include "operator/webhook/cert_manager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "api/base64.h"
#include "base/file.h"
#include "client/local/local_testing.h"
#include "transport/tls_certificates.h"

namespace lws::operator_webhook {
namespace {

using namespace std::chrono_literals;

const client::Resource kNamespaces{"", "v1", "namespaces", false};
const client::Resource kSecrets{"", "v1", "secrets"};
const client::Resource kMutating{"admissionregistration.k8s.io", "v1",
                                 "mutatingwebhookconfigurations", false};
const client::Resource kValidating{"admissionregistration.k8s.io", "v1",
                                   "validatingwebhookconfigurations", false};
constexpr const char* kNs = "lws-system";
constexpr const char* kSecret = "lws-webhook-server-cert";

Json Configuration(const std::string& kind, const std::string& name) {
  Json webhook = {{"name", "x.kb.io"},
                  {"admissionReviewVersions", {"v1"}},
                  {"sideEffects", "None"},
                  {"clientConfig", {{"url", "https://127.0.0.1:9443/x"}}}};
  Json second = webhook;
  second["name"] = "y.kb.io";
  return {{"apiVersion", "admissionregistration.k8s.io/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}}},
          {"webhooks", {webhook, second}}};
}

class CertManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_dir_ = std::filesystem::path(::testing::TempDir()) /
                ("cert-manager-" +
                 std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(base_dir_);
    ASSERT_TRUE(
        client_
            .Create(kNamespaces,
                    {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNs}}}})
            .ok());
  }
  void TearDown() override { std::filesystem::remove_all(base_dir_); }

  void CreateConfigurations() {
    ASSERT_TRUE(client_
                    .Create(kMutating, Configuration("MutatingWebhookConfiguration",
                                                     "lws-mutating-webhook-configuration"))
                    .ok());
    ASSERT_TRUE(client_
                    .Create(kValidating, Configuration("ValidatingWebhookConfiguration",
                                                       "lws-validating-webhook-configuration"))
                    .ok());
  }
  CertManagerOptions Options(const std::string& replica) {
    CertManagerOptions options;
    options.namespace_ = kNs;
    options.cert_dir = (base_dir_ / replica).string();
    options.extra_ip_addresses = {"127.0.0.1"};
    options.on_files_written = [this] { ++files_written_; };
    return options;
  }
  CertificateMaterial SecretMaterial() {
    return MaterialFromSecret(client_.Get(kSecrets, kNs, kSecret).value()->document());
  }
  std::uint64_t SecretVersion() {
    return client_.Get(kSecrets, kNs, kSecret).value()->resource_version();
  }
  std::string File(const std::string& replica, const std::string& name) {
    Result<std::string> text = ReadFile((base_dir_ / replica / name).string());
    return text.ok() ? *text : "";
  }
  std::vector<std::string> Bundles() {
    std::vector<std::string> bundles;
    for (const auto& [resource, name] :
         {std::pair{&kMutating, "lws-mutating-webhook-configuration"},
          std::pair{&kValidating, "lws-validating-webhook-configuration"}}) {
      for (const Json& webhook : client_.Get(*resource, "", name).value()->document()["webhooks"]) {
        bundles.push_back(webhook["clientConfig"].value("caBundle", ""));
      }
    }
    return bundles;
  }
  // Every webhook trusts `material`'s CA, and the files are `material`'s.
  void ExpectServed(const CertificateMaterial& material, const std::string& replica) {
    for (const std::string& bundle : Bundles()) {
      EXPECT_EQ(bundle, api::Base64Encode(material.ca_cert));
    }
    EXPECT_EQ(File(replica, "tls.crt"), material.serving_cert);
    EXPECT_EQ(File(replica, "tls.key"), material.serving_key);
    EXPECT_EQ(File(replica, "ca.crt"), material.ca_cert);
    EXPECT_FALSE(std::filesystem::exists(base_dir_ / replica / "ca.key"));
  }

  client::testing::ControlPlane plane_;
  client::LocalClient client_ = plane_.Client("lws-controller");
  std::filesystem::path base_dir_;
  int files_written_ = 0;
};

TEST_F(CertManagerTest, CreatesTheSecretWritesFilesAndInjectsEveryWebhook) {
  CreateConfigurations();
  CertManager manager(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  EXPECT_FALSE(manager.Ready());
  plane_.loop.RunFor(1s);
  ASSERT_TRUE(manager.Ready());
  const CertificateMaterial material = SecretMaterial();
  ExpectServed(material, "a");
  EXPECT_EQ(files_written_, 1);
  for (const char* host : {"lws-webhook-service.lws-system.svc",
                           "lws-webhook-service.lws-system.svc.cluster.local", "127.0.0.1"}) {
    EXPECT_TRUE(transport::VerifyServingCertificate(material.serving_cert, material.ca_cert, host,
                                                    plane_.loop.Now())
                    .ok())
        << host;
  }
}

TEST_F(CertManagerTest, FillsTheEmptySecretDeployShipsAndReusesAValidOne) {
  CreateConfigurations();
  ASSERT_TRUE(client_
                  .Create(kSecrets, {{"apiVersion", "v1"},
                                     {"kind", "Secret"},
                                     {"metadata", {{"name", kSecret}, {"namespace", kNs}}},
                                     {"type", "Opaque"}})
                  .ok());
  {
    CertManager manager(&plane_.loop, &client_, Options("a"));
    ASSERT_TRUE(manager.Start().ok());
    plane_.loop.RunFor(1s);
    ASSERT_TRUE(manager.Ready());
  }
  const CertificateMaterial material = SecretMaterial();
  const std::uint64_t version = SecretVersion();
  // A restarted operator keeps what is there: no Secret write, same files.
  CertManager restarted(&plane_.loop, &client_, Options("b"));
  ASSERT_TRUE(restarted.Start().ok());
  plane_.loop.RunFor(1s);
  EXPECT_TRUE(restarted.Ready());
  EXPECT_EQ(SecretVersion(), version);
  ExpectServed(material, "b");
}

TEST_F(CertManagerTest, ReadyWithoutConfigurationsAndInjectsThemOnceTheyExist) {
  CertManager manager(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  EXPECT_TRUE(manager.Ready());  // upstream skips configurations that do not exist
  CreateConfigurations();
  plane_.loop.RunFor(1s);
  ExpectServed(SecretMaterial(), "a");
}

TEST_F(CertManagerTest, ReinjectsAnOverwrittenCaBundle) {
  CreateConfigurations();
  CertManager manager(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  // kubectl apply of deploy/local resets caBundle.
  Json configuration =
      client_.Get(kValidating, "", "lws-validating-webhook-configuration").value()->document();
  configuration["webhooks"][1]["clientConfig"].erase("caBundle");
  configuration["webhooks"][0]["clientConfig"]["caBundle"] = "c3RhbGU=";
  ASSERT_TRUE(client_.Update(kValidating, configuration).ok());
  plane_.loop.RunFor(1s);
  ExpectServed(SecretMaterial(), "a");
}

TEST_F(CertManagerTest, RotatesTheServingCertificateBeforeItExpires) {
  CreateConfigurations();
  CertManager manager(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  const CertificateMaterial first = SecretMaterial();
  // Nothing changes while more than 90 days are left (checks run every 12 hours)...
  plane_.loop.RunFor(24h * (365 - 92));
  EXPECT_EQ(SecretMaterial(), first);
  EXPECT_EQ(files_written_, 1);
  // ...then the serving certificate is re-issued under the same CA, within one check.
  plane_.loop.RunFor(24h * 2 + 12h);
  const CertificateMaterial second = SecretMaterial();
  EXPECT_NE(second.serving_cert, first.serving_cert);
  EXPECT_EQ(second.ca_cert, first.ca_cert);
  EXPECT_EQ(files_written_, 2);
  ExpectServed(second, "a");
  EXPECT_TRUE(transport::VerifyServingCertificate(second.serving_cert, second.ca_cert, "127.0.0.1",
                                                  plane_.loop.Now() + 24h * 300)
                  .ok());
}

TEST_F(CertManagerTest, ReplacesTheCaBeforeItExpires) {
  CreateConfigurations();
  CertManagerOptions options = Options("a");
  options.validity.ca = 24h * 200;  // shorter than the serving certificate: the CA goes first
  CertManager manager(&plane_.loop, &client_, options);
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  const CertificateMaterial first = SecretMaterial();
  plane_.loop.RunFor(24h * 112);
  const CertificateMaterial second = SecretMaterial();
  EXPECT_NE(second.ca_cert, first.ca_cert);
  ExpectServed(second, "a");
}

TEST_F(CertManagerTest, ABrokenSecretIsReissued) {
  CreateConfigurations();
  CertManager manager(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  Json secret = client_.Get(kSecrets, kNs, kSecret).value()->document();
  secret["data"]["tls.key"] = api::Base64Encode("not a key");
  ASSERT_TRUE(client_.Update(kSecrets, secret).ok());
  plane_.loop.RunFor(1s);
  const CertificateMaterial repaired = SecretMaterial();
  EXPECT_TRUE(transport::CheckKeyMatches(repaired.serving_cert, repaired.serving_key).ok());
  ExpectServed(repaired, "a");
}

// Forwards to a client, but lets another replica write the Secret first: `rival` runs just
// before this replica's first Create or Update of a Secret, after its read.
class RacingClient final : public client::Client {
 public:
  RacingClient(const client::Client* inner, std::function<void()> rival)
      : inner_(inner), rival_(std::move(rival)) {}
  Result<store::ObjectPtr> Create(const client::Resource& r, Json o) const override {
    Race(r);
    return inner_->Create(r, std::move(o));
  }
  Result<store::ObjectPtr> Update(const client::Resource& r, Json o) const override {
    Race(r);
    return inner_->Update(r, std::move(o));
  }
  Result<store::ObjectPtr> UpdateStatus(const client::Resource& r, Json o) const override {
    return inner_->UpdateStatus(r, std::move(o));
  }
  Result<store::ObjectPtr> Patch(const client::Resource& r, const std::string& ns,
                                 const std::string& name, client::PatchType type, const Json& patch,
                                 const std::string& subresource) const override {
    return inner_->Patch(r, ns, name, type, patch, subresource);
  }
  Result<store::ObjectPtr> Delete(const client::Resource& r, const std::string& ns,
                                  const std::string& name,
                                  const client::DeleteOptions& options) const override {
    return inner_->Delete(r, ns, name, options);
  }
  Status Bind(const std::string& ns, const std::string& pod, const std::string& uid,
              const std::string& node) const override {
    return inner_->Bind(ns, pod, uid, node);
  }
  Result<store::ObjectPtr> Get(const client::Resource& r, const std::string& ns,
                               const std::string& name) const override {
    return inner_->Get(r, ns, name);
  }
  Result<store::ListResult> List(const client::Resource& r,
                                 const store::ListOptions& options) const override {
    return inner_->List(r, options);
  }
  Result<std::unique_ptr<client::Subscription>> Watch(EventLoop* loop, const client::Resource& r,
                                                      const std::string& ns,
                                                      client::WatchHandler handler) const override {
    return inner_->Watch(loop, r, ns, std::move(handler));
  }
  const std::string& field_manager() const override { return inner_->field_manager(); }
  int races() const { return races_; }

 private:
  void Race(const client::Resource& r) const {
    if (r.resource != "secrets" || !rival_) return;
    ++races_;
    auto rival = std::move(rival_);
    rival_ = nullptr;
    rival();
  }
  const client::Client* inner_;
  mutable std::function<void()> rival_;
  mutable int races_ = 0;
};

TEST_F(CertManagerTest, LosingTheCreateRaceServesTheWinnersSecret) {
  CreateConfigurations();
  const CertificateNames names =
      WebhookCertificateNames("lws-webhook-service", kNs, {}, {"127.0.0.1"});
  const CertificateMaterial winner =
      IssueCertificates({}, CertificateAction::kIssueAll, names, {}, plane_.loop.Now()).value();
  RacingClient racing(&client_, [&] {
    ASSERT_TRUE(client_.Create(kSecrets, NewCertificateSecret(kNs, kSecret, winner)).ok());
  });
  CertManager manager(&plane_.loop, &racing, Options("a"));
  ASSERT_TRUE(manager.Start().ok());
  plane_.loop.RunFor(1s);
  EXPECT_EQ(racing.races(), 1);
  EXPECT_TRUE(manager.Ready());
  EXPECT_EQ(SecretMaterial(), winner);
  ExpectServed(winner, "a");
}

TEST_F(CertManagerTest, LosingTheRotationRaceServesTheWinnersSecret) {
  CreateConfigurations();
  CertManager first(&plane_.loop, &client_, Options("a"));
  ASSERT_TRUE(first.Start().ok());
  plane_.loop.RunFor(1s);
  const CertificateMaterial original = SecretMaterial();
  // The second replica reads the expiring Secret, then the first replica's renewal lands
  // before its own Update, which therefore conflicts.
  const CertificateNames names = first.names();
  CertificateMaterial winner;
  RacingClient racing(&client_, [&] {
    winner =
        IssueCertificates(original, CertificateAction::kIssueServing, names, {}, plane_.loop.Now())
            .value();
    Json secret = client_.Get(kSecrets, kNs, kSecret).value()->document();
    ASSERT_TRUE(client_.Update(kSecrets, SecretWithMaterial(secret, winner)).ok());
  });
  first.Stop();
  plane_.loop.RunFor(24h * (365 - 89));
  CertManager second(&plane_.loop, &racing, Options("b"));
  ASSERT_TRUE(second.Start().ok());
  plane_.loop.RunFor(1s);
  EXPECT_EQ(racing.races(), 1);
  EXPECT_TRUE(second.Ready());
  EXPECT_EQ(SecretMaterial(), winner);
  EXPECT_NE(winner.serving_cert, original.serving_cert);
  ExpectServed(winner, "b");
}

TEST_F(CertManagerTest, TwoReplicasOnOneLoopServeOneSecret) {
  CreateConfigurations();
  CertManager first(&plane_.loop, &client_, Options("a"));
  client::LocalClient other_client = plane_.Client("lws-controller");
  CertManager second(&plane_.loop, &other_client, Options("b"));
  ASSERT_TRUE(first.Start().ok());
  ASSERT_TRUE(second.Start().ok());
  plane_.loop.RunFor(1s);
  EXPECT_TRUE(first.Ready());
  EXPECT_TRUE(second.Ready());
  const CertificateMaterial material = SecretMaterial();
  ExpectServed(material, "a");
  ExpectServed(material, "b");
  plane_.loop.RunFor(24h * (365 - 88));
  const CertificateMaterial renewed = SecretMaterial();
  EXPECT_NE(renewed.serving_cert, material.serving_cert);
  ExpectServed(renewed, "a");
  ExpectServed(renewed, "b");
}

}  // namespace
}  // namespace lws::operator_webhook
