// The shape-check marks of one served snapshot (shape_marks.h).
#include "apiserver/shape_marks.h"

#include <algorithm>

namespace lws::apiserver {

bool ShapeMarks::Marked(const store::ObjectPtr& version) const {
  if (version == nullptr) return false;
  MutexLock lock(&mu_);
  auto found = marks_.find(version.get());
  return found != marks_.end() && found->second.lock() == version;
}

void ShapeMarks::Mark(const store::ObjectPtr& version) {
  if (version == nullptr) return;
  MutexLock lock(&mu_);
  marks_[version.get()] = version;
  if (marks_.size() < sweep_at_) return;
  std::erase_if(marks_, [](const auto& mark) { return mark.second.expired(); });
  sweep_at_ = std::max(kFirstSweep, 2 * marks_.size());
}

}  // namespace lws::apiserver
