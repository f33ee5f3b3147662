// The metrics of one run (rollout_metrics.h).
#include "simulate/rollout_metrics.h"

#include <algorithm>

namespace lws::simulate {
namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

bool IsNew(GroupState s) { return s == GroupState::kNewReady || s == GroupState::kNewStarting; }

}  // namespace

MetricsRecorder::MetricsRecorder(Time start, int floor, Duration stall)
    : start_(start), floor_(floor), stall_(stall), progress_at_(start) {
  m_.min_ready = 1 << 30;
}

void MetricsRecorder::Integrate(Time until) {
  if (!last_ || until <= last_->at) return;
  const double dt = Seconds(until - last_->at);
  const Observation& o = *last_;
  if (o.ready < floor_) m_.below_floor_s += dt;
  if (o.ready < o.replicas) {
    m_.below_replicas_s += dt;
    m_.group_hours_lost += (o.replicas - o.ready) * dt / 3600.0;
  }
  m_.surge_accelerator_hours += static_cast<double>(o.surge_accelerators) * dt / 3600.0;
  m_.stranded_accelerator_hours += static_cast<double>(o.stranded_accelerators) * dt / 3600.0;
}

void MetricsRecorder::Add(const Observation& o) {
  if (o.at < start_) return;
  Integrate(o.at);
  if (restarts_at_start_ < 0) restarts_at_start_ = o.restarts;
  m_.crashes = std::max<std::int64_t>(m_.crashes, o.restarts - restarts_at_start_);
  m_.min_ready = std::min(m_.min_ready, o.ready);
  m_.peak_accelerators = std::max(m_.peak_accelerators, o.accelerators);
  if (o.new_ready > 0 && !m_.first_new_ready_s && o.update_revision != "") {
    m_.first_new_ready_s = Seconds(o.at - start_);
  }
  Progress now;
  now.new_ready = o.new_ready;
  now.partition = o.partition;
  now.sts_replicas = o.sts_replicas;
  now.ready = o.ready;
  for (const GroupView& g : o.groups) {
    if (IsNew(g.state)) ++now.new_placed;
  }
  TrackStall(o, now);
  last_ = o;
}

void MetricsRecorder::TrackStall(const Observation& o, const Progress& now) {
  if (!progress_ || !(*progress_ == now)) {
    progress_ = now;
    progress_at_ = o.at;
    stalled_ = false;
    return;
  }
  if (o.at - progress_at_ < stall_) return;
  if (!stalled_) {
    stalled_ = true;
    m_.stalls.push_back(Stall{Seconds(progress_at_ - start_), 0, {}, {}, {}});
  }
  Stall& stall = m_.stalls.back();
  stall.to_s = Seconds(o.at - start_);
  for (const GroupView& g : o.groups) {
    if (g.state != GroupState::kPending) continue;
    stall.waiting_groups.insert(g.index);
    for (const std::string& pod : g.waiting_pods) {
      if (std::find(stall.waiting_pods.begin(), stall.waiting_pods.end(), pod) ==
          stall.waiting_pods.end()) {
        stall.waiting_pods.push_back(pod);
      }
    }
  }
}

RunMetrics MetricsRecorder::Finish(Time end, bool completed) {
  Integrate(end);
  if (stalled_ && !m_.stalls.empty()) m_.stalls.back().to_s = Seconds(end - start_);
  m_.completed = completed;
  m_.duration_s = Seconds(end - start_);
  if (m_.min_ready == (1 << 30)) m_.min_ready = 0;
  return m_;
}

}  // namespace lws::simulate
