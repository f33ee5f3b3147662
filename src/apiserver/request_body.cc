// File: apiserver/request_body.cc
#include "apiserver/request_body.h"

#include "api/protobuf/envelope.h"
#include "api/yaml.h"

namespace lws::apiserver {
namespace {

bool IsProtobuf(std::string_view content_type) {
  return content_type.find("protobuf") != std::string_view::npos;
}

}  // namespace

Result<api::Json> DecodeYamlBody(const std::string& body) {
  Result<api::Json> yaml = api::LoadYaml(body);
  if (!yaml.ok()) return Status::BadRequest("error decoding YAML: " + yaml.status().message());
  return yaml;
}

Result<api::Json> ParseObjectBody(std::string_view content_type, const std::string& body) {
  if (IsProtobuf(content_type)) return api::protobuf::DecodeObject(body);
  if (content_type.find("yaml") != std::string_view::npos) return DecodeYamlBody(body);
  return DecodeJsonBody(body, "couldn't get version/kind; json parse error");
}

Result<api::Json> ParsePatchBody(PatchType type, const std::string& body) {
  if (type == PatchType::kApply) return DecodeYamlBody(body);
  return DecodeJsonBody(body, "error decoding patch");
}

}  // namespace lws::apiserver
