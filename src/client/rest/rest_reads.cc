// File: client/rest/rest_reads.cc
//
// RestClient's reads: GET of one object and LIST (one page, or all of them), each answered as
// the store's immutable objects (rest_decode.h).
#include "client/rest/http_url.h"
#include "client/rest/rest_client.h"
#include "client/rest/rest_decode.h"

namespace lws::rest {

Result<store::ObjectPtr> RestClient::Get(const client::Resource& resource, const std::string& ns,
                                         const std::string& name) const {
  return SendForObject({"GET", resource.Path(ns, name)});
}

Result<store::ListResult> RestClient::List(const client::Resource& resource,
                                           const store::ListOptions& options) const {
  return List(resource, options, nullptr);
}

Result<store::ListResult> RestClient::List(const client::Resource& resource,
                                           const store::ListOptions& options,
                                           CancelToken* cancel) const {
  // Nothing() has no text form; nothing can match it anyway.
  if (options.label_selector.MatchesNothing()) return store::ListResult{};
  std::vector<std::pair<std::string, std::string>> parameters;
  if (!options.label_selector.Empty())
    parameters.emplace_back("labelSelector", options.label_selector.String());
  if (!options.field_selector.Empty())
    parameters.emplace_back("fieldSelector", options.field_selector.String());
  if (options.limit > 0) parameters.emplace_back("limit", std::to_string(options.limit));
  if (!options.continue_token.empty()) parameters.emplace_back("continue", options.continue_token);
  RestRequest request{"GET", resource.Path(options.namespace_), QueryString(parameters)};
  ASSIGN_OR_RETURN(HttpAnswer answer, Send(request, cancel));
  ASSIGN_OR_RETURN(Json list,
                   DecodeAnswer(answer, "GET", config_.server + request.path + request.query));
  return ListResultFrom(std::move(list));
}

}  // namespace lws::rest
