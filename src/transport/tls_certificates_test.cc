// Tests of the self-signed certificates: each property a TLS client relies on is checked through
// OpenSSL's own verification, and every check is also shown to fail on a certificate that lacks
// the property (another CA, another key, another name, another time).
#include "transport/tls_certificates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace lws::transport {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const Time kNow = Time(std::chrono::seconds(1'800'000'000));

TlsIdentity MustCreate(const SelfSignedRequest& request = {}) {
  Result<TlsIdentity> identity = CreateSelfSigned(request, kNow);
  EXPECT_TRUE(identity.ok()) << identity.status().message();
  return identity.ok() ? *identity : TlsIdentity{};
}

TEST(SelfSignedTest, ServingCertificateVerifiesAgainstItsCaForEveryLocalName) {
  const TlsIdentity identity = MustCreate();
  EXPECT_THAT(identity.cert_pem, HasSubstr("-----BEGIN CERTIFICATE-----"));
  EXPECT_THAT(identity.key_pem, HasSubstr("-----BEGIN PRIVATE KEY-----"));
  EXPECT_NE(identity.ca_pem, identity.cert_pem);
  for (const char* host : {"localhost", "127.0.0.1", "::1"}) {
    Status verified = VerifyServingCertificate(identity.cert_pem, identity.ca_pem, host, kNow);
    EXPECT_TRUE(verified.ok()) << host << ": " << verified.message();
  }
}

TEST(SelfSignedTest, SubjectAltNamesAreTheRequestedOnes) {
  Result<std::vector<std::string>> names = SubjectAltNames(MustCreate().cert_pem);
  ASSERT_TRUE(names.ok()) << names.status().message();
  EXPECT_THAT(*names, ElementsAre("DNS:localhost", "IP:127.0.0.1", "IP:::1"));

  SelfSignedRequest custom;
  custom.dns_names = {"lws.example", "api.lws.example"};
  custom.ip_addresses = {"10.0.0.7"};
  names = SubjectAltNames(MustCreate(custom).cert_pem);
  ASSERT_TRUE(names.ok());
  EXPECT_THAT(*names, ElementsAre("DNS:lws.example", "DNS:api.lws.example", "IP:10.0.0.7"));
}

TEST(SelfSignedTest, KeyMatchesOnlyItsOwnCertificate) {
  const TlsIdentity a = MustCreate();
  const TlsIdentity b = MustCreate();
  EXPECT_TRUE(CheckKeyMatches(a.cert_pem, a.key_pem).ok());
  Status mismatch = CheckKeyMatches(a.cert_pem, b.key_pem);
  EXPECT_FALSE(mismatch.ok());
  EXPECT_THAT(mismatch.message(), HasSubstr("does not belong"));
  EXPECT_FALSE(CheckKeyMatches(a.cert_pem, "not a key").ok());
}

TEST(SelfSignedTest, VerificationFailsForAnotherCaNameOrTime) {
  const TlsIdentity a = MustCreate();
  const TlsIdentity b = MustCreate();
  Status other_ca = VerifyServingCertificate(a.cert_pem, b.ca_pem, "localhost", kNow);
  EXPECT_FALSE(other_ca.ok());
  EXPECT_THAT(other_ca.message(), HasSubstr("unable to get local issuer certificate"));
  Status other_name = VerifyServingCertificate(a.cert_pem, a.ca_pem, "lws.example", kNow);
  EXPECT_THAT(other_name.message(), HasSubstr("hostname mismatch"));
  Status other_ip = VerifyServingCertificate(a.cert_pem, a.ca_pem, "10.1.2.3", kNow);
  EXPECT_THAT(other_ip.message(), HasSubstr("IP address mismatch"));
  Status expired = VerifyServingCertificate(a.cert_pem, a.ca_pem, "localhost",
                                            kNow + std::chrono::hours(24 * 366));
  EXPECT_THAT(expired.message(), HasSubstr("certificate has expired"));
  Status early =
      VerifyServingCertificate(a.cert_pem, a.ca_pem, "localhost", kNow - std::chrono::hours(2));
  EXPECT_THAT(early.message(), HasSubstr("not yet valid"));
  // The serving certificate is no CA: trusting it as one issues nothing.
  EXPECT_FALSE(VerifyServingCertificate(a.ca_pem, a.cert_pem, "localhost", kNow).ok());
}

TEST(SelfSignedTest, LastCertificateOfAChainIsItsIssuer) {
  const TlsIdentity identity = MustCreate();
  Result<std::string> last = LastCertificate(identity.cert_pem + identity.ca_pem);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(*last, identity.ca_pem);
  EXPECT_FALSE(LastCertificate("garbage").ok());
}

class SelfSignedFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tls_files_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SelfSignedFilesTest, CreatedOnceThenReused) {
  Result<TlsIdentity> first = LoadOrCreateSelfSigned(dir_.string(), {}, kNow);
  ASSERT_TRUE(first.ok()) << first.status().message();
  struct stat key_stat {};
  ASSERT_EQ(::stat((dir_ / "tls.key").c_str(), &key_stat), 0);
  EXPECT_EQ(key_stat.st_mode & 0777, 0600);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "ca.crt"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "ca.key"));

  Result<TlsIdentity> second =
      LoadOrCreateSelfSigned(dir_.string(), {}, kNow + std::chrono::hours(1));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->ca_pem, first->ca_pem);
  EXPECT_EQ(second->cert_pem, first->cert_pem);
  EXPECT_EQ(second->key_pem, first->key_pem);
}

TEST_F(SelfSignedFilesTest, ReplacedWhenBrokenForOtherNamesOrExpired) {
  Result<TlsIdentity> first = LoadOrCreateSelfSigned(dir_.string(), {}, kNow);
  ASSERT_TRUE(first.ok());
  std::ofstream(dir_ / "tls.key") << MustCreate().key_pem;  // someone else's key
  Result<TlsIdentity> repaired = LoadOrCreateSelfSigned(dir_.string(), {}, kNow);
  ASSERT_TRUE(repaired.ok());
  EXPECT_NE(repaired->cert_pem, first->cert_pem);
  EXPECT_TRUE(CheckKeyMatches(repaired->cert_pem, repaired->key_pem).ok());

  SelfSignedRequest more;
  more.dns_names = {"localhost", "lws.example"};
  Result<TlsIdentity> renamed = LoadOrCreateSelfSigned(dir_.string(), more, kNow);
  ASSERT_TRUE(renamed.ok());
  EXPECT_NE(renamed->cert_pem, repaired->cert_pem);
  EXPECT_TRUE(
      VerifyServingCertificate(renamed->cert_pem, renamed->ca_pem, "lws.example", kNow).ok());

  Result<TlsIdentity> later =
      LoadOrCreateSelfSigned(dir_.string(), more, kNow + std::chrono::hours(24 * 400));
  ASSERT_TRUE(later.ok());
  EXPECT_NE(later->ca_pem, renamed->ca_pem);
}

}  // namespace
}  // namespace lws::transport
