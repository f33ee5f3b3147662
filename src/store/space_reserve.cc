// The NOSPACE alarm (space_reserve.h).
#include "store/space_reserve.h"

#include <fcntl.h>
#include <unistd.h>

#include "base/log.h"

namespace lws::store {

SpaceReserve::SpaceReserve(std::string path, std::string database, std::uint64_t bytes)
    : path_(std::move(path)), database_(std::move(database)), bytes_(bytes) {}

void SpaceReserve::Open() {
  if (Make()) return;
  alarmed_ = true;
  Logger("store")->error(
      "{}: no room for the {} MiB space reserve: NOSPACE alarm on, writes "
      "are refused until space is freed (reads and deletes work)",
      database_, bytes_ >> 20);
}

// Allocates the whole reserve (not a sparse file: the blocks must really be taken).
bool SpaceReserve::Make() {
  if (bytes_ == 0) return true;
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const bool made = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes_)) == 0;
  ::close(fd);
  if (!made) ::unlink(path_.c_str());  // a partial reserve would hold space for nothing
  return made;
}

Status SpaceReserve::Admit() {
  if (!alarmed_) return Status::Ok();
  if (!Make()) return NoSpace();
  alarmed_ = false;
  Logger("store")->warn(
      "{}: space is back ({} MiB reserve made again): NOSPACE alarm off, "
      "writes accepted",
      database_, bytes_ >> 20);
  return Status::Ok();
}

Status SpaceReserve::Full(const Status& cause) {
  if (!alarmed_) {
    alarmed_ = true;
    ::unlink(path_.c_str());
    Logger("store")->error(
        "{}: the disk is full ({}): NOSPACE alarm on, the {} MiB reserve "
        "released for deletes; writes are refused until space is freed",
        database_, cause.message(), bytes_ >> 20);
  }
  return NoSpace();
}

Status SpaceReserve::NoSpace() const {
  return Status::Internal(
      "store: " + database_ +
      ": database space exceeded: the disk is full (NOSPACE alarm); creates and updates are "
      "refused until space is freed; reads and deletes still work");
}

}  // namespace lws::store
