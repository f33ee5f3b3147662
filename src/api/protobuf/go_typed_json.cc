// File: api/protobuf/go_typed_json.cc
#include "api/protobuf/go_typed_json.h"

#include <memory>

#include "api/base64.h"
#include "api/go_duration.h"
#include "api/go_json.h"
#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"
#include "api/quantity.h"
#include "base/clock.h"

namespace lws::api::protobuf {

namespace {

using pb::FieldDescriptor;

// What Go writes for one field: nothing, null, or a value (the zero value when `value` is null).
enum class Presence { kOmit, kNull, kWrite };

bool IsZeroScalar(const Json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) ||
         (v.is_number() && v == 0) || (v.is_boolean() && !v.get<bool>());
}

// Go types that are slices or maps: omitempty leaves out an empty one, and without omitempty a
// nil one prints null. []byte is a slice too, and so are the []string types Verbs and ExtraValue.
bool IsSliceOrMap(const FieldDescriptor* f) {
  if (f->is_repeated() || f->type() == FieldDescriptor::TYPE_BYTES) return true;
  return f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
         KubeTypes::Get().SpecialOf(f->message_type()) == Special::kStringList;
}

bool IsEmpty(const Json& v) {
  return (v.is_structured() && v.empty()) ||
         (v.is_string() && v.get_ref<const std::string&>().empty());
}

// Go's rules (header, 2 and 3) for a field whose JSON value is `value`, nullptr when absent or
// null (Go's decoder leaves the field at its zero value, or a pointer nil, for both).
Presence PresenceOf(const Json* value, const FieldDescriptor* f) {
  const KubeTypes& types = KubeTypes::Get();
  const bool always = types.IsAlwaysWritten(f);
  if (IsSliceOrMap(f)) {
    if (value == nullptr) return always ? Presence::kNull : Presence::kOmit;
    return IsEmpty(*value) && !always ? Presence::kOmit : Presence::kWrite;
  }
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    if (types.IsGoStruct(f) || value != nullptr) return Presence::kWrite;
    return always ? Presence::kNull : Presence::kOmit;
  }
  if (types.IsGoPointer(f)) {
    if (value != nullptr) return Presence::kWrite;
    return always ? Presence::kNull : Presence::kOmit;
  }
  if (!always && (value == nullptr || IsZeroScalar(*value))) return Presence::kOmit;
  return Presence::kWrite;
}

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  // A value of `type`; null is the zero value.
  Status Message(const Json& value, const pb::Descriptor* type) {
    const Special special = KubeTypes::Get().SpecialOf(type);
    if (special != Special::kNone) return SpecialValue(special, value, type);
    out_->push_back('{');
    bool first = true;
    RETURN_IF_ERROR(Fields(value, type, &first));
    out_->push_back('}');
    return Status::Ok();
  }

  // The fields of `type` read from `object` (an object or null), each preceded by a comma unless
  // it is the first of its Go object.
  Status Fields(const Json& object, const pb::Descriptor* type, bool* first) {
    for (int i = 0; i < type->field_count(); ++i)
      RETURN_IF_ERROR(Field(object, type->field(i), first));
    return Status::Ok();
  }

  void Key(std::string_view name, bool* first) {
    if (!*first) out_->push_back(',');
    *first = false;
    AppendGoJsonString(name, out_);
    out_->push_back(':');
  }

 private:
  Status Field(const Json& object, const FieldDescriptor* f, bool* first) {
    const KubeTypes& types = KubeTypes::Get();
    // An embedded struct's fields are promoted into its parent, at the embedding's position.
    if (types.IsInline(f)) return Fields(object, f->message_type(), first);
    const std::string& name = types.JsonName(f);
    const Json* value = nullptr;
    if (object.is_object()) {
      auto it = object.find(name);
      if (it != object.end() && !it->is_null()) value = &*it;
    }
    const Presence presence = PresenceOf(value, f);
    if (presence == Presence::kOmit) return Status::Ok();
    Key(name, first);
    if (presence == Presence::kNull) return (out_->append("null"), Status::Ok());
    const Json zero;
    return FieldValue(value == nullptr ? zero : *value, f);
  }

  Status FieldValue(const Json& value, const FieldDescriptor* f) {
    if (f->is_map()) return Map(value, f->message_type()->map_value());
    if (!f->is_repeated()) return Element(value, f);
    out_->push_back('[');
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out_->push_back(',');
      RETURN_IF_ERROR(Element(value[i], f));
    }
    out_->push_back(']');
    return Status::Ok();
  }

  // nlohmann objects iterate in byte order of their keys, the order Go sorts map keys in.
  Status Map(const Json& value, const FieldDescriptor* element) {
    out_->push_back('{');
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      Key(it.key(), &first);
      RETURN_IF_ERROR(Element(*it, element));
    }
    out_->push_back('}');
    return Status::Ok();
  }

  // One value of `f`'s element type; null (an absent field, a null list item) is its zero value.
  Status Element(const Json& value, const FieldDescriptor* f) {
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) return Message(value, f->message_type());
    return Scalar(value, f);
  }

  Status Scalar(const Json& value, const FieldDescriptor* f);
  Status SpecialValue(Special special, const Json& value, const pb::Descriptor* type);
  Status SchemaAlternatives(Special special, const Json& value, const pb::Descriptor* type);
  Status QuantityValue(const Json& value);
  Status TimeValue(const Json& value, bool micro);

  std::string* out_;
};

