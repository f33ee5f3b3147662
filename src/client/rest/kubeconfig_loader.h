// File: client/rest/kubeconfig_loader.h
//
// Finds the configuration the way kubectl does and resolves one context into a RestConfig:
//
//   1. an explicit --kubeconfig path: that file alone, and it must exist;
//   2. else KUBECONFIG: a ':'-separated list, duplicates dropped, missing files skipped, the rest
//      merged (the first file to define a name wins, the first current-context wins);
//   3. else ~/.kube/config when it exists;
//   4. else the in-cluster service account (in_cluster.h).
//
// Resolving a context applies the --context override, follows its cluster and user, reads the CA,
// client certificate and key files, and rejects combinations kubectl rejects (two auth methods,
// a CA together with insecure-skip-tls-verify, a certificate without its key, ...).
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "client/rest/kubeconfig.h"
#include "client/rest/rest_config.h"

namespace lws::rest {

struct LoadOptions {
  std::string kubeconfig_path;  // --kubeconfig
  std::string context;          // --context
  std::string service_account_dir = kServiceAccountDir;
};

// The kubeconfig files to read, in precedence order (steps 1-3 above, before existence checks
// other than step 3's). Empty when only in-cluster configuration remains.
std::vector<std::string> KubeconfigPrecedence(const LoadOptions& options, const Environment& env);

// The merged kubeconfig of the existing files of KubeconfigPrecedence. NotFound when no file
// exists (the caller may then fall back to in-cluster); an unreadable or malformed file is an
// error.
Result<Kubeconfig> LoadMergedKubeconfig(const LoadOptions& options, const Environment& env);

// The RestConfig of `context` (current-context when empty).
Result<RestConfig> ResolveContext(const Kubeconfig& config, const std::string& context);

// Steps 1-4: the RestConfig a command or the controller should use.
Result<RestConfig> LoadRestConfig(const LoadOptions& options, const Environment& env);

}  // namespace lws::rest
