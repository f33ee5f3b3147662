// File: store/space_reserve.h
//
// What a store with a data directory does when its disk fills up, modelled on etcd's NOSPACE
// alarm: a reserve file (`<data_dir>/space.reserve`) is kept beside the database. When SQLite
// reports the disk full, the alarm goes on and the reserve is let go, so that deletions (which
// SQLite must also log) still have room: while the alarm is on, creates and updates are refused
// with a clear error and reads, watches and deletes go on. The alarm goes off by itself, without
// a restart, as soon as the reserve can be made again: once deletions gave their pages back
// (Database::GiveBackSpace) or something else on the disk was freed.
//
// Not thread-safe: the store uses it under its lock.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace lws::store {

inline constexpr std::uint64_t kDefaultSpaceReserveBytes = 16ull << 20;

class SpaceReserve {
 public:
  // `path`: the reserve file; `bytes`: its size (0: no reserve, no alarm).
  SpaceReserve(std::string path, std::string database, std::uint64_t bytes);

  // At open: makes the reserve, or starts with the alarm on when the disk has no room for it.
  void Open();
  bool alarmed() const { return alarmed_; }
  // Before a create or update: Ok, or the NOSPACE error while the alarm is on and the reserve
  // still cannot be made.
  Status Admit();
  // SQLite said the disk is full (`cause`): the alarm goes on, the reserve is let go. Returns
  // the NOSPACE error for the write that failed.
  Status Full(const Status& cause);

 private:
  bool Make();
  Status NoSpace() const;

  const std::string path_;
  const std::string database_;
  const std::uint64_t bytes_;
  bool alarmed_ = false;
};

}  // namespace lws::store
