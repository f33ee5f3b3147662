// File: cluster/pod_writes.h
//
// The writes that the plans of the pod-owning controllers (ReplicaSet, Job, DaemonSet) ask
// for, done as kube-controller-manager's controllers do them: a pod created with a
// SuccessfulCreate event, deleted with its uid as precondition and a SuccessfulDelete event (a
// pod already gone is what the deletion wanted), the owner's status written under its cached
// resourceVersion; a failure is a FailedCreate / FailedDelete Warning ("Error creating: ...")
// and the error, which the caller turns into a retry. Each write's answer is awaited by the
// owner's queue (OwnerController::Expect) before the owner is planned again.
#pragma once

#include "api/pod.h"
#include "client/event_recorder.h"
#include "client/local/local_client.h"
#include "cluster/owner_controller.h"

namespace lws::cluster {

class PodWrites {
 public:
  // `pods`: the queue's index of the pods; `owner_resource`: where the owner's status goes.
  // REQUIRES: the client, recorder and queue outlive this.
  PodWrites(const client::LocalClient* client, client::EventRecorder* recorder,
            OwnerController* queue, std::size_t pods, client::Resource owner_resource);

  Status Create(const store::StoredObject& owner, const api::Pod& pod) const;
  Status Delete(const store::StoredObject& owner, const std::string& name,
                const std::string& uid) const;
  Status WriteStatus(const store::StoredObject& owner, api::Json status) const;

 private:
  const client::LocalClient* const client_;
  client::EventRecorder* const recorder_;
  OwnerController* const queue_;
  const std::size_t pods_;
  const client::Resource owner_resource_;
};

}  // namespace lws::cluster
