#include "api/lws_crd.h"

#include <string>

#include "api/crd_embed.h"
#include "base/assert.h"

// Defined in the generated lws_crd_data.S.
extern "C" const char lws_crd_json_begin[];
extern "C" const char lws_crd_json_end[];

namespace lws::api {

Json ParseEmbeddedCrd(std::string_view text, std::string_view what) {
  Json parsed = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  // The text was produced by our own converter at build time; failing here is a build bug.
  LWS_ASSERT(parsed.is_object(), "embedded " + std::string(what) + " CRD is not a JSON object");
  return parsed;
}

const Json& CrdVersionSchema(const Json& crd, std::string_view version, std::string_view what) {
  const Json* versions = nullptr;
  if (crd.contains("spec") && crd["spec"].contains("versions")) versions = &crd["spec"]["versions"];
  if (versions && versions->is_array()) {
    for (const Json& v : *versions) {
      if (v.is_object() && v.value("name", "") == version && v.contains("schema") &&
          v["schema"].contains("openAPIV3Schema")) {
        return v["schema"]["openAPIV3Schema"];
      }
    }
  }
  LWS_ASSERT(false,
             "embedded " + std::string(what) + " CRD has no version " + std::string(version));
  return crd;
}

std::string_view LwsCrdJsonText() {
  return std::string_view(lws_crd_json_begin, lws_crd_json_end - lws_crd_json_begin);
}

const Json& LwsCrd() {
  static const Json crd = ParseEmbeddedCrd(LwsCrdJsonText(), "LWS");
  return crd;
}

const Json& LwsOpenApiSchema() {
  static const Json& schema = CrdVersionSchema(LwsCrd(), "v1", "LWS");
  return schema;
}

}  // namespace lws::api
