// Fuzzes the CEL subset (api/cel.h) with arbitrary rule text against a small fixed object:
//   - compiling never crashes, and a rule that does not compile says why;
//   - evaluation stays within its step budget and gives the same result twice (no hidden
//     state), over untyped JSON and over the same object typed by a schema;
//   - as an x-kubernetes-validations rule, the text never makes the schema fail to compile:
//     it is either skipped (exactly when CelProgram::Compile refuses it) or evaluated.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/cel.h"
#include "api/schema.h"

namespace {

using lws::api::CelProgram;
using lws::api::CelResult;
using lws::api::Json;

const Json& Object() {
  static const Json object = Json::parse(R"({
    "name": "ds", "slices": 2, "labels": {"app": "web", "tier": "x"},
    "roles": [{"name": "prefill", "spec": {"replicas": 0}, "scaling": {"mode": "External"}},
              {"name": "decode", "spec": {"replicas": 2}}]})");
  return object;
}

Json Schema(const std::string& rule) {
  static const Json base = Json::parse(R"({"type": "object", "properties": {
    "name": {"type": "string"}, "slices": {"type": "integer"},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "roles": {"type": "array", "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      "items": {"type": "object", "properties": {"name": {"type": "string"},
        "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        "scaling": {"type": "object", "properties": {"mode": {"type": "string"}}}}}}}})");
  Json schema = base;
  schema["x-kubernetes-validations"] = Json::array({Json{{"rule", rule}}});
  return schema;
}

// Evaluates twice; aborts when the two runs differ or overspend. Returns the first result.
CelResult EvaluateTwice(const CelProgram& program, const Json& self) {
  std::int64_t first_steps = 20'000, second_steps = 20'000;
  CelResult first = program.Evaluate(self, nullptr, true, &first_steps);
  CelResult second = program.Evaluate(self, nullptr, true, &second_steps);
  if (first.kind != second.kind || first.value != second.value || first.error != second.error ||
      first_steps != second_steps || first_steps < -1) {
    std::abort();
  }
  if (first.kind != CelResult::Kind::kValue && first.error.empty()) std::abort();
  return first;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string rule(reinterpret_cast<const char*>(data), size);
  auto program = CelProgram::Compile(rule);
  if (!program.ok() && program.status().message().empty()) std::abort();
  bool cheap = false;
  if (program.ok()) {
    cheap = EvaluateTwice(*program, Object()).kind != CelResult::Kind::kOutOfBudget;
  }

  // A blank rule is left uncompiled, as upstream does: neither skipped nor evaluated.
  auto schema = lws::api::StructuralSchema::Compile(Schema(rule));
  if (!schema.ok()) std::abort();
  bool blank = rule.find_first_not_of(" \t\n\r\f\v") == std::string::npos;
  bool skipped = !schema->SkippedRules().empty();
  if (!blank && skipped == program.ok()) std::abort();
  // A rule that ran out of 20,000 steps untyped may take the whole per-call budget typed:
  // evaluating it through the schema would only slow the fuzzer down.
  if (cheap) (void)schema->Validate(Object());
  return 0;
}
