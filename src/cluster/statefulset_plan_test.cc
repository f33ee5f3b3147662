// Step-by-step tests of the StatefulSet controller's pure pass (statefulset_plan.h): each step
// plans, applies the plan to the snapshot as an API server would, and the test then moves pods
// along (Ready, terminated) as kubelets would.
#include "cluster/statefulset_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace lws::cluster {
namespace {

using api::Json;
using std::chrono::seconds;
using Strings = std::vector<std::string>;

api::StatefulSet WebSet(int replicas, const std::string& policy = "OrderedReady") {
  Result<api::StatefulSet> set = api::Decode<api::StatefulSet>(Json::parse(R"({
    "metadata": {"name": "web", "namespace": "default", "uid": "u-web", "generation": 1},
    "spec": {
      "selector": {"matchLabels": {"app": "web"}},
      "serviceName": "web-svc",
      "template": {"metadata": {"labels": {"app": "web"}},
                   "spec": {"containers": [{"name": "nginx", "image": "nginx:1"}]}},
      "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}
    }})"));
  EXPECT_TRUE(set.ok());
  set->spec.replicas = replicas;
  set->spec.pod_management_policy = policy;
  return *set;
}

// A snapshot that plans and applies, plus the kubelet moves the tests make by hand.
class Cluster {
 public:
  explicit Cluster(api::StatefulSet set) {
    snap_.set = std::move(set);
    snap_.now = Time(seconds(1'700'000'000));
  }

  api::StatefulSet& set() { return snap_.set; }
  const StatefulSetSnapshot& snapshot() const { return snap_; }
  StatefulSetSnapshot& snapshot() { return snap_; }
  const api::StatefulSetStatus& status() const { return snap_.set.status; }
  StatefulSetPlan& last() { return last_; }

  // Plans, applies, and returns the pod and PVC writes as "create web-0", "delete web-3", ...
  Strings Step() {
    snap_.pods.clear();
    for (const api::Pod& pod : pods_) snap_.pods.push_back(std::make_shared<const api::Pod>(pod));
    Result<StatefulSetPlan> plan = PlanStatefulSet(snap_);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    if (!plan.ok()) return {};
    last_ = *plan;
    Strings writes;
    for (const StatefulSetAction& a : last_.actions) Apply(a, writes);
    return writes;
  }

  // Steps until no pod is written, making every new pod Ready and finishing every deletion.
  void Converge() {
    for (int i = 0; i < 50; ++i) {
      Strings writes = Step();
      FinishDeletions();
      bool pending = false;
      for (auto& pod : pods_) {
        if (!pod.IsRunningAndReady()) {
          MakeReady(pod.metadata.name);
          pending = true;
        }
      }
      if (writes.empty() && !pending) return;
    }
    ADD_FAILURE() << "no convergence";
  }

  api::Pod* Find(const std::string& name) {
    auto it = std::find_if(pods_.begin(), pods_.end(),
                           [&](const api::Pod& p) { return p.metadata.name == name; });
    return it == pods_.end() ? nullptr : &*it;
  }
  void MakeReady(const std::string& name) {
    api::Pod* pod = Find(name);
    ASSERT_NE(pod, nullptr) << name;
    pod->status.phase = "Running";
    api::PodCondition ready;
    ready.type = "Ready";
    ready.status = "True";
    ready.last_transition_time = FormatRfc3339(snap_.now);
    pod->status.conditions = {ready};
  }
  void SetPhase(const std::string& name, const std::string& phase) {
    Find(name)->status.phase = phase;
  }
  void Remove(const std::string& name) {
    std::erase_if(pods_, [&](const api::Pod& p) { return p.metadata.name == name; });
  }
  void FinishDeletions() {
    std::erase_if(pods_, [](const api::Pod& p) { return p.metadata.IsDeleting(); });
  }
  void Advance(Duration d) { snap_.now += d; }
  void Propose(ProposedRevision p) {
    snap_.proposed = std::make_shared<const ProposedRevision>(std::move(p));
  }
  void AddRevision(api::ControllerRevision r) {
    snap_.revisions.push_back(std::make_shared<const api::ControllerRevision>(std::move(r)));
  }
  // Changes the image: a new template, so a new update revision.
  void ChangeImage(const std::string& image) {
    snap_.set.spec.template_.spec.containers[0].image = image;
    ++snap_.set.metadata.generation;
  }
  std::string Revision(const std::string& pod) {
    return Find(pod)->metadata.Label(std::string(kControllerRevisionHashLabel));
  }

 private:
  void Apply(const StatefulSetAction& a, Strings& writes) {
    switch (a.kind) {
      case StatefulSetActionKind::kCreateRevision:
        snap_.revisions.push_back(std::make_shared<const api::ControllerRevision>(*a.revision));
        break;
      case StatefulSetActionKind::kCreatePvc:
        snap_.pvcs.push_back(*a.pvc);
        writes.push_back("pvc " + a.name);
        break;
      case StatefulSetActionKind::kCreatePod: {
        EXPECT_EQ(Find(a.name), nullptr) << "create of a live pod " << a.name;
        api::Pod pod = *a.pod;
        pod.metadata.uid = "u-" + a.name;
        pod.status.phase = "Pending";
        pods_.push_back(std::move(pod));
        writes.push_back("create " + a.name);
        break;
      }
      case StatefulSetActionKind::kDeletePod:
        EXPECT_EQ(Find(a.name)->metadata.uid, a.uid);
        Find(a.name)->metadata.deletion_timestamp = FormatRfc3339(snap_.now);
        writes.push_back("delete " + a.name);
        break;
      case StatefulSetActionKind::kUpdatePod:
        *Find(a.name) = *a.pod;
        writes.push_back("update " + a.name);
        break;
      case StatefulSetActionKind::kUpdateStatus:
        snap_.set.status = last_.status;
        break;
      case StatefulSetActionKind::kRequeueAfter:
        break;
    }
  }

  StatefulSetSnapshot snap_;
  std::vector<api::Pod> pods_;  // what the kubelet moves change; the snapshot shares copies
  StatefulSetPlan last_;
};

// The reconciler's kept revision stands in for the one rule 1 would make, and only when it was
// hashed with the set's collision count.
TEST(StatefulSetPlan, AProposedRevisionStandsInOnlyForItsCollisionCount) {
  Cluster plain(WebSet(2, "Parallel"));
  EXPECT_EQ(plain.Step(), Strings({"create web-0", "create web-1"}));
  const std::string rev = plain.status().update_revision;

  Cluster kept(WebSet(2, "Parallel"));
  kept.Propose(ProposeStatefulSetRevision(kept.set(), 0));
  EXPECT_EQ(kept.Step(), Strings({"create web-0", "create web-1"}));
  EXPECT_EQ(kept.status().update_revision, rev);
  ASSERT_EQ(kept.snapshot().revisions.size(), 1u);
  EXPECT_EQ(api::Encode(*kept.snapshot().revisions[0]),
            api::Encode(*plain.snapshot().revisions[0]));
  EXPECT_EQ(kept.snapshot().revisions[0]->revision, 1);

  ProposedRevision odd = ProposeStatefulSetRevision(kept.set(), 0);
  odd.revision.metadata.name = "web-odd";
  odd.revision.data["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:odd";
  Cluster other_count(WebSet(2, "Parallel"));
  odd.collision_count = 1;
  other_count.Propose(odd);
  other_count.Step();
  EXPECT_EQ(other_count.status().update_revision, rev);

  Cluster trusted(WebSet(2, "Parallel"));
  odd.collision_count = 0;
  trusted.Propose(odd);
  trusted.Step();
  EXPECT_EQ(trusted.status().update_revision, "web-odd");
  ASSERT_NE(trusted.Find("web-0"), nullptr);
  EXPECT_EQ(trusted.Find("web-0")->spec.containers[0].image, "nginx:odd");
}

TEST(StatefulSetPlan, OrderedReadyCreatesOnePodAtATime) {
  Cluster c(WebSet(3));
  EXPECT_EQ(c.Step(), Strings({"create web-0"}));
  ASSERT_EQ(c.snapshot().revisions.size(), 1u);
  std::string rev = c.snapshot().revisions[0]->metadata.name;
  EXPECT_EQ(c.status().update_revision, rev);
  EXPECT_EQ(c.status().current_revision, rev);
  EXPECT_EQ(c.Step(), Strings());  // web-0 is Pending
  EXPECT_EQ(c.status().replicas, 1);
  EXPECT_EQ(c.status().ready_replicas, 0);
  c.MakeReady("web-0");
  EXPECT_EQ(c.Step(), Strings({"create web-1"}));
  EXPECT_EQ(c.status().ready_replicas, 1);
  c.MakeReady("web-1");
  EXPECT_EQ(c.Step(), Strings({"create web-2"}));
  c.MakeReady("web-2");
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_EQ(c.status().replicas, 3);
  EXPECT_EQ(c.status().ready_replicas, 3);
  EXPECT_EQ(c.status().available_replicas, 3);
  EXPECT_EQ(c.status().current_replicas, 3);
  EXPECT_EQ(c.status().updated_replicas, 3);
  EXPECT_EQ(c.status().observed_generation, 1);
  EXPECT_EQ(c.snapshot().revisions.size(), 1u);
  // Nothing changes: no status write either.
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_TRUE(c.last().actions.empty());
}

TEST(StatefulSetPlan, PodIdentity) {
  Cluster c(WebSet(1));
  c.Step();
  const api::Pod& pod = *c.Find("web-0");
  EXPECT_EQ(pod.metadata.Label("statefulset.kubernetes.io/pod-name"), "web-0");
  EXPECT_EQ(pod.metadata.Label("apps.kubernetes.io/pod-index"), "0");
  EXPECT_EQ(pod.metadata.Label("app"), "web");
  EXPECT_EQ(pod.metadata.Label("controller-revision-hash"), c.status().update_revision);
  EXPECT_EQ(pod.spec.hostname, "web-0");
  EXPECT_EQ(pod.spec.subdomain, "web-svc");
  EXPECT_EQ(pod.metadata.namespace_, "default");
  ASSERT_EQ(pod.metadata.owner_references.size(), 1u);
  EXPECT_EQ(pod.metadata.owner_references[0].uid, "u-web");
  EXPECT_TRUE(pod.metadata.owner_references[0].IsController());
  EXPECT_TRUE(pod.metadata.owner_references[0].block_owner_deletion.value_or(false));
  EXPECT_EQ(pod.spec.containers[0].image, "nginx:1");
}

// Upstream identityMatches looks at the pod-name label; updateIdentity then also restores the
// pod-index label.
TEST(StatefulSetPlan, DriftedIdentityIsRelabelled) {
  Cluster c(WebSet(1));
  c.Converge();
  c.Find("web-0")->metadata.labels.erase("statefulset.kubernetes.io/pod-name");
  c.Find("web-0")->metadata.labels.erase("apps.kubernetes.io/pod-index");
  EXPECT_EQ(c.Step(), Strings({"update web-0"}));
  EXPECT_EQ(c.Find("web-0")->metadata.Label("statefulset.kubernetes.io/pod-name"), "web-0");
  EXPECT_EQ(c.Find("web-0")->metadata.Label("apps.kubernetes.io/pod-index"), "0");
  EXPECT_EQ(c.Step(), Strings());
}

// Issue 31 item 8: hostname and subdomain are set when a pod is made (upstream initIdentity) and
// are no part of identityMatches: a pod webhook's subdomain (LWS UniquePerReplica) is kept, and
// no update is planned that the API server would refuse (pod spec is immutable).
TEST(StatefulSetPlan, WebhookSubdomainAndHostnameAreKept) {
  Cluster c(WebSet(1));
  c.Converge();
  c.Find("web-0")->spec.subdomain = "web-0-group";
  c.Find("web-0")->spec.hostname = "other";
  c.Find("web-0")->metadata.labels.erase("apps.kubernetes.io/pod-index");
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_EQ(c.Find("web-0")->spec.subdomain, "web-0-group");
}

TEST(StatefulSetPlan, StartOrdinal) {
  api::StatefulSet set = WebSet(2, "Parallel");
  set.spec.ordinals = api::StatefulSetOrdinals{.start = 5};
  Cluster c(set);
  EXPECT_EQ(c.Step(), Strings({"create web-5", "create web-6"}));
}

TEST(StatefulSetPlan, ParallelCreatesAllAtOnce) {
  Cluster c(WebSet(3, "Parallel"));
  EXPECT_EQ(c.Step(), Strings({"create web-0", "create web-1", "create web-2"}));
  EXPECT_EQ(c.Step(), Strings());
}

TEST(StatefulSetPlan, OrderedReadyScalesDownFromHighestOneAtATime) {
  Cluster c(WebSet(3));
  c.Converge();
  c.set().spec.replicas = 1;
  EXPECT_EQ(c.Step(), Strings({"delete web-2"}));
  EXPECT_EQ(c.Step(), Strings());  // web-2 terminating
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings({"delete web-1"}));
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_EQ(c.status().replicas, 1);
}

TEST(StatefulSetPlan, OrderedReadyScaleDownTakesAnUnhealthyPodOnlyWhenItIsTheFirstUnhealthy) {
  Cluster c(WebSet(3));
  c.Converge();
  c.set().spec.replicas = 1;
  c.Find("web-1")->status.conditions[0].status = "False";
  c.Find("web-2")->status.conditions[0].status = "False";
  // web-2 is unhealthy and web-1 is the first unhealthy pod: wait (upstream blocks the same way).
  EXPECT_EQ(c.Step(), Strings());
  c.MakeReady("web-1");
  EXPECT_EQ(c.Step(), Strings({"delete web-2"}));
}

TEST(StatefulSetPlan, ParallelScalesDownAllAtOnce) {
  Cluster c(WebSet(3, "Parallel"));
  c.Converge();
  c.set().spec.replicas = 1;
  EXPECT_EQ(c.Step(), Strings({"delete web-2", "delete web-1"}));
}

TEST(StatefulSetPlan, RollingUpdateWithPartitionStopsAtPartition) {
  api::StatefulSet set = WebSet(4);
  set.spec.update_strategy.rolling_update->partition = 2;
  set.spec.update_strategy.rolling_update->max_unavailable = api::IntOrString::FromInt(1);
  Cluster c(set);
  c.Converge();
  std::string old_rev = c.status().current_revision;
  c.ChangeImage("nginx:2");
  EXPECT_EQ(c.Step(), Strings({"delete web-3"}));
  std::string new_rev = c.status().update_revision;
  EXPECT_NE(new_rev, old_rev);
  EXPECT_EQ(c.status().current_revision, old_rev);
  EXPECT_EQ(c.snapshot().revisions.size(), 2u);
  EXPECT_EQ(c.Step(), Strings());  // waits for web-3 to terminate
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings({"create web-3"}));
  EXPECT_EQ(c.Revision("web-3"), new_rev);
  EXPECT_EQ(c.Find("web-3")->spec.containers[0].image, "nginx:2");
  EXPECT_EQ(c.Step(), Strings());  // web-3 not ready: maxUnavailable 1 is used up
  c.MakeReady("web-3");
  EXPECT_EQ(c.Step(), Strings({"delete web-2"}));
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings({"create web-2"}));
  c.MakeReady("web-2");
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_EQ(c.Revision("web-0"), old_rev);
  EXPECT_EQ(c.Revision("web-1"), old_rev);
  EXPECT_EQ(c.status().updated_replicas, 2);
  EXPECT_EQ(c.status().current_replicas, 2);
  EXPECT_EQ(c.status().current_revision, old_rev);
  EXPECT_EQ(c.status().observed_generation, 2);
  // A pod below the partition that is deleted comes back on the current revision.
  c.Remove("web-0");
  EXPECT_EQ(c.Step(), Strings({"create web-0"}));
  EXPECT_EQ(c.Revision("web-0"), old_rev);
  EXPECT_EQ(c.Find("web-0")->spec.containers[0].image, "nginx:1");
}

TEST(StatefulSetPlan, RollingUpdateMaxUnavailableTwo) {
  api::StatefulSet set = WebSet(4);
  set.spec.update_strategy.rolling_update->max_unavailable = api::IntOrString::FromInt(2);
  Cluster c(set);
  c.Converge();
  c.ChangeImage("nginx:2");
  EXPECT_EQ(c.Step(), Strings({"delete web-3", "delete web-2"}));
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings({"create web-2"}));  // OrderedReady recreates in order
  c.MakeReady("web-2");
  EXPECT_EQ(c.Step(), Strings({"create web-3"}));
  c.MakeReady("web-3");
  EXPECT_EQ(c.Step(), Strings({"delete web-1", "delete web-0"}));
  c.FinishDeletions();
  c.Converge();
  EXPECT_EQ(c.status().updated_replicas, 4);
  EXPECT_EQ(c.status().current_replicas, 4);
  EXPECT_EQ(c.status().current_revision, c.status().update_revision);
}

