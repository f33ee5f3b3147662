// File: api/lws_crd.h
//
// The upstream LeaderWorkerSet CustomResourceDefinition
// (deploy/crd/leaderworkerset.x-k8s.io_leaderworkersets.yaml), embedded in the binary. The build
// converts the 1.3 MB YAML to compact JSON with tools/yaml2json and links it in with .incbin; the
// first call parses that JSON once (thread-safe static initialization) and every later call
// returns the same object. The API server serves this CRD, and validates LeaderWorkerSets with
// its schema through api/schema.h.
#pragma once

#include <string_view>

#include "api/field.h"

namespace lws::api {

// The embedded JSON text, exactly as the build produced it.
std::string_view LwsCrdJsonText();

// The whole CustomResourceDefinition object.
const Json& LwsCrd();

// spec.versions[name=v1].schema.openAPIV3Schema of LwsCrd().
const Json& LwsOpenApiSchema();

}  // namespace lws::api
