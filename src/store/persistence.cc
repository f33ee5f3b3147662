#include "store/persistence.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/file.h"

namespace lws::store {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS objects ("
    "  key TEXT PRIMARY KEY, rv INTEGER NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS counter ("
    "  id INTEGER PRIMARY KEY CHECK (id = 0), rv INTEGER NOT NULL);";

// Resets a statement when the scope ends, so that a failed step never leaves it busy.
class ResetOnExit {
 public:
  explicit ResetOnExit(sqlite3_stmt* s) : s_(s) {}
  ~ResetOnExit() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }

 private:
  sqlite3_stmt* s_;
};

int BindText(sqlite3_stmt* s, int index, std::string_view text) {
  return sqlite3_bind_text64(s, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

}  // namespace

std::string StorageKey(std::string_view group_resource, const ObjectName& name) {
  std::string key(group_resource);
  key += '/';
  key += name.namespace_;
  key += '/';
  key += name.name;
  return key;
}

bool ParseStorageKey(std::string_view key, std::string* group_resource, ObjectName* name) {
  std::size_t first = key.find('/');
  if (first == std::string_view::npos) return false;
  std::size_t second = key.find('/', first + 1);
  if (second == std::string_view::npos || key.find('/', second + 1) != std::string_view::npos) {
    return false;
  }
  *group_resource = std::string(key.substr(0, first));
  name->namespace_ = std::string(key.substr(first + 1, second - first - 1));
  name->name = std::string(key.substr(second + 1));
  return !group_resource->empty() && !name->name.empty();
}

Result<std::unique_ptr<Database>> Database::Open(const std::string& data_dir) {
  if (Status made = CreatePrivateDirectory(data_dir); !made.ok()) {
    return Status::Internal("store: data directory: " + made.message());
  }
  std::unique_ptr<Database> db(
      new Database((std::filesystem::path(data_dir) / "store.db").string()));
  RETURN_IF_ERROR(db->Init());
  return db;
}

// The write-ahead log SQLite appends every commit to (kept, never deleted, while the exclusive
// connection is open), and the directory entries of both files made durable once.
Status Database::OpenLog() {
  const std::string wal = path_ + "-wal";
  log_fd_ = ::open(wal.c_str(), O_RDONLY | O_CLOEXEC);
  if (log_fd_ < 0) return Status::Internal("store: " + wal + ": " + std::strerror(errno));
  const std::string dir = std::filesystem::path(path_).parent_path().string();
  const int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return Status::Internal("store: " + dir + ": " + std::strerror(errno));
  const int synced = ::fsync(dir_fd);
  const int error = errno;
  ::close(dir_fd);
  if (synced != 0) return Status::Internal("store: fsync " + dir + ": " + std::strerror(error));
  return Status::Ok();
}

void Database::NoteFull() const {
  if (db_ != nullptr && (sqlite3_extended_errcode(db_) & 0xff) == SQLITE_FULL) disk_full_ = true;
}

bool Database::TakeDiskFull() { return std::exchange(disk_full_, false); }

// Gives the pages of deleted objects back to the file system: the free pages at the end of
// the file (auto_vacuum=INCREMENTAL), then the log, truncated once checkpointed.
Status Database::GiveBackSpace() {
  RETURN_IF_ERROR(Exec("PRAGMA incremental_vacuum;"));
  return Exec("PRAGMA wal_checkpoint(TRUNCATE);");
}

Status Database::FlushLog() const {
  if (::fdatasync(log_fd_) == 0) return Status::Ok();
  return Status::Internal("store: " + path_ + "-wal: fsync: " + std::strerror(errno) +
                          " (the last writes may not be on disk; restart to recover from the log)");
}

Database::~Database() {
  sqlite3_finalize(put_object_);
  sqlite3_finalize(delete_object_);
  sqlite3_finalize(put_counter_);
  sqlite3_close_v2(db_);
  if (log_fd_ >= 0) ::close(log_fd_);
}

Status Database::Error(std::string_view what) const {
  NoteFull();
  const char* detail = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
  return Status::Internal("store: " + path_ + ": " + std::string(what) + ": " + detail);
}

Status Database::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    NoteFull();
    std::string detail = message != nullptr ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    return Status::Internal("store: " + path_ + ": " + detail);
  }
  return Status::Ok();
}

