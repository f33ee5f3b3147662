// File: apiserver/shape_marks.h
//
// Which stored versions passed the managedFields shape check (apiserver/managed_fields.h) under
// one snapshot of the served resources. A write over a marked version skips checking the
// version again. The table belongs to the snapshot (ServedResources::shape_marks): a CRD change
// makes a new snapshot with an empty table, so every version is checked again under the new
// list types. The store knows nothing of it.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>

#include "base/mutex.h"
#include "store/object.h"

namespace lws::apiserver {

class ShapeMarks {
 public:
  // True when `version` was marked. A version freed and another made at its address reads as
  // unmarked: entries hold their version weakly.
  bool Marked(const store::ObjectPtr& version) const EXCLUDES(mu_);
  // Marks `version`; entries of freed versions are dropped as the table grows. Safe from any
  // thread.
  void Mark(const store::ObjectPtr& version) EXCLUDES(mu_);

 private:
  // The table's size at which freed versions are next dropped: past twice the live entries, so
  // dropping costs O(1) a mark on average.
  static constexpr std::size_t kFirstSweep = 1024;

  mutable Mutex mu_;
  std::unordered_map<const store::StoredObject*, std::weak_ptr<const store::StoredObject>> marks_
      GUARDED_BY(mu_);
  std::size_t sweep_at_ GUARDED_BY(mu_) = kFirstSweep;
};

}  // namespace lws::apiserver
