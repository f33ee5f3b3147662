// File: client/rest/in_cluster.h
//
// The configuration a pod uses to reach its own cluster's API server, as client-go's
// rest.InClusterConfig builds it: the server from KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT (an IPv6 host is bracketed), the service account token from
// <dir>/token (kept as a token file, because the kubelet rotates projected tokens and a client
// must pick up the new one), the cluster CA from <dir>/ca.crt, and the namespace from
// POD_NAMESPACE or <dir>/namespace (kubectl's order), else "default".
#pragma once

#include <string>

#include "base/result.h"
#include "client/rest/rest_config.h"

namespace lws::rest {

// True when both KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are set.
bool InClusterEnvironment(const Environment& env);

// NotFound "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT must be defined" outside a pod; the token file must exist and be
// readable now (client-go reads it once up front too). Unlike client-go, an unreadable ca.crt is
// an error rather than a silent fallback to the system roots, which would never verify.
Result<RestConfig> InClusterConfig(const Environment& env,
                                   const std::string& service_account_dir = kServiceAccountDir);

}  // namespace lws::rest
