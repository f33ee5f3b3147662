// The checks a scenario gets before any run (run.h CheckScenario): what would only fail, or
// only wait forever, once running is reported at once, with the file and the object.
#include <fmt/format.h>

#include "api/lws_admission.h"
#include "api/pod_requests.h"
#include "apiserver/patch.h"
#include "simulate/run.h"

namespace lws::simulate {
namespace {

std::string NameOf(const Json& object) {
  return api::StringMember(api::ChildOrNull(object, "metadata"), "name");
}

// Why no pool's node can hold a pod with `spec` ("" when one can): the first resource the
// largest offer of which is still too small.
std::string WhyNoNodeFits(const api::PodSpec& spec, const cluster::ClusterSpec& cluster) {
  const api::ResourceList requests = api::PodSpecRequests(spec, {}, api::LimitsAsRequests::kYes);
  std::string why;
  for (const cluster::NodePoolSpec& pool : cluster.pools) {
    std::string lack;
    for (const auto& [name, amount] : requests) {
      auto offered = pool.allocatable.find(name);
      Result<api::Quantity> have = offered == pool.allocatable.end()
                                       ? Result<api::Quantity>(api::Quantity())
                                       : api::Quantity::Parse(offered->second);
      if (have.ok() && amount > *have) {
        lack = fmt::format("{} {} (pool {} nodes have {})", name, amount.String(), pool.name,
                           have->String());
        break;
      }
    }
    if (lack.empty()) return "";
    if (why.empty()) why = lack;
  }
  return why;
}

}  // namespace

Status CheckScenario(const Scenario& scenario, const std::string& file) {
  std::vector<std::string> problems;
  for (const Strategy& strategy : scenario.strategies) {
    for (const Json* lws : scenario.Leaderworkersets()) {
      const std::string where =
          fmt::format("{}: LeaderWorkerSet {} (strategy {})", file, NameOf(*lws), strategy.name);
      Result<Json> patched = apiserver::ApplyMergePatch(*lws, strategy.lws_patch);
      if (!patched.ok()) {
        problems.push_back(where + ": " + patched.status().message());
        continue;
      }
      api::LwsAdmission admitted = api::AdmitLeaderWorkerSet(*patched);
      for (const api::FieldError& e : admitted.errors) problems.push_back(where + ": " + e.Error());
      if (!admitted.errors.empty()) continue;
      Result<api::LeaderWorkerSet> decoded = api::Decode<api::LeaderWorkerSet>(admitted.object);
      if (!decoded.ok()) continue;
      const auto& tmpl = decoded->spec.leader_worker_template;
      const api::PodSpec& leader =
          tmpl.leader_template ? tmpl.leader_template->spec : tmpl.worker_template.spec;
      for (auto [role, spec] :
           {std::pair{"leader", &leader}, std::pair{"worker", &tmpl.worker_template.spec}}) {
        std::string why = WhyNoNodeFits(*spec, scenario.cluster);
        if (!why.empty()) {
          problems.push_back(fmt::format("{}: a {} pod fits no node of the cluster: it asks for {}",
                                         where, role, why));
        }
      }
    }
  }
  if (problems.empty()) return Status::Ok();
  std::string message;
  for (const std::string& p : problems) message += (message.empty() ? "" : "\n") + p;
  return Status::Invalid(std::move(message), {});
}

}  // namespace lws::simulate
