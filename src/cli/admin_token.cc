// File: cli/admin_token.cc
#include "cli/admin_token.h"

#include <fmt/format.h>
#include <openssl/rand.h>

#include <array>
#include <filesystem>

#include "base/file.h"

namespace lws::cli {
namespace {

constexpr std::size_t kTokenBytes = 32;

// A stored token is what RandomToken wrote: anything else means the file was edited or damaged,
// and guessing would lock the user out with a token their kubeconfig does not hold.
bool LooksLikeToken(const std::string& token) {
  if (token.size() != 2 * kTokenBytes) return false;
  return token.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

Result<std::string> RandomToken() {
  std::array<unsigned char, kTokenBytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return Status::Internal("cannot draw a random admin token: OpenSSL's RAND_bytes failed");
  }
  std::string token;
  token.reserve(2 * kTokenBytes);
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  return token;
}

Result<std::string> AdminToken(const std::string& given, const std::string& data_dir) {
  if (!given.empty()) return given;
  if (data_dir.empty()) return RandomToken();
  const std::string path = (std::filesystem::path(data_dir) / "admin.token").string();
  if (FileExists(path)) {
    ASSIGN_OR_RETURN(std::string stored, ReadFile(path));
    while (!stored.empty() && (stored.back() == '\n' || stored.back() == '\r')) stored.pop_back();
    if (!LooksLikeToken(stored)) {
      return Status::BadRequest(path +
                                ": not an admin token written by lws (64 hex digits); "
                                "remove the file to have a new one made, or pass --token");
    }
    return stored;
  }
  ASSIGN_OR_RETURN(std::string token, RandomToken());
  RETURN_IF_ERROR(WriteFileAtomically(path, token + "\n", /*owner_only=*/true));
  return token;
}

}  // namespace lws::cli
