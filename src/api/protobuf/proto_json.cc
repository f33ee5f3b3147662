// File: api/protobuf/proto_json.cc
#include "api/protobuf/proto_json.h"

#include <chrono>
#include <limits>
#include <string_view>

#include "api/base64.h"
#include "api/go_duration.h"
#include "api/go_json.h"
#include "api/json_depth.h"
#include "api/protobuf/kube_types.h"
#include "base/clock.h"

namespace lws::api::protobuf {

namespace {

using pb::FieldDescriptor;
using pb::Message;
using pb::Reflection;

Result<Json> ToJson(const Message& message);

Result<Json> ParseRaw(const std::string& raw, std::string_view what) {
  if (raw.empty()) return Json();
  if (std::string deep = JsonTextDepthError(raw); !deep.empty()) return Status::BadRequest(deep);
  Json parsed = Json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded())
    return Status::BadRequest(std::string(what) + " does not hold valid JSON");
  return parsed;
}

// Field `number` of a special message; special messages are read by number because their proto
// names are Go's (FieldsV1's field is "Raw").
const FieldDescriptor* Number(const Message& m, int number) {
  return m.GetDescriptor()->FindFieldByNumber(number);
}

Result<Json> TimeJson(const Message& m, bool micro) {
  const Reflection* r = m.GetReflection();
  const FieldDescriptor* seconds = Number(m, 1);
  const FieldDescriptor* nanos = Number(m, 2);
  if (!r->HasField(m, seconds) && !r->HasField(m, nanos)) return Json();  // Go's zero time: null
  // Time counts nanoseconds in 64 bits (late 1677 to early 2262): a moment beyond that is refused,
  // not wrapped around.
  constexpr std::int64_t kMaxSeconds = std::numeric_limits<std::int64_t>::max() / 1'000'000'000 - 1;
  const std::int64_t s = r->GetInt64(m, seconds);
  const std::int32_t ns = r->GetInt32(m, nanos);
  if (s < -kMaxSeconds || s > kMaxSeconds || ns < 0 || ns > 999'999'999) {
    return Status::BadRequest("a time of " + std::to_string(s) + " s and " + std::to_string(ns) +
                              " ns is out of the supported range (years 1678 to 2261)");
  }
  const Time t = Time(std::chrono::seconds(s) + std::chrono::nanoseconds(ns));
  return Json(micro ? FormatRfc3339Micro(t) : FormatRfc3339(t));
}

// Strings become JSON text, which must be UTF-8 (protobuf's proto2 strings need not be).
Result<Json> Text(std::string s) {
  if (!IsValidUtf8(s)) return Status::BadRequest("a string field holds invalid UTF-8");
  return Json(std::move(s));
}

Result<Json> SchemaAlternatives(Special special, const Message& m) {
  const Reflection* r = m.GetReflection();
  if (special == Special::kSchemaOrBool) {
    if (r->HasField(m, Number(m, 2))) return ToJson(r->GetMessage(m, Number(m, 2)));
    return Json(r->GetBool(m, Number(m, 1)));
  }
  const FieldDescriptor* list = Number(m, 2);
  if (special == Special::kSchemaOrStrings && r->FieldSize(m, list) > 0) {
    Json strings = Json::array();
    for (int i = 0; i < r->FieldSize(m, list); ++i) {
      ASSIGN_OR_RETURN(Json item, Text(r->GetRepeatedString(m, list, i)));
      strings.push_back(std::move(item));
    }
    return strings;
  }
  if (r->HasField(m, Number(m, 1))) return ToJson(r->GetMessage(m, Number(m, 1)));
  if (special == Special::kSchemaOrArray && r->FieldSize(m, list) > 0) {
    Json schemas = Json::array();
    for (int i = 0; i < r->FieldSize(m, list); ++i) {
      ASSIGN_OR_RETURN(Json schema, ToJson(r->GetRepeatedMessage(m, list, i)));
      schemas.push_back(std::move(schema));
    }
    return schemas;
  }
  return Json();
}

Result<Json> SpecialJson(Special special, const Message& m) {
  const Reflection* r = m.GetReflection();
  switch (special) {
    case Special::kTime:
      return TimeJson(m, false);
    case Special::kMicroTime:
      return TimeJson(m, true);
    case Special::kDuration:
      return Json(FormatGoDuration(Duration(r->GetInt64(m, Number(m, 1)))));
    case Special::kFieldsV1:
      return ParseRaw(r->GetString(m, Number(m, 1)), "fieldsV1");
    case Special::kRawExtension:
      return ParseRaw(r->GetString(m, Number(m, 1)), "an embedded object");
    case Special::kRawJson:
      return ParseRaw(r->GetString(m, Number(m, 1)), "a JSON value");
    case Special::kIntOrString:
      if (r->GetInt64(m, Number(m, 1)) == 1) return Text(r->GetString(m, Number(m, 3)));
      return Json(r->GetInt32(m, Number(m, 2)));
    case Special::kQuantity:
      return Text(r->GetString(m, Number(m, 1)));
    case Special::kStringList: {
      Json items = Json::array();
      const FieldDescriptor* f = Number(m, 1);
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        ASSIGN_OR_RETURN(Json item, Text(r->GetRepeatedString(m, f, i)));
        items.push_back(std::move(item));
      }
      return items;
    }
    case Special::kSchemaOrArray:
    case Special::kSchemaOrBool:
    case Special::kSchemaOrStrings:
      return SchemaAlternatives(special, m);
    case Special::kNone:
      break;
  }
  return ToJson(m);
}

