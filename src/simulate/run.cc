// One run of a scenario (run.h).
#include "simulate/run.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "api/disaggregatedset_types.h"
#include "api/lws_types.h"
#include "apiserver/patch.h"
#include "client/resource.h"
#include "controllers/lws/capacity_hand_off.h"
#include "controllers/lws/rolling_update.h"
#include "scenario/lws_world.h"
#include "simulate/node_drain.h"
#include "simulate/watched.h"

namespace lws::simulate {
namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

scenario::WorldOptions WorldFor(const Scenario& s, const std::vector<Json>& workloads,
                                std::uint64_t seed) {
  scenario::WorldOptions options{s.cluster, seed};
  options.disaggregatedset = std::any_of(workloads.begin(), workloads.end(),
                                         [](const Json& o) { return IsDisaggregatedSet(o); });
  return options;
}

// The accelerator the pools offer (the first of the usual names), nvidia.com/gpu by default.
std::string AcceleratorOf(const cluster::ClusterSpec& spec) {
  for (const char* name : {"nvidia.com/gpu", "google.com/tpu", "amd.com/gpu"}) {
    for (const cluster::NodePoolSpec& pool : spec.pools) {
      if (pool.allocatable.count(name)) return name;
    }
  }
  return "nvidia.com/gpu";
}

class Runner {
 public:
  Runner(const Scenario& s, const Strategy& strategy, std::uint64_t seed, const RunOptions& options)
      : s_(s),
        strategy_(strategy),
        options_(options),
        workloads_(s.WorkloadsOf(strategy)),
        world_(WorldFor(s, workloads_, seed)),
        watched_(WatchedOf(s, workloads_), AcceleratorOf(s.cluster)) {
    result_.strategy = strategy.name;
    result_.seed = seed;
    result_.lws = watched_.Names();
  }

  Result<RunResult> Run() {
    zero_ = world_.loop().Now();  // the cluster's start: the scenario's times count from it
    // Far above what a cluster does in one second: only a component writing in a loop gets
    // there.
    world_.loop().SetInstantTaskLimit(2'000'000);
    RETURN_IF_ERROR(world_.Start());
    ASSIGN_OR_RETURN(nodes_,
                     world_.user().Watch(&world_.loop(), client::kNodes, "",
                                         [this](const store::WatchEvent& e) { OnNode(e); }));
    RETURN_IF_ERROR(CreateWorkloads());
    std::optional<Time> first_change;
    Time last_change = Zero();
    for (const Change& c : s_.timeline) {
      // A drain disrupts the LWS as its own changes do: the window covers it.
      if (!Targets(c, workloads_).empty() || c.kind == Change::Kind::kDrain) {
        if (!first_change) first_change = Zero() + c.at;
        last_change = Zero() + c.at;
      }
    }
    const Time start = first_change.value_or(Zero());
    result_.window_start_s = Seconds(start - Zero());
    for (const Change& c : s_.timeline) result_.marks.emplace_back(Seconds(c.at), c.description);
    for (const cluster::CapacityChange& c : s_.cluster.changes) {
      result_.marks.emplace_back(Seconds(c.at), c.ToString());
    }
    std::size_t next_change = 0;
    std::optional<MetricsRecorder> recorder;
    std::optional<ServiceRecorder> service;
    bool completed = false;
    while (true) {
      const Time now = world_.loop().Now();
      while (next_change < s_.timeline.size() && Zero() + s_.timeline[next_change].at <= now) {
        Apply(s_.timeline[next_change++]);
      }
      StepDrains(now);
      const WatchedObservation& watched = Sample(now);
      const Observation& o = watched.total;
      if (!recorder && now >= start) {
        recorder.emplace(start, FloorOf(watched), s_.stall);
        if (!watched.roles.empty()) service.emplace(start, watched, s_.stall);
        window_open_ = true;
      }
      if (recorder) {
        recorder->Add(o);
        if (service) service->Add(watched);
        if (now >= last_change && watched.at_rest && DrainsDone(watched)) {
          completed = true;
          break;
        }
        if (now - start >= s_.horizon) break;
      }
      world_.RunFor(options_.sample);
      if (world_.loop().livelocked()) {
        return Status::Internal(fmt::format(
            "virtual time stopped at {}: {} tasks ran within one virtual second; a component is "
            "writing in a loop (a bug: please report it with the scenario and seed {})",
            FormatRfc3339(world_.loop().Now()), world_.loop().tasks_at_instant(), result_.seed));
      }
    }
    result_.metrics = recorder->Finish(world_.loop().Now(), completed);
    if (service) {
      service->Finish(world_.loop().Now(), completed, &result_.roles, &result_.service,
                      &result_.metrics);
    }
    result_.metrics.nodes_provisioned = provisioned_;
    result_.metrics.nodes_released = released_;
    FillFromEvents(start);
    for (const NodeDrain& drain : drains_) result_.drains.push_back(drain.result());
    return std::move(result_);
  }

 private:
  Time Zero() const { return zero_; }

