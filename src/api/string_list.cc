// File: api/string_list.cc
#include "api/string_list.h"

#include <nlohmann/json.hpp>

#include "api/field.h"

namespace lws::api {

std::vector<std::string> StringList(const Json& object, std::string_view key) {
  std::vector<std::string> out;
  const Json& list = ChildOrNull(object, key);
  if (!list.is_array()) return out;
  for (const Json& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace lws::api
