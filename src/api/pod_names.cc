#include "api/pod_names.h"

#include <openssl/evp.h>

#include <limits>

#include "api/field.h"
#include "api/intstr.h"
#include "base/assert.h"

namespace lws::api {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::pair<std::string, int> GetParentNameAndOrdinal(std::string_view name) {
  // In Go's regexp '.' does not match '\n' and '$' means end of text, so only the text after the
  // last newline can match; the greedy "(.*)" puts the split at that text's last '-'.
  const std::size_t newline = name.rfind('\n');
  const std::string_view line = newline == std::string_view::npos ? name : name.substr(newline + 1);
  const std::size_t dash = line.rfind('-');
  if (dash == std::string_view::npos) return {"", -1};
  const std::string_view digits = line.substr(dash + 1);
  if (digits.empty()) return {"", -1};
  for (char c : digits) {
    if (!IsDigit(c)) return {"", -1};
  }
  std::string parent(line.substr(0, dash));
  // strconv.ParseInt(digits, 10, 32): out of range keeps the parent but leaves the ordinal at -1.
  std::int64_t ordinal = 0;
  for (char c : digits) {
    ordinal = ordinal * 10 + (c - '0');
    if (ordinal > std::numeric_limits<std::int32_t>::max()) return {std::move(parent), -1};
  }
  return {std::move(parent), static_cast<int>(ordinal)};
}

namespace {

std::string DigestHex(std::string_view data, const EVP_MD* md) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  const int ok = EVP_Digest(data.data(), data.size(), digest, &length, md, nullptr);
  LWS_ASSERT(ok == 1 && length == static_cast<unsigned>(EVP_MD_get_size(md)), "EVP_Digest failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string Sha1Hex(std::string_view data) { return DigestHex(data, EVP_sha1()); }

std::string Sha256Hex(std::string_view data) { return DigestHex(data, EVP_sha256()); }

std::string GroupUniqueKey(std::string_view ns, std::string_view pod_name) {
  return Sha1Hex(std::string(ns) + "/" + std::string(pod_name));
}

std::string SubGroupUniqueKey(std::string_view leader_name, std::string_view sub_group_index) {
  return Sha1Hex(std::string(leader_name) + "/" + std::string(sub_group_index));
}

Result<std::string> SubGroupIndex(std::int64_t size, std::int64_t sub_group_size,
                                  std::int64_t worker_index) {
  if (sub_group_size == 0) return DivideByZeroPanic();
  const bool leader_is_extra =
      GoRem(GoSub(size, 1), sub_group_size) == 0 && GoRem(size, sub_group_size) != 0;
  const std::int64_t index = leader_is_extra ? GoQuo(GoSub(worker_index, 1), sub_group_size)
                                             : GoQuo(worker_index, sub_group_size);
  return std::to_string(index);
}

Result<std::int64_t> ParseGoInt(std::string_view text) {
  auto parsed = GoAtoi(text);
  if (!parsed.ok()) return WebhookDenied(parsed.status().message());
  return parsed;
}

Status WebhookDenied(std::string message) { return Status(Code::kForbidden, std::move(message)); }

Status DivideByZeroPanic() {
  return Status::Internal("panic: runtime error: integer divide by zero [recovered]");
}

std::int64_t GoAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

std::int64_t GoSub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

std::int64_t GoMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

std::int64_t GoQuo(std::int64_t a, std::int64_t b) {
  LWS_ASSERT(b != 0, "GoQuo: division by zero");
  if (b == -1) return GoSub(0, a);  // MinInt64 / -1 wraps to MinInt64.
  return a / b;
}

std::int64_t GoRem(std::int64_t a, std::int64_t b) {
  LWS_ASSERT(b != 0, "GoRem: division by zero");
  if (b == -1) return 0;
  return a % b;
}

}  // namespace lws::api
