// Expectations (expectations.h): per key, the (informer, resourceVersion, deadline) triples a
// reconcile waits for.
#include "runtime/expectations.h"

#include <algorithm>
#include <charconv>

#include "base/log.h"
#include "store/object.h"

namespace lws::runtime {

std::optional<std::uint64_t> ResourceVersionOf(const api::Json& object) {
  std::string rv = store::MetaString(object, "resourceVersion");
  if (rv.empty()) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(rv.data(), rv.data() + rv.size(), value);
  if (error != std::errc() || end != rv.data() + rv.size()) return std::nullopt;
  return value;
}

Expectations::Expectations(Duration timeout) : timeout_(timeout) {}

void Expectations::Expect(const Key& key, const client::Informer* informer, std::uint64_t rv,
                          Time now) {
  if (informer == nullptr || rv == 0) return;
  MutexLock lock(&mu_);
  std::vector<Expectation>& list = expected_[key];
  Time deadline = now + timeout_;
  for (Expectation& e : list) {
    if (e.informer != informer) continue;
    e.rv = std::max(e.rv, rv);
    e.deadline = std::max(e.deadline, deadline);
    return;
  }
  list.push_back({informer, rv, deadline});
}

void Expectations::ExpectAnswer(const Key& key, const client::Informer* informer,
                                const api::Json& answer, Time now) {
  std::optional<std::uint64_t> rv = ResourceVersionOf(answer);
  if (rv) Expect(key, informer, *rv, now);
}

bool Expectations::Satisfied(const Key& key, Time now) {
  MutexLock lock(&mu_);
  auto it = expected_.find(key);
  if (it == expected_.end()) return true;
  std::vector<Expectation>& list = it->second;
  std::erase_if(list, [&](const Expectation& e) {
    if (e.informer->handled_resource_version() >= e.rv) return true;
    if (now < e.deadline) return false;
    Logger("runtime")->warn("{}: resourceVersion {} not observed within {} s; reconciling anyway",
                            KeyString(key), e.rv,
                            std::chrono::duration_cast<std::chrono::seconds>(timeout_).count());
    return true;
  });
  if (!list.empty()) return false;
  expected_.erase(it);
  return true;
}

std::optional<Time> Expectations::Deadline(const Key& key) const {
  MutexLock lock(&mu_);
  auto it = expected_.find(key);
  if (it == expected_.end() || it->second.empty()) return std::nullopt;
  Time earliest = it->second.front().deadline;
  for (const Expectation& e : it->second) earliest = std::min(earliest, e.deadline);
  return earliest;
}

void Expectations::Forget(const Key& key) {
  MutexLock lock(&mu_);
  expected_.erase(key);
}

}  // namespace lws::runtime
