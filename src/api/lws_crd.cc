#include "api/lws_crd.h"

#include "base/assert.h"

// Defined in the generated lws_crd_data.S.
extern "C" const char lws_crd_json_begin[];
extern "C" const char lws_crd_json_end[];

namespace lws::api {

std::string_view LwsCrdJsonText() {
  return std::string_view(lws_crd_json_begin, lws_crd_json_end - lws_crd_json_begin);
}

const Json& LwsCrd() {
  static const Json crd = [] {
    std::string_view text = LwsCrdJsonText();
    Json parsed = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    // The text was produced by our own converter at build time; failing here is a build bug.
    LWS_ASSERT(parsed.is_object(), "embedded LWS CRD is not a JSON object");
    return parsed;
  }();
  return crd;
}

const Json& LwsOpenApiSchema() {
  static const Json* schema = [] {
    const Json& crd = LwsCrd();
    const Json* versions = nullptr;
    if (crd.contains("spec") && crd["spec"].contains("versions"))
      versions = &crd["spec"]["versions"];
    if (versions && versions->is_array()) {
      for (const Json& v : *versions) {
        if (v.is_object() && v.value("name", "") == "v1" && v.contains("schema") &&
            v["schema"].contains("openAPIV3Schema")) {
          return &v["schema"]["openAPIV3Schema"];
        }
      }
    }
    LWS_ASSERT(false, "embedded LWS CRD has no v1 version");
    return static_cast<const Json*>(nullptr);
  }();
  return *schema;
}

}  // namespace lws::api
