// File: apiserver/handlers_subresource.cc
//
// /scale (autoscaling/v1 Scale over a StatefulSet or a custom resource's scale paths) and
// pods/binding (what the scheduler posts to place a pod on a node).
#include "api/selector.h"
#include "apiserver/patch.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "apiserver/strategic_merge.h"

namespace lws::apiserver {
namespace {

// The value at a dotted JSON path (".spec.replicas"), or null.
Json ValueAt(const Json& object, std::string_view path) {
  const Json* at = &object;
  std::size_t start = path.empty() || path[0] != '.' ? 0 : 1;
  while (start <= path.size() && at->is_object()) {
    std::size_t end = path.find('.', start);
    std::string key(path.substr(start, end == std::string_view::npos ? path.npos : end - start));
    auto it = at->find(key);
    if (it == at->end()) return Json();
    at = &*it;
    if (end == std::string_view::npos) return *at;
    start = end + 1;
  }
  return Json();
}

void SetValueAt(Json* object, std::string_view path, Json value) {
  Json* at = object;
  std::size_t start = path.empty() || path[0] != '.' ? 0 : 1;
  for (;;) {
    std::size_t end = path.find('.', start);
    std::string key(path.substr(start, end == std::string_view::npos ? path.npos : end - start));
    if (!at->is_object()) *at = Json::object();
    if (end == std::string_view::npos) {
      (*at)[key] = std::move(value);
      return;
    }
    at = &(*at)[key];
    start = end + 1;
  }
}

std::string ScaleSelector(const api::ResourceInfo& info, const Json& object) {
  if (!info.custom) {
    api::LabelSelector selector;
    if (!api::DecodeInto(ValueAt(object, ".spec.selector"), &selector).empty()) return "";
    Result<api::Selector> parsed = api::Selector::FromLabelSelector(&selector);
    return parsed.ok() ? parsed->String() : "";
  }
  if (info.scale->label_selector_path.empty()) return "";
  Json value = ValueAt(object, info.scale->label_selector_path);
  return value.is_string() ? value.get<std::string>() : "";
}

Json ScaleOf(const api::ResourceInfo& info, const Json& object) {
  const Json& meta = object.value("metadata", Json::object());
  Json scale_meta = Json::object();
  for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (meta.contains(key)) scale_meta[key] = meta[key];
  }
  Json spec_replicas = ValueAt(object, info.scale->spec_replicas_path);
  Json status_replicas = ValueAt(object, info.scale->status_replicas_path);
  Json status = {{"replicas", status_replicas.is_number_integer() ? status_replicas : Json(0)}};
  std::string selector = ScaleSelector(info, object);
  if (!selector.empty()) status["selector"] = selector;
  return {{"kind", "Scale"},
          {"apiVersion", "autoscaling/v1"},
          {"metadata", scale_meta},
          {"spec", {{"replicas", spec_replicas.is_number_integer() ? spec_replicas : Json(0)}}},
          {"status", status}};
}

}  // namespace

Result<Answer> RequestHandler::Scale() {
  const std::string& method = request_.method;
  if (method != "GET" && method != "PUT" && method != "PATCH") return MethodNotAllowedError();
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  Json scale = ScaleOf(*info_, current->document());
  if (method == "GET") return JsonResponse(200, scale);

  Json wanted;
  if (method == "PUT") {
    ASSIGN_OR_RETURN(Json body, BodyJson([](const std::string& bytes) {
                       return DecodeJsonBody(bytes, "error decoding Scale");
                     }));
    if (!body.is_object()) return Status::BadRequest("the request body is not a Scale object");
    wanted = std::move(body);
  } else {
    std::string content_type = request_.content_type;
    ASSIGN_OR_RETURN(Json patch, BodyJson([](const std::string& bytes) {
                       return DecodeJsonBody(bytes, "error decoding patch");
                     }));
    if (content_type.rfind("application/merge-patch+json", 0) == 0) {
      ASSIGN_OR_RETURN(wanted, ApplyMergePatch(scale, patch));
    } else if (content_type.rfind("application/json-patch+json", 0) == 0) {
      ASSIGN_OR_RETURN(wanted, ApplyJsonPatch(scale, patch));
    } else if (content_type.rfind("application/strategic-merge-patch+json", 0) == 0) {
      ASSIGN_OR_RETURN(wanted, ApplyStrategicMergePatch(scale, patch, "Scale"));
    } else {
      return UnsupportedMediaTypeError({"application/json-patch+json",
                                        "application/merge-patch+json",
                                        "application/strategic-merge-patch+json"});
    }
  }
  Json replicas = ValueAt(wanted, ".spec.replicas");
  if (!replicas.is_number_integer() || replicas.get<std::int64_t>() < 0) {
    api::ErrorList errors;
    errors.push_back(api::Invalid(api::FieldPath("spec").Child("replicas"), replicas,
                                  "must be greater than or equal to 0"));
    return api::InvalidStatus("Scale.autoscaling", target_.name, errors);
  }
  const Json live = current->FullJson();
  Json object = live;
  SetValueAt(&object, info_->scale->spec_replicas_path, replicas);
  // A Scale that names a resourceVersion is a precondition on the parent (kubectl scale
  // --resource-version); otherwise the write goes on top of what was just read.
  std::string rv = store::MetaString(wanted, "resourceVersion");
  if (!rv.empty()) object["metadata"]["resourceVersion"] = rv;
  RETURN_IF_ERROR(PrepareForWrite(&object, &live, "scale", current.get()));
  object = WithManagedFields(live, std::move(object), "scale");
  ASSIGN_OR_RETURN(store::ObjectPtr stored, StoreUpdate(std::move(object), false));
  return JsonResponse(200, ScaleOf(*info_, stored->document()));
}

