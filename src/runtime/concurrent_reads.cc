// Epoch reclamation (concurrent_reads.h). A reader registers the epoch current at its start; a
// retirement tags the object with the current epoch and then advances it. A reader that started
// at an epoch <= the tag may have found the object before it was unlinked; one that started
// later cannot (the object left the caches before its retirement). So an object is freed once
// the oldest running reader started after its tag.
#include "runtime/concurrent_reads.h"

namespace lws::runtime {

ConcurrentReads::Reader::Reader(ConcurrentReads* reads) : reads_(reads) {
  MutexLock lock(&reads_->mu_);
  epoch_ = reads_->epoch_;
  ++reads_->active_[epoch_];
}

ConcurrentReads::Reader::~Reader() {
  std::deque<std::shared_ptr<const void>> freed;  // destroyed after the lock is released
  MutexLock lock(&reads_->mu_);
  auto it = reads_->active_.find(epoch_);
  if (--it->second == 0) reads_->active_.erase(it);
  reads_->ReclaimLocked(&freed);
}

void ConcurrentReads::Retire(std::shared_ptr<const void> object) {
  std::deque<std::shared_ptr<const void>> freed;
  MutexLock lock(&mu_);
  retired_.emplace_back(epoch_, std::move(object));
  ++epoch_;
  ReclaimLocked(&freed);
}

void ConcurrentReads::ReclaimLocked(std::deque<std::shared_ptr<const void>>* freed) {
  // Tags grow along retired_, so the reclaimable ones are a prefix.
  while (!retired_.empty() &&
         (active_.empty() || retired_.front().first < active_.begin()->first)) {
    freed->push_back(std::move(retired_.front().second));
    retired_.pop_front();
  }
}

std::size_t ConcurrentReads::retired() const {
  MutexLock lock(&mu_);
  return retired_.size();
}

std::size_t ConcurrentReads::readers() const {
  MutexLock lock(&mu_);
  std::size_t n = 0;
  for (const auto& [epoch, count] : active_) n += static_cast<std::size_t>(count);
  return n;
}

}  // namespace lws::runtime
