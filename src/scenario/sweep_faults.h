// File: scenario/sweep_faults.h
//
// The seeded sweep's faults at the LWS controllers' client boundary (DESIGN.md 2.3: "API errors
// (500/409/429), conflicts, delayed or dropped watch events with re-list, controller restarts
// (cache lost)"), drawn per seed like the sweep's crashes and node losses, and injected during
// the same fault window:
//   - API errors: writes of the LWS controllers refused (500, 409, 429) or applied with their
//     answer lost (504, 500), at rates drawn per seed (client/faulty_client.h);
//   - watch faults: every watch event of the controllers' informers delayed by up to a drawn
//     bound (in order), and every stream dropped one to three times, re-listing each time;
//   - a restart: the LWS controller manager stopped and a new one started (caches lost) once;
//   - for half of the runs with API errors or watch faults, the same faults at the simulated
//     StatefulSet controller's client too, so that the LWS controllers meet a flaky
//     kube-controller-manager as well as a flaky API.
// The faults stop at the end of the window (events already delayed still arrive, in order), so
// the liveness phase runs on a healthy API.
//
// Header-only, for the sweep tests (sweep_run.h).
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/assert.h"
#include "base/rng.h"
#include "client/faulty_client.h"
#include "scenario/lws_world.h"

namespace lws::scenario::sweep {

struct ClientFaultCase {
  double refused = 0;      // share of the controllers' writes refused
  double lost_answer = 0;  // share applied, answered with an error
  int watch_delay_max_ms = 0;
  int watch_drops = 0;  // times every stream is dropped in the window
  bool restart = false;
  bool statefulset = false;  // the StatefulSet controller's client meets them too

  // A FaultyClient is needed (a restart alone needs none).
  bool client() const {
    return refused > 0 || lost_answer > 0 || watch_delay_max_ms > 0 || watch_drops > 0;
  }
  bool any() const { return client() || restart; }
  client::ClientFaults Faults() const {
    return {refused, lost_answer, std::chrono::milliseconds(watch_delay_max_ms)};
  }
  std::string Describe() const {
    if (!any()) return "";
    std::string out;
    if (refused > 0 || lost_answer > 0) {
      out += fmt::format(" apiErrors refused {:.2f} lostAnswers {:.2f}", refused, lost_answer);
    }
    if (watch_delay_max_ms > 0 || watch_drops > 0) {
      out += fmt::format(" watchDelay 0-{}ms watchDrops {}", watch_delay_max_ms, watch_drops);
    }
    if (restart) out += " controllerRestart";
    if (statefulset) out += " alsoStatefulSetController";
    return out;
  }
};

// Each kind on for a quarter of the seeds, independently: more than half of the runs meet at
// least one, and a run that meets several shows how they combine. (More often would lengthen
// CI's default sweep for little more coverage: long sweeps find the rare cases.)
inline ClientFaultCase DrawClientFaults(Rng rng) {
  ClientFaultCase f;
  if (rng.Bernoulli(0.25)) {
    f.refused = static_cast<double>(rng.UniformInt(2, 20)) / 100;
    f.lost_answer = static_cast<double>(rng.UniformInt(0, 10)) / 100;
  }
  if (rng.Bernoulli(0.25)) {
    f.watch_delay_max_ms = static_cast<int>(rng.UniformInt(100, 5000));
    f.watch_drops = static_cast<int>(rng.UniformInt(1, 3));
  }
  f.restart = rng.Bernoulli(0.25);
  // Half of the runs whose controllers meet a faulty API: the StatefulSet controller meets it too.
  f.statefulset = f.client() && rng.Bernoulli(0.5);
  return f;
}

// Schedules `f` on `world` for the window from now to `fault_end`: the client's faults at once
// and off at `fault_end`, the drops and the restart at times drawn from `rng` within it.
inline void InjectClientFaults(const ClientFaultCase& f, LwsWorld& world, Rng rng, Time fault_end) {
  using std::chrono::seconds;
  VirtualLoop& loop = world.loop();
  const std::int64_t window_s = std::chrono::duration_cast<seconds>(fault_end - loop.Now()).count();
  std::vector<client::FaultyClient*> clients;
  for (client::FaultyClient* c : {world.controller_client(), world.statefulset_client()}) {
    if (c != nullptr && f.client()) clients.push_back(c);
  }
  for (client::FaultyClient* c : clients) {
    c->SetFaults(f.Faults());
    loop.At(fault_end, [c] { c->SetFaults({}); });
  }
  for (int i = 0; i < f.watch_drops; ++i) {
    loop.After(seconds(rng.UniformInt(1, window_s - 1)), [clients] {
      for (client::FaultyClient* c : clients) c->DropWatches();
    });
  }
  if (f.restart) {
    loop.After(seconds(rng.UniformInt(1, window_s - 1)), [&world] {
      // The simulated API never refuses the new manager's lists: a failure is a bug.
      Status restarted = world.RestartController();
      LWS_ASSERT(restarted.ok(), restarted.ToString());
    });
  }
}

}  // namespace lws::scenario::sweep
