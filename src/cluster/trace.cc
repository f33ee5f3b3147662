#include "cluster/trace.h"

#include <fmt/format.h>

namespace lws::cluster {

Trace::Trace(EventLoop* loop, const client::LocalClient* client,
             std::vector<client::Resource> resources, bool keep_lines)
    : loop_(loop), client_(client), resources_(std::move(resources)), keep_lines_(keep_lines) {}

Status Trace::Start() {
  for (const client::Resource& resource : resources_) {
    auto sub = client_->Watch(
        loop_, resource, "", [this, resource](const store::WatchEvent& e) { Record(resource, e); });
    if (!sub.ok()) return sub.status();
    subscriptions_.push_back(std::move(*sub));
  }
  return Status::Ok();
}

void Trace::Stop() {
  for (auto& sub : subscriptions_) sub->Stop();
  subscriptions_.clear();
}

void Trace::Mix(std::string_view bytes) {
  for (unsigned char c : bytes) {
    hash_ ^= c;
    hash_ *= 1099511628211ull;  // FNV-1a 64 prime
  }
  hash_ ^= 0xff;  // field separator, so ("ab","c") and ("a","bc") differ
  hash_ *= 1099511628211ull;
}

void Trace::Record(const client::Resource& resource, const store::WatchEvent& event) {
  auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(loop_->Now().time_since_epoch()).count();
  std::string_view type = store::EventTypeName(event.type);
  Mix(std::to_string(nanos));
  Mix(resource.resource);
  Mix(type);
  Mix(event.object->bytes());
  ++changes_;
  if (!keep_lines_) return;
  const store::ObjectName& name = event.object->name();
  lines_.push_back(fmt::format("{} {} {} {}/{} rv={}", FormatRfc3339Micro(loop_->Now()),
                               resource.resource, type, name.namespace_, name.name,
                               event.object->resource_version()));
}

}  // namespace lws::cluster
