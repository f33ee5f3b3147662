#include "api/identical_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace lws::api {

bool IdenticalJson(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    const auto& ma = a.get_ref<const Json::object_t&>();
    const auto& mb = b.get_ref<const Json::object_t&>();
    return std::equal(ma.begin(), ma.end(), mb.begin(), mb.end(), [](const auto& x, const auto& y) {
      return x.first == y.first && IdenticalJson(x.second, y.second);
    });
  }
  if (a.is_array()) {
    const auto& la = a.get_ref<const Json::array_t&>();
    const auto& lb = b.get_ref<const Json::array_t&>();
    return std::equal(la.begin(), la.end(), lb.begin(), lb.end(),
                      [](const Json& x, const Json& y) { return IdenticalJson(x, y); });
  }
  return a == b;  // the same type: strings, booleans, null, numbers of one kind
}

}  // namespace lws::api
