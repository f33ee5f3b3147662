// File: store/persistence.h
//
// The SQLite file behind a store with a data directory (`<data_dir>/store.db`): one table of
// (key, rv, json) holding the current version of every object, and one row holding the
// resourceVersion counter (deletes move it too, so it cannot be derived from the objects).
//
// Durability: every Put/Remove is its own committed transaction before it returns, written to
// the write-ahead log (synchronous=NORMAL: SQLite flushes only around checkpoints), so a killed
// process (SIGKILL, crash) loses nothing that was committed. FlushLog makes the log durable
// against a power loss; the store calls it outside its lock, shared by concurrent writers
// (group_sync.h), and acknowledges a write only after it. The connection holds an exclusive
// lock, so a second process opening the same directory gets a clear "database is locked" error
// instead of a split brain.
//
// Every failure is a Status naming the file; nothing here throws or aborts on a bad file.
// Not thread-safe: the Store calls it under its lock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "store/object.h"

struct sqlite3;
struct sqlite3_stmt;

namespace lws::store {

// "<group_resource>/<namespace>/<name>": names and namespaces never contain '/'.
std::string StorageKey(std::string_view group_resource, const ObjectName& name);
// The inverse of StorageKey; false when `key` does not have three '/'-separated parts.
bool ParseStorageKey(std::string_view key, std::string* group_resource, ObjectName* name);

class Database {
 public:
  // Opens (creating when missing) `<data_dir>/store.db`, creating data_dir too.
  static Result<std::unique_ptr<Database>> Open(const std::string& data_dir);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The stored counter (0 for a new database).
  Result<std::uint64_t> LoadCounter();
  // Calls `row(key, rv, json)` for every stored object, stopping at the first error.
  Status LoadObjects(
      const std::function<Status(std::string_view, std::uint64_t, std::string_view)>& row);

  // Stores the current version of `key` and sets the counter to `rv`, in one transaction.
  Status Put(std::string_view key, std::uint64_t rv, std::string_view json);
  // Removes `key` and sets the counter to `rv`, in one transaction.
  Status Remove(std::string_view key, std::uint64_t rv);

  // Whether a failure since the last call was SQLite's "database or disk is full".
  bool TakeDiskFull();
  // Returns the space of deleted objects and of the checkpointed log to the file system.
  Status GiveBackSpace();

  // fdatasync of the write-ahead log: every commit before the call survives a power loss.
  // Thread-safe (it touches only the log's descriptor), unlike everything else here.
  Status FlushLog() const;

  const std::string& path() const { return path_; }

 private:
  explicit Database(std::string path) : path_(std::move(path)) {}
  Status Init();
  Status OpenLog();
  void NoteFull() const;
  Status Error(std::string_view what) const;
  Status Exec(const char* sql);
  Status Step(sqlite3_stmt* statement, std::string_view what);
  Status InTransaction(const std::function<Status()>& body);

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* put_object_ = nullptr;
  sqlite3_stmt* delete_object_ = nullptr;
  sqlite3_stmt* put_counter_ = nullptr;
  int log_fd_ = -1;
  mutable bool disk_full_ = false;
};

}  // namespace lws::store
