#include "api/lws_admission.h"

#include "api/lws_defaults.h"
#include "api/lws_validation.h"

namespace lws::api {

namespace {

// Decodes a typed LWS; type errors become field errors (the schema normally catches them first).
bool DecodeTyped(const Json& object, LeaderWorkerSet* out, ErrorList* errors) {
  ErrorList decode_errors = DecodeInto(object, out);
  errors->insert(errors->end(), decode_errors.begin(), decode_errors.end());
  return decode_errors.empty();
}

}  // namespace

LwsAdmission AdmitLeaderWorkerSet(const Json& object, const Json* old_object) {
  LwsAdmission result;
  LeaderWorkerSet lws;
  if (!DecodeTyped(object, &lws, &result.errors)) return result;
  DefaultLeaderWorkerSet(&lws);
  result.object = Encode(lws);
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
