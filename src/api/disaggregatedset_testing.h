// File: api/disaggregatedset_testing.h
//
// The DisaggregatedSet the api/ tests start from: roles prefill and decode, each one pod of
// nginx, named `name` in namespace default, before any defaults.
#pragma once

#include <string>

#include "api/field.h"

namespace lws::api::testing {

inline Json TwoRoleDs(const std::string& name) {
  Json role = {{"spec",
                {{"leaderWorkerTemplate",
                  {{"workerTemplate",
                    {{"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}}}}}}}};
  Json prefill = role, decode = role;
  prefill["name"] = "prefill";
  decode["name"] = "decode";
  return {{"apiVersion", "disaggregatedset.x-k8s.io/v1"},
          {"kind", "DisaggregatedSet"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"roles", {prefill, decode}}}}};
}

}  // namespace lws::api::testing