TEST(StatefulSetPlan, RollingUpdateCountsPodsAlreadyUnavailable) {
  api::StatefulSet set = WebSet(4, "Parallel");
  set.spec.update_strategy.rolling_update->max_unavailable = api::IntOrString::FromString("50%");
  Cluster c(set);
  c.Converge();
  c.ChangeImage("nginx:2");
  c.Find("web-0")->status.conditions[0].status = "False";
  // 50% of 4 is 2; web-0 is already unavailable, so only one more may go.
  EXPECT_EQ(c.Step(), Strings({"delete web-3"}));
}

TEST(StatefulSetPlan, OnDeleteReplacesOnlyDeletedPods) {
  api::StatefulSet set = WebSet(2);
  set.spec.update_strategy = api::StatefulSetUpdateStrategy{.type = "OnDelete"};
  Cluster c(set);
  c.Converge();
  std::string old_rev = c.status().current_revision;
  c.ChangeImage("nginx:2");
  EXPECT_EQ(c.Step(), Strings());
  c.Remove("web-1");
  EXPECT_EQ(c.Step(), Strings({"create web-1"}));
  EXPECT_EQ(c.Revision("web-1"), c.status().update_revision);
  EXPECT_EQ(c.Revision("web-0"), old_rev);
  c.MakeReady("web-1");
  c.Step();
  EXPECT_EQ(c.status().updated_replicas, 1);
  EXPECT_EQ(c.status().current_replicas, 1);
  EXPECT_EQ(c.status().current_revision, old_rev);
}