namespace {

// podutil.UpdatePodCondition with PodScheduled=True: added, or replaced with the transition
// time kept when it was True already.
void SetPodScheduled(Json* pod, const std::string& now) {
  Json& conditions = (*pod)["status"]["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  Json scheduled = {{"type", "PodScheduled"},
                    {"status", "True"},
                    {"lastProbeTime", nullptr},
                    {"lastTransitionTime", now}};
  for (Json& condition : conditions) {
    if (api::StringMember(condition, "type") != "PodScheduled") continue;
    const bool was_true = api::StringMember(condition, "status") == "True";
    if (was_true && condition.contains("lastTransitionTime")) {
      scheduled["lastTransitionTime"] = condition["lastTransitionTime"];
    }
    condition = std::move(scheduled);
    return;
  }
  conditions.push_back(std::move(scheduled));
}

// The Binding's uid and resourceVersion, when set, as preconditions on the pod (upstream's
// assignPod passes them to its update): a pod recreated under the same name is not bound by a
// decision made for its predecessor. Returns why they fail, or "" when they hold.
std::string FailedBindingPrecondition(const Json& binding, const Json& pod) {
  const Json& wanted = api::ChildOrNull(binding, "metadata");
  const Json& meta = api::ChildOrNull(pod, "metadata");
  for (const char* field : {"uid", "resourceVersion"}) {
    const std::string want = api::StringMember(wanted, field);
    const std::string have = api::StringMember(meta, field);
    if (want.empty() || want == have) continue;
    const std::string label = std::string_view(field) == "uid" ? "UID" : "ResourceVersion";
    return "Precondition failed: " + label + " in precondition: " + want + ", " + label +
           " in object meta: " + have;
  }
  return "";
}

}  // namespace

Result<Answer> RequestHandler::Binding() {
  ASSIGN_OR_RETURN(Json binding, BodyJson([](const std::string& bytes) {
                     return DecodeJsonBody(bytes, "error decoding Binding");
                   }));
  if (!binding.is_object()) return Status::BadRequest("the request body is not a Binding object");
  std::string node = api::StringMember(binding.value("target", Json::object()), "name");
  if (node.empty()) {
    api::ErrorList errors;
    errors.push_back(api::Required(api::FieldPath("target").Child("name"), ""));
    return api::InvalidStatus("Binding", target_.name, errors);
  }
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  if (std::string failed = FailedBindingPrecondition(binding, current->document());
      !failed.empty()) {
    return ConflictError(*info_, target_.name, failed);
  }
  std::string assigned =
      api::StringMember(api::ChildOrNull(current->document(), "spec"), "nodeName");
  if (!assigned.empty()) {
    return ConflictError(
        *info_, target_.name,
        "pod " + target_.name + " is already assigned to node " + api::GoQuote(assigned));
  }
  const Json& meta = api::ChildOrNull(current->document(), "metadata");
  if (!api::ChildOrNull(meta, "deletionTimestamp").is_null()) {
    return ConflictError(*info_, target_.name,
                         "pod " + target_.name + " is being deleted, cannot be assigned to a host");
  }
  // One write, as the binding registry's GuaranteedUpdate makes it: the node, the binding's
  // annotations and the PodScheduled condition. Like upstream's, it bypasses the pod strategy
  // and the field manager, so managedFields stay as they were.
  Json pod = current->document();
  pod["spec"]["nodeName"] = node;
  const Json& annotations = api::ChildOrNull(api::ChildOrNull(binding, "metadata"), "annotations");
  if (annotations.is_object()) {
    for (const auto& [key, value] : annotations.items()) {
      if (value.is_string()) pod["metadata"]["annotations"][key] = value;
    }
  }
  SetPodScheduled(&pod, FormatRfc3339(now_));
  store::UpdateOptions options;
  options.dry_run = DryRun();
  options.with_status = true;
  options.managed_fields = store::KeptEntries(current);
  ASSIGN_OR_RETURN(store::ObjectPtr bound, store_->Update(*info_, std::move(pod), options));
  // A string, string annotations and a condition keyed by its type: a checked pod stays checked.
  if (ShapesChecked(current, served_)) MarkShapesChecked(bound, served_);
  return JsonResponse(201, {{"kind", "Status"},
                            {"apiVersion", "v1"},
                            {"metadata", Json::object()},
                            {"status", "Success"},
                            {"code", 201}});
}

// The kubelet's subresources of a pod (`kubectl exec`, `attach`, `cp`, `port-forward`, `debug`,
// and `logs` when the server has no log source): kube-apiserver proxies them to the pod's
// kubelet, or (ephemeralcontainers) has the kubelet start a container. There is no real one
// here: the simulated kubelets of `lws up` start no processes. An existing pod gets 400 saying
// so, as kube-apiserver answers for a container that is not running, instead of the 404 of an
// unknown path, which reads as "the pod does not exist"; a pod that does not exist gets the
// usual NotFound.
Result<Answer> RequestHandler::KubeletSubresource() {
  RETURN_IF_ERROR(store_->Get(*info_, target_.namespace_, target_.name).status());
  const std::string& sub = target_.subresource;
  const std::string what = sub == "log"           ? "there are no container logs to read"
                           : sub == "portforward" ? "there is no port to forward to"
                           : sub == "attach"      ? "there is no process to attach to"
                           : sub == "ephemeralcontainers"
                               ? "there is no debug container to start"
                               : "there is no process to run a command in";
  return Status::BadRequest("pod " + api::GoQuote(target_.name) +
                            " runs on a simulated kubelet (lws-cpp), which starts "
                            "no containers: " +
                            what + " (pods/" + sub + " is served by real kubelets only)");
}

}  // namespace lws::apiserver
