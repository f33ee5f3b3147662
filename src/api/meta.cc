#include "api/meta.h"

namespace lws::api {

const OwnerReference* ObjectMeta::ControllerRef() const {
  for (const auto& ref : owner_references) {
    if (ref.IsController()) return &ref;
  }
  return nullptr;
}

std::string ObjectMeta::Label(const std::string& key) const {
  auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

std::string ObjectMeta::Annotation(const std::string& key) const {
  auto it = annotations.find(key);
  return it == annotations.end() ? std::string() : it->second;
}

}  // namespace lws::api
