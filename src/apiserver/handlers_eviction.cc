// File: apiserver/handlers_eviction.cc
//
// POST pods/{name}/eviction (policy/v1 or v1beta1 Eviction): what `kubectl drain` uses. The
// decision is api::PlanEviction's; this file reads the pod and the namespace's budgets, writes
// the budget's spent disruption and deletes the pod, retrying on a conflicting budget write as
// kube-apiserver does (EvictionsRetry: 20 attempts).
#include "api/eviction.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"

namespace lws::apiserver {
namespace {

constexpr int kEvictionAttempts = 20;

// propagateDryRun: the request's dryRun and the Eviction's deleteOptions.dryRun must agree.
Result<Json> DeleteOptionsOf(const Json& eviction, bool dry_run_query) {
  Json options = eviction.value("deleteOptions", Json::object());
  if (options.is_null()) options = Json::object();
  if (!options.is_object()) return Status::BadRequest("deleteOptions must be an object");
  const Json query = dry_run_query ? Json::array({"All"}) : Json::array();
  const Json body = options.value("dryRun", Json::array());
  if (body.empty()) {
    if (dry_run_query) options["dryRun"] = query;
  } else if (dry_run_query && body != query) {
    return Status::BadRequest("Non-matching dry-run options in request and content: [All] and " +
                              body.dump());
  }
  return options;
}

}  // namespace

Result<Answer> RequestHandler::Eviction() {
  ASSIGN_OR_RETURN(Json eviction, SubresourceBody("Eviction", {"policy/v1", "policy/v1beta1"}));
  if (api::StringMember(eviction.value("metadata", Json::object()), "name") != target_.name) {
    return Status::BadRequest("name in URL does not match name in Eviction object");
  }
  ASSIGN_OR_RETURN(Json options_json, DeleteOptionsOf(eviction, DryRun()));
  ASSIGN_OR_RETURN(store::DeleteOptions options, store::ParseDeleteOptions(options_json));
  const api::ResourceInfo* budgets_info =
      served_->registry.Find("policy", "v1", "poddisruptionbudgets");
  for (int attempt = 0; attempt < kEvictionAttempts; ++attempt) {
    ASSIGN_OR_RETURN(store::ObjectPtr pod, store_->Get(*info_, target_.namespace_, target_.name));
    std::vector<Json> budgets;
    if (budgets_info != nullptr) {
      store::ListOptions list_options;
      list_options.namespace_ = target_.namespace_;
      ASSIGN_OR_RETURN(store::ListResult list, store_->List(*budgets_info, list_options));
      for (const store::ObjectPtr& budget : list.items) budgets.push_back(budget->document());
    }
    api::EvictionPlan plan = api::PlanEviction(pod->document(), budgets, options.dry_run, now_);
    if (plan.action == api::EvictionPlan::Action::kRefuse) {
      return EvictionRefusal(plan.refusal, plan.retry_after_seconds);
    }
    if (plan.budget_status.has_value()) {
      Json budget;
      for (Json& candidate : budgets) {
        if (store::MetaString(candidate, "name") == plan.budget_name) budget = std::move(candidate);
      }
      budget["status"] = std::move(*plan.budget_status);
      Result<store::ObjectPtr> spent = store_->UpdateStatus(*budgets_info, std::move(budget));
      if (!spent.ok() && spent.status().code() == Code::kConflict) continue;  // re-read both
      RETURN_IF_ERROR(spent.status());
    }
    store::DeleteOptions pod_options = options;
    const bool added_precondition =
        plan.require_pod_resource_version && !pod_options.precondition_resource_version;
    if (added_precondition) {
      pod_options.precondition_resource_version =
          store::MetaString(pod->document(), "resourceVersion");
    }
    RETURN_IF_ERROR(AdmitDelete(*pod, pod_options.dry_run));
    Result<store::DeleteResult> deleted =
        store_->Delete(*info_, target_.namespace_, target_.name, pod_options);
    if (!deleted.ok()) {
      // The pod changed after the decision (it may have become Ready): the client retries.
      if (deleted.status().code() == Code::kConflict && added_precondition) {
        return EvictionRefusal(api::BudgetStaleError(plan.budget_name), 10);
      }
      return deleted.status();
    }
    return JsonResponse(201, {{"kind", "Status"},
                              {"apiVersion", "v1"},
                              {"metadata", Json::object()},
                              {"status", "Success"},
                              {"code", 201}});
  }
  return Status(Code::kTimeout, "couldn't update PodDisruptionBudget due to conflicts");
}

// A refused eviction as kube-apiserver answers it: the Status, with retryAfterSeconds in its
// details and a Retry-After header for 429s.
Answer RequestHandler::EvictionRefusal(const Status& status, int retry_after_seconds) {
  Json body = StatusJson(status, StatusContext{info_, target_.name});
  if (retry_after_seconds > 0) body["details"]["retryAfterSeconds"] = retry_after_seconds;
  Answer answer = JsonResponse(status.http_code(), body);
  if (retry_after_seconds > 0) {
    answer.http.headers.Add("Retry-After", std::to_string(retry_after_seconds));
  }
  return answer;
}

}  // namespace lws::apiserver
