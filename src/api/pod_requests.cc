// A pod's effective requests (pod_requests.h), as upstream resourcehelper.PodRequests.
#include "api/pod_requests.h"

namespace lws::api {
namespace {

void AddInto(ResourceList& into, const ResourceList& add) {
  for (const auto& [name, amount] : add) into[name] += amount;
}

void MaxInto(ResourceList& into, const ResourceList& other) {
  for (const auto& [name, amount] : other) {
    auto it = into.find(name);
    if (it == into.end() || amount > it->second) into[name] = amount;
  }
}

// The container's requests, with `limits` a limit standing in for a missing request (API
// defaulting), then `defaults` for anything still missing.
ResourceList ContainerRequests(const Container& container, const ResourceList& defaults,
                               LimitsAsRequests limits) {
  ResourceList requests = container.resources.requests;
  if (limits == LimitsAsRequests::kYes) {
    for (const auto& [name, amount] : container.resources.limits) requests.emplace(name, amount);
  }
  for (const auto& [name, amount] : defaults) requests.emplace(name, amount);
  return requests;
}

// A sidecar is an init container with restartPolicy Always: it keeps running beside the
// regular containers (KEP-753).
bool IsSidecar(const Container& container) {
  if (!container.rest.is_object()) return false;
  auto it = container.rest.find("restartPolicy");
  return it != container.rest.end() && it->is_string() && *it == "Always";
}

}  // namespace

ResourceList PodSpecRequests(const PodSpec& spec, const ResourceList& defaults,
                             LimitsAsRequests limits) {
  ResourceList total;
  for (const Container& c : spec.containers) AddInto(total, ContainerRequests(c, defaults, limits));
  ResourceList sidecars;  // running sidecars started so far
  ResourceList init_peak;
  for (const Container& c : spec.init_containers) {
    ResourceList requests = ContainerRequests(c, defaults, limits);
    if (IsSidecar(c)) {
      AddInto(total, requests);
      AddInto(sidecars, requests);
      requests = sidecars;
    } else {
      AddInto(requests, sidecars);
    }
    MaxInto(init_peak, requests);
  }
  MaxInto(total, init_peak);
  AddInto(total, spec.overhead);
  return total;
}

}  // namespace lws::api
