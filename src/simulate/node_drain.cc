// A timeline drain, as kubectl drain does it (node_drain.h).
#include "simulate/node_drain.h"

#include <fmt/format.h>

#include "api/field_selector.h"
#include "client/resource.h"

namespace lws::simulate {

bool DrainSkips(const api::Json& pod) {
  const api::Json& metadata = api::ChildOrNull(pod, "metadata");
  if (api::ChildOrNull(metadata, "annotations").contains("kubernetes.io/config.mirror"))
    return true;
  const api::Json& owners = api::ChildOrNull(metadata, "ownerReferences");
  if (!owners.is_array()) return false;
  for (const api::Json& owner : owners) {
    if (owner.value("controller", false) && api::StringMember(owner, "kind") == "DaemonSet")
      return true;
  }
  return false;
}

NodeDrain::NodeDrain(std::string node, Time at, double at_s) : at_(at) {
  result_.node = std::move(node);
  result_.at_s = at_s;
}

Status NodeDrain::Start(const client::LocalClient& user) {
  store::ListOptions options;
  ASSIGN_OR_RETURN(options.field_selector,
                   api::FieldSelector::Parse("spec.nodeName=" + result_.node));
  ASSIGN_OR_RETURN(store::ListResult pods, user.List(client::kPods, options));
  for (const store::ObjectPtr& pod : pods.items) {
    if (DrainSkips(pod->document())) continue;
    PodToEvict p{pod->name().namespace_, pod->name().name, pod->uid(), at_};
    pods_.emplace(p.ns + "/" + p.name, std::move(p));
  }
  result_.pods = static_cast<int>(pods_.size());
  return Status::Ok();
}

void NodeDrain::Step(const client::LocalClient& user, Time now) {
  if (done()) return;
  bool all_gone = true;
  for (auto& [key, pod] : pods_) {
    if (!pod.evicted && pod.due <= now) Evict(user, &pod, now);
    if (!result_.error.empty()) return;
    all_gone = all_gone && pod.evicted && Gone(user, pod);
  }
  if (all_gone) result_.finished_s = std::chrono::duration<double>(now - at_).count();
}

void NodeDrain::Evict(const client::LocalClient& user, PodToEvict* pod, Time now) {
  const Status status = user.Evict(pod->ns, pod->name);
  if (status.ok() || status.code() == Code::kNotFound) {
    pod->evicted = true;
    ++result_.evicted;
  } else if (status.code() == Code::kTooManyRequests) {
    ++result_.refused;
    result_.refusal = std::string(status.message());
    pod->due = now + kRetryInterval;
  } else {
    result_.error = fmt::format("error when evicting pods/\"{}\" -n \"{}\": {}", pod->name, pod->ns,
                                status.message());
  }
}

bool NodeDrain::Gone(const client::LocalClient& user, const PodToEvict& pod) const {
  Result<store::ObjectPtr> now = user.Get(client::kPods, pod.ns, pod.name);
  return !now.ok() || (*now)->uid() != pod.uid;
}

}  // namespace lws::simulate
