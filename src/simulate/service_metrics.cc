// The numbers of a run of several roles (service_metrics.h).
#include "simulate/service_metrics.h"

#include <algorithm>

namespace lws::simulate {
namespace {

double Fraction(const RoleObservation& role) {
  if (role.o.replicas <= 0) return 1;
  return std::min(1.0, static_cast<double>(role.o.ready) / role.o.replicas);
}

}  // namespace

ServiceRecorder::ServiceRecorder(Time start, const WatchedObservation& first, Duration stall) {
  for (const RoleObservation& role : first.roles) {
    roles_.push_back({role.name, role.o.replicas, role.floor, {}});
    recorders_.emplace_back(start, role.floor, stall);
  }
}

void ServiceRecorder::Integrate(Time until) {
  if (!last_ || until <= last_->at) return;
  const double seconds = std::chrono::duration<double>(until - last_->at).count();
  const double hours = seconds / 3600.0;
  if (last_->below_floor) below_floor_s_ += seconds;
  if (last_->below_replicas) below_replicas_s_ += seconds;
  m_.service_hours_lost += (1 - last_->capacity) * hours;
  m_.idle_accelerator_hours += last_->idle_accelerators * hours;
}

void ServiceRecorder::Add(const WatchedObservation& o) {
  Integrate(o.total.at);
  Rates now{o.total.at, 1, 0, false, false};
  double most = 0;
  for (const RoleObservation& role : o.roles) {
    now.capacity = std::min(now.capacity, Fraction(role));
    most = std::max(most, Fraction(role));
  }
  for (const RoleObservation& role : o.roles) {
    const double f = Fraction(role);
    now.below_floor = now.below_floor || role.o.ready < role.floor;
    now.below_replicas = now.below_replicas || role.o.ready < role.o.replicas;
    if (f > 0) now.idle_accelerators += role.ready_accelerators * (1 - now.capacity / f);
    // The roles are matched by name: a patch may rename or add one, which is not followed.
    for (std::size_t i = 0; i < roles_.size(); ++i) {
      if (roles_[i].name == role.name) recorders_[i].Add(role.o);
    }
  }
  if (!o.roles.empty()) {
    m_.capacity_min = std::min(m_.capacity_min, now.capacity);
    m_.ratio_gap_max = std::max(m_.ratio_gap_max, most - now.capacity);
  }
  last_ = now;
}

void ServiceRecorder::Finish(Time end, bool completed, std::vector<RoleResult>* roles,
                             ServiceMetrics* service, RunMetrics* total) {
  Integrate(end);
  total->group_hours_lost = 0;
  for (std::size_t i = 0; i < roles_.size(); ++i) {
    roles_[i].metrics = recorders_[i].Finish(end, completed);
    total->group_hours_lost += roles_[i].metrics.group_hours_lost;
  }
  total->below_floor_s = below_floor_s_;
  total->below_replicas_s = below_replicas_s_;
  *roles = std::move(roles_);
  *service = m_;
}

}  // namespace lws::simulate
