// File: apiserver/handlers_read.cc
//
// GET, LIST and WATCH. Plain JSON answers are assembled from the bytes the store serialised
// once; a Table (kubectl get) is built only when the Accept header asks for one.
#include <chrono>

#include "api/intstr.h"
#include "api/protobuf/envelope.h"
#include "apiserver/protobuf_response.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "apiserver/table.h"
#include "apiserver/watch_stream.h"

namespace lws::apiserver {
namespace {

// 422 `ListOptions.meta.k8s.io "" is invalid: <field>: Forbidden: <detail>`.
Status ListOptionsForbidden(std::string_view field, std::string_view detail) {
  api::ErrorList errors;
  errors.push_back(api::Forbidden(api::FieldPath(std::string(field)), std::string(detail)));
  return api::InvalidStatus("ListOptions.meta.k8s.io", "", errors);
}

struct Selectors {
  api::Selector labels;
  api::FieldSelector fields;
};

Result<Selectors> ParseSelectors(const QueryParams& query, const std::string& name) {
  Selectors s;
  ASSIGN_OR_RETURN(s.labels, api::Selector::Parse(query.Get("labelSelector")));
  ASSIGN_OR_RETURN(s.fields, api::FieldSelector::Parse(query.Get("fieldSelector")));
  if (!name.empty()) {
    // GET .../pods/<name>?watch=true, the legacy single-object watch.
    ASSIGN_OR_RETURN(
        s.fields,
        api::FieldSelector::Parse(s.fields.Empty() ? "metadata.name=" + name
                                                   : s.fields.String() + ",metadata.name=" + name));
  }
  return s;
}

Result<TableOptions> TableOptionsFor(const QueryParams& query, const TableRepresentation& rep,
                                     Time now) {
  TableOptions options;
  options.now = now;
  options.api_version = rep.api_version;
  ASSIGN_OR_RETURN(options.include_object, ParseIncludeObject(query.Get("includeObject")));
  return options;
}

// {"kind":"PodList","apiVersion":"v1","metadata":{...},"items":[<stored bytes>,...]}
std::string ListJson(const api::ResourceInfo& info, const store::ListResult& list) {
  Json metadata = {{"resourceVersion", std::to_string(list.resource_version)}};
  if (!list.continue_token.empty()) metadata["continue"] = list.continue_token;
  if (list.remaining_item_count) metadata["remainingItemCount"] = *list.remaining_item_count;
  std::size_t size = 128;
  for (const auto& item : list.items) size += item->bytes().size() + 1;
  std::string out;
  out.reserve(size);
  out += "{\"apiVersion\":" + Json(info.ApiVersion()).dump() + ",\"items\":[";
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    if (i > 0) out += ',';
    out += list.items[i]->bytes();
  }
  out += "],\"kind\":" + Json(info.list_kind).dump() + ",\"metadata\":" + metadata.dump() + "}";
  return out;
}

Json ListAsJson(const api::ResourceInfo& info, const store::ListResult& list) {
  Json items = Json::array();
  for (const auto& item : list.items) items.push_back(item->FullJson());
  Json metadata = {{"resourceVersion", std::to_string(list.resource_version)}};
  if (!list.continue_token.empty()) metadata["continue"] = list.continue_token;
  return {{"kind", info.list_kind},
          {"apiVersion", info.ApiVersion()},
          {"metadata", metadata},
          {"items", std::move(items)}};
}

}  // namespace

Result<Answer> RequestHandler::Get() {
  ASSIGN_OR_RETURN(store::ObjectPtr object, store_->Get(*info_, target_.namespace_, target_.name));
  TableRepresentation rep = NegotiateTable(request_.accept);
  if (!rep.table) return ObjectResponse(200, object);
  ASSIGN_OR_RETURN(TableOptions options, TableOptionsFor(target_.query, rep, now_));
  return JsonResponse(200, TableForObject(*info_, object->FullJson(), options), rep.content_type);
}

Result<Answer> RequestHandler::GetStatus() { return Get(); }

