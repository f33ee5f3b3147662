// File: cluster/trace.h
//
// A fingerprint of everything that happened in a cluster run: every change the API stored, in
// the order the watches delivered it, with the loop's time. Two runs of a simulation with the
// same seed must produce the same hash (DESIGN.md 2.3: a nondeterministic simulator is a broken
// simulator); the determinism tests and `lws simulate --trace` rely on it.
//
// Each record is (virtual time in ns, resource, event type, the object's stored bytes). The bytes
// include uids, timestamps and resourceVersions, so a run that differs anywhere (an extra write,
// another order, a different startup time) differs here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "client/local/local_client.h"

namespace lws::cluster {

class Trace {
 public:
  // Records the changes of `resources`. With keep_lines, also keeps one readable line per change
  // ("12.500s pods MODIFIED default/web-0 rv=42") for diffing two runs.
  Trace(EventLoop* loop, const client::LocalClient* client, std::vector<client::Resource> resources,
        bool keep_lines = false);
  Status Start();
  void Stop();

  std::uint64_t hash() const { return hash_; }
  std::uint64_t changes() const { return changes_; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  void Record(const client::Resource& resource, const store::WatchEvent& event);
  void Mix(std::string_view bytes);

  EventLoop* loop_;
  const client::LocalClient* client_;
  std::vector<client::Resource> resources_;
  bool keep_lines_;
  std::vector<std::unique_ptr<client::Subscription>> subscriptions_;
  std::uint64_t hash_ = 14695981039346656037ull;  // FNV-1a 64 offset basis
  std::uint64_t changes_ = 0;
  std::vector<std::string> lines_;
};

}  // namespace lws::cluster
