// File: apiserver/watch_stream.cc
#include "apiserver/watch_stream.h"

#include <spdlog/spdlog.h>

#include "api/protobuf/envelope.h"
#include "store/object.h"

namespace lws::apiserver {

void WatchStream::Start(std::function<void()> wake) {
  wake_ = wake;
  options_.watcher->SetNotifier(std::move(wake));
}

bool WatchStream::Next(std::string* out) {
  batch_.clear();
  bool alive = options_.watcher->Poll(&batch_, kWatchBatchSize);
  for (const store::WatchEvent& event : batch_) AppendEvent(event, out);
  // A full batch may have left events behind, and the watcher notifies only when its queue
  // becomes non-empty: ask for another turn ourselves.
  if (alive && batch_.size() == kWatchBatchSize && wake_) wake_();
  return alive;
}

void WatchStream::Cancel() { options_.watcher->Stop(); }

void WatchStream::AppendEvent(const store::WatchEvent& event, std::string* out) {
  std::string_view type = store::EventTypeName(event.type);
  bool as_table = options_.table && (event.type == store::EventType::kAdded ||
                                     event.type == store::EventType::kModified ||
                                     event.type == store::EventType::kDeleted);
  if (as_table) {
    TableOptions table = options_.table_options;
    table.now = options_.clock->Now();
    table.no_headers = sent_headers_;
    sent_headers_ = true;
    out->append(store::Serialize(
        TableWatchEvent(type, *options_.resource, event.object->FullJson(), table)));
    out->push_back('\n');
    return;
  }
  if (options_.protobuf) {
    Result<std::string> frame = api::protobuf::EncodeWatchFrame(type, event.object->FullJson());
    if (frame.ok()) {
      out->append(*frame);
    } else {
      spdlog::warn("protobuf watch: dropping a {} event: {}", type, frame.status().message());
    }
    return;
  }
  out->append("{\"type\":\"");
  out->append(type);
  out->append("\",\"object\":");
  out->append(event.object->bytes());
  out->append("}\n");
}

}  // namespace lws::apiserver
