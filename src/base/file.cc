#include "base/file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
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

Status CreatePrivateDirectory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return Status::Internal("cannot create directory " + path + ": " + ec.message());
  if (::chmod(path.c_str(), S_IRWXU) != 0) {
    return Status::Internal("cannot make " + path +
                            " private (mode 0700): " + std::strerror(errno));
  }
  return Status::Ok();
}

bool FileExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace lws
