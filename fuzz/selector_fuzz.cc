// Fuzzes the label and field selector parsers. For every input that parses:
//   - a label selector's String() parses to a selector with the same String();
//   - a field selector's String() parses, and from there String() is a fixed point (upstream
//     orders terms by their raw text, so the first re-print may reorder them; see
//     field_selector.h), with the same matching on a map built from the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "api/field_selector.h"
#include "api/selector.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto labels = lws::api::Selector::Parse(text); labels.ok()) {
    auto again = lws::api::Selector::Parse(labels->String());
    if (!again.ok() || again->String() != labels->String() || !(*again == *labels)) std::abort();
    lws::api::StringMap sample;
    for (const auto& r : labels->requirements()) {
      sample[r.key()] = r.values().empty() ? "" : r.values().front();
    }
    if (again->Matches(sample) != labels->Matches(sample)) std::abort();
  }

  if (auto fields = lws::api::FieldSelector::Parse(text); fields.ok()) {
    auto second = lws::api::FieldSelector::Parse(fields->String());
    if (!second.ok()) std::abort();
    auto third = lws::api::FieldSelector::Parse(second->String());
    if (!third.ok() || third->String() != second->String()) std::abort();
    lws::api::StringMap sample;
    for (const auto& t : fields->terms()) sample[t.field] = t.value;
    if (second->Matches(sample) != fields->Matches(sample)) std::abort();
  }
  return 0;
}
