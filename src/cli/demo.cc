#include "cli/demo.h"

#include <fmt/format.h>

#include <initializer_list>

#include "api/yaml.h"
#include "cli/demo_view.h"

namespace lws::cli {

namespace {

using api::Json;

template <class T>
Result<T> DecodeStored(const store::ObjectPtr& object) {
  return api::Decode<T>(object->document());
}

// One snapshot of everything the view needs, straight from the store. A missing leader
// StatefulSet is normal (the controller has not created it yet); a missing LWS is an error
// (someone deleted it with kubectl).
Result<RolloutObjects> ReadObjects(const client::LocalClient& client, const std::string& ns,
                                   const std::string& name) {
  RolloutObjects objects;
  ASSIGN_OR_RETURN(store::ObjectPtr lws, client.Get(client::kLeaderWorkerSets, ns, name));
  ASSIGN_OR_RETURN(objects.lws, DecodeStored<api::LeaderWorkerSet>(lws));
  store::ListOptions sets;
  sets.namespace_ = ns;
  sets.label_selector = api::Selector::FromSet({{api::kSetNameLabel, name}});
  ASSIGN_OR_RETURN(store::ListResult set_list, client.List(client::kStatefulSets, sets));
  for (const store::ObjectPtr& item : set_list.items) {
    ASSIGN_OR_RETURN(api::StatefulSet sts, DecodeStored<api::StatefulSet>(item));
    if (sts.metadata.name == name) {
      objects.leader_set = std::move(sts);
    } else {
      objects.worker_sets.emplace(sts.metadata.name, std::move(sts));
    }
  }
  store::ListOptions leaders;
  leaders.namespace_ = ns;
  leaders.label_selector =
      api::Selector::FromSet({{api::kSetNameLabel, name}, {api::kWorkerIndexLabel, "0"}});
  ASSIGN_OR_RETURN(store::ListResult pod_list, client.List(client::kPods, leaders));
  for (const store::ObjectPtr& item : pod_list.items) {
    ASSIGN_OR_RETURN(api::Pod pod, DecodeStored<api::Pod>(item));
    objects.leader_pods.push_back(std::move(pod));
  }
  return objects;
}

// Polls the view and shows it, with the time since the phase began, through a LiveView.
class Poller {
 public:
  enum class Outcome { kDone, kTimeout, kInterrupted, kError };

  Poller(const client::LocalClient& client, const Clock& clock, std::ostream& out,
         const DemoOptions& options, std::string ns, std::string name)
      : client_(client),
        clock_(clock),
        live_(out, options.view),
        options_(options),
        ns_(std::move(ns)),
        name_(std::move(name)) {}

  // Until `done` holds for a view, `timeout` passes, the user interrupts or a read fails.
  // `stats`, when given, sees every view.
  Outcome Until(const std::function<bool(const RolloutView&)>& done, Duration timeout,
                RolloutStats* stats) {
    Time start = clock_.Now();
    live_.StartTable();  // each phase is a table of its own
    while (true) {
      Result<RolloutObjects> objects = ReadObjects(client_, ns_, name_);
      if (!objects.ok()) {
        error_ = objects.status();
        return Outcome::kError;
      }
      last_ = BuildRolloutView(*objects);
      Time now = clock_.Now();
      if (stats != nullptr) stats->Observe(last_, now);
      live_.Show(last_, now - start);
      if (done(last_)) return Outcome::kDone;
      if (now - start >= timeout) return Outcome::kTimeout;
      if (!options_.wait(options_.poll_interval)) return Outcome::kInterrupted;
    }
  }

  const RolloutView& last() const { return last_; }
  const Status& error() const { return error_; }

