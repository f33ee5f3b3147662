// File: podlog/container_log.cc
#include "podlog/container_log.h"

#include "base/assert.h"

namespace lws::podlog {

ContainerLog::ContainerLog(std::size_t lines_max) : lines_max_(lines_max) {
  LWS_ASSERT(lines_max > 0, "a container log keeps at least one line");
}

void ContainerLog::Append(Time time, std::string message) {
  {
    MutexLock lock(&mu_);
    if (ended_) return;
    lines_.push_back(LogLine{time, std::move(message)});
    if (lines_.size() > lines_max_) {
      lines_.pop_front();
      ++first_;
    }
  }
  WakeAll();
}

void ContainerLog::End() {
  {
    MutexLock lock(&mu_);
    if (ended_) return;
    ended_ = true;
  }
  WakeAll();
}

bool ContainerLog::Read(std::uint64_t* from, std::vector<LogLine>* out) const {
  MutexLock lock(&mu_);
  const std::uint64_t end = first_ + lines_.size();
  for (std::uint64_t i = std::max(*from, first_); i < end; ++i) out->push_back(lines_[i - first_]);
  *from = std::max(*from, end);
  return ended_;
}

bool ContainerLog::ended() const {
  MutexLock lock(&mu_);
  return ended_;
}

std::uint64_t ContainerLog::Subscribe(std::function<void()> wake) {
  MutexLock lock(&mu_);
  const std::uint64_t id = next_id_++;
  followers_.emplace(id, std::make_shared<std::function<void()>>(std::move(wake)));
  return id;
}

void ContainerLog::Unsubscribe(std::uint64_t id) {
  MutexLock lock(&mu_);
  followers_.erase(id);
}

void ContainerLog::WakeAll() {
  std::vector<std::shared_ptr<std::function<void()>>> wakes;
  {
    MutexLock lock(&mu_);
    for (const auto& [id, wake] : followers_) wakes.push_back(wake);
  }
  for (const auto& wake : wakes) (*wake)();
}

}  // namespace lws::podlog
