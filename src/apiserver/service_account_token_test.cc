// ServiceAccount tokens: signed and checked by one key, refused when changed,
// late or foreign, and still valid after a restart that loads the kept key.
#include "apiserver/service_account_token.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace lws::apiserver {
namespace {

TokenClaims Claims(Time now) {
  return {.audiences = {std::string(kTokenIssuer)},
          .issued_at = now,
          .expires_at = now + std::chrono::hours(1),
          .namespace_ = "lws-system",
          .service_account = "lws-controller-manager",
          .service_account_uid = "uid-1",
          .bound_kind = "Pod",
          .bound_name = "p",
          .bound_uid = "uid-2",
          .id = "jti-1"};
}

const Time kNow = Time(std::chrono::seconds(1'800'000'000));

TEST(TokenSignerTest, SignsAndVerifies) {
  auto signer = TokenSigner::Create(std::nullopt).value();
  // No token issued yet: nothing verifies.
  EXPECT_EQ(signer->Verify("a.b.c", kNow).status().code(), Code::kUnauthorized);
  const std::string token = signer->Sign(Claims(kNow)).value();
  EXPECT_TRUE(TokenSigner::LooksLikeJwt(token));
  TokenClaims claims = signer->Verify(token, kNow + std::chrono::minutes(5)).value();
  EXPECT_EQ(claims.namespace_, "lws-system");
  EXPECT_EQ(claims.service_account, "lws-controller-manager");
  EXPECT_EQ(claims.service_account_uid, "uid-1");
  EXPECT_EQ(claims.bound_kind, "Pod");
  EXPECT_EQ(claims.bound_uid, "uid-2");
  EXPECT_EQ(claims.audiences, std::vector<std::string>{std::string(kTokenIssuer)});
  admission::UserInfo user = ServiceAccountUser(claims);
  EXPECT_EQ(user.name, "system:serviceaccount:lws-system:lws-controller-manager");
  EXPECT_EQ(user.extra.at("authentication.kubernetes.io/pod-name"), std::vector<std::string>{"p"});
  // Late, early, changed, or signed by another key.
  EXPECT_EQ(signer->Verify(token, kNow + std::chrono::hours(1) + std::chrono::minutes(2))
                .status()
                .message(),
            "invalid bearer token, the token has expired");
  EXPECT_EQ(signer->Verify(token, kNow - std::chrono::minutes(2)).status().message(),
            "invalid bearer token, the token is not valid yet");
  std::string changed = token;
  changed[changed.find('.') + 3] ^= 1;
  EXPECT_FALSE(signer->Verify(changed, kNow).ok());
  auto other = TokenSigner::Create(std::nullopt).value();
  (void)other->Sign(Claims(kNow)).value();
  EXPECT_EQ(other->Verify(token, kNow).status().message(),
            "invalid bearer token, the signature does not match this server's key");
  EXPECT_FALSE(signer->Verify("not-a-jwt", kNow).ok());
}

TEST(TokenSignerTest, KeptKeyOutlivesARestart) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("sa_key_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path key = dir / "sa.key";
  auto first = TokenSigner::Create(key).value();
  EXPECT_FALSE(std::filesystem::exists(key));  // made with the first token
  const std::string token = first->Sign(Claims(kNow)).value();
  struct stat st {};
  ASSERT_EQ(stat(key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto second = TokenSigner::Create(key).value();
  EXPECT_TRUE(second->Verify(token, kNow).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lws::apiserver
