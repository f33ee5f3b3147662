// Fuzzes the kubeconfig parser and what consumes its result: any input must parse or fail with a
// BadRequest Status naming the file, never crash. A config that parses must merge with itself
// without change (the first definition wins), and resolving its current context must not crash
// either (file references are cleared first, so the fuzzer cannot make it read /dev/zero). The
// same bytes are also fed to the ExecCredential decoder, the other parser of untrusted text here.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "client/rest/exec_plugin.h"
#include "client/rest/kubeconfig.h"
#include "client/rest/kubeconfig_loader.h"

namespace {

void ClearFileReferences(lws::rest::Kubeconfig& config) {
  for (auto& [name, cluster] : config.clusters) cluster.certificate_authority.clear();
  for (auto& [name, user] : config.users) {
    user.token_file.clear();
    user.client_certificate.clear();
    user.client_key.clear();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = lws::rest::ParseKubeconfig(text, "/fuzz/config");
  if (!config.ok()) {
    if (config.status().code() != lws::Code::kBadRequest) std::abort();
    if (config.status().message().rfind("kubeconfig /fuzz/config: ", 0) != 0) std::abort();
  } else {
    lws::rest::Kubeconfig merged = *config;
    lws::rest::MergeKubeconfig(merged, *config);
    if (!(merged == *config)) std::abort();
    if (config->clusters.size() != config->cluster_origin.size()) std::abort();
    ClearFileReferences(merged);
    (void)lws::rest::ResolveContext(merged, "");
  }
  lws::rest::ExecConfig exec;
  exec.api_version = lws::rest::kExecApiV1;
  (void)lws::rest::ParseExecCredential(text, exec);
  return 0;
}
