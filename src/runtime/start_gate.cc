// The start-up gate (start_gate.h).
#include "runtime/start_gate.h"

namespace lws::runtime {

Status InitialList::Capture(const client::Client& client, const client::Resource& resource,
                            const std::string& ns) {
  store::ListOptions options;
  options.namespace_ = resource.namespaced ? ns : "";
  Result<store::ListResult> list = client.List(resource, options);
  if (!list.ok()) return list.status();
  count_ = list->items.size();
  rv_ = list->resource_version;
  captured_ = true;
  delivered_ = false;
  return Status::Ok();
}

bool InitialList::Check(const client::Informer& informer) {
  if (delivered_ || !captured_) return delivered_;
  delivered_ = informer.objects().size() >= count_ || informer.last_resource_version() > rv_;
  return delivered_;
}

StartGate::StartGate(std::vector<SyncSource*> sources, std::function<void()> on_open)
    : sources_(std::move(sources)),
      on_open_(std::move(on_open)),
      alive_(std::make_shared<char>(0)) {
  std::weak_ptr<char> alive = alive_;
  for (SyncSource* source : sources_) {
    source->OnSynced([this, alive] {
      if (!alive.expired()) Check();
    });
  }
  if (sources_.empty()) Check();
}

void StartGate::Check() {
  if (open_) return;
  for (const SyncSource* source : sources_) {
    if (!source->synced()) return;
  }
  open_ = true;
  if (on_open_) on_open_();
}

}  // namespace lws::runtime