 private:
  const client::LocalClient& client_;
  const Clock& clock_;
  LiveView live_;
  const DemoOptions& options_;
  std::string ns_;
  std::string name_;
  RolloutView last_;
  Status error_;
};

// Creates the demo LWS. One left by an earlier run (`lws up --data-dir`) is reused as it is.
Status CreateDemo(const client::LocalClient& client, const Json& manifest, const std::string& name,
                  std::ostream& out) {
  Result<store::ObjectPtr> created = client.Create(client::kLeaderWorkerSets, manifest);
  if (created.ok()) {
    out << "leaderworkerset.leaderworkerset.x-k8s.io/" << name << " created\n";
    return Status::Ok();
  }
  if (created.status().code() != Code::kAlreadyExists) return created.status();
  out << "leaderworkerset.leaderworkerset.x-k8s.io/" << name << " exists already: reusing it\n";
  return Status::Ok();
}

// The value at `path` inside `json`, or null when a step is missing or not an object.
const Json* At(const Json& json, std::initializer_list<const char*> path) {
  const Json* at = &json;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::string FirstImage(const Json& lws) {
  const Json* containers =
      At(lws, {"spec", "leaderWorkerTemplate", "workerTemplate", "spec", "containers"});
  if (containers == nullptr || !containers->is_array() || containers->empty()) return "";
  const Json* image = At((*containers)[0], {"image"});
  return image != nullptr && image->is_string() ? image->get<std::string>() : "";
}

// A merge patch that sets the image of every container of both templates. Merge patches
// replace lists whole, so the patch carries the complete container lists read from `lws`.
Json ImagePatch(const Json& lws, const std::string& image) {
  Json templates = Json::object();
  for (const char* key : {"leaderTemplate", "workerTemplate"}) {
    const Json* containers = At(lws, {"spec", "leaderWorkerTemplate", key, "spec", "containers"});
    if (containers == nullptr || !containers->is_array()) continue;
    Json updated = *containers;
    for (Json& container : updated) {
      if (container.is_object()) container["image"] = image;
    }
    templates[key] = {{"spec", {{"containers", updated}}}};
  }
  return {{"spec", {{"leaderWorkerTemplate", templates}}}};
}

// Changes the image and returns the image now rolling out. A reused LWS that already runs the
// new image rolls back to the manifest's, so that every run shows a rollout.
Result<std::string> ChangeImage(const client::LocalClient& client, const Json& manifest,
                                const std::string& ns, const std::string& name,
                                const DemoOptions& options) {
  ASSIGN_OR_RETURN(store::ObjectPtr live, client.Get(client::kLeaderWorkerSets, ns, name));
  std::string image = options.new_image;
  if (FirstImage(live->document()) == image) image = FirstImage(manifest);
  Result<store::ObjectPtr> patched =
      client.Patch(client::kLeaderWorkerSets, ns, name, client::PatchType::kMerge,
                   ImagePatch(live->document(), image));
  if (!patched.ok()) return patched.status();
  return image;
}

bool IsAvailable(const RolloutView& view) {
  return view.observed_generation >= view.generation && view.HasCondition("Available");
}

// Why the LWS is not Available yet: usually groups still starting; no status at all means no
// controller is running.
std::string NotAvailableReason(const RolloutView& view) {
  if (view.observed_generation < view.generation) {
    return fmt::format("the controller has not observed generation {} (status is at {})",
                       view.generation, view.observed_generation);
  }
  return fmt::format("{} of {} groups ready", view.ReadyGroups(), view.replicas);
}

std::string Hints(const DemoOptions& options, const std::string& name) {
  std::string intro =
      options.keep_running
          ? "The cluster keeps running (Ctrl-C stops it). Look around with:\n"
          : "Run `lws up --demo --keep-running` to keep the cluster and look around with:\n";
  return intro + fmt::format(
                     "  export KUBECONFIG={}\n"
                     "  kubectl get lws,sts,pods -o wide\n"
                     "  kubectl describe lws {}\n"
                     "  kubectl get events --field-selector involvedObject.name={}\n",
                     options.kubeconfig, name, name);
}

// Reports a poll that did not end in kDone; returns the exit code.
int Report(Poller::Outcome outcome, const Poller& poller, const std::string& what, Duration timeout,
           const std::string& blocker, std::ostream& out) {
  switch (outcome) {
    case Poller::Outcome::kDone:
      return kDemoDone;
    case Poller::Outcome::kInterrupted:
      out << "lws up --demo: interrupted\n";
      return kDemoInterrupted;
    case Poller::Outcome::kError:
      out << "lws up --demo: cannot read the rollout: " << poller.error().message() << "\n";
      return kDemoFailed;
    case Poller::Outcome::kTimeout:
      break;
  }
  // The last view is the last row above.
  out << fmt::format("lws up --demo: {} after {}:\n  {}\n", what, FormatElapsed(timeout), blocker);
  return kDemoFailed;
}

}  // namespace

int RunDemo(const client::LocalClient& client, const Clock& clock, std::ostream& out,
            const DemoOptions& options) {
  Result<Json> manifest = api::LoadYaml(DemoManifest());
  if (!manifest.ok()) {
    out << "lws up --demo: the built-in manifest does not parse: " << manifest.status().message()
        << "\n";
    return kDemoFailed;
  }
  const Json metadata = manifest->value("metadata", Json::object());
  const std::string ns = metadata.value("namespace", "default");
  const std::string name = metadata.value("name", "");
  if (Status created = CreateDemo(client, *manifest, name, out); !created.ok()) {
    out << "lws up --demo: cannot create the LeaderWorkerSet: " << created.ToString() << "\n";
    return kDemoFailed;
  }
  Poller poller(client, clock, out, options, ns, name);

  out << GroupLegend() << "== waiting until leaderworkerset " << name << " is Available\n";
  Time created_at = clock.Now();
  Poller::Outcome available = poller.Until(IsAvailable, options.available_timeout, nullptr);
  std::string why = NotAvailableReason(poller.last());
  if (int code = Report(available, poller, "not Available", options.available_timeout, why, out);
      code != kDemoDone) {
    return code;
  }
  const std::string old_revision = poller.last().revision;
  out << "== Available after " << FormatElapsed(clock.Now() - created_at) << "\n";

  Result<std::string> image = ChangeImage(client, *manifest, ns, name, options);
  if (!image.ok()) {
    out << "lws up --demo: cannot change the image: " << image.status().ToString() << "\n";
    return kDemoFailed;
  }
  out << "== rolling out " << *image << "\n";
  RolloutStats stats(clock.Now());
  auto complete = [&](const RolloutView& view) { return RolloutComplete(view, old_revision); };
  Poller::Outcome rolled = poller.Until(complete, options.rollout_timeout, &stats);
  why = RolloutBlocker(poller.last(), old_revision);
  if (int code = Report(rolled, poller, "rollout stuck", options.rollout_timeout, why, out);
      code != kDemoDone) {
    return code;
  }
  out << stats.Summary(poller.last()) << Hints(options, name) << std::flush;
  return kDemoDone;
}

}  // namespace lws::cli
