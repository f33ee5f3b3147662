// File: api/protobuf/unknown_fields.cc
#include "api/protobuf/unknown_fields.h"

#include "api/protobuf/kube_types.h"

namespace lws::api::protobuf {

namespace {

using pb::Descriptor;
using pb::FieldDescriptor;

// The field `key` names in `type`'s JSON object: its own, or one of an inline struct's.
const FieldDescriptor* Known(const Descriptor* type, const std::string& key) {
  const KubeTypes& types = KubeTypes::Get();
  const FieldDescriptor* f = types.FieldByJsonName(type, key);
  if (f != nullptr && !types.IsInline(f)) return f;
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* inner = type->field(i);
    if (!types.IsInline(inner)) continue;
    if (const FieldDescriptor* found = Known(inner->message_type(), key)) return found;
  }
  return nullptr;
}

class Pruner {
 public:
  explicit Pruner(std::vector<std::string>* out) : out_(out) {}

  void Object(Json* object, const Descriptor* type, const std::string& path, bool top) {
    if (!object->is_object() || KubeTypes::Get().SpecialOf(type) != Special::kNone) return;
    std::vector<std::string> unknown;
    for (auto& [key, value] : object->items()) {
      if (top && (key == "apiVersion" || key == "kind")) continue;
      const std::string at = path.empty() ? key : path + "." + key;
      const FieldDescriptor* f = Known(type, key);
      if (f == nullptr) {
        unknown.push_back(key);
        out_->push_back(at);
      } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        Value(&value, f, at);
      }
    }
    for (const std::string& key : unknown) object->erase(key);
  }

 private:
  void Value(Json* value, const FieldDescriptor* f, const std::string& at) {
    if (f->is_map()) {
      const FieldDescriptor* item = f->message_type()->map_value();
      if (item->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE || !value->is_object()) return;
      for (auto& [key, v] : value->items())
        Object(&v, item->message_type(), at + "[" + key + "]", false);
    } else if (f->is_repeated()) {
      if (!value->is_array()) return;
      for (std::size_t i = 0; i < value->size(); ++i) {
        Object(&(*value)[i], f->message_type(), at + "[" + std::to_string(i) + "]", false);
      }
    } else {
      Object(value, f->message_type(), at, false);
    }
  }

  std::vector<std::string>* out_;
};

}  // namespace

std::vector<std::string> PruneUnknownFields(Json* object, const Descriptor* type) {
  std::vector<std::string> unknown;
  Pruner(&unknown).Object(object, type, "", true);
  return unknown;
}

}  // namespace lws::api::protobuf
