// File: controllers/group/headless_service.h
//
// The headless Services that give LWS pods their DNS names (spec section 9). Both kinds share one
// shape: labelled with the LWS name, clusterIP None, publishNotReadyAddresses true (a group's
// members must resolve each other before they are Ready), and a controller reference to their
// owner so that garbage collection removes them with it.
//
//   Shared (or nil networkConfig):  Service L    selector {name: L}                 owner: the LWS
//   UniquePerReplica:               Service L-g  selector {name: L, group-index: g} owner: pod L-g
//
// These are pure builders; creating a Service only when none of that name exists (never updating
// or deleting one) is the caller's business.
#pragma once

#include <string>

#include "api/lws_types.h"
#include "base/status.h"

namespace lws::controllers {

// A controller owner reference (controller and blockOwnerDeletion true), as controller-runtime's
// SetControllerReference writes it.
api::OwnerReference ControllerRefTo(std::string api_version, std::string kind, std::string name,
                                    std::string uid);

// The headless Service `name` in `ns`, labelled {name: lws_name}, selecting `selector`.
api::Service HeadlessService(const std::string& ns, const std::string& name,
                             const std::string& lws_name, api::StringMap selector,
                             api::OwnerReference owner);

// The shared Service named after the LWS, owned by it.
api::Service SharedHeadlessService(const api::LeaderWorkerSet& lws);

// The per-group Service's name: the leader pod's, or with groupIdentity Hash the leader's
// subdomain (which the pod webhook made its hostname, "<lws>-<key[:8]>").
std::string GroupServiceName(const api::LeaderWorkerSet& lws, const api::Pod& leader);

// The per-group Service of a UniquePerReplica LWS: named GroupServiceName, selecting the pods of
// its group, owned by the leader pod (so it goes away with the group).
api::Service GroupHeadlessService(const api::LeaderWorkerSet& lws, const api::Pod& leader);

}  // namespace lws::controllers
