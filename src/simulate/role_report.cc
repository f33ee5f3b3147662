// The report's parts for runs of several roles (role_report.h).
#include "simulate/role_report.h"

#include <fmt/format.h>

#include "simulate/report_numbers.h"

namespace lws::simulate {
namespace {

using api::Json;

double Ratio(double value) { return Round(value, 1e-4); }

const RoleResult* FindRole(const RunResult& run, const std::string& name) {
  for (const RoleResult& role : run.roles) {
    if (role.name == name) return &role;
  }
  return nullptr;
}

// A role's number over the runs that have the role.
std::vector<double> OfRole(const std::vector<RunResult>& runs, const std::string& name,
                           const std::function<double(const RunMetrics&)>& get) {
  std::vector<double> values;
  for (const RunResult& run : runs) {
    if (const RoleResult* role = FindRole(run, name)) values.push_back(get(role->metrics));
  }
  return values;
}

std::vector<double> OfService(const std::vector<RunResult>& runs,
                              const std::function<double(const ServiceMetrics&)>& get) {
  std::vector<double> values;
  for (const RunResult& run : runs) {
    if (!run.roles.empty()) values.push_back(get(run.service));
  }
  return values;
}

}  // namespace

void AddServingNumbers(const RunMetrics& m, Json* json) {
  Json& j = *json;
  j["minReadyGroups"] = m.min_ready;
  j["belowFloorSeconds"] = Ms(m.below_floor_s);
  j["belowReplicasSeconds"] = Ms(m.below_replicas_s);
  j["groupHoursLost"] = Micro(m.group_hours_lost);
  j["peakAccelerators"] = m.peak_accelerators;
  j["surgeAcceleratorHours"] = Micro(m.surge_accelerator_hours);
  j["firstNewReadySeconds"] = m.first_new_ready_s ? Json(Ms(*m.first_new_ready_s)) : Json();
}

void ServingNumbersFromJson(const Json& j, RunMetrics* m) {
  m->min_ready = j.value("minReadyGroups", 0);
  m->below_floor_s = j.value("belowFloorSeconds", 0.0);
  m->below_replicas_s = j.value("belowReplicasSeconds", 0.0);
  m->group_hours_lost = j.value("groupHoursLost", 0.0);
  m->peak_accelerators = j.value("peakAccelerators", std::int64_t{0});
  m->surge_accelerator_hours = j.value("surgeAcceleratorHours", 0.0);
  if (j.contains("firstNewReadySeconds") && j["firstNewReadySeconds"].is_number()) {
    m->first_new_ready_s = j["firstNewReadySeconds"].get<double>();
  }
}

void AddRoles(const RunResult& run, Json* json) {
  Json roles = Json::array();
  for (const RoleResult& role : run.roles) {
    Json r = {{"name", role.name}, {"replicas", role.replicas}, {"floor", role.floor}};
    AddServingNumbers(role.metrics, &r);
    roles.push_back(std::move(r));
  }
  (*json)["roles"] = std::move(roles);
  const ServiceMetrics& s = run.service;
  (*json)["service"] = {{"capacityMin", Ratio(s.capacity_min)},
                        {"serviceHoursLost", Micro(s.service_hours_lost)},
                        {"ratioGapMax", Ratio(s.ratio_gap_max)},
                        {"idleAcceleratorHours", Micro(s.idle_accelerator_hours)}};
}

void RolesFromJson(const Json& json, RunResult* run) {
  for (const Json& r : json.value("roles", Json::array())) {
    RoleResult role;
    role.name = r.value("name", "");
    role.replicas = r.value("replicas", 0);
    role.floor = r.value("floor", 0);
    ServingNumbersFromJson(r, &role.metrics);
    run->roles.push_back(std::move(role));
  }
  const Json service = json.value("service", Json::object());
  run->service.capacity_min = service.value("capacityMin", 1.0);
  run->service.service_hours_lost = service.value("serviceHoursLost", 0.0);
  run->service.ratio_gap_max = service.value("ratioGapMax", 0.0);
  run->service.idle_accelerator_hours = service.value("idleAcceleratorHours", 0.0);
}

void AddRoleSummaries(const std::vector<RunResult>& runs, Json* summary) {
  const RunResult* first = nullptr;
  for (const RunResult& run : runs) {
    if (first == nullptr && !run.roles.empty()) first = &run;
  }
  if (first == nullptr) return;
  Json roles = Json::array();
  for (const RoleResult& role : first->roles) {
    roles.push_back(
        {{"name", role.name},
         {"replicas", role.replicas},
         {"floor", role.floor},
         {"minReadyGroups",
          Spread(OfRole(runs, role.name, [](const RunMetrics& m) { return double(m.min_ready); }),
                 Smaller)},
         {"belowFloorSeconds",
          Spread(OfRole(runs, role.name, [](const RunMetrics& m) { return Ms(m.below_floor_s); }),
                 Bigger)},
         {"groupHoursLost",
          Spread(OfRole(runs, role.name,
                        [](const RunMetrics& m) { return Micro(m.group_hours_lost); }),
                 Bigger)},
         {"peakAccelerators",
          Spread(OfRole(runs, role.name,
                        [](const RunMetrics& m) { return double(m.peak_accelerators); }),
                 Bigger)}});
  }
  (*summary)["roles"] = std::move(roles);
  (*summary)["service"] = {
      {"capacityMin",
       Spread(OfService(runs, [](const ServiceMetrics& s) { return Ratio(s.capacity_min); }),
              Smaller)},
      {"serviceHoursLost",
       Spread(OfService(runs, [](const ServiceMetrics& s) { return Micro(s.service_hours_lost); }),
              Bigger)},
      {"ratioGapMax",
       Spread(OfService(runs, [](const ServiceMetrics& s) { return Ratio(s.ratio_gap_max); }),
              Bigger)},
      {"idleAcceleratorHours",
       Spread(
           OfService(runs, [](const ServiceMetrics& s) { return Micro(s.idle_accelerator_hours); }),
           Bigger)}};
}

bool AnyService(const Json& report) {
  for (const Json& s : report["strategies"]) {
    if (s["summary"].contains("service")) return true;
  }
  return false;
}

std::string ServiceHeader() {
  return fmt::format(" {:>12} {:>14} {:>10}", "CAPACITY MIN", "SERVICE-H LOST", "IDLE ACC-H");
}

std::string ServiceCells(const Json& summary) {
  if (!summary.contains("service")) return fmt::format(" {:>12} {:>14} {:>10}", "-", "-", "-");
  const Json& s = summary["service"];
  return fmt::format(" {:>12} {:>14.2f} {:>10.2f}",
                     fmt::format("{:.0f}%/{:.0f}%", s["capacityMin"]["p50"].get<double>() * 100,
                                 s["capacityMin"]["worst"].get<double>() * 100),
                     s["serviceHoursLost"]["p50"].get<double>(),
                     s["idleAcceleratorHours"]["p50"].get<double>());
}

std::string RoleLines(const Json& strategy,
                      const std::function<std::string(const Json&, const char*)>& secs) {
  std::string out;
  const Json& summary = strategy["summary"];
  for (const Json& role : summary.value("roles", Json::array())) {
    out += fmt::format(
        "role {} ({}): min ready {}/{} of {} (floor {}), below floor {}/{}, group-h lost "
        "{:.2f}/{:.2f} (p50/worst)\n",
        role["name"].get<std::string>(), strategy["name"].get<std::string>(),
        role["minReadyGroups"]["p50"].get<double>(), role["minReadyGroups"]["worst"].get<double>(),
        role["replicas"].get<int>(), role["floor"].get<int>(),
        secs(role["belowFloorSeconds"], "p50"), secs(role["belowFloorSeconds"], "worst"),
        role["groupHoursLost"]["p50"].get<double>(), role["groupHoursLost"]["worst"].get<double>());
  }
  return out;
}

}  // namespace lws::simulate
