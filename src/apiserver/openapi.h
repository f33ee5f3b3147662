// File: apiserver/openapi.h
//
// The OpenAPI v3 documents kubectl needs (kubectl-compat.md section 3). kubectl's default
// --validate=strict first reads GET /openapi/v3, then the document of the object's group/version,
// and looks for a PATCH operation tagged with the object's x-kubernetes-group-version-kind that
// takes a `fieldValidation` query parameter; finding one, it leaves validation to the server
// (?fieldValidation=Strict) and needs no schema. So each group/version document holds one PATCH
// operation per kind. `kubectl explain` additionally reads components.schemas: custom resources
// get their CRD's openAPIV3Schema there with the x-kubernetes-group-version-kind extension;
// built-in kinds have no schema (explain of built-ins is not supported).
//
// The root lists every served group/version with a hash of its document (SHA-512, as the real
// server computes it), so clients re-fetch exactly when a document changes. Building is pure;
// callers that serve many requests may cache the documents until the registry changes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/resources.h"
#include "base/result.h"

namespace lws::apiserver {

using Json = api::Json;

// One group/version document: "api/v1" or "apis/<group>/<version>".
struct OpenApiDocument {
  std::string path;  // without the leading "/openapi/v3/"
  Json document;
  std::string hash;  // upper-case hex SHA-512 of document.dump()
};

// Every served group/version's document, in discovery order (core first).
std::vector<OpenApiDocument> OpenApiDocuments(const api::ResourceRegistry& registry);

// The document of one group/version; NotFound when it is not served.
Result<OpenApiDocument> OpenApiDocumentFor(const api::ResourceRegistry& registry,
                                           std::string_view group, std::string_view version);

// GET /openapi/v3: {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=<H>"},...}}.
Json OpenApiRoot(const std::vector<OpenApiDocument>& documents);

// The components.schemas name of a kind: "io.x-k8s.leaderworkerset.v1.LeaderWorkerSet"
// (group reversed by its dots, then version and kind).
std::string OpenApiSchemaName(std::string_view group, std::string_view version,
                              std::string_view kind);

// Upper-case hex SHA-512 of `text`.
std::string Sha512Hex(std::string_view text);

}  // namespace lws::apiserver
