#include "cli/validate.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/disaggregatedset_admission.h"
#include "api/disaggregatedset_types.h"
#include "api/lws_admission.h"
#include "api/yaml.h"

namespace lws::cli {

namespace {

using api::Json;

struct Reporter {
  const ValidateOptions& options;
  std::ostream& err;
  std::vector<Json> accepted;
  bool failed = false;

  void Error(const std::string& where, const std::string& what) {
    err << where << ": " << what << "\n";
    failed = true;
  }
};

std::string ObjectLabel(const Json& doc) {
  std::string kind = doc.value("kind", std::string("<no kind>"));
  std::string name = "<no name>";
  if (doc.contains("metadata") && doc["metadata"].is_object()) {
    name = doc["metadata"].value("name", name);
  }
  return kind + "/" + name;
}

// What the admission path of one kind answers (api/lws_admission.h,
// api/disaggregatedset_admission.h).
struct Admitted {
  Json object;
  api::ErrorList errors;
  std::vector<std::string> warnings;
  std::vector<std::string> unknown_fields;
};

struct ServedKind {
  std::string_view group;
  std::string_view api_version;
  std::string_view kind;
  Admitted (*admit)(const Json&);
};

Admitted AdmitLws(const Json& doc) {
  api::LwsAdmission a = api::AdmitLeaderWorkerSet(doc);
  return {std::move(a.object), std::move(a.errors), {}, std::move(a.unknown_fields)};
}

Admitted AdmitDs(const Json& doc) {
  api::DsAdmission a = api::AdmitDisaggregatedSet(doc);
  return {std::move(a.object), std::move(a.errors), std::move(a.warnings),
          std::move(a.unknown_fields)};
}

constexpr ServedKind kServedKinds[] = {
    {api::kLwsGroup, api::kLwsApiVersion, api::kLwsKind, AdmitLws},
    {api::kDsGroup, api::kDsApiVersion, api::kDsKind, AdmitDs},
};

// The kind `doc` is (by kind and API group), or null when this command does not check it.
const ServedKind* FindServedKind(const Json& doc) {
  if (!doc.is_object()) return nullptr;
  for (const ServedKind& served : kServedKinds) {
    if (doc.value("kind", "") == served.kind &&
        doc.value("apiVersion", "").rfind(std::string(served.group) + "/", 0) == 0) {
      return &served;
    }
  }
  return nullptr;
}

void CheckObject(const ServedKind& served, Json doc, const std::string& file, Reporter& r) {
  if (doc.contains("metadata") && doc["metadata"].is_object() &&
      doc["metadata"].value("namespace", "").empty()) {
    doc["metadata"]["namespace"] = r.options.default_namespace;
  }
  const std::string where = file + ": " + ObjectLabel(doc);
  if (doc.value("apiVersion", "") != served.api_version) {
    r.Error(where, "apiVersion " + doc.value("apiVersion", std::string()) + " is not served; use " +
                       std::string(served.api_version));
    return;
  }
  Admitted result = served.admit(doc);
  bool valid = result.errors.empty();
  for (const auto& path : result.unknown_fields) {
    if (r.options.unknown_fields == "strict") {
      r.Error(where, path + ": unknown field (use --validate=warn to accept and drop it)");
      valid = false;
    } else if (r.options.unknown_fields == "warn") {
      r.err << where << ": warning: " << path << ": unknown field, dropped\n";
    }
  }
  for (const auto& e : result.errors) r.Error(where, e.Error());
  for (const auto& w : result.warnings) r.err << where << ": warning: " << w << "\n";
  if (valid) r.accepted.push_back(std::move(result.object));
}

void CheckDocument(const Json& doc, const std::string& where_doc, const std::string& file,
                   Reporter& r) {
  if (!doc.is_object()) {
    r.Error(where_doc, "document is not an object");
    return;
  }
  if (doc.value("kind", "") == "List" && doc.contains("items") && doc["items"].is_array()) {
    for (const auto& item : doc["items"]) CheckDocument(item, where_doc, file, r);
    return;
  }
  const ServedKind* served = FindServedKind(doc);
  if (served == nullptr) {
    r.err << where_doc << ": skipping " << ObjectLabel(doc)
          << " (not a LeaderWorkerSet or DisaggregatedSet)\n";
    return;
  }
  CheckObject(*served, doc, file, r);
}

bool ReadAll(const std::string& file, std::istream& in, std::string* text) {
  std::stringstream ss;
  if (file == "-") {
    ss << in.rdbuf();
  } else {
    std::ifstream f(file, std::ios::binary);
    if (!f) return false;
    ss << f.rdbuf();
  }
  *text = ss.str();
  return true;
}

void PrintAccepted(const std::vector<Json>& objects, const std::string& output, std::ostream& out) {
  if (output == "json") {
    if (objects.size() == 1) {
      out << objects[0].dump(4) << "\n";
    } else {
      Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", objects}};
      out << list.dump(4) << "\n";
    }
    return;
  }
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (i > 0) out << "---\n";
    out << api::EmitYaml(objects[i]);
  }
}

}  // namespace

int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  Reporter r{options, err, {}, false};
  for (const auto& file : options.files) {
    std::string text;
    if (!ReadAll(file, in, &text)) {
      r.Error(file, "cannot read file");
      continue;
    }
    auto docs = api::LoadYamlDocuments(text);
    if (!docs.ok()) {
      r.Error(file, docs.status().message());
      continue;
    }
    for (const auto& doc : *docs) {
      CheckDocument(doc.value, file + ":" + std::to_string(doc.line), file, r);
    }
  }
  PrintAccepted(r.accepted, options.output, out);
  return r.failed ? 1 : 0;
}

void AddValidateCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Default and validate LeaderWorkerSet and DisaggregatedSet manifests exactly as the API "
      "server would");
  cmd->add_option("files", options->files, "YAML or JSON files (multi-document); - for stdin")
      ->required();
  cmd->add_option("-o,--output", options->output, "Output format of the defaulted objects")
      ->check(CLI::IsMember({"yaml", "json"}));
  cmd->add_option("--validate", options->unknown_fields,
                  "Unknown fields: strict (error, kubectl's default), warn, or ignore")
      ->check(CLI::IsMember({"strict", "warn", "ignore"}));
  cmd->add_option("-n,--namespace", options->default_namespace,
                  "Namespace for objects that name none");
  cmd->callback(
      [options, exit_code] { *exit_code = RunValidate(*options, std::cin, std::cout, std::cerr); });
}

}  // namespace lws::cli
