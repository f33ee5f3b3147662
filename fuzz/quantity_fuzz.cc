// Fuzzes Quantity::Parse. For every input that parses, the canonical form must parse back to the
// same value, and print the same text again. One upstream quirk is allowed for: a BinarySI amount
// that is not a multiple of 1024 prints as a bare integer ("2.9296875Ki" prints "3000"), which
// parses back as DecimalSI and then prints "3k"; from there the text is a fixed point.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto q = lws::api::Quantity::Parse(text);
  if (!q.ok()) return 0;
  const std::string canonical = q->String();
  auto again = lws::api::Quantity::Parse(canonical);
  if (!again.ok() || *again != *q) std::abort();
  if (again->String() != canonical) {
    const bool bare_binary = q->format() == lws::api::Quantity::Format::kBinarySI &&
                             canonical.find_first_not_of("-0123456789") == std::string::npos;
    if (!bare_binary) std::abort();
    auto third = lws::api::Quantity::Parse(again->String());
    if (!third.ok() || *third != *q || third->String() != again->String()) std::abort();
  }
  // Exercise the accessors and the saturating arithmetic on whatever parsed.
  (void)q->Value();
  (void)q->MilliValue();
  (void)q->AsDouble();
  const lws::api::Quantity sum = *q + *q;
  // Sums saturate rather than wrap: adding a positive amount never goes down.
  if (q->Sign() > 0 && sum < *q) std::abort();
  if (q->Sign() < 0 && sum > *q) std::abort();
  return 0;
}
