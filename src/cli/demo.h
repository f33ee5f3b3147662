// File: cli/demo.h
//
// The driver of `lws up --demo`, the README's first command: on a running local cluster it
// creates the example LeaderWorkerSet (examples/lws/demo.yaml, built into the binary), waits
// until it is Available, changes the image of both templates, and shows the rolling update
// live (cli/demo_view.h's view drawn by cli/demo_render.h: redrawn in place on a terminal, a
// row per change otherwise), then a summary (duration, fewest ready groups, most surge groups)
// and the kubectl commands to look around, every line within the view's width.
//
// It is an API client like kubectl and nothing more: it writes the LWS through a LocalClient
// (the API server's full write path, so defaults and admission apply) and reads the LWS,
// StatefulSets and leader pods straight from the store. It never touches the controller, so
// `kubectl get lws,sts,pods -w` in another terminal shows the same story. It runs on the
// calling thread and polls; the cluster runs on its own loop.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "cli/demo_render.h"
#include "client/local/local_client.h"

namespace lws::cli {

// Exit codes of RunDemo.
inline constexpr int kDemoDone = 0;
inline constexpr int kDemoFailed = 1;         // an API error or a timeout
inline constexpr int kDemoInterrupted = 130;  // Ctrl-C, as a shell reports SIGINT

struct DemoOptions {
  std::string new_image = "vllm/vllm-openai:v0.6.1";
  Duration available_timeout = std::chrono::minutes(5);
  Duration rollout_timeout = std::chrono::minutes(10);
  Duration poll_interval = std::chrono::milliseconds(150);
  std::string kubeconfig;     // named in the closing hints
  bool keep_running = false;  // only changes the closing hints: the caller keeps the cluster up
  ViewStyle view;             // `lws up` asks the terminal, if stdout is one
  // Waits `d` (the pause between polls). Returns false when the user asked to stop, so that
  // Ctrl-C ends the demo at once. `lws up` waits for SIGINT/SIGTERM here; tests advance a
  // virtual clock.
  std::function<bool(Duration)> wait;
};

// Runs the demo to its end. Progress and the summary go to `out`; returns kDemoDone,
// kDemoFailed (with the reason on `out`) or kDemoInterrupted. `clock` must be the cluster's;
// `client` writes as its field manager (`lws up` names it "lws-demo").
int RunDemo(const client::LocalClient& client, const Clock& clock, std::ostream& out,
            const DemoOptions& options);

// The demo's LeaderWorkerSet, byte for byte examples/lws/demo.yaml.
std::string_view DemoManifest();
// The demo's cluster, byte for byte examples/cluster/demo-cluster.yaml: the default cluster of
// `lws up --demo`, built in so that the demo runs from any directory.
std::string_view DemoClusterConfig();

}  // namespace lws::cli
