#include "controllers/disaggregatedset/ds_manager.h"

namespace lws::disaggregatedset {
namespace {

client::EventRecorderOptions EventOptions(EventLoop* loop, const std::string& instance) {
  client::EventRecorderOptions options;
  options.component = std::string(kDsEventController);
  options.instance = instance.empty() ? options.component + "-lws-up" : instance;
  options.api = client::EventApi::kEventsV1;
  options.loop = loop;
  return options;
}

}  // namespace

DsManager::DsManager(EventLoop* loop, std::unique_ptr<const client::Client> client,
                     std::string event_instance)
    : DsManager(loop, client.get(), std::move(event_instance)) {
  owned_client_ = std::move(client);
}

DsManager::DsManager(EventLoop* loop, const client::Client* client, std::string event_instance)
    : client_(client),
      recorder_(client_, &loop->clock(), EventOptions(loop, event_instance)),
      caches_(std::make_unique<DsCaches>(loop, client_)),
      controller_(std::make_unique<DsController>(loop, client_, caches_.get(), &recorder_)) {}

DsManager::~DsManager() { Stop(); }

Status DsManager::Start() {
  if (started_) return Status::Ok();
  controller_->Register();
  started_ = true;
  // A set planned before its LeaderWorkerSets are known would start a second copy of each.
  return caches_->Start([this] { controller_->SetReady(); });
}

void DsManager::Stop() {
  if (!started_) return;
  started_ = false;
  controller_->Stop();
  caches_->Stop();
}

}  // namespace lws::disaggregatedset
