// File: apiserver/handlers_log.cc
//
// GET pods/{name}/log from the server's PodLogSource: what kube-apiserver checks (the options,
// the pod, the container) and what the kubelet checks (which instance, from the pod's status),
// then the instance's lines as text/plain; with follow=true a chunked stream that sends lines
// as they are written and ends when the instance ends (its container stopped) or the client
// goes. A pod not yet bound to a node has no kubelet to ask: an empty answer, as upstream's
// LogLocation returns no location for it.
#include "api/field.h"
#include "apiserver/pod_log.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"

namespace lws::apiserver {
namespace {

// A followed container instance: lines written after the request, as they come.
class LogStream final : public transport::ResponseStream {
 public:
  LogStream(ContainerLogPtr log, LogRenderer renderer, std::uint64_t next, std::string pending)
      : log_(std::move(log)),
        renderer_(std::move(renderer)),
        next_(next),
        pending_(std::move(pending)) {}

  void Start(std::function<void()> wake) override { follower_ = log_->Subscribe(std::move(wake)); }

  bool Next(std::string* out) override {
    out->append(pending_);
    pending_.clear();
    if (renderer_.exhausted()) return false;
    std::vector<LogLine> lines;
    const bool ended = log_->Read(&next_, &lines);
    return renderer_.RenderMore(lines, out) && !ended;
  }

  void Cancel() override {
    if (follower_) log_->Unsubscribe(*follower_);
    follower_.reset();
  }

 private:
  ContainerLogPtr log_;
  LogRenderer renderer_;
  std::uint64_t next_;
  std::string pending_;  // the lines there were at the request, sent by the first Next
  std::optional<std::uint64_t> follower_;
};

transport::HttpResponse TextResponse(std::string body) {
  transport::HttpResponse response;
  response.status = 200;
  response.headers.Add("Content-Type", "text/plain");
  response.body = std::move(body);
  return response;
}

}  // namespace

Result<Answer> RequestHandler::PodLog() {
  if (request_.method != "GET") return MethodNotAllowedError();
  const PodLogSource* source = server_->pod_log_source();
  if (source == nullptr) return KubeletSubresource();  // cleared since the routing looked
  // kube-apiserver validates the options before it looks at the pod (LogREST.Get).
  Result<PodLogOptions> parsed = ParsePodLogOptions(target_.query, target_.name);
  if (!parsed.ok() && parsed.status().code() == Code::kInvalid) {
    // NewInvalid(Kind("PodLogOptions"), name, errs): the details name the options' kind, not
    // the pod's (kubectl prints `The PodLogOptions "x" is invalid`).
    Json status = StatusJson(parsed.status());
    status["details"]["name"] = target_.name;
    status["details"]["kind"] = "PodLogOptions";
    return JsonResponse(parsed.status().http_code(), status);
  }
  if (!parsed.ok()) return parsed.status();
  const PodLogOptions& options = *parsed;
  ASSIGN_OR_RETURN(store::ObjectPtr object, store_->Get(*info_, target_.namespace_, target_.name));
  const Json& pod = object->document();
  ASSIGN_OR_RETURN(std::string container, LogContainerName(pod, options.container));
  if (api::StringMember(api::ChildOrNull(pod, "spec"), "nodeName").empty())
    return Answer(TextResponse(""));
  ASSIGN_OR_RETURN(std::string container_id, LogContainerId(pod, container, options.previous));
  ContainerLogPtr log = source->Find(store::MetaString(pod, "uid"), container, container_id);
  if (!log) {
    return Status::BadRequest("container \"" + container + "\" in pod \"" + target_.name +
                              "\" has no log: the simulated kubelet did not see it start");
  }
  std::vector<LogLine> lines;
  std::uint64_t next = 0;
  const bool ended = log->Read(&next, &lines);
  LogRenderer renderer(options, now_);
  std::string body;
  const bool more = renderer.RenderExisting(lines, &body);
  if (!options.follow || ended || !more) return Answer(TextResponse(std::move(body)));
  transport::HttpResponse response = TextResponse("");
  response.stream =
      std::make_shared<LogStream>(std::move(log), std::move(renderer), next, std::move(body));
  return Answer(std::move(response));
}

}  // namespace lws::apiserver
