#include "controllers/disaggregatedset/naming.h"

#include <charconv>

#include "api/disaggregatedset_types.h"

namespace lws::disaggregatedset {

std::string LwsName(const std::string& ds, int slice, const std::string& revision,
                    const std::string& role) {
  return ds + "-" + std::to_string(slice) + "-" + revision + "-" + role;
}

std::string LegacyLwsName(const std::string& ds, const std::string& revision,
                          const std::string& role) {
  return ds + "-" + revision + "-" + role;
}

std::string ServiceName(const std::string& lws_name) {
  return lws_name + std::string(kServiceSuffix);
}

api::StringMap DsLabels(const std::string& ds, int slice, const std::string& revision,
                        const std::string& role) {
  api::StringMap labels;
  labels.emplace("app", ds + "-" + std::to_string(slice) + "-" + role);
  labels.emplace(api::kDsRoleLabel, role);
  labels.emplace(api::kDsSliceLabel, std::to_string(slice));
  labels.emplace(api::kDsNameLabel, ds);
  labels.emplace(api::kDsRevisionLabel, revision);
  return labels;
}

int SliceOfLabels(const api::StringMap& labels) {
  const std::string& text = api::ValueOf(labels, api::kDsSliceLabel);
  if (text.empty()) return 0;
  int slice = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), slice);
  if (error != std::errc() || end != text.data() + text.size() || slice < 0) return -1;
  return slice;
}

}  // namespace lws::disaggregatedset
