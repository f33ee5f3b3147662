// File: api/protobuf/json_proto.cc
#include "api/protobuf/json_proto.h"

#include <cmath>
#include <limits>

#include "api/base64.h"
#include "api/go_duration.h"
#include "api/go_json.h"
#include "api/protobuf/kube_types.h"
#include "base/clock.h"

namespace lws::api::protobuf {

namespace {

using pb::FieldDescriptor;
using pb::Message;
using pb::Reflection;

std::string ScalarGoType(const FieldDescriptor* f) {
  switch (f->type()) {
    case FieldDescriptor::TYPE_INT32:
      return "int32";
    case FieldDescriptor::TYPE_INT64:
      return "int64";
    case FieldDescriptor::TYPE_UINT32:
      return "uint32";
    case FieldDescriptor::TYPE_UINT64:
      return "uint64";
    case FieldDescriptor::TYPE_DOUBLE:
      return "float64";
    case FieldDescriptor::TYPE_FLOAT:
      return "float32";
    case FieldDescriptor::TYPE_BOOL:
      return "bool";
    case FieldDescriptor::TYPE_BYTES:
      return "[]uint8";
    default:
      return "string";
  }
}

// The Go type of one element of `f` (its value type for a map).
std::string ElementGoType(const FieldDescriptor* f) {
  if (f->is_map()) return ElementGoType(f->message_type()->map_value());
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return ScalarGoType(f);
  return KubeTypes::GoTypeName(f->message_type());
}

class Decoder {
 public:
  Status Fill(const Json& object, Message* m) {
    const KubeTypes& types = KubeTypes::Get();
    const pb::Descriptor* type = m->GetDescriptor();
    const Reflection* r = m->GetReflection();
    for (int i = 0; i < type->field_count(); ++i) {
      const FieldDescriptor* f = type->field(i);
      if (!types.IsInline(f)) continue;
      // An inline struct reads its fields from the parent's object; set only when one is there.
      std::unique_ptr<Message> inner(r->GetMessage(*m, f).New());
      RETURN_IF_ERROR(Fill(object, inner.get()));
      if (inner->ByteSizeLong() > 0) r->MutableMessage(m, f)->CopyFrom(*inner);
    }
    for (const auto& [key, value] : object.items()) {
      const FieldDescriptor* f = types.FieldByJsonName(type, key);
      if (f == nullptr || types.IsInline(f) || value.is_null()) continue;
      const std::string outer = struct_;
      struct_ = type->name();
      path_.push_back(key);
      Status status = SetField(value, f, m);
      path_.pop_back();
      struct_ = outer;
      RETURN_IF_ERROR(status);
    }
    return Status::Ok();
  }

  Status Special(Special special, const Json& v, Message* m);

 private:
  Status TypeError(std::string_view kind, const std::string& go_type) const {
    std::string where = path_.empty() ? "Go value" : "Go struct field " + struct_ + ".";
    for (std::size_t i = 0; i < path_.size(); ++i) where += (i ? "." : "") + path_[i];
    return Status::BadRequest("json: cannot unmarshal " + std::string(kind) + " into " + where +
                              " of type " + go_type);
  }

  Status Message_(const Json& v, Message* m) {
    const auto special = KubeTypes::Get().SpecialOf(m->GetDescriptor());
    if (special != Special::kNone) return Special(special, v, m);
    if (!v.is_object()) return TypeError(GoJsonKind(v), KubeTypes::GoTypeName(m->GetDescriptor()));
    return Fill(v, m);
  }

  Status SetField(const Json& v, const FieldDescriptor* f, Message* m) {
    const Reflection* r = m->GetReflection();
    if (f->is_map()) {
      if (!v.is_object()) return TypeError(GoJsonKind(v), "map[string]" + ElementGoType(f));
      for (const auto& [key, item] : v.items()) {
        Message* entry = r->AddMessage(m, f);
        entry->GetReflection()->SetString(entry, f->message_type()->map_key(), key);
        if (item.is_null()) continue;
        RETURN_IF_ERROR(SetOne(item, f->message_type()->map_value(), entry));
      }
      return Status::Ok();
    }
    if (f->is_repeated()) {
      if (!v.is_array()) return TypeError(GoJsonKind(v), "[]" + ElementGoType(f));
      for (const Json& item : v) RETURN_IF_ERROR(AddOne(item, f, m));
      return Status::Ok();
    }
    return SetOne(v, f, m);
  }

  Status AddOne(const Json& v, const FieldDescriptor* f, Message* m) {
    const Reflection* r = m->GetReflection();
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      Message* item = r->AddMessage(m, f);
      return v.is_null() ? Status::Ok() : Message_(v, item);
    }
    // A null element of a scalar slice is Go's zero value.
    return Scalar(v.is_null() ? Json() : v, f, m, /*add=*/true);
  }

  Status SetOne(const Json& v, const FieldDescriptor* f, Message* m) {
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      return Message_(v, m->GetReflection()->MutableMessage(m, f));
    }
    return Scalar(v, f, m, /*add=*/false);
  }

  Status Integer(const Json& v, const FieldDescriptor* f, std::int64_t lo, std::uint64_t hi,
                 std::int64_t* out) {
    const std::string type = ScalarGoType(f);
    if (v.is_null()) return (*out = 0, Status::Ok());
    if (!v.is_number()) return TypeError(GoJsonKind(v), type);
    if (v.is_number_unsigned() && v.get<std::uint64_t>() <= hi) {
      *out = static_cast<std::int64_t>(v.get<std::uint64_t>());
      return Status::Ok();
    }
    if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() >= lo &&
        (v.get<std::int64_t>() < 0 || static_cast<std::uint64_t>(v.get<std::int64_t>()) <= hi)) {
      *out = v.get<std::int64_t>();
      return Status::Ok();
    }
    return TypeError("number " + v.dump(), type);
  }

  Status Scalar(const Json& v, const FieldDescriptor* f, Message* m, bool add);

  std::vector<std::string> path_;
  std::string struct_;
};

