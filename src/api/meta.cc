#include "api/meta.h"

namespace lws::api {

const Condition* FindCondition(const std::vector<Condition>& conditions, std::string_view type) {
  for (const Condition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

const OwnerReference* ObjectMeta::ControllerRef() const {
  for (const auto& ref : owner_references) {
    if (ref.IsController()) return &ref;
  }
  return nullptr;
}

const std::string& ValueOf(const StringMap& map, std::string_view key) {
  static const std::string kAbsent;
  auto it = map.find(key);
  return it == map.end() ? kAbsent : it->second;
}

const std::string& ObjectMeta::Label(std::string_view key) const { return ValueOf(labels, key); }

Json AnnotationPatch(const std::string& key, const std::optional<std::string>& value,
                     const std::string& resource_version) {
  return {{"metadata",
           {{"resourceVersion", resource_version},
            {"annotations", {{key, value ? Json(*value) : Json()}}}}}};
}

const std::string& ObjectMeta::Annotation(std::string_view key) const {
  return ValueOf(annotations, key);
}

}  // namespace lws::api
