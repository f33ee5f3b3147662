// FaultyClient's writes: each forwarded, refused, or applied with its answer lost.
#include "client/faulty_client.h"

#include "store/object.h"

namespace lws::client {

namespace {

// "statefulsets.apps", "pods": the qualified resource kube-apiserver's messages name.
std::string Qualified(const Resource& resource) {
  return resource.group.empty() ? resource.resource : resource.resource + "." + resource.group;
}

// A metav1.Status failure document, as kube-apiserver answers.
api::Json Failure(int code, const std::string& reason, const std::string& message,
                  api::Json details) {
  api::Json status = {
      {"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", api::Json::object()},
      {"status", "Failure"}, {"message", message}, {"reason", reason},
      {"code", code}};
  if (!details.empty()) status["details"] = std::move(details);
  return status;
}

// apierrors.NewInternalError(err).
api::Json InternalError(const std::string& err) {
  return Failure(500, "InternalError", "Internal error occurred: " + err,
                 {{"causes", api::Json::array({{{"message", err}}})}});
}

}  // namespace

Status RefusedWrite(int http_code, const Resource& resource, const std::string& name) {
  switch (http_code) {
    case 409:  // apierrors.NewConflict with the registry's OptimisticLockErrorMsg
      return StatusFromAnswer(
          409, Failure(409, "Conflict",
                       "Operation cannot be fulfilled on " + Qualified(resource) + " \"" + name +
                           "\": the object has been modified; please apply your changes to the "
                           "latest version and try again",
                       {{"name", name}, {"group", resource.group}, {"kind", resource.resource}}));
    case 429:  // the filters' text, in the shape of apierrors.NewTooManyRequests
      return StatusFromAnswer(
          429, Failure(429, "TooManyRequests", "Too many requests, please try again later.",
                       {{"retryAfterSeconds", 1}}));
    default:  // etcd lost its leader before the write was committed
      return StatusFromAnswer(500, InternalError("etcdserver: leader changed"));
  }
}

Status LostAnswer(int http_code) {
  if (http_code == 504) {  // apierrors.NewTimeoutError from the request's deadline
    return StatusFromAnswer(
        504, Failure(504, "Timeout",
                     "Timeout: request did not complete within requested timeout - context "
                     "deadline exceeded",
                     {{"retryAfterSeconds", 0}}));
  }
  // etcd's ErrTimeout: the proposal may be committed although the server stopped waiting.
  return StatusFromAnswer(500, InternalError("etcdserver: request timed out"));
}

FaultyClient::FaultyClient(const Client* inner, Rng rng)
    : inner_(inner),
      state_(std::make_shared<State>(
          State{ClientFaults{}, rng.Derive("writes"), rng.Derive("watches"), {}, {}})) {}

FaultyClient::WriteFault FaultyClient::DrawWriteFault() const {
  const ClientFaults& f = state_->faults;
  if (f.refused <= 0 && f.lost_answer <= 0) return WriteFault::kNone;  // no draw: replays stay
  const double u = state_->writes.UniformDouble();
  if (u < f.refused) return WriteFault::kRefused;
  if (u < f.refused + f.lost_answer) return WriteFault::kLostAnswer;
  return WriteFault::kNone;
}

template <class Write>
Result<store::ObjectPtr> FaultyClient::Faulted(const Resource& resource, const std::string& name,
                                               Write write) const {
  switch (DrawWriteFault()) {
    case WriteFault::kNone:
      return write();
    case WriteFault::kRefused: {
      constexpr int kCodes[] = {500, 409, 429};
      ++state_->counts.refused;
      return RefusedWrite(kCodes[state_->writes.UniformInt(0, 2)], resource, name);
    }
    case WriteFault::kLostAnswer: {
      Result<store::ObjectPtr> answer = write();
      if (!answer.ok()) return answer;  // nothing was applied: the real error stands
      ++state_->counts.lost_answers;
      return LostAnswer(state_->writes.Bernoulli(0.5) ? 504 : 500);
    }
  }
  return write();
}

Result<store::ObjectPtr> FaultyClient::Create(const Resource& resource, Json object) const {
  const std::string name = store::MetaString(object, "name");
  return Faulted(resource, name, [&] { return inner_->Create(resource, std::move(object)); });
}

Result<store::ObjectPtr> FaultyClient::Update(const Resource& resource, Json object) const {
  const std::string name = store::MetaString(object, "name");
  return Faulted(resource, name, [&] { return inner_->Update(resource, std::move(object)); });
}

Result<store::ObjectPtr> FaultyClient::UpdateStatus(const Resource& resource, Json object) const {
  const std::string name = store::MetaString(object, "name");
  return Faulted(resource, name, [&] { return inner_->UpdateStatus(resource, std::move(object)); });
}

Result<store::ObjectPtr> FaultyClient::Patch(const Resource& resource, const std::string& ns,
                                             const std::string& name, client::PatchType type,
                                             const Json& patch,
                                             const std::string& subresource) const {
  return Faulted(resource, name,
                 [&] { return inner_->Patch(resource, ns, name, type, patch, subresource); });
}

Result<store::ObjectPtr> FaultyClient::Delete(const Resource& resource, const std::string& ns,
                                              const std::string& name,
                                              const DeleteOptions& options) const {
  return Faulted(resource, name, [&] { return inner_->Delete(resource, ns, name, options); });
}

Status FaultyClient::Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                          const std::string& node) const {
  Result<store::ObjectPtr> bound = Faulted(kPods, pod, [&]() -> Result<store::ObjectPtr> {
    Status s = inner_->Bind(ns, pod, pod_uid, node);
    if (!s.ok()) return s;
    return store::ObjectPtr();
  });
  return bound.status();
}

}  // namespace lws::client
