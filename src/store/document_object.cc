#include "store/document_object.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lws::store {
namespace {

// object[key] when it is a string, else "": answers from a remote server are untrusted, and
// Json::value would throw on a field of another type.
std::string StringField(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

Status StatusFromDocument(int http_code, const Json& body) {
  std::string reason;
  std::string message = "the server answered HTTP " + std::to_string(http_code);
  std::vector<FieldCause> causes;
  if (body.is_object()) {
    if (body.contains("reason") && body["reason"].is_string()) reason = body["reason"];
    if (body.contains("message") && body["message"].is_string()) message = body["message"];
    const Json* details = body.contains("details") ? &body["details"] : nullptr;
    if (details && details->contains("causes") && (*details)["causes"].is_array()) {
      for (const Json& c : (*details)["causes"]) {
        causes.push_back(
            {StringField(c, "reason"), StringField(c, "message"), StringField(c, "field")});
      }
    }
  }
  return Status(CodeFromReason(reason, http_code), std::move(message), std::move(causes));
}

Result<std::uint64_t> ParseResourceVersionText(std::string_view text) {
  auto not_decimal = [text] {
    return Status::BadRequest("resourceVersion \"" + std::string(text) +
                              "\" is not a decimal number");
  };
  if (text.empty() || text.size() > 19) return not_decimal();
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return not_decimal();
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

Result<ObjectPtr> DocumentObject(Json answer) {
  if (!answer.is_object()) return Status::Internal("the server answered with a non-object");
  std::uint64_t rv = 0;
  const std::string text = MetaString(answer, "resourceVersion");
  if (!text.empty()) {
    Result<std::uint64_t> parsed = ParseResourceVersionText(text);
    if (!parsed.ok()) {
      ObjectName name = NameOf(answer);
      return Status::Internal("object " + name.namespace_ + "/" + name.name + ": " +
                              parsed.status().message());
    }
    rv = *parsed;
  }
  // Kept as the server sent it (MakeStoredObject would add metadata to a Status document).
  return ObjectPtr(std::make_shared<StoredObject>(std::move(answer), rv));
}

}  // namespace lws::store