  Status CreateWorkloads() {
    const auto served = world_.server()->served();
    for (const Json& object : workloads_) {
      ASSIGN_OR_RETURN(Json body, WithStrategy(object, strategy_));
      const std::string api_version = api::StringMember(object, "apiVersion");
      const std::string kind = api::StringMember(object, "kind");
      const api::ResourceInfo* info = served->registry.FindByKind(api_version, kind);
      if (info == nullptr) {
        return Status::BadRequest(
            fmt::format("no matches for kind \"{}\" in version \"{}\"", kind, api_version));
      }
      Result<store::ObjectPtr> created =
          world_.user().Create(client::ResourceOf(*info), std::move(body));
      if (!created.ok()) {
        return Status(
            created.status().code(),
            fmt::format("creating {} {}: {}", kind, NameOf(object), created.status().message()));
      }
    }
    return Status::Ok();
  }

  void Apply(const Change& c) {
    const client::LocalClient& user = world_.user();
    Status applied = Status::Ok();
    if (c.kind == Change::Kind::kPatch) {
      for (const Json* object : Targets(c, workloads_)) {
        Status one = PatchWorkload(c, *object);
        if (applied.ok()) applied = one;
      }
    } else {
      const bool cordon = c.kind != Change::Kind::kUncordon;
      applied = user.Patch(client::kNodes, "", c.target, client::PatchType::kMerge,
                           {{"spec", {{"unschedulable", cordon}}}})
                    .status();
      if (applied.ok() && c.kind == Change::Kind::kDrain) {
        drains_.emplace_back(c.target, world_.loop().Now(), Seconds(c.at));
        applied = drains_.back().Start(user);
      }
    }
    if (!applied.ok()) {
      result_.marks.emplace_back(Seconds(c.at), c.description + " failed: " + applied.message());
    }
  }

  // A change of one workload, as `kubectl patch --type merge` would make it. An image change is
  // made from the object as it is now, so that it keeps every earlier change.
  Status PatchWorkload(const Change& c, const Json& object) {
    const client::LocalClient& user = world_.user();
    const WatchedWorkload w = WorkloadOf(object);
    const client::Resource& resource =
        IsLws(object) ? client::kLeaderWorkerSets : client::kDisaggregatedSets;
    Json patch = c.patch;
    if (!c.image.empty()) {
      Result<store::ObjectPtr> live = user.Get(resource, "default", w.name);
      patch = ImagePatch(live.ok() ? (*live)->document() : object, c.image);
    }
    Result<store::ObjectPtr> patched =
        user.Patch(resource, "default", w.name, client::PatchType::kMerge, patch);
    if (!patched.ok()) return patched.status();
    watched_.Changed(w, (*patched)->document()["metadata"].value("generation", 0));
    return Status::Ok();
  }

  // The drains in progress evict what is due; each one's end is marked on the timeline.
  void StepDrains(Time now) {
    for (NodeDrain& drain : drains_) {
      if (drain.done()) continue;
      drain.Step(world_.user(), now);
      const DrainResult& r = drain.result();
      if (r.finished_s) {
        result_.marks.emplace_back(
            Seconds(now - Zero()),
            fmt::format("drain {} done, {} evictions refused", r.node, r.refused));
      } else if (!r.error.empty()) {
        result_.marks.emplace_back(Seconds(now - Zero()),
                                   "drain " + r.node + " failed: " + r.error);
      }
    }
  }

  // Drains end the run only once they are over and every group is ready again (the LWS may
  // still say Available in the instant its pods went).
  bool DrainsDone(const WatchedObservation& watched) const {
    for (const NodeDrain& drain : drains_) {
      if (!drain.done()) return false;
    }
    if (drains_.empty()) return true;
    // Role by role: one role's surge does not stand in for another's missing groups.
    for (const RoleObservation& role : watched.roles) {
      if (role.o.ready < role.o.replicas) return false;
    }
    return watched.total.ready >= watched.total.replicas;
  }

  void OnNode(const store::WatchEvent& e) {
    const std::string name = e.object->name().name;
    if (e.type == store::EventType::kAdded && known_nodes_.insert(name).second && window_open_)
      ++provisioned_;
    if (e.type == store::EventType::kDeleted) {
      known_nodes_.erase(name);
      if (window_open_) ++released_;
    }
  }

  // replicas - maxUnavailable: the LWS's, or the sum of the roles'.
  int FloorOf(const WatchedObservation& watched) {
    if (!watched.roles.empty()) {
      result_.replicas = watched.total.replicas;
      result_.floor = 0;
      for (const RoleObservation& role : watched.roles) result_.floor += role.floor;
      return result_.floor;
    }
    auto lws = world_.Lws(watched_.workloads().front().name);
    if (!lws) return 0;
    Result<controllers::RolloutSettings> settings = controllers::RolloutSettingsOf(*lws);
    result_.replicas = lws->Replicas();
    result_.floor = settings.ok() ? std::max(0, settings->replicas - settings->max_unavailable) : 0;
    return result_.floor;
  }

