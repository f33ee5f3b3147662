// Fuzzes the decoding of a watch response body (client/rest/watch_decoder.h), the bytes a remote
// API server controls: the object splitter must find the same objects however the body is cut
// into reads, every object it emits must start with '{' and end with a closing bracket, and every
// emitted object must decode as a watch event or fail with BadRequest. The same bytes are also read
// as a list answer (rest_decode.h), which must fail as a Status, never by throwing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "client/rest/rest_decode.h"
#include "client/rest/watch_decoder.h"

namespace {

struct Split {
  std::vector<std::string> objects;
  bool ok = true;
};

// Feeds `body` in pieces whose sizes cycle through `cuts` (1..16 bytes; whole when empty).
Split Feed(std::string_view body, std::string_view cuts) {
  lws::rest::JsonObjectSplitter splitter(1 << 16);
  Split split;
  auto emit = [&](std::string_view object) { split.objects.emplace_back(object); };
  std::size_t at = 0;
  for (std::size_t i = 0; at < body.size() && split.ok; ++i) {
    std::size_t n =
        cuts.empty() ? body.size() : 1 + static_cast<unsigned char>(cuts[i % cuts.size()]) % 16;
    n = std::min(n, body.size() - at);
    split.ok = splitter.Feed(body.substr(at, n), emit).ok();
    at += n;
  }
  return split;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // The first bytes, up to a NUL, choose the read sizes; the rest is the body.
  std::size_t nul = input.find('\0');
  std::string_view cuts = nul == std::string_view::npos
                              ? std::string_view()
                              : input.substr(0, std::min<std::size_t>(nul, 8));
  std::string_view body = nul == std::string_view::npos ? input : input.substr(nul + 1);

  Split whole = Feed(body, {});
  Split pieces = Feed(body, cuts);
  if (whole.ok != pieces.ok) std::abort();
  if (whole.ok && whole.objects != pieces.objects) std::abort();
  for (const std::string& object : whole.objects) {
    // Brackets are counted, not matched: "{[}]" is emitted, and then fails to decode.
    if (object.front() != '{' || (object.back() != '}' && object.back() != ']')) std::abort();
    auto event = lws::rest::DecodeWatchEvent(object);
    if (!event.ok() && event.status().code() != lws::Code::kBadRequest) std::abort();
  }
  lws::api::Json list = lws::api::Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!list.is_discarded()) (void)lws::rest::ListResultFrom(std::move(list));
  return 0;
}
