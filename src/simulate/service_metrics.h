// File: simulate/service_metrics.h
//
// The numbers of a run that watches several roles (watched.h): each role's own RunMetrics
// (its ready groups against its replicas and floor), and how the roles served together. With
// f_r = min(1, ready_r / replicas_r), the fraction of role r's groups ready, a disaggregated
// service (prefill feeding decode) serves at the pace of its scarcest role, min_r f_r:
//   - capacity_min: the least min_r f_r over the window;
//   - service_hours_lost: the integral of 1 - min_r f_r, in hours (the whole service for an
//     hour is 1);
//   - ratio_gap_max: the largest max_r f_r - min_r f_r: how far apart the roles drifted;
//   - idle_accelerator_hours: accelerator-hours of ready groups with nothing to do because
//     another role is short: for each role, its ready groups' accelerators x (1 - min f / f_r).
// The run's own numbers then count roles, not groups in a heap (one role's surge does not make
// up for another's missing groups): time below the floor and below replicas is the time some
// role was, and group-hours lost are the roles' summed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "simulate/rollout_metrics.h"
#include "simulate/watched.h"

namespace lws::simulate {

struct RoleResult {
  std::string name;
  int replicas = 0;
  int floor = 0;
  RunMetrics metrics;
};

struct ServiceMetrics {
  double capacity_min = 1;
  double service_hours_lost = 0;
  double ratio_gap_max = 0;
  double idle_accelerator_hours = 0;
};

class ServiceRecorder {
 public:
  // `first`: the observation that opens the window (the roles, their replicas and floors).
  ServiceRecorder(Time start, const WatchedObservation& first, Duration stall);

  void Add(const WatchedObservation& o);
  // The roles' and the service's numbers, and `total`'s serving numbers as the roles give them.
  void Finish(Time end, bool completed, std::vector<RoleResult>* roles, ServiceMetrics* service,
              RunMetrics* total);

 private:
  struct Rates {
    Time at;
    double capacity = 1;  // min_r f_r
    double idle_accelerators = 0;
    bool below_floor = false;     // some role below its floor
    bool below_replicas = false;  // some role below its replicas
  };
  void Integrate(Time until);

  std::vector<RoleResult> roles_;
  std::vector<MetricsRecorder> recorders_;  // one per role, in order
  std::optional<Rates> last_;
  ServiceMetrics m_;
  double below_floor_s_ = 0;
  double below_replicas_s_ = 0;
};

}  // namespace lws::simulate