Status Database::Init() {
  // The database holds Secrets: only its owner may read it. SQLite gives the -wal and -shm files
  // the database file's mode, so creating it 0600 first covers all three.
  const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (fd < 0 || ::fchmod(fd, S_IRUSR | S_IWUSR) != 0) {
    const std::string error = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return Status::Internal("store: " + path_ + ": cannot create it owner-only: " + error);
  }
  ::close(fd);
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) return Error("open");
  // The exclusive lock is taken by the first write below and kept until the database closes.
  // auto_vacuum takes effect only in a new file (before its first table): deleted objects'
  // pages can then be given back to a full disk (GiveBackSpace).
  RETURN_IF_ERROR(
      Exec("PRAGMA auto_vacuum=INCREMENTAL; PRAGMA locking_mode=EXCLUSIVE;"
           "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  Status schema = Exec(kSchema);
  if (!schema.ok()) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return schema;
  }
  RETURN_IF_ERROR(Exec("COMMIT"));
  RETURN_IF_ERROR(OpenLog());
  auto prepare = [&](const char* sql, sqlite3_stmt** out) {
    return sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, out, nullptr) == SQLITE_OK
               ? Status::Ok()
               : Error("prepare");
  };
  RETURN_IF_ERROR(
      prepare("INSERT OR REPLACE INTO objects(key, rv, json) VALUES(?, ?, ?)", &put_object_));
  RETURN_IF_ERROR(prepare("DELETE FROM objects WHERE key = ?", &delete_object_));
  RETURN_IF_ERROR(prepare("INSERT OR REPLACE INTO counter(id, rv) VALUES(0, ?)", &put_counter_));
  return Status::Ok();
}

Status Database::Step(sqlite3_stmt* statement, std::string_view what) {
  ResetOnExit reset(statement);
  int rc = sqlite3_step(statement);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? Status::Ok() : Error(what);
}

Status Database::InTransaction(const std::function<Status()>& body) {
  RETURN_IF_ERROR(Exec("BEGIN"));
  Status status = body();
  if (status.ok()) status = Exec("COMMIT");
  if (!status.ok()) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  return status;
}

Result<std::uint64_t> Database::LoadCounter() {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT rv FROM counter WHERE id = 0", -1, &s, nullptr) !=
      SQLITE_OK) {
    return Error("read counter");
  }
  int rc = sqlite3_step(s);
  std::int64_t value = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
  sqlite3_finalize(s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Error("read counter");
  if (value < 0) return Status::Internal("store: " + path_ + ": negative resourceVersion counter");
  return static_cast<std::uint64_t>(value);
}

Status Database::LoadObjects(
    const std::function<Status(std::string_view, std::uint64_t, std::string_view)>& row) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT key, rv, json FROM objects", -1, &s, nullptr) != SQLITE_OK) {
    return Error("read objects");
  }
  Status status;
  int rc;
  while (status.ok() && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    auto text = [&](int column) {
      const unsigned char* p = sqlite3_column_text(s, column);
      return std::string_view(reinterpret_cast<const char*>(p),
                              p ? static_cast<std::size_t>(sqlite3_column_bytes(s, column)) : 0);
    };
    std::int64_t rv = sqlite3_column_int64(s, 1);
    status = rv > 0 ? row(text(0), static_cast<std::uint64_t>(rv), text(2))
                    : Status::Internal("store: " + path_ + ": object " + std::string(text(0)) +
                                       " has an invalid resourceVersion");
  }
  if (status.ok() && rc != SQLITE_DONE) status = Error("read objects");
  sqlite3_finalize(s);
  return status;
}

Status Database::Put(std::string_view key, std::uint64_t rv, std::string_view json) {
  return InTransaction([&]() -> Status {
    ResetOnExit reset_object(put_object_);
    if (BindText(put_object_, 1, key) != SQLITE_OK ||
        sqlite3_bind_int64(put_object_, 2, static_cast<sqlite3_int64>(rv)) != SQLITE_OK ||
        BindText(put_object_, 3, json) != SQLITE_OK) {
      return Error("bind");
    }
    RETURN_IF_ERROR(Step(put_object_, "write object"));
    if (sqlite3_bind_int64(put_counter_, 1, static_cast<sqlite3_int64>(rv)) != SQLITE_OK) {
      return Error("bind");
    }
    return Step(put_counter_, "write counter");
  });
}

Status Database::Remove(std::string_view key, std::uint64_t rv) {
  return InTransaction([&]() -> Status {
    if (BindText(delete_object_, 1, key) != SQLITE_OK) return Error("bind");
    RETURN_IF_ERROR(Step(delete_object_, "delete object"));
    if (sqlite3_bind_int64(put_counter_, 1, static_cast<sqlite3_int64>(rv)) != SQLITE_OK) {
      return Error("bind");
    }
    return Step(put_counter_, "write counter");
  });
}

}  // namespace lws::store
