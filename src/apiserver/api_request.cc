#include "apiserver/api_request.h"

#include <utility>

namespace lws::apiserver {

ApiRequest FromHttp(const transport::HttpRequest& http, RequestTarget target) {
  ApiRequest request;
  request.method = http.method;
  const QueryParams& query = target.query;
  request.options.field_manager = query.Get("fieldManager");
  if (query.Has("force")) request.options.force = query.GetBool("force");
  request.options.dry_run = query.Get("dryRun") == "All";
  request.options.field_validation = query.Get("fieldValidation");
  request.target = std::move(target);
  request.content_type = http.headers.Get("Content-Type");
  request.accept = http.headers.Get("Accept");
  std::string agent = http.headers.Get("User-Agent");
  request.default_field_manager = agent.substr(0, agent.find('/'));
  request.body_bytes = &http.body;
  request.log_target = http.target;
  return request;
}

}  // namespace lws::apiserver
