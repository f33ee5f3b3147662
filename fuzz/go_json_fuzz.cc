// Fuzz target for api/go_json and api/go_json_syntax: any JSON document must serialise to valid
// JSON that reads back to the same document (numbers compared as float64), and any byte string
// must quote to a valid JSON string; Go's syntax checker must answer any input and accept both
// the quoted string and the serialised document (within Go's nesting limit).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/go_json.h"
#include "api/go_json_syntax.h"
#include "api/json_depth.h"

namespace {

// True iff `a` and `b` are the same document once every number is read as a float64, as Go does.
// Go cannot read numbers beyond float64; nlohmann reads them as infinities, written as null.
bool SameAsGo(const lws::api::Json& a, const lws::api::Json& b) {
  if (a.is_number_float() && !std::isfinite(a.get<double>())) return b.is_null();
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_object() || a.is_array()) {
    if (a.size() != b.size()) return false;
    auto ia = a.begin();
    auto ib = b.begin();
    for (; ia != a.end(); ++ia, ++ib) {
      if (a.is_object() && ia.key() != ib.key()) return false;
      if (!SameAsGo(*ia, *ib)) return false;
    }
    return true;
  }
  return a == b;
}

// True iff `doc` holds a float -0. Go prints it as "-0", which nlohmann reads back as the
// integer 0, so such documents are no fixed point here (they are for Go).
bool HasNegativeZero(const lws::api::Json& doc) {
  if (doc.is_number_float()) return doc.get<double>() == 0 && std::signbit(doc.get<double>());
  for (const auto& item : doc) {
    if ((item.is_object() || item.is_array() || item.is_number_float()) && HasNegativeZero(item)) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);

  std::string quoted;
  lws::api::AppendGoJsonString(input, &quoted);
  if (!lws::api::Json::parse(quoted, nullptr, false).is_string()) __builtin_trap();
  if (!lws::api::GoJsonSyntaxError(quoted).empty()) __builtin_trap();
  (void)lws::api::GoJsonSyntaxError(input);

  const lws::api::Json doc = lws::api::Json::parse(input, nullptr, false);
  if (doc.is_discarded()) return 0;
  const std::string out = lws::api::MarshalGoJson(doc);
  const lws::api::Json again = lws::api::Json::parse(out, nullptr, false);
  if (again.is_discarded() || !SameAsGo(doc, again)) __builtin_trap();
  if (lws::api::JsonTextDepthError(out).empty() && !lws::api::GoJsonSyntaxError(out).empty()) {
    __builtin_trap();
  }
  // Go's bytes are a fixed point: serialising what was read back changes nothing.
  if (!HasNegativeZero(doc) && lws::api::MarshalGoJson(again) != out) __builtin_trap();
  return 0;
}