Status Writer::Scalar(const Json& value, const FieldDescriptor* f) {
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING: {
      const std::string text = value.is_string() ? value.get<std::string>() : std::string();
      if (f->type() != FieldDescriptor::TYPE_BYTES)
        return (AppendGoJsonString(text, out_), Status::Ok());
      // []byte prints as standard base64 of the decoded bytes, whatever line breaks came in.
      ASSIGN_OR_RETURN(std::string bytes, Base64Decode(text));
      AppendGoJsonString(Base64Encode(bytes), out_);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_BOOL:
      out_->append(value.is_boolean() && value.get<bool>() ? "true" : "false");
      return Status::Ok();
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT:
      out_->append(value.is_number() ? FormatGoFloat(value.get<double>()) : "0");
      return Status::Ok();
    default:
      // Integers: JsonToMessage has checked that the number is an integer in the field's range.
      if (value.is_number_unsigned()) {
        out_->append(std::to_string(value.get<std::uint64_t>()));
      } else {
        out_->append(value.is_number() ? std::to_string(value.get<std::int64_t>()) : "0");
      }
      return Status::Ok();
  }
}

// Quantity.UnmarshalJSON trims spaces and parses; MarshalJSON prints the canonical form, "0" for
// the zero value.
Status Writer::QuantityValue(const Json& value) {
  if (value.is_null()) return (out_->append("\"0\""), Status::Ok());
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  const std::size_t begin = text.find_first_not_of(" \t\n\v\f\r");
  const std::size_t end = text.find_last_not_of(" \t\n\v\f\r");
  text = begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
  Result<Quantity> quantity = Quantity::Parse(text);
  if (!quantity.ok()) return Status::BadRequest(quantity.status().message());
  AppendGoJsonString(quantity->String(), out_);
  return Status::Ok();
}

// metav1.Time and MicroTime print the UTC instant, or null for the zero time.
Status Writer::TimeValue(const Json& value, bool micro) {
  if (!value.is_string()) return (out_->append("null"), Status::Ok());
  Result<Time> time = ParseRfc3339(value.get_ref<const std::string&>());
  if (!time.ok()) return Status::BadRequest(time.status().message());
  AppendGoJsonString(micro ? FormatRfc3339Micro(*time) : FormatRfc3339(*time), out_);
  return Status::Ok();
}

