// File: apiserver/request_body.cc
#include "apiserver/request_body.h"

#include "api/yaml.h"

namespace lws::apiserver {

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

}  // namespace lws::apiserver
