// File: apiserver/request_body.cc
#include "apiserver/request_body.h"

#include "api/go_json_syntax.h"
#include "api/json_depth.h"
#include "api/protobuf/envelope.h"
#include "api/yaml.h"

namespace lws::apiserver {
namespace {

bool IsProtobuf(std::string_view content_type) {
  return content_type.find("protobuf") != std::string_view::npos;
}

}  // namespace

Result<api::Json> DecodeJsonBody(const std::string& body, std::string_view context) {
  if (std::string deep = api::JsonTextDepthError(body); !deep.empty()) {
    return Status::BadRequest(std::string(context) + ": " + deep);
  }
  api::Json parsed = api::Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed;
  // Worded as Go's decoder words it, as kube-apiserver's clients expect.
  std::string why = api::GoJsonSyntaxError(body);
  if (why.empty()) why = "invalid JSON";  // a text Go reads but the JSON library does not
  return Status::BadRequest(std::string(context) + ": " + why);
}

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
