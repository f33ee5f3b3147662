// File: api/builtin_testing.h
//
// Test helpers for the built-in defaulting, status and validation tests: the ResourceInfo of a
// built-in kind, testdata loading, and a generator of arbitrary object-shaped JSON (with the keys
// those functions look at, and values of every type) for rapidcheck properties.
#pragma once

#include <rapidcheck.h>

#include <fstream>
#include <sstream>
#include <string>

#include "api/field.h"
#include "api/resources.h"
#include "testdata/testdata_dir.h"

namespace lws::api::testing {

// The registry entry of a built-in resource, e.g. Builtin("", "pods").
inline const ResourceInfo& Builtin(const std::string& group, const std::string& resource) {
  static const ResourceRegistry registry = ResourceRegistry::WithBuiltins();
  const ResourceInfo* info = registry.Find(group, "v1", resource);
  if (info == nullptr) throw std::runtime_error("no built-in " + resource);
  return *info;
}

inline Json LoadTestdata(const std::string& relative) {
  std::ifstream in(TestdataDir() + "/" + relative);
  if (!in.good()) throw std::runtime_error("missing testdata " + relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());
}

// Arbitrary JSON whose object keys come from the vocabulary of pods, StatefulSets, Services,
// Namespaces and Secrets, so that random documents reach deep into the defaulting code.
inline Json ArbitraryShape(int depth) {
  static const std::vector<std::string> kKeys = {"metadata",
                                                 "name",
                                                 "labels",
                                                 "spec",
                                                 "containers",
                                                 "initContainers",
                                                 "image",
                                                 "ports",
                                                 "containerPort",
                                                 "hostPort",
                                                 "protocol",
                                                 "resources",
                                                 "limits",
                                                 "requests",
                                                 "cpu",
                                                 "memory",
                                                 "volumes",
                                                 "emptyDir",
                                                 "configMap",
                                                 "projected",
                                                 "sources",
                                                 "downwardAPI",
                                                 "items",
                                                 "fieldRef",
                                                 "env",
                                                 "valueFrom",
                                                 "readinessProbe",
                                                 "httpGet",
                                                 "lifecycle",
                                                 "preStop",
                                                 "hostNetwork",
                                                 "template",
                                                 "updateStrategy",
                                                 "type",
                                                 "rollingUpdate",
                                                 "partition",
                                                 "replicas",
                                                 "selector",
                                                 "matchLabels",
                                                 "volumeClaimTemplates",
                                                 "clusterIP",
                                                 "clusterIPs",
                                                 "ipFamilies",
                                                 "ipFamilyPolicy",
                                                 "sessionAffinity",
                                                 "sessionAffinityConfig",
                                                 "clientIP",
                                                 "port",
                                                 "targetPort",
                                                 "stringData",
                                                 "data",
                                                 "finalizers",
                                                 "status",
                                                 "capacity",
                                                 "allocatable",
                                                 "tolerations",
                                                 "activeDeadlineSeconds"};
  static const std::vector<Json> kScalars = {nullptr,
                                             "",
                                             "None",
                                             "RollingUpdate",
                                             "ClientIP",
                                             "LoadBalancer",
                                             "nginx:latest",
                                             "100m",
                                             "0.5",
                                             "1Gi",
                                             "x",
                                             0,
                                             1,
                                             -1,
                                             80,
                                             65536,
                                             2.5,
                                             true,
                                             false,
                                             "IPv6",
                                             "10.0.0.1"};
  const int pick = *rc::gen::inRange(0, depth > 0 ? 10 : 5);
  if (pick < 5) return *rc::gen::elementOf(kScalars);
  if (pick < 8) {
    Json out = Json::object();
    const int count = *rc::gen::inRange(0, 5);
    for (int i = 0; i < count; ++i) out[*rc::gen::elementOf(kKeys)] = ArbitraryShape(depth - 1);
    return out;
  }
  Json out = Json::array();
  const int count = *rc::gen::inRange(0, 3);
  for (int i = 0; i < count; ++i) out.push_back(ArbitraryShape(depth - 1));
  return out;
}

}  // namespace lws::api::testing