  // The state now: read again only when the store changed since the last look.
  const WatchedObservation& Sample(Time now) {
    const std::uint64_t rv = world_.store()->CurrentResourceVersion();
    if (!last_ || rv != last_rv_) {
      last_ = watched_.Observe(world_.user(), now);
      last_rv_ = rv;
      if (options_.timeline) Track(last_->total);
    }
    last_->total.at = now;
    for (RoleObservation& role : last_->roles) role.o.at = now;
    return *last_;
  }

  void Track(const Observation& o) {
    const double t = Seconds(o.at - Zero());
    if (result_.ready.empty() || result_.ready.back().second != o.ready)
      result_.ready.emplace_back(t, o.ready);
    if (result_.accelerators.empty() || result_.accelerators.back().second != o.accelerators) {
      result_.accelerators.emplace_back(t, o.accelerators);
    }
    if (result_.groups.size() < o.groups.size()) result_.groups.resize(o.groups.size());
    for (std::size_t i = 0; i < result_.groups.size(); ++i) {
      GroupTrack& track = result_.groups[i];
      track.index = static_cast<int>(i);
      if (track.label.empty()) track.label = watched_.RowLabel(track.index);
      const GroupState state = i < o.groups.size() ? o.groups[i].state : GroupState::kAbsent;
      const bool surge =
          i < o.groups.size() ? o.groups[i].surge : static_cast<int>(i) >= o.replicas;
      if (track.states.empty() || std::get<1>(track.states.back()) != state ||
          std::get<2>(track.states.back()) != surge) {
        track.states.emplace_back(t, state, surge);
      }
    }
  }

  // Stall reasons (the scheduler's and the autoscaler's messages about the waiting pods) and
  // group recreations and preemptions, from the events.
  void FillFromEvents(Time start) {
    std::map<std::string, std::vector<std::pair<std::string, std::int64_t>>> by_pod;
    for (const api::Event& e : world_.Events()) {
      const Json& series = api::ChildOrNull(e.rest, "series");
      const std::int64_t times = series.is_object() ? series.value("count", std::int64_t{1})
                                                    : std::max<std::int64_t>(1, e.count);
      // The event's last occurrence, in either API's fields.
      std::string last = api::StringMember(series, "lastObservedTime");
      if (last.empty()) last = e.event_time.empty() ? e.last_timestamp : e.event_time;
      Result<Time> at = ParseRfc3339(last);
      if (e.reason == "RecreateGroup" && IsWatchedLws(e.involved_object.name) && at.ok() &&
          *at >= start) {
        result_.metrics.recreations += times;
      }
      if (e.reason == "Preempted" && e.involved_object.kind == "Pod" && at.ok() && *at >= start &&
          !IsPlaceholder(e.involved_object.name)) {
        result_.metrics.preemptions += times;
      }
      // What held a pod back: the scheduler's and the autoscaler's complaints.
      if (e.involved_object.kind == "Pod" &&
          (e.type == "Warning" || e.reason == "NotTriggerScaleUp")) {
        by_pod[e.involved_object.name].emplace_back(e.reason + ": " + e.message, times);
      }
    }
    for (Stall& stall : result_.metrics.stalls) {
      std::map<std::string, std::int64_t> reasons;
      for (const std::string& pod : stall.waiting_pods) {
        for (const auto& [message, times] : by_pod[pod]) reasons[message] += times;
      }
      for (const cluster::CapacityChange& c : s_.cluster.changes) {
        const double at = Seconds(c.at) - result_.window_start_s;
        if (c.kind == cluster::CapacityChange::Kind::kStockoutBegin && at <= stall.to_s) {
          reasons[c.ToString()] += 1;
        }
      }
      stall.reasons.assign(reasons.begin(), reasons.end());
      std::stable_sort(stall.reasons.begin(), stall.reasons.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
    }
  }

  // An LWS of the watched ones (a set's role LWSs carry its name and a role).
  bool IsWatchedLws(const std::string& lws) const {
    for (const WatchedWorkload& w : watched_.workloads()) {
      if (lws == w.name || (w.kind == api::kDsKind && lws.starts_with(w.name + "-"))) return true;
    }
    return false;
  }

  bool IsPlaceholder(const std::string& pod) const {
    for (const WatchedWorkload& w : watched_.workloads()) {
      if (controllers::IsPlaceholderName(w.name, pod)) return true;
    }
    return false;
  }

  const Scenario& s_;
  const Strategy& strategy_;
  const RunOptions options_;
  const std::vector<Json>& workloads_;
  scenario::LwsWorld world_;
  Watched watched_;
  RunResult result_;
  std::unique_ptr<client::Subscription> nodes_;
  std::vector<NodeDrain> drains_;
  std::set<std::string> known_nodes_;
  bool window_open_ = false;
  int provisioned_ = 0;
  int released_ = 0;
  std::optional<WatchedObservation> last_;
  std::uint64_t last_rv_ = 0;
  Time zero_;
};

}  // namespace

Result<RunResult> RunScenario(const Scenario& scenario, const Strategy& strategy,
                              std::uint64_t seed, const RunOptions& options) {
  Runner runner(scenario, strategy, seed, options);
  return runner.Run();
}

}  // namespace lws::simulate
