// Fuzzes the JSONPath parser and evaluator (apiserver/jsonpath.h), as printer columns use them.
// Input: a template, optionally followed by a newline and a JSON document to evaluate against
// (a fixed pod-like document otherwise). For every template that parses:
//   - evaluation with and without missing keys allowed never crashes, and when the strict
//     evaluation succeeds the lenient one gives the same results (only missing keys differ);
//   - every result prints with JsonPathText.
// The template is also tried wrapped in braces, the way printer columns are evaluated.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "apiserver/jsonpath.h"

namespace {

using lws::apiserver::Json;
using lws::apiserver::JsonPath;

const Json& DefaultDocument() {
  static const Json* const doc = new Json(Json::parse(R"({
    "metadata": {"name": "p", "labels": {"app": "x", "a.b/c": "d"}, "creationTimestamp": null},
    "spec": {"replicas": 3, "ratio": 0.25, "containers": [{"name": "c", "image": "i", "ports": [80, 443]}]},
    "status": {"ready": true, "conditions": [{"type": "Ready", "status": "True", "gen": 2},
                                             {"type": "Other", "status": "False"}], "text": "héllo"}})"));
  return *doc;
}

// Nesting depth of a JSON text, ignoring brackets inside strings; bounds the recursive copies
// and prints of the evaluator's results.
int Depth(std::string_view text) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

void Check(const std::string& text, const Json& doc) {
  auto path = JsonPath::Parse(text);
  if (!path.ok()) return;
  auto lenient = path->FindResults(doc, true);
  auto strict = path->FindResults(doc, false);
  if (strict.ok() && (!lenient.ok() || *lenient != *strict)) std::abort();
  if (lenient.ok()) {
    for (const auto& list : *lenient) {
      for (const Json& v : list) (void)lws::apiserver::JsonPathText(v);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string text(input.substr(0, newline));
  Json doc = DefaultDocument();
  if (newline != std::string_view::npos) {
    std::string_view body = input.substr(newline + 1);
    if (Depth(body) > 64) return 0;
    Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_discarded()) doc = std::move(parsed);
  }
  Check(text, doc);
  Check("{" + text + "}", doc);
  return 0;
}
