// File: apiserver/handlers_events_v1.cc
//
// The events.k8s.io/v1 API over the stored core/v1 Events (event_versions.h): a request is
// converted to the same request of the core/v1 API, answered by the one request pipeline
// (admission, validation, the store, watches), and its answer converted back. So an Event
// written through either API is read, listed, watched, patched and deleted through both.
#include <memory>
#include <utility>

#include "apiserver/api_server.h"
#include "apiserver/event_versions.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "store/document_object.h"

namespace lws::apiserver {
namespace {

using api::Json;

transport::HttpResponse ErrorAnswer(const Status& status) {
  transport::HttpResponse response;
  response.status = status.http_code();
  response.headers.Add("Content-Type", "application/json");
  response.body = store::Serialize(CoreAnswerToEventsV1(StatusJson(status)));
  return response;
}

// A watch of core/v1 Events whose lines are given out as events.k8s.io/v1 ones. Each Next of
// the inner stream appends whole lines (transport/http.h), so lines are converted as they come.
class EventsV1Stream final : public transport::ResponseStream {
 public:
  explicit EventsV1Stream(std::shared_ptr<transport::ResponseStream> inner)
      : inner_(std::move(inner)) {}
  void Start(std::function<void()> wake) override { inner_->Start(std::move(wake)); }
  void Cancel() override { inner_->Cancel(); }
  bool Next(std::string* out) override {
    std::string lines;
    bool more = inner_->Next(&lines);
    std::size_t begin = 0;
    while (begin < lines.size()) {
      std::size_t end = lines.find('\n', begin);
      if (end == std::string::npos) end = lines.size();
      Json event = Json::parse(lines.begin() + static_cast<std::ptrdiff_t>(begin),
                               lines.begin() + static_cast<std::ptrdiff_t>(end), nullptr,
                               /*allow_exceptions=*/false);
      if (event.is_discarded()) {
        out->append(lines, begin, end - begin);  // not ours to judge: passed on as it came
      } else {
        out->append(store::Serialize(CoreAnswerToEventsV1(std::move(event))));
      }
      out->push_back('\n');
      begin = end + 1;
    }
    return more;
  }

 private:
  std::shared_ptr<transport::ResponseStream> inner_;
};

// The core/v1 body of an events.k8s.io/v1 write, or nullopt when the body is not one this view
// converts (no body, protobuf, malformed): the core pipeline then answers it as it would.
Result<std::optional<Json>> CoreBody(const ApiRequest& request) {
  const std::string& method = request.method;
  if (method != "POST" && method != "PUT" && method != "PATCH") return std::optional<Json>();
  const std::string& content_type = request.content_type;
  std::optional<PatchType> patch_type;
  if (method == "PATCH") {
    static const api::ResourceInfo kCoreEvents = [] {
      api::ResourceInfo info;
      info.kind = "Event";  // a built-in: every patch type
      return info;
    }();
    Result<PatchType> type = PatchTypeFromContentType(content_type, kCoreEvents);
    if (!type.ok()) return std::optional<Json>();
    patch_type = *type;
  }
  const std::string& bytes = request.bytes();
  Result<Json> body = request.body_value != nullptr ? Result<Json>(*request.body_value)
                      : patch_type                  ? ParsePatchBody(*patch_type, bytes)
                                                    : ParseObjectBody(content_type, bytes);
  if (!body.ok()) return std::optional<Json>();
  if (patch_type) return std::optional<Json>(EventsV1PatchToCore(*patch_type, std::move(*body)));
  std::string api_version = body->is_object() ? api::StringMember(*body, "apiVersion") : "";
  if (!api_version.empty() && api_version != kEventsV1ApiVersion) {
    return Status::BadRequest("the API version in the data (" + api_version +
                              ") does not match the expected API version (" +
                              std::string(kEventsV1ApiVersion) + ")");
  }
  return std::optional<Json>(EventsV1ToCoreEvent(std::move(*body)));
}

// The core/v1 answer as an events.k8s.io/v1 one. `in_process`: the write port takes a success
// as an object, so it is not serialised only for the port to parse it back.
void ConvertAnswer(bool in_process, Answer* converted) {
  transport::HttpResponse* response = &converted->http;
  if (response->stream) {
    response->stream = std::make_shared<EventsV1Stream>(std::move(response->stream));
    return;
  }
  Json answer;
  if (converted->object) {
    answer = converted->object->FullJson();
    converted->object.reset();
  } else {
    answer = Json::parse(response->body, nullptr, /*allow_exceptions=*/false);
    if (answer.is_discarded()) return;
  }
  Json events_v1 = CoreAnswerToEventsV1(std::move(answer));
  if (in_process && response->status < 300) {
    Result<store::ObjectPtr> object = store::DocumentObject(events_v1);
    if (object.ok()) {
      converted->object = std::move(*object);
      return;
    }
  }
  response->body = store::Serialize(events_v1);
}

}  // namespace

bool AddressesEventsV1(const RequestTarget& target) {
  return target.kind == TargetKind::kResource && target.group == kEventsGroup &&
         target.version == "v1" && target.resource == "events";
}

Answer ApiServer::HandleEventsV1(const ApiRequest& request, const admission::UserInfo& user) {
  ApiRequest core = request;
  RequestTarget& target = core.target;
  target.group.clear();
  target.as_events_v1 = true;
  if (target.query.Has("fieldSelector")) {
    Result<std::string> selector = EventsV1FieldSelectorToCore(target.query.Get("fieldSelector"));
    if (!selector.ok()) return ErrorAnswer(selector.status());
    target.query.Replace("fieldSelector", *selector);
  }
  Result<std::optional<Json>> body = CoreBody(request);
  if (!body.ok()) return ErrorAnswer(body.status());
  if (body->has_value()) core.body_value = &**body;
  Answer answer = RequestHandler(this, core, served(), user).Run();
  ConvertAnswer(request.in_process, &answer);
  return answer;
}

}  // namespace lws::apiserver