Status Writer::SpecialValue(Special special, const Json& value, const pb::Descriptor* type) {
  switch (special) {
    case Special::kTime:
    case Special::kMicroTime:
      return TimeValue(value, special == Special::kMicroTime);
    case Special::kDuration: {
      Duration d(0);
      if (value.is_string()) {
        ASSIGN_OR_RETURN(d, ParseGoDuration(value.get_ref<const std::string&>()));
      }
      AppendGoJsonString(FormatGoDuration(d), out_);
      return Status::Ok();
    }
    case Special::kQuantity:
      return QuantityValue(value);
    case Special::kIntOrString:
      if (value.is_string())
        return (AppendGoJsonString(value.get<std::string>(), out_), Status::Ok());
      out_->append(value.is_number() ? std::to_string(value.get<std::int64_t>()) : "0");
      return Status::Ok();
    case Special::kFieldsV1:
    case Special::kRawExtension:
    case Special::kRawJson:
      // Go copies the raw input text; its parsed form is the nearest this codec keeps.
      out_->append(MarshalGoJson(value));
      return Status::Ok();
    case Special::kStringList:
      if (!value.is_array()) return (out_->append("null"), Status::Ok());
      return FieldValue(value, type->FindFieldByNumber(1));
    default:
      return SchemaAlternatives(special, value, type);
  }
}

// The apiextensions unions print whichever alternative is set: JSONSchemaPropsOrBool a schema or
// a boolean (false when unset), OrArray and OrStringArray a list or a schema (null when unset).
Status Writer::SchemaAlternatives(Special special, const Json& value, const pb::Descriptor* type) {
  if (value.is_boolean()) return (out_->append(value.get<bool>() ? "true" : "false"), Status::Ok());
  if (value.is_null())
    return (out_->append(special == Special::kSchemaOrBool ? "false" : "null"), Status::Ok());
  if (value.is_array()) return FieldValue(value, type->FindFieldByNumber(2));
  const int schema_field = special == Special::kSchemaOrBool ? 2 : 1;
  return Message(value, type->FindFieldByNumber(schema_field)->message_type());
}

// Checks `object` against `type` as Go's decoder would, with Go's wording of a misfit.
Status Check(const Json& object, const pb::Descriptor* type) {
  if (object.is_null()) return Status::Ok();
  std::unique_ptr<pb::Message> message = KubeTypes::Get().New(type);
  return JsonToMessage(object, message.get());
}

}  // namespace

Status AppendGoTyped(const Json& object, const pb::Descriptor* type, std::string* out) {
  RETURN_IF_ERROR(Check(object, type));
  std::string bytes;
  Writer writer(&bytes);
  RETURN_IF_ERROR(writer.Message(object, type));
  out->append(bytes);
  return Status::Ok();
}

Result<std::string> MarshalGoTyped(const Json& object, std::string_view message_full_name) {
  const pb::Descriptor* type =
      KubeTypes::Get().pool().FindMessageTypeByName(std::string(message_full_name));
  if (type == nullptr) return Status::NotFound("no Go type " + std::string(message_full_name));
  std::string out;
  RETURN_IF_ERROR(AppendGoTyped(object, type, &out));
  return out;
}

Result<std::string> MarshalGoTypedObject(const Json& object) {
  if (!object.is_object()) return Status::BadRequest("an object must be a JSON object");
  const Json kind = object.value("kind", Json());
  const Json api_version = object.value("apiVersion", Json());
  for (const Json* meta : {&kind, &api_version}) {
    if (!meta->is_null() && !meta->is_string()) {
      return Status::BadRequest("json: cannot unmarshal " + std::string(GoJsonKind(*meta)) +
                                " into Go struct field TypeMeta of type string");
    }
  }
  const std::string kind_text = kind.is_string() ? kind.get<std::string>() : "";
  const std::string version_text = api_version.is_string() ? api_version.get<std::string>() : "";
  const pb::Descriptor* type = KubeTypes::Get().Find(version_text, kind_text);
  if (type == nullptr) return Status::NotFound("no Go type for " + version_text + " " + kind_text);
  RETURN_IF_ERROR(Check(object, type));
  std::string out = "{";
  Writer writer(&out);
  bool first = true;
  if (!kind_text.empty()) {
    writer.Key("kind", &first);
    AppendGoJsonString(kind_text, &out);
  }
  if (!version_text.empty()) {
    writer.Key("apiVersion", &first);
    AppendGoJsonString(version_text, &out);
  }
  RETURN_IF_ERROR(writer.Fields(object, type, &first));
  out.push_back('}');
  return out;
}

}  // namespace lws::api::protobuf
