// File: apiserver/request_body.cc
#include "apiserver/request_body.h"

#include "api/yaml.h"

namespace lws::apiserver {
namespace {

bool IsProtobuf(std::string_view content_type) {
  return content_type.find("protobuf") != std::string_view::npos;
}

Status ProtobufBodyError() {
  return Status(Code::kUnsupportedMediaType,
                "the body of the request was in an unknown format - accepted media types "
                "include: application/json, application/yaml (this server reads JSON only; "
                "`kubectl create namespace|service ...` send protobuf: write the object with "
                "`--dry-run=client -o json | kubectl apply -f -` instead)");
}

}  // namespace

Result<api::Json> DecodeJsonBody(const std::string& body, std::string_view context) {
  try {
    return api::Json::parse(body);
  } catch (const api::Json::exception& e) {
    return Status::BadRequest(std::string(context) + ": " + e.what());
  }
}

Result<api::Json> DecodeYamlBody(const std::string& body) {
  Result<api::Json> yaml = api::LoadYaml(body);
  if (!yaml.ok()) return Status::BadRequest("error decoding YAML: " + yaml.status().message());
  return yaml;
}

Result<api::Json> ParseObjectBody(std::string_view content_type, const std::string& body) {
  if (IsProtobuf(content_type)) return ProtobufBodyError();
  if (content_type.find("yaml") != std::string_view::npos) return DecodeYamlBody(body);
  return DecodeJsonBody(body, "couldn't get version/kind; json parse error");
}

Result<api::Json> ParsePatchBody(PatchType type, const std::string& body) {
  if (type == PatchType::kApply) return DecodeYamlBody(body);
  return DecodeJsonBody(body, "error decoding patch");
}

}  // namespace lws::apiserver