TEST(StatefulSetPlan, FailedPodIsDeletedThenRecreated) {
  Cluster c(WebSet(2));
  c.Converge();
  c.SetPhase("web-1", "Failed");
  EXPECT_EQ(c.Step(), Strings({"delete web-1"}));
  EXPECT_EQ(c.last().actions[0].reason, "recreate Failed");
  c.FinishDeletions();
  EXPECT_EQ(c.Step(), Strings({"create web-1"}));
}

TEST(StatefulSetPlan, MinReadySecondsGatesAvailabilityAndRequeues) {
  api::StatefulSet set = WebSet(2);
  set.spec.min_ready_seconds = 10;
  Cluster c(set);
  c.Step();
  c.MakeReady("web-0");
  EXPECT_EQ(c.Step(), Strings());  // ready, not yet available
  EXPECT_EQ(c.status().ready_replicas, 1);
  EXPECT_EQ(c.status().available_replicas, 0);
  ASSERT_FALSE(c.last().actions.empty());
  const StatefulSetAction& requeue = c.last().actions.back();
  EXPECT_EQ(requeue.kind, StatefulSetActionKind::kRequeueAfter);
  EXPECT_EQ(requeue.requeue_after, Duration(seconds(11)));
  c.Advance(seconds(4));
  c.Step();
  EXPECT_EQ(c.last().actions.back().requeue_after, Duration(seconds(7)));
  c.Advance(seconds(7));
  EXPECT_EQ(c.Step(), Strings({"create web-1"}));
  EXPECT_EQ(c.status().available_replicas, 1);
}