Result<Answer> RequestHandler::List() {
  store::ListOptions options;
  options.namespace_ = target_.namespace_;
  ASSIGN_OR_RETURN(Selectors selectors, ParseSelectors(target_.query, ""));
  options.label_selector = std::move(selectors.labels);
  options.field_selector = std::move(selectors.fields);
  if (target_.query.Has("limit")) {
    ASSIGN_OR_RETURN(std::int64_t limit, api::GoAtoi(target_.query.Get("limit")));
    options.limit = limit;
  }
  options.continue_token = target_.query.Get("continue");
  ASSIGN_OR_RETURN(store::ListResult list, store_->List(*info_, options));
  TableRepresentation rep = NegotiateTable(request_.accept);
  if (!rep.table) {
    transport::HttpResponse response;
    response.headers.Add("Content-Type", "application/json");
    response.body = ListJson(*info_, list);
    return Answer(std::move(response));
  }
  ASSIGN_OR_RETURN(TableOptions table, TableOptionsFor(target_.query, rep, now_));
  return JsonResponse(200, TableForList(*info_, ListAsJson(*info_, list), table), rep.content_type);
}

Result<Answer> RequestHandler::Watch() {
  const QueryParams& q = target_.query;
  store::WatchOptions options;
  options.namespace_ = target_.namespace_;
  ASSIGN_OR_RETURN(Selectors selectors, ParseSelectors(q, target_.name));
  options.label_selector = std::move(selectors.labels);
  options.field_selector = std::move(selectors.fields);
  options.allow_bookmarks = q.GetBool("allowWatchBookmarks");
  options.send_initial_events = q.GetBool("sendInitialEvents");
  if (options.send_initial_events) {
    if (q.Get("resourceVersionMatch") != "NotOlderThan") {
      return ListOptionsForbidden("resourceVersionMatch",
                                  "sendInitialEvents requires setting resourceVersionMatch to "
                                  "NotOlderThan");
    }
    if (!options.allow_bookmarks) {
      return ListOptionsForbidden("allowWatchBookmarks",
                                  "sendInitialEvents requires setting allowWatchBookmarks to true");
    }
  }
  if (q.Has("resourceVersion")) {
    ASSIGN_OR_RETURN(std::uint64_t rv, store::ParseResourceVersion(q.Get("resourceVersion")));
    if (rv != 0 && !options.send_initial_events) options.resource_version = rv;
  }
  std::optional<std::chrono::milliseconds> timeout;
  if (q.Has("timeoutSeconds")) {
    ASSIGN_OR_RETURN(std::int64_t seconds, api::GoAtoi(q.Get("timeoutSeconds")));
    if (seconds > 0) timeout = std::chrono::seconds(seconds);
  }
  TableRepresentation rep = NegotiateTable(request_.accept);
  ASSIGN_OR_RETURN(TableOptions table, TableOptionsFor(q, rep, now_));
  Result<store::WatcherPtr> watcher = store_->Watch(*info_, std::move(options));
  const bool protobuf = !rep.table && PrefersProtobuf(request_.accept) &&
                        api::protobuf::HasProtobuf(info_->ApiVersion(), info_->kind);
  if (!watcher.ok() && watcher.status().code() == Code::kGone) {
    transport::HttpResponse response;
    Json status = StatusJson(watcher.status());
    if (protobuf) {
      if (Result<std::string> frame = api::protobuf::EncodeWatchFrame("ERROR", status);
          frame.ok()) {
        response.headers.Add("Content-Type", std::string(kProtobufWatchType));
        response.stream = std::make_shared<FixedStream>(std::move(*frame));
        return Answer(std::move(response));
      }
    }
    Json event = {{"type", "ERROR"}, {"object", std::move(status)}};
    response.headers.Add("Content-Type", "application/json");
    response.stream = std::make_shared<FixedStream>(store::Serialize(event) + "\n");
    return Answer(std::move(response));
  }
  if (!watcher.ok()) return watcher.status();

  WatchStreamOptions stream;
  stream.watcher = std::move(*watcher);
  stream.served = served_;
  stream.resource = info_;
  stream.table = rep.table;
  stream.protobuf = protobuf;
  stream.table_options = table;
  stream.clock = server_->options_.clock;
  transport::HttpResponse response;
  response.headers.Add("Content-Type", rep.table  ? rep.content_type
                                       : protobuf ? std::string(kProtobufWatchType)
                                                  : "application/json");
  response.stream = std::make_shared<WatchStream>(std::move(stream));
  response.stream_timeout = timeout;
  return Answer(std::move(response));
}

}  // namespace lws::apiserver
