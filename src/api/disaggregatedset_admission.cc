#include "api/disaggregatedset_admission.h"

#include "api/codec.h"
#include "api/disaggregatedset_crd.h"
#include "api/disaggregatedset_validation.h"
#include "api/object_meta_validation.h"
#include "api/schema.h"

namespace lws::api {

DsAdmission AdmitDisaggregatedSet(const Json& object) {
  DsAdmission result;
  const StructuralSchema& schema = DisaggregatedSetStructuralSchema();
  result.object = object;
  result.unknown_fields = schema.Prune(&result.object);
  schema.ApplyDefaults(&result.object);

  DisaggregatedSet ds;
  ErrorList decode_errors = DecodeInto(result.object, &ds);
  if (!decode_errors.empty()) {
    // A value of the wrong type never reaches a webhook: the schema words it, when it sees it.
    ErrorList schema_errors = schema.Validate(result.object);
    result.errors = schema_errors.empty() ? decode_errors : schema_errors;
    return result;
  }
  // The server's checks come first and a webhook never sees an object that fails them.
  result.errors = ValidateCustomResource(result.object, ds.metadata, schema);
  if (!result.errors.empty()) return result;

  DsValidation webhook = ValidateDisaggregatedSet(ds);
  result.errors = std::move(webhook.errors);
  result.warnings = std::move(webhook.warnings);
  return result;
}

}  // namespace lws::api
