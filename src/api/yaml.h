// File: api/yaml.h
//
// YAML in and out, with the conversions kubectl and the API server make. kubectl reads manifests
// with sigs.k8s.io/yaml: goyaml.v2 parses YAML 1.1 into Go values, which are then converted to
// JSON. LoadYaml reproduces that result on top of yaml-cpp (which only tokenizes and builds the
// node graph; every scalar is resolved here, the way goyaml.v2 resolves it):
//
//   1. Plain (unquoted, untagged) scalars resolve like goyaml.v2: null/Null/NULL/~/empty are null;
//      y/Y/yes/Yes/YES/on/On/ON/true/True/TRUE are true and n/N/no/No/NO/off/Off/OFF/false/False/
//      FALSE are false (YAML 1.1 booleans, which goyaml.v2 keeps); integers by Go's
//      strconv.ParseInt base 0 after removing '_' (decimal, 0x hex, 0o and leading-0 octal, 0b
//      binary, optional sign); then floats (1.5, 1e3, .5, .inf, .nan). Anything else is a string,
//      timestamps included. Quoted and block scalars are always strings.
//   2. Numbers become what the API server's JSON decoder would see: a float with an integral value
//      that fits int64 becomes an integer (Go's json.Marshal writes 1.0 as 1); .inf and .nan are
//      rejected (Go's json.Marshal cannot write them).
//   3. Map keys become strings: 1 -> "1", true/yes/on -> "true", 1.5 -> "1.5" (float32 precision,
//   as
//      sigs.k8s.io/yaml formats it). A null or collection key is an error. Duplicate keys: the last
//      one wins (goyaml.v2 non-strict).
//   4. Anchors and aliases are expanded. Merge keys (`<<: *base`, `<<: [*a, *b]`) are applied as
//      goyaml.v2 does: merged entries are written in place, so keys after `<<` override them and
//      keys before it are overridden. Explicit tags !!str, !!int, !!float, !!bool, !!binary,
//      !!timestamp are honoured; unknown tags leave the scalar a string.
//   5. A document whose first character is '{' is parsed as JSON first (as kubectl does).
//
// Malformed input is a BadRequest Status "yaml: line L, column C: <reason>" (1-based). Nothing
// throws. Input must be UTF-8 without control characters (goyaml.v2 rejects them too).
//
// EmitYaml writes block-style YAML like `kubectl get -o yaml`: two-space indentation, list items
// at their parent's indentation, keys in goyaml.v2's natural order (apiVersion, kind, metadata,
// spec, status first at the top level), strings quoted exactly when LoadYaml would otherwise
// read something else, multi-line strings as literal blocks. LoadYaml(EmitYaml(j)) == j for
// every JSON value j with valid UTF-8 strings and finite numbers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::api {

struct YamlDocument {
  Json value;
  int line = 1;  // 1-based line of the document's first node
};

// All documents of a "---"-separated stream; empty and null documents are skipped, as kubectl
// skips them.
Result<std::vector<YamlDocument>> LoadYamlDocuments(std::string_view text);

// Exactly one document; BadRequest when there is none or more than one.
Result<Json> LoadYaml(std::string_view text);

// Block-style YAML for `value`, ending with a newline.
std::string EmitYaml(const Json& value);

}  // namespace lws::api