Result<Json> MessageJson(const Message& m) {
  const Special special = KubeTypes::Get().SpecialOf(m.GetDescriptor());
  return special == Special::kNone ? ToJson(m) : SpecialJson(special, m);
}

// One value of a scalar field (index < 0: a singular field).
Result<Json> ScalarJson(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return Json(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
    case FieldDescriptor::CPPTYPE_INT64:
      return Json(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
    case FieldDescriptor::CPPTYPE_UINT32:
      return Json(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
    case FieldDescriptor::CPPTYPE_UINT64:
      return Json(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return Json(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return Json(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return Json(rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f));
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string s = rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
      if (f->type() == FieldDescriptor::TYPE_BYTES) return Json(Base64Encode(s));
      return Text(std::move(s));
    }
    default:
      return Json();  // Kubernetes' messages have no enums
  }
}

bool IsZero(const Json& v) {
  return (v.is_string() && v.get_ref<const std::string&>().empty()) || (v.is_number() && v == 0) ||
         (v.is_boolean() && !v.get<bool>());
}

Result<Json> ElementJson(const Message& m, const FieldDescriptor* f, int index) {
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return ScalarJson(m, f, index);
  const Reflection* r = m.GetReflection();
  return MessageJson(index >= 0 ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f));
}

Result<Json> MapJson(const Message& m, const FieldDescriptor* f) {
  const Reflection* r = m.GetReflection();
  Json out = Json::object();
  for (int i = 0; i < r->FieldSize(m, f); ++i) {
    const Message& entry = r->GetRepeatedMessage(m, f, i);
    const FieldDescriptor* key = entry.GetDescriptor()->map_key();
    ASSIGN_OR_RETURN(Json value, ElementJson(entry, entry.GetDescriptor()->map_value(), -1));
    const std::string name = entry.GetReflection()->GetString(entry, key);
    if (!IsValidUtf8(name)) return Status::BadRequest("a map key holds invalid UTF-8");
    out[name] = std::move(value);
  }
  return out;
}

// The JSON of one field, or null when Go would leave it out.
Result<Json> FieldJson(const Message& m, const FieldDescriptor* f) {
  const Reflection* r = m.GetReflection();
  if (f->is_map()) return r->FieldSize(m, f) == 0 ? Result<Json>(Json()) : MapJson(m, f);
  if (f->is_repeated()) {
    if (r->FieldSize(m, f) == 0) return Json();
    Json items = Json::array();
    for (int i = 0; i < r->FieldSize(m, f); ++i) {
      ASSIGN_OR_RETURN(Json item, ElementJson(m, f, i));
      items.push_back(std::move(item));
    }
    return items;
  }
  if (!r->HasField(m, f)) return Json();
  ASSIGN_OR_RETURN(Json value, ElementJson(m, f, -1));
  const KubeTypes& types = KubeTypes::Get();
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE && IsZero(value) && !types.IsGoPointer(f) &&
      !types.IsAlwaysWritten(f)) {
    return Json();
  }
  return value;
}

Result<Json> ToJson(const Message& m) {
  Json out = Json::object();
  const pb::Descriptor* type = m.GetDescriptor();
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* f = type->field(i);
    ASSIGN_OR_RETURN(Json value, FieldJson(m, f));
    if (KubeTypes::Get().IsInline(f)) {
      if (value.is_object()) out.update(value);
      continue;
    }
    // A message field that is set prints even when Go's value is null (a zero Time).
    if (!value.is_null() || (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
                             !f->is_repeated() && m.GetReflection()->HasField(m, f))) {
      out[KubeTypes::Get().JsonName(f)] = std::move(value);
    }
  }
  return out;
}

}  // namespace

Result<Json> MessageToJson(const pb::Message& message) { return MessageJson(message); }

}  // namespace lws::api::protobuf
