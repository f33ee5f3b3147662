// Fuzz target for apiserver/apply and managed_fields: arbitrary live/applied JSON pairs (and
// arbitrary managedFields inside the live object) must never crash Apply or UpdateManagedFields.
// Two properties are checked on the way: FieldsV1 read back from what was written is the same
// set, and re-applying the same configuration with force is a fixed point.
//
// Input: one flags byte, then the live object's JSON, a NUL byte, and the applied JSON.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/lws_crd.h"
#include "apiserver/apply.h"

namespace {

using lws::apiserver::Json;
using lws::apiserver::ListSchema;
using lws::apiserver::ListTypeProvider;

ListTypeProvider MergeKeySchema() {
  return lws::apiserver::FromMergeKeys([](std::string_view path) -> std::optional<ListSchema> {
    if (path == "spec.template.spec.containers" || path == "spec.containers") {
      return lws::apiserver::MapList({"name"});
    }
    if (path == "spec.ports") {
      return lws::apiserver::MapList({"port", "protocol"}, {{"protocol", "TCP"}});
    }
    if (path == "spec.tags") return lws::apiserver::SetList();
    return std::nullopt;
  });
}

void CheckFieldsRoundTrip(const Json& object) {
  auto managed = lws::apiserver::DecodeManagedFields(lws::apiserver::ManagedFieldsOf(object));
  if (!managed.ok()) return;
  for (const auto& [id, entry] : *managed) {
    auto back = lws::apiserver::FieldSet::FromFieldsV1(entry.fields.ToFieldsV1());
    if (!back.ok() || !(*back == entry.fields)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ListTypeProvider merge_keys = MergeKeySchema();
  static const ListTypeProvider lws_schema =
      lws::apiserver::FromOpenApiSchema(lws::api::LwsOpenApiSchema());
  if (size < 1) return 0;
  const std::uint8_t flags = data[0];
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t split = input.find('\0');
  if (split == std::string::npos) return 0;
  Json live = Json::parse(input.substr(0, split), nullptr, false);
  Json config = Json::parse(input.substr(split + 1), nullptr, false);
  if (live.is_discarded() || config.is_discarded()) return 0;

  lws::apiserver::ApplyOptions options;
  options.scope.manager = (flags & 1) ? "kubectl" : "fuzz";
  // The server's scope always names a version (the request path's group/version); an empty one
  // would record entries that no later write can read.
  const Json& api_version = config.is_object() ? config.value("apiVersion", Json()) : Json();
  options.scope.api_version = api_version.is_string() && !api_version.get<std::string>().empty()
                                  ? api_version.get<std::string>()
                                  : "v1";
  options.scope.subresource = (flags & 2) ? "status" : "";
  options.scope.status_subresource = (flags & 4) != 0;
  options.scope.now = lws::Time(std::chrono::seconds(1'700'000'000));
  options.scope.schema = (flags & 8) ? lws_schema : merge_keys;
  options.kind = config.is_object() && config.value("kind", Json()).is_string()
                     ? config["kind"].get<std::string>()
                     : "";
  options.force = (flags & 16) != 0;

  Json updated = lws::apiserver::UpdateManagedFields(live, config, options.scope);
  CheckFieldsRoundTrip(updated);
  auto applied = lws::apiserver::Apply(live, config, options);
  if (!applied.ok()) return 0;
  CheckFieldsRoundTrip(applied->object);
  if (!options.force || (flags & 32) == 0) return 0;
  // An apply that leaves no entries (the live ones owned nothing, the applier owns nothing) is no
  // fixed point, as upstream's is not: the next apply finds no managedFields and first records
  // the fields it finds for "before-first-apply".
  if (lws::apiserver::ManagedFieldsOf(applied->object).empty()) return 0;
  auto again = lws::apiserver::Apply(applied->object, config, options);
  if (!again.ok() || again->object != applied->object) __builtin_trap();
  return 0;
}
