#include "client/informer.h"

namespace lws::client {

Informer::Informer(EventLoop* loop, const Client* client, Resource resource, std::string ns)
    : loop_(loop), client_(client), resource_(std::move(resource)), ns_(std::move(ns)) {}

Status Informer::Start() {
  Result<std::unique_ptr<Subscription>> sub =
      client_->Watch(loop_, resource_, ns_, [this](const store::WatchEvent& e) { OnEvent(e); });
  if (!sub.ok()) return sub.status();
  subscription_ = std::move(*sub);
  return Status::Ok();
}

void Informer::Stop() {
  if (subscription_) subscription_->Stop();
  subscription_.reset();
}

void Informer::OnEvent(const store::WatchEvent& event) {
  Deliver(event);
  handled_rv_.store(last_rv_, std::memory_order_release);
}

void Informer::Deliver(const store::WatchEvent& event) {
  store::ObjectName key = event.object->name();
  if (!resource_.namespaced) key.namespace_.clear();
  last_rv_ = event.object->resource_version();
  store::ObjectPtr old;
  store::ObjectPtr now;
  // One search per event serves the read and the write (the hint of emplace_hint).
  auto it = objects_.lower_bound(key);
  const bool known = it != objects_.end() && it->first == key;
  if (known) old = it->second;
  if (event.type == store::EventType::kDeleted) {
    if (!known) return;  // a deletion of something never seen
    objects_.erase(it);
  } else {
    // Older states can come again after a watch restart from a list; keep the newest.
    if (old && old->resource_version() >= event.object->resource_version()) return;
    now = event.object;
    if (known) {
      it->second = now;
    } else {
      objects_.emplace_hint(it, std::move(key), now);
    }
  }
  for (const Handler& handler : handlers_) handler(old, now);
}

store::ObjectPtr Informer::Get(const std::string& ns, const std::string& name) const {
  auto it = objects_.find(store::ObjectName{resource_.namespaced ? ns : "", name});
  return it == objects_.end() ? nullptr : it->second;
}

std::vector<store::ObjectPtr> Informer::Select(const std::string& ns,
                                               const api::StringMap& labels) const {
  std::vector<store::ObjectPtr> out;
  auto it = objects_.lower_bound(store::ObjectName{ns, ""});
  for (; it != objects_.end() && it->first.namespace_ == ns; ++it) {
    bool match = true;
    for (const auto& [key, value] : labels) {
      auto found = it->second->labels().find(key);
      if (found == it->second->labels().end() || found->second != value) {
        match = false;
        break;
      }
    }
    if (match) out.push_back(it->second);
  }
  return out;
}

}  // namespace lws::client
