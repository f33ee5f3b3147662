#include "api/disaggregatedset_crd.h"

#include "api/crd_embed.h"
#include "api/schema.h"
#include "base/assert.h"

// Defined in the generated ds_crd_data.S and dsrs_crd_data.S.
extern "C" const char ds_crd_json_begin[];
extern "C" const char ds_crd_json_end[];
extern "C" const char dsrs_crd_json_begin[];
extern "C" const char dsrs_crd_json_end[];

namespace lws::api {
namespace {

StructuralSchema CompileV1(const Json& crd, std::string_view what) {
  auto schema = StructuralSchema::Compile(CrdVersionSchema(crd, "v1", what));
  LWS_ASSERT(schema.ok(), "embedded " + std::string(what) +
                              " schema does not compile: " + schema.status().ToString());
  return *schema;
}

}  // namespace

const Json& DisaggregatedSetCrd() {
  static const Json crd = ParseEmbeddedCrd(
      std::string_view(ds_crd_json_begin, ds_crd_json_end - ds_crd_json_begin), "DisaggregatedSet");
  return crd;
}

const Json& DisaggregatedSetRoleScalerCrd() {
  static const Json crd = ParseEmbeddedCrd(
      std::string_view(dsrs_crd_json_begin, dsrs_crd_json_end - dsrs_crd_json_begin),
      "DisaggregatedSetRoleScaler");
  return crd;
}

const StructuralSchema& DisaggregatedSetStructuralSchema() {
  static const StructuralSchema schema = CompileV1(DisaggregatedSetCrd(), "DisaggregatedSet");
  return schema;
}

const StructuralSchema& RoleScalerStructuralSchema() {
  static const StructuralSchema schema =
      CompileV1(DisaggregatedSetRoleScalerCrd(), "DisaggregatedSetRoleScaler");
  return schema;
}

}  // namespace lws::api
