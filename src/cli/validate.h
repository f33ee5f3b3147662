// File: cli/validate.h
//
// `lws validate [-o yaml|json] [--validate strict|warn] FILE...`: runs every LeaderWorkerSet and
// DisaggregatedSet in the given manifests through the same admission path as the API server
// (lws_admission.h, disaggregatedset_admission.h) and prints the defaulted objects, or every
// error as `FILE: <Kind>/<name>: <path>: <msg>`. Webhook warnings go to the error stream.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lws::cli {

struct ValidateOptions {
  std::vector<std::string> files;         // "-" reads standard input
  std::string output = "yaml";            // yaml | json
  std::string unknown_fields = "strict";  // strict (error) | warn | ignore
  std::string default_namespace = "default";
};

// Exit code: 0 when every checked object is valid, 1 when any document is invalid or
// unreadable. Objects go to `out`, errors and notes to `err`.
int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err);

// Registers the subcommand on `app`; the callback stores its exit code in *exit_code.
void AddValidateCommand(CLI::App& app, int* exit_code);

}  // namespace lws::cli
