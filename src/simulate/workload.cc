// The workloads of a scenario (workload.h).
#include "simulate/workload.h"

#include "api/disaggregatedset_types.h"
#include "api/lws_types.h"
#include "apiserver/patch.h"

namespace lws::simulate {
namespace {

// Every container of a leaderWorkerTemplate's two templates at `image`, as the merge patch of
// that template.
Json TemplatesWithImage(const Json& lws_spec, const std::string& image) {
  Json templates = Json::object();
  for (const char* role : {"leaderTemplate", "workerTemplate"}) {
    const Json& tmpl = api::ChildOrNull(api::ChildOrNull(lws_spec, "leaderWorkerTemplate"), role);
    Json containers = api::ChildOrNull(api::ChildOrNull(tmpl, "spec"), "containers");
    if (!containers.is_array()) continue;
    for (Json& c : containers) c["image"] = image;
    templates[role] = {{"spec", {{"containers", std::move(containers)}}}};
  }
  return {{"leaderWorkerTemplate", std::move(templates)}};
}

}  // namespace

bool IsLws(const Json& object) {
  return api::StringMember(object, "kind") == api::kLwsKind &&
         api::StringMember(object, "apiVersion") == "leaderworkerset.x-k8s.io/v1";
}

bool IsDisaggregatedSet(const Json& object) {
  return api::StringMember(object, "kind") == api::kDsKind &&
         api::StringMember(object, "apiVersion") == api::kDsApiVersion;
}

bool IsRollable(const Json& object) { return IsLws(object) || IsDisaggregatedSet(object); }

std::string NameOf(const Json& object) {
  return api::StringMember(api::ChildOrNull(object, "metadata"), "name");
}

Json ImagePatch(const Json& workload, const std::string& image) {
  const Json& spec = api::ChildOrNull(workload, "spec");
  if (!IsDisaggregatedSet(workload)) return {{"spec", TemplatesWithImage(spec, image)}};
  Json roles = api::ChildOrNull(spec, "roles");
  if (!roles.is_array()) return Json::object();
  for (Json& role : roles) {
    Result<Json> patched = apiserver::ApplyMergePatch(
        role, {{"spec", TemplatesWithImage(api::ChildOrNull(role, "spec"), image)}});
    if (patched.ok()) role = std::move(*patched);
  }
  return {{"spec", {{"roles", std::move(roles)}}}};
}

Result<Json> PatchRoles(const Json& ds, const Json& patch) {
  Json out = ds;
  Json& roles = out["spec"]["roles"];
  if (!roles.is_array()) return out;  // admission reports it
  for (Json& role : roles) {
    ASSIGN_OR_RETURN(role, apiserver::ApplyMergePatch(role, patch));
  }
  return out;
}

}  // namespace lws::simulate
