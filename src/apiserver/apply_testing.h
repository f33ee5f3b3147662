// File: apiserver/apply_testing.h
//
// Test helpers for server-side apply: a StatefulSet-like schema (the merge keys the built-in
// table gives apps/v1 StatefulSets), request options and fixed times.
#pragma once

#include <string>

#include "apiserver/apply.h"

namespace lws::apiserver::testing {

inline ListTypeProvider StatefulSetSchema() {
  return FromMergeKeys([](std::string_view path) -> std::optional<ListSchema> {
    if (path == "spec.template.spec.containers") return MapList({"name"});
    if (path == "spec.template.spec.containers.env") return MapList({"name"});
    if (path == "spec.template.spec.containers.ports") {
      return MapList({"containerPort", "protocol"}, {{"protocol", "TCP"}});
    }
    if (path == "spec.template.spec.volumes") return MapList({"name"});
    if (path == "status.conditions") return MapList({"type"});
    return std::nullopt;
  });
}

// Seconds after a fixed epoch, so that formatted times are predictable.
inline Time At(int seconds) {
  return Time(std::chrono::seconds(1'735'689'600 + seconds));  // 2025-01-01T00:00:00Z
}

inline FieldManagerScope Scope(std::string manager, int seconds = 0, std::string subresource = "") {
  FieldManagerScope scope;
  scope.manager = std::move(manager);
  scope.api_version = "apps/v1";
  scope.subresource = std::move(subresource);
  scope.status_subresource = true;
  scope.status_write = api::StatusWrite::kAllButSpec;  // a StatefulSet's
  scope.now = At(seconds);
  scope.schema = StatefulSetSchema();
  return scope;
}

inline ApplyOptions Options(std::string manager, int seconds = 0, bool force = false) {
  ApplyOptions options;
  options.scope = Scope(std::move(manager), seconds);
  options.kind = "StatefulSet";
  options.name = "s";
  options.namespace_ = "default";
  options.force = force;
  return options;
}

// A StatefulSet manifest with the given replicas and image, as a client would apply it.
inline Json StatefulSet(int replicas, const std::string& image = "nginx:1") {
  return Json{{"apiVersion", "apps/v1"},
              {"kind", "StatefulSet"},
              {"metadata", {{"name", "s"}, {"namespace", "default"}}},
              {"spec",
               {{"replicas", replicas},
                {"template",
                 {{"spec", {{"containers", Json::array({{{"name", "c"}, {"image", image}}})}}}}}}}};
}

}  // namespace lws::apiserver::testing
