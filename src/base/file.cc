#include "base/file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace lws {

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    std::string reason = err != 0 ? std::strerror(err) : "cannot open";
    if (err == ENOENT) return Status::NotFound("open " + path + ": no such file or directory");
    return Status::Internal("open " + path + ": " + reason);
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Status::Internal("read " + path + ": I/O error");
  return buffer.str();
}

Status WriteFileAtomically(const std::string& path, const std::string& text, bool owner_only) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (owner_only) ::chmod(temporary.c_str(), S_IRUSR | S_IWUSR);
    out << text;
    out.close();
    if (!out) return Status::Internal("cannot write " + temporary);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    return Status::Internal("cannot write " + path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

bool FileExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace lws
