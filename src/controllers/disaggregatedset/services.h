// File: controllers/disaggregatedset/services.h
//
// The headless Services of a DisaggregatedSet's slice (upstream ServiceManager.ReconcileServices;
// docs/disaggregatedset-upstream.md section 3.6): once every role of the spec has a ready group
// at the target revision, each role's LWS of that revision gets a Service `<lws name>-prv`
// (clusterIP None, no ports) selecting its pods by set, role, revision and slice, so that the
// roles of one revision find each other. Services are created, never updated; those of
// revisions no longer ready on every role are deleted. While the target revision is not ready
// on every role nothing changes, so the old revision's Services keep serving.
#pragma once

#include <string>
#include <vector>

#include "api/core.h"
#include "api/disaggregatedset_types.h"
#include "controllers/disaggregatedset/observed.h"

namespace lws::disaggregatedset {

// A Service labelled with the set's name, as the plan reads it.
struct OwnedService {
  std::string name;
  std::string revision;  // label disaggregatedset.x-k8s.io/revision
  int slice = 0;         // label; none reads as slice 0, an unparsable one as -1
};

struct ServicePlan {
  std::vector<api::Service> create;
  std::vector<std::string> delete_names;
};

// `slice_lws`: the slice's LeaderWorkerSets; `services`: every Service labelled with the set's
// name in its namespace.
ServicePlan PlanServices(const api::DisaggregatedSet& ds, int slice, const std::string& revision,
                         const std::vector<OwnedLws>& slice_lws,
                         const std::vector<OwnedService>& services);

}  // namespace lws::disaggregatedset
