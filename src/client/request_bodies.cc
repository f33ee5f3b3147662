#include "client/request_bodies.h"

#include "api/field.h"

namespace lws::client {

api::Json DeleteOptionsBody(const DeleteOptions& options) {
  api::Json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
  if (options.grace_period_seconds) body["gracePeriodSeconds"] = *options.grace_period_seconds;
  if (!options.propagation_policy.empty()) body["propagationPolicy"] = options.propagation_policy;
  if (!options.precondition_uid.empty()) body["preconditions"]["uid"] = options.precondition_uid;
  if (!options.precondition_resource_version.empty()) {
    body["preconditions"]["resourceVersion"] = options.precondition_resource_version;
  }
  return body;
}

api::Json BindingBody(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                      const std::string& node) {
  api::Json binding = {{"apiVersion", "v1"},
                       {"kind", "Binding"},
                       {"metadata", {{"name", pod}, {"namespace", ns}}},
                       {"target", {{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  if (!pod_uid.empty()) binding["metadata"]["uid"] = pod_uid;
  return binding;
}

api::Json EvictionBody(const std::string& ns, const std::string& pod) {
  return {{"apiVersion", "policy/v1"},
          {"kind", "Eviction"},
          {"metadata", {{"name", pod}, {"namespace", ns}}}};
}

api::Json StatusWriteBody(const api::Json& object, api::Json status) {
  api::Json body = api::Json::object();
  for (const char* key : {"apiVersion", "kind"}) {
    if (auto it = object.find(key); it != object.end()) body[key] = *it;
  }
  api::Json& meta = body["metadata"] = api::Json::object();
  const api::Json& live = api::ChildOrNull(object, "metadata");
  if (live.is_object()) {
    for (const auto& [key, value] : live.items()) {
      if (key != "managedFields") meta[key] = value;
    }
  }
  body["status"] = std::move(status);
  return body;
}

}  // namespace lws::client