Status Decoder::Scalar(const Json& v, const FieldDescriptor* f, Message* m, bool add) {
  const Reflection* r = m->GetReflection();
  std::int64_t n = 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      RETURN_IF_ERROR(Integer(v, f, std::numeric_limits<std::int32_t>::min(),
                              std::numeric_limits<std::int32_t>::max(), &n));
      add ? r->AddInt32(m, f, static_cast<std::int32_t>(n))
          : r->SetInt32(m, f, static_cast<std::int32_t>(n));
      return Status::Ok();
    case FieldDescriptor::CPPTYPE_INT64:
      RETURN_IF_ERROR(Integer(v, f, std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::max(), &n));
      add ? r->AddInt64(m, f, n) : r->SetInt64(m, f, n);
      return Status::Ok();
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      if (!v.is_null() && !v.is_number()) return TypeError(GoJsonKind(v), "float64");
      const double d = v.is_null() ? 0.0 : v.get<double>();
      add ? r->AddDouble(m, f, d) : r->SetDouble(m, f, d);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      if (!v.is_null() && !v.is_boolean()) return TypeError(GoJsonKind(v), "bool");
      const bool b = !v.is_null() && v.get<bool>();
      add ? r->AddBool(m, f, b) : r->SetBool(m, f, b);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      if (!v.is_null() && !v.is_string()) return TypeError(GoJsonKind(v), ScalarGoType(f));
      std::string s = v.is_null() ? "" : v.get<std::string>();
      if (f->type() == FieldDescriptor::TYPE_BYTES) {
        Result<std::string> bytes = Base64Decode(s);
        if (!bytes.ok()) return Status::BadRequest(bytes.status().message());
        s = std::move(*bytes);
      }
      add ? r->AddString(m, f, std::move(s)) : r->SetString(m, f, std::move(s));
      return Status::Ok();
    }
    default:
      return TypeError(GoJsonKind(v), ScalarGoType(f));
  }
}

Status Decoder::Special(enum Special special, const Json& v, Message* m) {
  const Reflection* r = m->GetReflection();
  const pb::Descriptor* type = m->GetDescriptor();
  auto field = [&](int number) { return type->FindFieldByNumber(number); };
  switch (special) {
    case Special::kTime:
    case Special::kMicroTime: {
      if (!v.is_string()) return TypeError(GoJsonKind(v), "string");
      Result<Time> t = ParseRfc3339(v.get_ref<const std::string&>());
      if (!t.ok()) return Status::BadRequest(t.status().message());
      const auto since = t->time_since_epoch();
      const auto seconds = std::chrono::floor<std::chrono::seconds>(since);
      r->SetInt64(m, field(1), seconds.count());
      r->SetInt32(m, field(2), static_cast<std::int32_t>((since - seconds).count()));
      return Status::Ok();
    }
    case Special::kDuration: {
      if (!v.is_string()) return TypeError(GoJsonKind(v), "string");
      Result<Duration> d = ParseGoDuration(v.get_ref<const std::string&>());
      if (!d.ok()) return Status::BadRequest(d.status().message());
      r->SetInt64(m, field(1), d->count());
      return Status::Ok();
    }
    case Special::kFieldsV1:
    case Special::kRawExtension:
    case Special::kRawJson:
      r->SetString(m, field(1), v.dump());
      return Status::Ok();
    case Special::kIntOrString:
      if (v.is_string()) {
        r->SetInt64(m, field(1), 1);
        r->SetString(m, field(3), v.get<std::string>());
        return Status::Ok();
      }
      r->SetInt64(m, field(1), 0);
      return Scalar(v, field(2), m, false);
    case Special::kQuantity:
      if (v.is_number()) return (r->SetString(m, field(1), v.dump()), Status::Ok());
      if (!v.is_string()) {
        return Status::BadRequest(
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
      }
      r->SetString(m, field(1), v.get<std::string>());
      return Status::Ok();
    case Special::kStringList:
      if (!v.is_array()) return TypeError(GoJsonKind(v), KubeTypes::GoTypeName(type));
      for (const Json& item : v) RETURN_IF_ERROR(Scalar(item, field(1), m, true));
      return Status::Ok();
    case Special::kSchemaOrBool:
      if (v.is_boolean()) return (r->SetBool(m, field(1), v.get<bool>()), Status::Ok());
      r->SetBool(m, field(1), true);
      return Message_(v, r->MutableMessage(m, field(2)));
    case Special::kSchemaOrArray:
    case Special::kSchemaOrStrings:
      if (v.is_array()) {
        for (const Json& item : v) RETURN_IF_ERROR(AddOne(item, field(2), m));
        return Status::Ok();
      }
      return Message_(v, r->MutableMessage(m, field(1)));
    case Special::kNone:
      break;
  }
  return Fill(v, m);
}

}  // namespace

Status JsonToMessage(const Json& object, google::protobuf::Message* message) {
  Decoder decoder;
  const auto special = KubeTypes::Get().SpecialOf(message->GetDescriptor());
  if (special != Special::kNone) return decoder.Special(special, object, message);
  if (!object.is_object()) {
    return Status::BadRequest("json: cannot unmarshal " + std::string(GoJsonKind(object)) +
                              " into Go value of type " +
                              KubeTypes::GoTypeName(message->GetDescriptor()));
  }
  return decoder.Fill(object, message);
}

}  // namespace lws::api::protobuf
