#include "cli/rollout.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <thread>

#include "api/codec.h"
#include "api/go_duration.h"
#include "api/rollout_annotations.h"
#include "cli/rollout_view.h"
#include "client/resource.h"

namespace lws::cli {

namespace {

// How often `status` looks again while it waits.
constexpr Duration kStatusInterval = std::chrono::seconds(1);

// A refusal of ours (a revision that does not exist, already paused, ...), as kubectl prints one.
int Refuse(std::ostream& err, const std::string& message) {
  err << "error: " << message << "\n";
  return 1;
}

// An error from the API server, as kubectl prints it; others (no reason) as "error: ...".
int Fail(std::ostream& err, const Status& status) {
  if (status.code() == Code::kNotFound || status.code() == Code::kConflict ||
      status.code() == Code::kForbidden || status.code() == Code::kInvalid ||
      status.code() == Code::kUnauthorized) {
    err << "Error from server (" << status.reason() << "): " << status.message() << "\n";
    return 1;
  }
  return Refuse(err, status.message());
}

Result<api::LeaderWorkerSet> GetLws(const client::Client& client, const std::string& ns,
                                    const std::string& name) {
  ASSIGN_OR_RETURN(store::ObjectPtr object, client.Get(client::kLeaderWorkerSets, ns, name));
  return api::Decode<api::LeaderWorkerSet>(object->document());
}

// The LWS's ControllerRevisions (labelled with its name and controlled by it).
Result<std::vector<api::ControllerRevision>> Revisions(const client::Client& client,
                                                       const api::LeaderWorkerSet& lws) {
  store::ListOptions list;
  list.namespace_ = lws.metadata.namespace_;
  ASSIGN_OR_RETURN(list.label_selector,
                   api::Selector::Parse(api::kSetNameLabel + "=" + lws.metadata.name));
  ASSIGN_OR_RETURN(store::ListResult items, client.List(client::kControllerRevisions, list));
  std::vector<api::ControllerRevision> revisions;
  for (const store::ObjectPtr& item : items.items) {
    ASSIGN_OR_RETURN(api::ControllerRevision r,
                     api::Decode<api::ControllerRevision>(item->document()));
    revisions.push_back(std::move(r));
  }
  return revisions;
}

int WatchStatus(const RolloutOptions& o, const client::Client& client, const std::string& ns,
                std::ostream& out, std::ostream& err, const Sleeper& sleep) {
  Result<Duration> timeout = api::ParseGoDuration(o.timeout);
  if (!timeout.ok()) {
    err << "error: --timeout: " << timeout.status().message() << "\n";
    return 2;
  }
  std::string last;
  for (Duration waited{0};; waited += kStatusInterval) {
    Result<api::LeaderWorkerSet> lws = GetLws(client, ns, o.name);
    if (!lws.ok()) return Fail(err, lws.status());
    RolloutStatusView view = ViewRolloutStatus(*lws);
    if (view.error) return Refuse(err, *view.error);
    if (view.message != last) out << view.message << "\n" << std::flush;
    last = view.message;
    if (view.done || !o.watch) return 0;
    if (*timeout > Duration{0} && waited >= *timeout) {
      return Refuse(err, "timed out waiting for the condition");
    }
    sleep(kStatusInterval);
  }
}

// The LWS and its ControllerRevisions.
struct LwsHistory {
  api::LeaderWorkerSet lws;
  std::vector<api::ControllerRevision> revisions;
  api::RevisionRefs Owned() const { return api::OwnedRevisions(api::RefsOf(revisions), lws); }
};
Result<LwsHistory> ReadHistory(const client::Client& client, const std::string& ns,
                               const std::string& name) {
  LwsHistory h;
  ASSIGN_OR_RETURN(h.lws, GetLws(client, ns, name));
  ASSIGN_OR_RETURN(h.revisions, Revisions(client, h.lws));
  return h;
}

int History(const RolloutOptions& o, const client::Client& client, const std::string& ns,
            std::ostream& out, std::ostream& err) {
  Result<LwsHistory> h = ReadHistory(client, ns, o.name);
  if (!h.ok()) return Fail(err, h.status());
  if (o.revision == 0) {
    out << FormatHistory(h->lws, h->Owned()) << std::flush;
    return 0;
  }
  Result<std::string> shown = FormatRevision(h->lws, h->Owned(), o.revision);
  if (!shown.ok()) return Refuse(err, shown.status().message());
  out << *shown << std::flush;
  return 0;
}

int Undo(const RolloutOptions& o, const client::Client& client, const std::string& ns,
         std::ostream& out, std::ostream& err) {
  Result<LwsHistory> h = ReadHistory(client, ns, o.name);
  if (!h.ok()) return Fail(err, h.status());
  Result<UndoPlan> plan = PlanUndo(h->lws, h->Owned(), o.to_revision);
  if (!plan.ok()) return Refuse(err, plan.status().message());
  if (plan->skipped) {
    out << LwsRef(o.name) << " skipped rollback (current template already matches revision "
        << plan->revision << ")\n";
    return 0;
  }
  // The update carries the resourceVersion read: a concurrent change is a Conflict, not lost.
  auto written = client.Update(client::kLeaderWorkerSets, api::Encode(*plan->restored));
  if (!written.ok()) return Fail(err, written.status());
  out << LwsRef(o.name) << " rolled back\n";
  return 0;
}

int Pause(const RolloutOptions& o, const client::Client& client, const std::string& ns,
          std::ostream& out, std::ostream& err, bool pause) {
  Result<api::LeaderWorkerSet> lws = GetLws(client, ns, o.name);
  if (!lws.ok()) return Fail(err, lws.status());
  Result<api::Json> patch = PausePatch(*lws, pause);
  if (!patch.ok()) return Refuse(err, patch.status().message());
  auto written =
      client.Patch(client::kLeaderWorkerSets, ns, o.name, client::PatchType::kMerge, *patch);
  if (!written.ok()) return Fail(err, written.status());
  out << LwsRef(o.name) << (pause ? " paused\n" : " resumed\n");
  return 0;
}

}  // namespace

int RunRollout(const RolloutOptions& o, const client::Client& client, const std::string& ns,
               std::ostream& out, std::ostream& err, const Sleeper& sleep) {
  if (o.verb == "status") return WatchStatus(o, client, ns, out, err, sleep);
  if (o.verb == "history") return History(o, client, ns, out, err);
  if (o.verb == "undo") return Undo(o, client, ns, out, err);
  if (o.verb == "pause" || o.verb == "resume")
    return Pause(o, client, ns, out, err, o.verb == "pause");
  err << "error: unknown rollout command \"" << o.verb << "\"\n";
  return 2;
}

namespace {

CLI::App* AddVerb(CLI::App* rollout, const std::shared_ptr<RolloutOptions>& options, int* exit_code,
                  const std::string& verb, const std::string& help) {
  CLI::App* cmd = rollout->add_subcommand(verb, help);
  cmd->add_option("name", options->name, "The LeaderWorkerSet")->required();
  AddKubeFlags(cmd, &options->kube, /*with_namespace=*/true);
  cmd->callback([options, exit_code, verb] {
    options->verb = verb;
    rest::RestClientOptions client_options;
    client_options.field_manager = "kubectl-lws";
    Result<KubeConnection> connection = ConnectTo(options->kube, client_options);
    if (!connection.ok()) {
      std::cerr << "error: " << connection.status().message() << "\n";
      *exit_code = 1;
      return;
    }
    *exit_code = RunRollout(*options, *connection->client, connection->namespace_, std::cout,
                            std::cerr, [](Duration d) { std::this_thread::sleep_for(d); });
  });
  return cmd;
}

}  // namespace

void AddRolloutCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<RolloutOptions>();
  CLI::App* rollout = app.add_subcommand(
      "rollout", "Manage the rollout of a LeaderWorkerSet, as kubectl rollout does a Deployment's");
  rollout->require_subcommand(1);
  CLI::App* status = AddVerb(rollout, options, exit_code, "status",
                             "Follow the rollout until it completes, fails or stalls");
  status->add_flag("-w,--watch", options->watch,
                   "Watch until it ends (default true; --watch=false looks once)");
  status->add_option("--timeout", options->timeout,
                     "How long to wait before giving up (a Go duration; 0s waits for ever)");
  CLI::App* history = AddVerb(rollout, options, exit_code, "history",
                              "The revisions of the LeaderWorkerSet's templates");
  history->add_option("--revision", options->revision, "Show the templates of this revision");
  AddVerb(rollout, options, exit_code, "pause", "Replace no further group (lws-cpp.dev/paused)");
  AddVerb(rollout, options, exit_code, "resume", "Resume a paused rollout");
  CLI::App* undo =
      AddVerb(rollout, options, exit_code, "undo", "Restore the templates of a previous revision");
  undo->add_option("--to-revision", options->to_revision,
                   "The revision to restore (default: the newest one not in force)");
}

}  // namespace lws::cli
