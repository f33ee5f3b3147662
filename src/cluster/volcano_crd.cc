// Volcano's PodGroup CRD (volcano_crd.h).
#include "cluster/volcano_crd.h"

namespace lws::cluster {
namespace {

using api::Json;

Json Typed(const char* type, const char* description) {
  return {{"type", type}, {"description", description}};
}

Json SpecSchema() {
  Json quantity = {{"anyOf", Json::array({{{"type", "integer"}}, {{"type", "string"}}})},
                   {"x-kubernetes-int-or-string", true}};
  Json properties = {
      {"minMember",
       {{"type", "integer"},
        {"format", "int32"},
        {"description", "the fewest members that may run: fewer are not started"}}},
      {"minResources",
       {{"type", "object"},
        {"additionalProperties", quantity},
        {"description", "the resources the members need to start together"}}},
      {"minTaskMember",
       {{"type", "object"}, {"additionalProperties", {{"type", "integer"}, {"format", "int32"}}}}},
      {"queue",
       {{"type", "string"},
        {"default", "default"},
        {"description", "the queue that allocates the group's resources"}}},
      {"priorityClassName", Typed("string", "the group's priority class")},
      {"preemptable", Typed("boolean", "whether the group's pods may be preempted")},
      {"networkTopology",
       {{"type", "object"},
        {"properties",
         {{"highestTierAllowed", {{"type", "integer"}, {"default", 1}}},
          {"mode",
           {{"type", "string"}, {"default", "hard"}, {"enum", Json::array({"hard", "soft"})}}}}}}}};
  return {{"type", "object"}, {"properties", std::move(properties)}};
}

Json StatusSchema() {
  Json condition = {{"type", "object"},
                    {"properties",
                     {{"lastTransitionTime", {{"type", "string"}, {"format", "date-time"}}},
                      {"message", {{"type", "string"}}},
                      {"reason", {{"type", "string"}}},
                      {"status", {{"type", "string"}}},
                      {"transitionID", {{"type", "string"}}},
                      {"type", {{"type", "string"}}}}}};
  Json count = {{"type", "integer"}, {"format", "int32"}};
  return {{"type", "object"},
          {"properties",
           {{"conditions", {{"type", "array"}, {"items", std::move(condition)}}},
            {"phase", Typed("string", "Pending, Inqueue, Running, Unknown or Completed")},
            {"running", count},
            {"succeeded", count},
            {"failed", count}}}};
}

}  // namespace

Json VolcanoPodGroupCrd() {
  Json schema = {{"type", "object"},
                 {"description", "PodGroup is a collection of Pods scheduled together."},
                 {"properties",
                  {{"apiVersion", {{"type", "string"}}},
                   {"kind", {{"type", "string"}}},
                   {"metadata", {{"type", "object"}}},
                   {"spec", SpecSchema()},
                   {"status", StatusSchema()}}}};
  Json columns = Json::array(
      {{{"name", "STATUS"}, {"type", "string"}, {"jsonPath", ".status.phase"}},
       {{"name", "minMember"}, {"type", "integer"}, {"jsonPath", ".spec.minMember"}},
       {{"name", "RUNNINGS"}, {"type", "integer"}, {"jsonPath", ".status.running"}},
       {{"name", "AGE"}, {"type", "date"}, {"jsonPath", ".metadata.creationTimestamp"}},
       {{"name", "QUEUE"}, {"type", "string"}, {"jsonPath", ".spec.queue"}, {"priority", 1}}});
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "podgroups.scheduling.volcano.sh"}}},
          {"spec",
           {{"group", "scheduling.volcano.sh"},
            {"names",
             {{"kind", "PodGroup"},
              {"listKind", "PodGroupList"},
              {"plural", "podgroups"},
              {"singular", "podgroup"},
              {"shortNames", Json::array({"pg", "podgroup-v1beta1"})}}},
            {"scope", "Namespaced"},
            {"versions", Json::array({{{"name", "v1beta1"},
                                       {"served", true},
                                       {"storage", true},
                                       {"schema", {{"openAPIV3Schema", std::move(schema)}}},
                                       {"additionalPrinterColumns", std::move(columns)},
                                       {"subresources", Json::object()}}})}}}};
}

}  // namespace lws::cluster
