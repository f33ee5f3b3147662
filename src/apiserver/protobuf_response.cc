// File: apiserver/protobuf_response.cc
#include "apiserver/protobuf_response.h"

#include <spdlog/spdlog.h>
#include <strings.h>

#include "api/field.h"
#include "api/protobuf/envelope.h"
#include "apiserver/media_type.h"

namespace lws::apiserver {

bool PrefersProtobuf(std::string_view accept) {
  for (const MediaRange& range : ParseAccept(accept)) {
    if (range.type == "application" && range.subtype == "vnd.kubernetes.protobuf" &&
        range.Param("as").empty()) {
      return true;
    }
    if (range.Accepts("application", "json")) return false;
  }
  return false;
}

void EncodeAsProtobuf(transport::HttpResponse* response) {
  if (response->stream != nullptr || response->body.empty()) return;
  for (auto& [name, value] : response->headers.fields) {
    if (!(name.size() == 12 && strcasecmp(name.c_str(), "Content-Type") == 0)) continue;
    if (value != "application/json") return;  // a Table, a discovery document: JSON only
    api::Json object = api::Json::parse(response->body, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object()) return;
    if (!api::protobuf::HasProtobuf(object.value("apiVersion", ""), object.value("kind", "")))
      return;
    Result<std::string> bytes = api::protobuf::EncodeObject(object);
    if (!bytes.ok()) {
      // Stored objects fit their types, so this is a defect; JSON is still an answer the client
      // accepts (it sent */* too).
      spdlog::warn("answering {} {} in JSON: {}", object.value("kind", ""),
                   object["metadata"].value("name", ""), bytes.status().message());
      return;
    }
    response->body = std::move(*bytes);
    value = std::string(api::protobuf::kProtobufMediaType);
    return;
  }
}

}  // namespace lws::apiserver