TEST(StatefulSetPlan, VolumeClaimTemplatesCreatePvcsBeforePods) {
  api::StatefulSet set = WebSet(1);
  api::PersistentVolumeClaim claim;
  claim.metadata.name = "data";
  set.spec.volume_claim_templates.push_back(claim);
  set.spec.persistent_volume_claim_retention_policy =
      api::PersistentVolumeClaimRetentionPolicy{.when_deleted = "Delete", .when_scaled = "Retain"};
  Cluster c(set);
  EXPECT_EQ(c.Step(), Strings({"pvc data-web-0", "create web-0"}));
  const api::PersistentVolumeClaim& pvc = c.snapshot().pvcs[0];
  EXPECT_EQ(pvc.metadata.Label("app"), "web");
  ASSERT_EQ(pvc.metadata.owner_references.size(), 1u);
  EXPECT_EQ(pvc.metadata.owner_references[0].uid, "u-web");
  Json volumes = c.Find("web-0")->spec.rest["volumes"];
  EXPECT_EQ(volumes,
            Json::parse(R"([{"name":"data","persistentVolumeClaim":{"claimName":"data-web-0"}}])"));
  // Recreating the pod reuses the claim.
  c.Remove("web-0");
  EXPECT_EQ(c.Step(), Strings({"create web-0"}));
  // A pending pod's deleted claim is made again (upstream createMissingPersistentVolumeClaims);
  // the pod itself is not updated.
  c.snapshot().pvcs.clear();
  EXPECT_EQ(c.Step(), Strings({"pvc data-web-0"}));
  c.MakeReady("web-0");
  c.snapshot().pvcs.clear();
  EXPECT_EQ(c.Step(), Strings());
}

