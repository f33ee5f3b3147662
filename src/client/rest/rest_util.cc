#include "client/rest/rest_util.h"

namespace lws::rest {

std::string DirName(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string ResolvePath(std::string_view dir, std::string_view path) {
  if (path.empty() || path.front() == '/') return std::string(path);
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out.push_back('/');
  return out + std::string(path);
}

}  // namespace lws::rest
