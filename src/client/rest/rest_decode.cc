// File: client/rest/rest_decode.cc
#include "client/rest/rest_decode.h"

#include "client/client.h"
#include "client/rest/watch_decoder.h"

namespace lws::rest {
namespace {

constexpr std::size_t kBodyExcerpt = 200;

// object[key] when it is a string, else "" (answers are untrusted: value() would throw).
std::string StringField(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

bool IsStatusDocument(const Json& body) {
  return body.is_object() && (StringField(body, "kind") == "Status" || body.contains("message"));
}

}  // namespace

Result<Json> DecodeAnswer(const HttpAnswer& answer, const std::string& method,
                          const std::string& url) {
  Json body = Json::parse(answer.body, nullptr, /*allow_exceptions=*/false);
  const bool success = answer.status >= 200 && answer.status < 300;
  if (!success) {
    if (IsStatusDocument(body)) return client::StatusFromAnswer(answer.status, body);
    std::string message = GoMethodName(method) + " \"" + url + "\": the server answered HTTP " +
                          std::to_string(answer.status);
    if (!answer.body.empty()) message += ": " + answer.body.substr(0, kBodyExcerpt);
    return Status(CodeFromReason("", answer.status), std::move(message));
  }
  if (body.is_discarded()) {
    return Status::Internal(GoMethodName(method) + " \"" + url +
                            "\": the answer is not JSON: " + answer.body.substr(0, kBodyExcerpt));
  }
  return body;
}

Result<store::ListResult> ListResultFrom(Json list) {
  if (!list.is_object() || !list.contains("items") ||
      !(list["items"].is_array() || list["items"].is_null())) {
    return Status::Internal("the server's list answer has no items array");
  }
  store::ListResult result;
  const Json metadata = list.contains("metadata") ? list["metadata"] : Json::object();
  if (metadata.is_object()) {
    std::string rv = StringField(metadata, "resourceVersion");
    if (!rv.empty()) {
      ASSIGN_OR_RETURN(result.resource_version, client::ParseResourceVersionText(rv));
    }
    result.continue_token = StringField(metadata, "continue");
    if (metadata.contains("remainingItemCount") &&
        metadata["remainingItemCount"].is_number_integer()) {
      result.remaining_item_count = metadata["remainingItemCount"].get<std::int64_t>();
    }
  }
  std::string kind = StringField(list, "kind");
  if (kind.size() > 4 && kind.ends_with("List")) kind.resize(kind.size() - 4);
  const std::string api_version = StringField(list, "apiVersion");
  if (list["items"].is_null()) return result;
  result.items.reserve(list["items"].size());
  for (Json& item : list["items"]) {
    if (item.is_object() && !item.contains("kind") && !kind.empty()) item["kind"] = kind;
    if (item.is_object() && !item.contains("apiVersion") && !api_version.empty()) {
      item["apiVersion"] = api_version;
    }
    ASSIGN_OR_RETURN(store::ObjectPtr stored, client::AnswerObject(std::move(item)));
    result.items.push_back(std::move(stored));
  }
  return result;
}

}  // namespace lws::rest