TEST(StatefulSetPlan, RevisionNameCollisionBumpsCollisionCount) {
  api::StatefulSet set = WebSet(1);
  api::ControllerRevision squatter = NewStatefulSetRevision(set, 1, 0);
  squatter.data = Json{{"spec", {{"template", {{"other", true}}}}}};
  Cluster c(set);
  c.set().status.collision_count = 0;
  c.AddRevision(squatter);
  c.Step();
  EXPECT_EQ(c.status().collision_count, 1);
  EXPECT_NE(c.status().update_revision, squatter.metadata.name);
  EXPECT_EQ(c.snapshot().revisions.size(), 2u);
  EXPECT_EQ(c.snapshot().revisions[1]->revision, 2);
}

TEST(StatefulSetPlan, RevisionHashIsDeterministicAndFollowsTheTemplate) {
  api::StatefulSet a = WebSet(1);
  api::StatefulSet b = WebSet(5, "Parallel");  // replicas and policy are not in the template
  EXPECT_EQ(NewStatefulSetRevision(a, 1, 0).metadata.name,
            NewStatefulSetRevision(b, 7, 0).metadata.name);
  b.spec.template_.spec.containers[0].image = "nginx:2";
  EXPECT_NE(NewStatefulSetRevision(a, 1, 0).metadata.name,
            NewStatefulSetRevision(b, 1, 0).metadata.name);
  EXPECT_NE(NewStatefulSetRevision(a, 1, 0).metadata.name,
            NewStatefulSetRevision(a, 1, 1).metadata.name);
}

TEST(StatefulSetPlan, DeletingSetOnlyGetsStatus) {
  Cluster c(WebSet(2));
  c.set().metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_EQ(c.Step(), Strings());
  EXPECT_EQ(c.status().update_revision, c.snapshot().revisions[0]->metadata.name);
}

TEST(StatefulSetPodOrdinal, ParsesOnlyOwnNames) {
  api::StatefulSet set = WebSet(1);
  struct Case {
    std::string name;
    int want;
  } cases[] = {{"web-0", 0},  {"web-12", 12}, {"web-", -1},    {"web-01", -1},
               {"web-x", -1}, {"web", -1},    {"webby-1", -1}, {"web-1-2", -1}};
  for (const Case& c : cases) EXPECT_EQ(StatefulSetPodOrdinal(set, c.name), c.want) << c.name;
}

}  // namespace
}  // namespace lws::cluster
