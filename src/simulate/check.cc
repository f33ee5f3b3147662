// The checks a scenario gets before any run (run.h CheckScenario): what would only fail, or
// only wait forever, once running is reported at once, with the file and the object.
#include <fmt/format.h>

#include "api/codec.h"
#include "api/disaggregatedset_admission.h"
#include "api/disaggregatedset_types.h"
#include "api/lws_admission.h"
#include "api/pod_requests.h"
#include "simulate/run.h"

namespace lws::simulate {
namespace {

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

// Each pod of the template must fit a node of some pool.
void CheckPods(const api::LeaderWorkerTemplate& tmpl, const std::string& where,
               const cluster::ClusterSpec& cluster, std::vector<std::string>* problems) {
  const api::PodSpec& leader =
      tmpl.leader_template ? tmpl.leader_template->spec : tmpl.worker_template.spec;
  for (auto [role, spec] :
       {std::pair{"leader", &leader}, std::pair{"worker", &tmpl.worker_template.spec}}) {
    std::string why = WhyNoNodeFits(*spec, cluster);
    if (!why.empty()) {
      problems->push_back(fmt::format("{}: a {} pod fits no node of the cluster: it asks for {}",
                                      where, role, why));
    }
  }
}

// An LWS or DisaggregatedSet as a strategy's run creates it: admitted as the API server would,
// and its pods each fit some node.
void CheckWorkload(const Json& workload, const Strategy& strategy, const std::string& file,
                   const cluster::ClusterSpec& cluster, std::vector<std::string>* problems) {
  const std::string where =
      fmt::format("{}: {} {} (strategy {})", file, api::StringMember(workload, "kind"),
                  NameOf(workload), strategy.name);
  Result<Json> patched = WithStrategy(workload, strategy);
  if (!patched.ok()) {
    problems->push_back(where + ": " + patched.status().message());
    return;
  }
  if (IsLws(workload)) {
    api::LwsAdmission admitted = api::AdmitLeaderWorkerSet(*patched);
    for (const api::FieldError& e : admitted.errors) problems->push_back(where + ": " + e.Error());
    if (!admitted.errors.empty()) return;
    Result<api::LeaderWorkerSet> decoded = api::Decode<api::LeaderWorkerSet>(admitted.object);
    if (decoded.ok()) CheckPods(decoded->spec.leader_worker_template, where, cluster, problems);
    return;
  }
  api::DsAdmission admitted = api::AdmitDisaggregatedSet(*patched);
  for (const api::FieldError& e : admitted.errors) problems->push_back(where + ": " + e.Error());
  if (!admitted.errors.empty()) return;
  Result<api::DisaggregatedSet> decoded = api::Decode<api::DisaggregatedSet>(admitted.object);
  if (!decoded.ok()) return;
  for (const api::DisaggregatedRoleSpec& role : decoded->spec.roles) {
    CheckPods(role.spec.leader_worker_template, where + " role " + role.name, cluster, problems);
  }
}

}  // namespace

Status CheckScenario(const Scenario& scenario, const std::string& file) {
  std::vector<std::string> problems;
  for (const Strategy& strategy : scenario.strategies) {
    for (const Json& workload : scenario.WorkloadsOf(strategy)) {
      if (IsRollable(workload)) {
        CheckWorkload(workload, strategy, file, scenario.cluster, &problems);
      }
    }
  }
  if (problems.empty()) return Status::Ok();
  std::string message;
  for (const std::string& p : problems) message += (message.empty() ? "" : "\n") + p;
  return Status::Invalid(std::move(message), {});
}

}  // namespace lws::simulate
