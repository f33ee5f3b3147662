// File: apiserver/handlers_discovery.cc
//
// /version, the health checks, discovery and OpenAPI: documents built from the registry snapshot
// (discovery.h, openapi.h); nothing here touches the store.
#include "apiserver/discovery.h"
#include "apiserver/openapi.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"

namespace lws::apiserver {

Result<Answer> RequestHandler::Version() { return JsonResponse(200, VersionDocument()); }

Result<Answer> RequestHandler::Health() {
  // Everything this process needs is in it; a verbose check lists what it checked, as the real
  // server's ?verbose does.
  transport::HttpResponse response;
  response.headers.Add("Content-Type", "text/plain; charset=utf-8");
  response.headers.Add("X-Content-Type-Options", "nosniff");
  if (target_.query.Has("verbose")) {
    response.body = "[+]ping ok\n[+]etcd ok\n[+]poststarthook/crd-informer-synced ok\n";
    response.body += target_.path.substr(1) + " check passed\n";
  } else {
    response.body = "ok";
  }
  return Answer(std::move(response));
}

Result<Answer> RequestHandler::CoreVersionsOrAggregated(bool core) {
  DiscoveryRepresentation representation = NegotiateDiscovery(request_.accept);
  if (representation.aggregated) {
    return JsonResponse(200, AggregatedDiscovery(served_->registry, core, representation.version),
                        representation.content_type);
  }
  if (core) {
    std::string address;
    {
      MutexLock lock(&server_->mu_);
      address = server_->server_address_;
    }
    return JsonResponse(200, CoreVersions(served_->registry, address));
  }
  return JsonResponse(200, GroupList(served_->registry));
}

Result<Answer> RequestHandler::GroupDocument() {
  ASSIGN_OR_RETURN(Json group, apiserver::Group(served_->registry, target_.group));
  return JsonResponse(200, group);
}

Result<Answer> RequestHandler::ResourceListDocument() {
  ASSIGN_OR_RETURN(Json list, ResourceList(served_->registry, target_.group, target_.version));
  return JsonResponse(200, list);
}

// OpenAPI v2 with no definitions. kubectl's validation reads v3 first and falls back to v2 for a
// group/version that v3 does not list (a typo in apiVersion, a CRD not installed yet): without a
// v2 document it stopped at "failed to download openapi"; with one that knows no such kind it
// skips validation and reports what kube-apiserver's users see: `no matches for kind "Widget" in
// version "example.com/v1"; ensure CRDs are installed first`. kubectl asks for the protobuf form
// (gnostic's openapi_v2.Document), whose empty message is the empty body.
Result<Answer> RequestHandler::OpenApiV2Document() {
  const std::string accept = request_.accept;
  if (accept.find("application/com.github.proto-openapi.spec.v2") != std::string::npos) {
    transport::HttpResponse response;
    // kube-openapi answers this type: Go's mime parser refuses the requested one's "@".
    response.headers.Add("Content-Type",
                         "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    return Answer(std::move(response));
  }
  return JsonResponse(200, {{"swagger", "2.0"},
                            {"info", {{"title", "Kubernetes"}, {"version", "v1.32.0"}}},
                            {"paths", Json::object()},
                            {"definitions", Json::object()}});
}

Result<Answer> RequestHandler::OpenApiRootDocument() {
  return JsonResponse(200, OpenApiRoot(served_->openapi()));
}

Result<Answer> RequestHandler::OpenApiGroupDocument() {
  std::string path = target_.group.empty() ? "api/" + target_.version
                                           : "apis/" + target_.group + "/" + target_.version;
  for (const OpenApiDocument& document : served_->openapi()) {
    if (document.path != path) continue;
    transport::HttpResponse response = JsonResponse(200, document.document).http;
    // The document at a given hash never changes: let clients cache it, as the real server does.
    if (target_.query.Get("hash") == document.hash) {
      response.headers.Add("Cache-Control", "public, immutable");
    }
    response.headers.Add("Etag", "\"" + document.hash + "\"");
    return Answer(std::move(response));
  }
  return UnknownPathError();
}

}  // namespace lws::apiserver
