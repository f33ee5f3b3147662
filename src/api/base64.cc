#include "api/base64.h"

#include <array>
#include <cstdint>

namespace lws::api {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Status Illegal(std::size_t offset) {
  return Status::BadRequest("illegal base64 data at input byte " + std::to_string(offset));
}

// Appends the bytes of one complete quantum; `count` sextets (2..4) are
// significant.
void EmitQuantum(const std::array<int, 4>& q, int count, std::string& out) {
  std::uint32_t bits = (q[0] << 18) | (q[1] << 12) | (q[2] << 6) | q[3];
  out.push_back(static_cast<char>((bits >> 16) & 0xff));
  if (count > 2) out.push_back(static_cast<char>((bits >> 8) & 0xff));
  if (count > 3) out.push_back(static_cast<char>(bits & 0xff));
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kAlphabet[n & 63] : '=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  std::string out;
  std::array<int, 4> quantum{};
  int filled = 0;         // sextets in the current quantum
  int padding = 0;        // '=' seen in the current quantum
  bool finished = false;  // a padded quantum ended the data
  std::size_t last = 0;   // offset of the last significant character
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r' || c == '\n') continue;
    if (finished) return Illegal(i);
    last = i;
    if (c == '=') {
      // Padding may only fill the last one or two places of a quantum.
      if (filled < 2) return Illegal(i);
      ++padding;
      quantum[filled++] = 0;
    } else {
      int v = Base64Sextet(c);
      if (v < 0 || padding > 0) return Illegal(i);
      quantum[filled++] = v;
    }
    if (filled == 4) {
      EmitQuantum(quantum, 4 - padding, out);
      finished = padding > 0;
      filled = 0;
      padding = 0;
      quantum = {};
    }
  }
  // Go reports a truncated quantum at its start (CorruptInputError(si - j)).
  if (filled != 0) return Illegal(padding > 0 ? last : text.size() - filled);
  return out;
}

int Base64Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace lws::api
