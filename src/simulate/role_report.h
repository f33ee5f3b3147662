// File: simulate/role_report.h
//
// The report's parts for runs that watch several roles (a DisaggregatedSet, or LWSs the timeline
// changes together; service_metrics.h). Only such runs have them, so the reports of one LWS keep
// their bytes:
//
//   run:     "roles": [{"name": "prefill", "replicas": 6, "floor": 5, "minReadyGroups": 5,
//                       "belowFloorSeconds": 0.0, "belowReplicasSeconds": 140.2,
//                       "groupHoursLost": 0.03, "peakAccelerators": 56,
//                       "surgeAcceleratorHours": 0.4, "firstNewReadySeconds": 95.1}, ...],
//            "service": {"capacityMin": 0.6667, "serviceHoursLost": 0.05, "ratioGapMax": 0.3333,
//                        "idleAcceleratorHours": 1.2}
//   summary: "roles": [{"name", "replicas", "floor", and p50/p95/worst of minReadyGroups,
//                       belowFloorSeconds, groupHoursLost, peakAccelerators}],
//            "service": {p50/p95/worst of each service number}
//
// The table gets CAPACITY MIN (p50/worst), SERVICE-H LOST and IDLE ACC-H (p50) and, below it,
// a line per role and strategy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "simulate/run.h"

namespace lws::simulate {

// The numbers a run and a role share (minReadyGroups, belowFloorSeconds, belowReplicasSeconds,
// groupHoursLost, peakAccelerators, surgeAcceleratorHours, firstNewReadySeconds), rounded.
void AddServingNumbers(const RunMetrics& metrics, api::Json* json);
void ServingNumbersFromJson(const api::Json& json, RunMetrics* metrics);

void AddRoles(const RunResult& run, api::Json* json);
void RolesFromJson(const api::Json& json, RunResult* run);
// Adds "roles" and "service" to a strategy's summary when its runs have roles.
void AddRoleSummaries(const std::vector<RunResult>& runs, api::Json* summary);

// Whether some strategy of a report's JSON has service numbers (the table's extra columns).
bool AnyService(const api::Json& report);
// The extra columns' header, and a strategy's cells ("-" without service numbers).
std::string ServiceHeader();
std::string ServiceCells(const api::Json& summary);
// The lines below the table: "role prefill (lock-step): min ready 5/4 of 6 (floor 5), below
// floor 0s/1.2m, group-h lost 0.03/0.09 (p50/worst)".
std::string RoleLines(const api::Json& strategy,
                      const std::function<std::string(const api::Json&, const char*)>& secs);

}  // namespace lws::simulate
