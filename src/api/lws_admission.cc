#include "api/lws_admission.h"

#include "api/lws_defaults.h"
#include "api/lws_validation.h"
#include "api/object_meta_validation.h"
#include "api/schema.h"

namespace lws::api {

namespace {

// Decodes a typed LWS; type errors become field errors.
bool DecodeTyped(const Json& object, LeaderWorkerSet* out, ErrorList* errors) {
  ErrorList decode_errors = DecodeInto(object, out);
  errors->insert(errors->end(), decode_errors.begin(), decode_errors.end());
  return decode_errors.empty();
}

}  // namespace

LwsAdmission AdmitLeaderWorkerSet(const Json& object, const Json* old_object) {
  LwsAdmission result;
  const StructuralSchema& schema = LwsStructuralSchema();
  Json pruned = object;
  result.unknown_fields = schema.Prune(&pruned);
  schema.ApplyDefaults(&pruned);

  LeaderWorkerSet lws;
  ErrorList decode_errors = DecodeInto(pruned, &lws);
  if (!decode_errors.empty()) {
    // A value of the wrong type never reaches a webhook on a real server: the schema rejects it
    // first, with its own message. Report that one when the schema sees the problem.
    ErrorList schema_errors = schema.Validate(pruned);
    result.errors = schema_errors.empty() ? decode_errors : schema_errors;
    return result;
  }
  DefaultLeaderWorkerSet(&lws);  // The mutating webhook.
  result.object = Encode(lws);

  result.errors = ValidateCustomResource(result.object, lws.metadata, schema);
  if (!result.errors.empty()) return result;  // The validating webhook is not consulted.

  if (old_object != nullptr) {
    LeaderWorkerSet old;
    if (!DecodeTyped(*old_object, &old, &result.errors)) return result;
    result.errors = ValidateLeaderWorkerSetUpdate(lws, old);
  } else {
    result.errors = ValidateLeaderWorkerSet(lws);
  }
  return result;
}

}  // namespace lws::api
