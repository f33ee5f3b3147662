// Rollout metrics from LeaderWorkerSet objects (rollout_metrics.h).
#include "operator/rollout_metrics.h"

#include <algorithm>

namespace lws::op {
namespace {

int IntAt(const api::Json& object, const char* section, const char* field) {
  auto s = object.find(section);
  if (s == object.end() || !s->is_object()) return 0;
  auto f = s->find(field);
  return f != s->end() && f->is_number_integer() ? f->get<int>() : 0;
}

}  // namespace

RolloutSample RolloutSampleOf(const api::Json& lws) {
  RolloutSample sample;
  if (!lws.is_object()) return sample;
  sample.groups_updated = IntAt(lws, "status", "updatedReplicas");
  // spec.replicas defaults to 1 (the API server's defaulting), so absent means 1.
  auto spec = lws.find("spec");
  int desired = 1;
  if (spec != lws.end() && spec->is_object() && spec->contains("replicas")) {
    desired = IntAt(lws, "spec", "replicas");
  }
  sample.surge_groups = std::max(0, IntAt(lws, "status", "replicas") - desired);
  auto status = lws.find("status");
  if (status == lws.end() || !status->is_object()) return sample;
  auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return sample;
  for (const api::Json& c : *conditions) {
    if (!c.is_object()) continue;
    if (c.value("type", api::Json()) == "Progressing") {
      sample.progress_deadline_exceeded =
          c.value("status", api::Json()) == "False" &&
          c.value("reason", api::Json()) == "ProgressDeadlineExceeded";
    }
    if (c.value("type", api::Json()) != "UpdateInProgress") continue;
    sample.update_in_progress = c.value("status", api::Json()) == "True";
    auto t = c.find("lastTransitionTime");
    if (t != c.end() && t->is_string()) {
      Result<Time> parsed = ParseRfc3339(t->get_ref<const std::string&>());
      if (parsed.ok()) sample.update_transition = *parsed;
    }
  }
  return sample;
}

void RolloutMetrics::OnChange(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  if (now == nullptr) {
    if (old != nullptr) {
      store::ObjectName name = old->name();
      Forget(name.namespace_, name.name);
    }
    return;
  }
  store::ObjectName name = now->name();
  Observe(name.namespace_, name.name, RolloutSampleOf(now->document()));
}

void RolloutMetrics::Observe(const std::string& ns, const std::string& name,
                             const RolloutSample& sample) {
  const LabelValues labels = {ns, name};
  metrics_->rollout_groups_updated->Set(labels, sample.groups_updated);
  metrics_->rollout_surge_groups->Set(labels, sample.surge_groups);
  metrics_->rollout_progress_deadline_exceeded->Set(labels,
                                                    sample.progress_deadline_exceeded ? 1 : 0);
  const store::ObjectName key{ns, name};
  auto started = started_.find(key);
  if (sample.update_in_progress) {
    // The first start seen is kept: a second template change mid-rollout replaces the
    // condition (new transition time) but the rollout as users see it goes on.
    if (started == started_.end() && sample.update_transition)
      started_.emplace(key, *sample.update_transition);
    return;
  }
  if (started == started_.end()) return;
  if (sample.update_transition && *sample.update_transition >= started->second) {
    metrics_->rollout_duration_seconds->Observe(
        labels, std::chrono::duration<double>(*sample.update_transition - started->second).count());
  }
  started_.erase(started);
}

void RolloutMetrics::Forget(const std::string& ns, const std::string& name) {
  metrics_->rollout_groups_updated->Remove({ns, name});
  metrics_->rollout_surge_groups->Remove({ns, name});
  metrics_->rollout_progress_deadline_exceeded->Remove({ns, name});
  started_.erase(store::ObjectName{ns, name});
}

}  // namespace lws::op
