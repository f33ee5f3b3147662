#include "controllers/lws/manager.h"

namespace lws::controllers {

LwsManager::LwsManager(EventLoop* loop, std::unique_ptr<const client::Client> client,
                       LwsManagerOptions options)
    : LwsManager(loop, client.get(), options) {
  owned_client_ = std::move(client);
}

namespace {

runtime::WorkQueueOptions QueueOptions(runtime::WorkQueueObserver* observer, std::size_t workers,
                                       Caches* caches) {
  runtime::WorkQueueOptions options;
  options.observer = observer;
  options.workers = workers;
  if (workers > 0) options.reads = caches->ShareWithWorkers();
  return options;
}

// Upstream records through events.k8s.io (client-go tools/events), as `leaderworkerset`.
client::EventRecorderOptions EventOptions(EventLoop* loop, const std::string& instance) {
  client::EventRecorderOptions options;
  options.component = std::string(kLwsEventController);
  options.instance = instance.empty() ? options.component + "-lws-up" : instance;
  options.api = client::EventApi::kEventsV1;
  options.loop = loop;
  return options;
}

}  // namespace

LwsManager::LwsManager(EventLoop* loop, const client::Client* client, LwsManagerOptions options)
    : client_(client),
      recorder_(client_, &loop->clock(), EventOptions(loop, options.event_instance)),
      caches_(std::make_unique<Caches>(loop, client_, options.decode_privately)),
      group_(std::make_unique<GroupController>(
          loop, client_, caches_.get(), &recorder_,
          QueueOptions(options.group_queue_observer, options.group_workers, caches_.get()),
          options.gang)),
      lws_(std::make_unique<LwsController>(
          loop, client_, caches_.get(), &recorder_,
          QueueOptions(options.lws_queue_observer, options.lws_workers, caches_.get()))),
      hand_off_(std::make_unique<CapacityHandOffController>(
          loop, client_, caches_.get(), &recorder_,
          QueueOptions(nullptr, options.lws_workers, caches_.get()))) {}

LwsManager::~LwsManager() { Stop(); }

Status LwsManager::Start() {
  if (started_) return Status::Ok();
  group_->Register();
  lws_->Register();
  hand_off_->Register();
  started_ = true;
  // Neither controller may plan on a partial world (a group without its StatefulSet looks like
  // one whose StatefulSet must be created): both wait for every cache.
  return caches_->Start([this] {
    group_->SetReady();
    lws_->SetReady();
    hand_off_->SetReady();
  });
}

void LwsManager::Stop() {
  if (!started_) return;
  started_ = false;
  hand_off_->Stop();
  lws_->Stop();
  group_->Stop();
  caches_->Stop();
}

}  // namespace lws::controllers
