// Fuzzes Kubernetes protobuf decoding (api/protobuf/envelope.h), the bytes any client may send
// as a request body with `Content-Type: application/vnd.kubernetes.protobuf`: DecodeObject must
// answer every input with an object or a Status, never crash, and an object it decodes must
// encode again (or be refused with a Status) without crashing. The first byte picks the kind the
// rest is read as when it is not an envelope, so the fuzzer reaches every message type quickly.
// A decoded object also goes through Go's typed json.Marshal (api/protobuf/go_typed_json.h), which
// must answer it with bytes or a Status.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/protobuf/envelope.h"
#include "api/protobuf/go_typed_json.h"

namespace {

constexpr const char* kKinds[][2] = {
    {"v1", "Pod"},
    {"v1", "ConfigMap"},
    {"v1", "Secret"},
    {"v1", "Service"},
    {"v1", "Node"},
    {"v1", "Namespace"},
    {"apps/v1", "StatefulSet"},
    {"apps/v1", "Deployment"},
    {"v1", "DeleteOptions"},
    {"policy/v1", "Eviction"},
    {"authorization.k8s.io/v1", "SelfSubjectAccessReview"},
    {"apiextensions.k8s.io/v1", "CustomResourceDefinition"},
    {"v1", "Status"},
};

// An envelope around `raw` for kind `k`, built with the encoder from an empty object of that kind.
std::string Envelope(std::size_t k, std::string_view raw) {
  lws::api::Json object = {{"apiVersion", kKinds[k][0]}, {"kind", kKinds[k][1]}};
  lws::Result<std::string> empty = lws::api::protobuf::EncodeObject(object);
  if (!empty.ok()) return std::string();
  // runtime.Unknown: typeMeta (field 1), then raw (field 2): append a raw field; the last wins.
  std::string out = *empty;
  out.push_back(static_cast<char>(0x12));
  std::size_t n = raw.size();
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  out.append(raw);
  return out;
}

void Check(const std::string& bytes) {
  lws::Result<lws::api::Json> decoded = lws::api::protobuf::DecodeObject(bytes);
  if (!decoded.ok()) return;
  (void)lws::api::protobuf::EncodeObject(*decoded);
  (void)lws::api::protobuf::MarshalGoTypedObject(*decoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  Check(input);
  if (size > 0) {
    const std::size_t k = data[0] % (sizeof(kKinds) / sizeof(kKinds[0]));
    Check(Envelope(k, std::string_view(input).substr(1)));
  }
  return 0;
}
