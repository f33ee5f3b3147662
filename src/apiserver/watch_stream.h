// File: apiserver/watch_stream.h
//
// A store watch as a chunked HTTP body: one JSON line per event ({"type":..,"object":..}),
// written from the bytes the store serialised once (store.h invariant 2), or, when the client
// asked for a Table, a one-row Table per event with column definitions in the first only (as
// the real server sets NoHeaders after it). The stream ends when the watch ends: after an
// ERROR event (410 too old, 429 too slow), when the store shuts down or when the transport
// cancels it (client gone, timeoutSeconds).
#pragma once

#include <memory>

#include "apiserver/api_server.h"
#include "apiserver/table.h"
#include "store/watcher.h"
#include "transport/http.h"

namespace lws::apiserver {

struct WatchStreamOptions {
  store::WatcherPtr watcher;
  // Keeps the ResourceInfo the watcher's filter points into (and the registry) alive.
  std::shared_ptr<const ServedResources> served;
  const api::ResourceInfo* resource = nullptr;
  bool table = false;
  bool protobuf = false;       // length-prefixed protobuf WatchEvents (protobuf_response.h)
  TableOptions table_options;  // `now` is refreshed per event from `clock`
  const Clock* clock = nullptr;
};

class WatchStream final : public transport::ResponseStream {
 public:
  explicit WatchStream(WatchStreamOptions options) : options_(std::move(options)) {}
  void Start(std::function<void()> wake) override;
  bool Next(std::string* out) override;
  void Cancel() override;

 private:
  void AppendEvent(const store::WatchEvent& event, std::string* out);

  WatchStreamOptions options_;
  bool sent_headers_ = false;  // Table mode: column definitions went out with the first row
  std::vector<store::WatchEvent> batch_;
  std::function<void()> wake_;
};

// A stream that sends `body` and ends: a watch that fails before it starts (410 too old) is
// answered, as the real server does, with 200 and a single ERROR event.
class FixedStream final : public transport::ResponseStream {
 public:
  explicit FixedStream(std::string body) : body_(std::move(body)) {}
  void Start(std::function<void()>) override {}
  bool Next(std::string* out) override {
    out->append(body_);
    body_.clear();
    return false;
  }
  void Cancel() override {}

 private:
  std::string body_;
};

// How many events one Next drains before yielding to other connections on the same thread.
inline constexpr std::size_t kWatchBatchSize = 256;

}  // namespace lws::apiserver
