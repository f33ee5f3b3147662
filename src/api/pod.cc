#include "api/pod.h"

namespace lws::api {

const EnvVar* Container::FindEnv(std::string_view name) const {
  for (const auto& e : env) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const PodCondition* PodStatus::FindCondition(std::string_view type) const {
  for (const auto& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

bool Pod::IsRunningAndReady() const {
  if (status.phase != "Running") return false;
  const PodCondition* ready = status.FindCondition("Ready");
  return ready != nullptr && ready->status == "True";
}

}  // namespace lws::api
