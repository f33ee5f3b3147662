#include "api/quantity.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace lws::api {
namespace {

using F = Quantity::Format;

}  // namespace

void PrintTo(const Quantity& q, std::ostream* os) { *os << q.String(); }

namespace {

Quantity Q(std::string_view text) {
  auto q = Quantity::Parse(text);
  EXPECT_TRUE(q.ok()) << text << ": " << q.status().ToString();
  return q.ok() ? *q : Quantity();
}

struct Canonical {
  std::string_view in;
  std::string_view out;
  F format;
};

// Upstream's TestQuantityParse, TestQuantityString (alternates), TestQuantityParseEmit and
// TestParseQuantity cases, each with the canonical text Quantity.String() prints for it.
const Canonical kCanonical[] = {
    {"0", "0", F::kDecimalSI},
    {"0n", "0", F::kDecimalSI},
    {"0u", "0", F::kDecimalSI},
    {"0m", "0", F::kDecimalSI},
    {"0k", "0", F::kDecimalSI},
    {"0M", "0", F::kDecimalSI},
    {"0T", "0", F::kDecimalSI},
    {"0Ki", "0", F::kBinarySI},
    {"0Mi", "0", F::kBinarySI},
    {"0Gi", "0", F::kBinarySI},
    {"0Ti", "0", F::kBinarySI},
    {"00", "0", F::kDecimalSI},
    {"1", "1", F::kDecimalSI},
    {"-1", "-1", F::kDecimalSI},
    {"1Ki", "1Ki", F::kBinarySI},
    {"8Ki", "8Ki", F::kBinarySI},
    {"2Ki", "2Ki", F::kBinarySI},
    {"7Mi", "7Mi", F::kBinarySI},
    {"100Mi", "100Mi", F::kBinarySI},
    {"6Gi", "6Gi", F::kBinarySI},
    {"5Ti", "5Ti", F::kBinarySI},
    {"4Pi", "4Pi", F::kBinarySI},
    {"3Ei", "3Ei", F::kBinarySI},
    {"10Ti", "10Ti", F::kBinarySI},
    {"100Ti", "100Ti", F::kBinarySI},
    {"1024Mi", "1Gi", F::kBinarySI},
    {"307200Ki", "300Mi", F::kBinarySI},
    {"1025024Mi", "1001Gi", F::kBinarySI},
    {"1024Gi", "1Ti", F::kBinarySI},
    {"1.5Gi", "1536Mi", F::kBinarySI},
    {"1.5Ki", "1536", F::kBinarySI},
    // Upstream's bare binary form: 3000 is not a multiple of 1024, so no suffix; "3000" itself
    // then parses as DecimalSI and prints "3k" (checked below).
    {"2.9296875Ki", "3000", F::kBinarySI},
    {"5n", "5n", F::kDecimalSI},
    {"4u", "4u", F::kDecimalSI},
    {"3m", "3m", F::kDecimalSI},
    {"9", "9", F::kDecimalSI},
    {"8k", "8k", F::kDecimalSI},
    {"50k", "50k", F::kDecimalSI},
    {"7M", "7M", F::kDecimalSI},
    {"6G", "6G", F::kDecimalSI},
    {"5T", "5T", F::kDecimalSI},
    {"40T", "40T", F::kDecimalSI},
    {"300T", "300T", F::kDecimalSI},
    {"2P", "2P", F::kDecimalSI},
    {"1E", "1E", F::kDecimalSI},
    {"12E", "12E", F::kDecimalSI},
    {"1000m", "1", F::kDecimalSI},
    {"1.5", "1500m", F::kDecimalSI},
    {"1E-3", "1e-3", F::kDecimalExponent},
    {"1e3", "1e3", F::kDecimalExponent},
    {"1E6", "1e6", F::kDecimalExponent},
    {"1e9", "1e9", F::kDecimalExponent},
    {"1E12", "1e12", F::kDecimalExponent},
    {"1e15", "1e15", F::kDecimalExponent},
    {"1E18", "1e18", F::kDecimalExponent},
    {"12e6", "12e6", F::kDecimalExponent},
    {"1e14", "100e12", F::kDecimalExponent},
    {"1e13", "10e12", F::kDecimalExponent},
    {"100.035k", "100035", F::kDecimalSI},
    {"0.001", "1m", F::kDecimalSI},
    {"0.0005k", "500m", F::kDecimalSI},
    {"0.005", "5m", F::kDecimalSI},
    {"0.05", "50m", F::kDecimalSI},
    {"0.5", "500m", F::kDecimalSI},
    {"0.00050k", "500m", F::kDecimalSI},
    {"0.00500", "5m", F::kDecimalSI},
    {"0.05000", "50m", F::kDecimalSI},
    {"0.50000", "500m", F::kDecimalSI},
    {"0.5e0", "500e-3", F::kDecimalExponent},
    {"0.5e-1", "50e-3", F::kDecimalExponent},
    {"0.5e-2", "5e-3", F::kDecimalExponent},
    {"10.035M", "10035k", F::kDecimalSI},
    {"1.2e3", "1200", F::kDecimalExponent},
    {"1.3E+6", "1300e3", F::kDecimalExponent},
    {"1.40e9", "1400e6", F::kDecimalExponent},
    {"1.53E12", "1530e9", F::kDecimalExponent},
    {"1.6e15", "1600e12", F::kDecimalExponent},
    {"1.7E18", "1700e15", F::kDecimalExponent},
    {"9.01", "9010m", F::kDecimalSI},
    {"8.1k", "8100", F::kDecimalSI},
    {"7.123456M", "7123456", F::kDecimalSI},
    {"6.987654321G", "6987654321", F::kDecimalSI},
    {"5.444T", "5444G", F::kDecimalSI},
    {"40.1T", "40100G", F::kDecimalSI},
    {"300.2T", "300200G", F::kDecimalSI},
    {"2.5P", "2500T", F::kDecimalSI},
    {"1.01E", "1010P", F::kDecimalSI},
    // Rounding up to the nano, away from zero.
    {"3.001n", "4n", F::kDecimalSI},
    {"1.1E-9", "2e-9", F::kDecimalExponent},
    {"0.0000000001", "1n", F::kDecimalSI},
    {"0.0000000005", "1n", F::kDecimalSI},
    {"0.00000000050", "1n", F::kDecimalSI},
    {"0.5e-9", "1e-9", F::kDecimalExponent},
    {"0.9n", "1n", F::kDecimalSI},
    {"0.1n", "1n", F::kDecimalSI},
    {"-0.1n", "-1n", F::kDecimalSI},
    {"0.00000012345", "124n", F::kDecimalSI},
    {"0.00000012354", "124n", F::kDecimalSI},
    // BinarySI is capped at 2^63-1, which is not a multiple of 1024.
    {"9Ei", "9223372036854775807", F::kBinarySI},
    {"9223372036854775807Ki", "9223372036854775807", F::kBinarySI},
    {"-9Ei", "-9223372036854775807", F::kBinarySI},
    // Fractional binary amounts print in decimal; below one they become DecimalSI.
    {"100.035Ki", "102435840m", F::kBinarySI},
    {"0.5Mi", "512Ki", F::kBinarySI},
    {"0.05Gi", "53687091200m", F::kBinarySI},
    {"0.025Ti", "27487790694400m", F::kBinarySI},
    {"0.000000000001Ki", "2n", F::kDecimalSI},
    {".001Ki", "1024m", F::kBinarySI},
    {".000001Ki", "1024u", F::kDecimalSI},
    {".000000001Ki", "1024n", F::kDecimalSI},
    {"-.001Ki", "-1024m", F::kBinarySI},
    {".001", "1m", F::kDecimalSI},
    {".0001k", "100m", F::kDecimalSI},
    {"1.", "1", F::kDecimalSI},
    {"1.G", "1G", F::kDecimalSI},
    {"5000m", "5", F::kDecimalSI},
    {"1000M", "1G", F::kDecimalSI},
    {"0.001T", "1G", F::kDecimalSI},
    {"1000u", "1m", F::kDecimalSI},
    {"1.08", "1080m", F::kDecimalSI},
    {"1080000000n", "1080m", F::kDecimalSI},
    {"1025", "1025", F::kDecimalSI},
    {"1234567M", "1234567M", F::kDecimalSI},
    {"80e-3", "80e-3", F::kDecimalExponent},
    {"300e6", "300e6", F::kDecimalExponent},
    {".001e12", "1e9", F::kDecimalExponent},
    {"0.001e0", "1e-3", F::kDecimalExponent},
    {"1000e-12", "1e-9", F::kDecimalExponent},
    // DecimalSI has no suffix past E: upstream falls back to exponent notation.
    {"1000E", "1e21", F::kDecimalSI},
    {"5000E", "5e21", F::kDecimalSI},
    {"1000000E", "1e24", F::kDecimalSI},
    // Amounts beyond int64 keep their value (TestParseQuantity).
    {"-999999999999999999", "-999999999999999999", F::kDecimalSI},
    {"999999999999999999.0", "999999999999999999", F::kDecimalSI},
    {"999999999999999999.1", "999999999999999999100m", F::kDecimalSI},
    {"9999999999999999999", "9999999999999999999", F::kDecimalSI},
    {"1000000000000000000", "1E", F::kDecimalSI},
    {"-1.0E", "-1E", F::kDecimalSI},
    {"9999999999999999999000m", "9999999999999999999", F::kDecimalSI},
    {"-9999999999999999999.1", "-9999999999999999999100m", F::kDecimalSI},
    {"1.0000000000000000001E", "1000000000000000000100m", F::kDecimalSI},
    {"1.000000000000000001E", "1000000000000000001", F::kDecimalSI},
    {"10E", "10E", F::kDecimalSI},
    {"10000000000000000000", "10E", F::kDecimalSI},
    {"-10000000000000000000000m", "-10E", F::kDecimalSI},
    {"10.0000000000000000001E", "10000000000000000000100m", F::kDecimalSI},
    {"-9223372036854775809", "-9223372036854775809", F::kDecimalSI},
    {"9223372036854775807.1", "9223372036854775807100m", F::kDecimalSI},
    {"9223372036854775808", "9223372036854775808", F::kDecimalSI},
    {"-9223372036854775808000m", "-9223372036854775808", F::kDecimalSI},
    // The scanner's leniency: a lone sign, a lone dot or a bare suffix is zero.
    {".", "0", F::kDecimalSI},
    {"-.", "0", F::kDecimalSI},
    {"-", "0", F::kDecimalSI},
    {"+0.0", "0", F::kDecimalSI},
    {"k", "0", F::kDecimalSI},
    {"Ki", "0", F::kBinarySI},
    {"e5", "0", F::kDecimalExponent},
    {"+1.5", "1500m", F::kDecimalSI},
    // The exponent is narrowed to int32 as upstream does: 2^32 becomes 0.
    {"1e4294967296", "1", F::kDecimalExponent},
};

TEST(QuantityTest, ParsesToUpstreamCanonicalForm) {
  for (const auto& c : kCanonical) {
    auto q = Quantity::Parse(c.in);
    ASSERT_TRUE(q.ok()) << c.in << ": " << q.status().ToString();
    EXPECT_EQ(q->String(), c.out) << c.in;
    EXPECT_EQ(FormatName(q->format()), FormatName(c.format)) << c.in;
    auto again = Quantity::Parse(c.out);
    ASSERT_TRUE(again.ok()) << c.out;
    EXPECT_EQ(*again, *q) << c.in;
  }
  EXPECT_EQ(Q("3000").String(), "3k");
}

TEST(QuantityTest, NegativeCanonicalFormsAddASign) {
  for (const auto& c : kCanonical) {
    if (c.in[0] == '-' || c.in[0] == '+' || c.out == "0") continue;
    auto q = Quantity::Parse("-" + std::string(c.in));
    ASSERT_TRUE(q.ok()) << c.in;
    EXPECT_EQ(q->String(), "-" + std::string(c.out)) << c.in;
    EXPECT_EQ(q->format(), c.format) << c.in;
  }
}

TEST(QuantityTest, RejectsWhatUpstreamRejects) {
  const std::string format_wrong =
      "quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const std::string suffix = "unable to parse quantity's suffix";
  const std::string numeric = "unable to parse numeric part of quantity";
  const std::pair<std::string_view, std::string> kRejected[] = {
      {"", format_wrong},
      {"1.1.M", format_wrong},
      {"1+1.0M", format_wrong},
      {"aoeu", format_wrong},
      {" 1", format_wrong},
      {"1 ", format_wrong},
      {"Non-Numeric", format_wrong},
      {"1Gi5x", format_wrong},
      {"0.1mi", suffix},
      {"0.1am", format_wrong},
      {".5i", suffix},
      {"1i", suffix},
      {"-3.01i", suffix},
      {"-3.01e-", suffix},
      {"1e", suffix},
      {"1Ki5", suffix},
      {"1e99999999999999999999", suffix},
      {"Ei", numeric},
      {"Pi", numeric},
      {"e-10", numeric},
      {"-.e-12", numeric},
      // Our own bound (10^29), far past anything upstream would hold in an int64.
      {"1e29", numeric},
      {"100000000000000000000000000000", numeric},
  };
  for (const auto& [text, message] : kRejected) {
    auto q = Quantity::Parse(text);
    ASSERT_FALSE(q.ok()) << text << " parsed as " << q->String();
    EXPECT_EQ(q.status().code(), Code::kBadRequest) << text;
    EXPECT_EQ(q.status().message(), message) << text;
  }
  EXPECT_TRUE(Quantity::Parse("99999999999999999999999999999").ok());
  EXPECT_TRUE(Quantity::Parse("99999999999999999999999999999Ei").ok());  // Capped, not an error.
}

TEST(QuantityTest, ValueAndMilliValueRoundAwayFromZero) {
  EXPECT_EQ(Q("1.5").Value(), 2);
  EXPECT_EQ(Q("-1.5").Value(), -2);
  EXPECT_EQ(Q("100m").Value(), 1);
  EXPECT_EQ(Q("-1n").Value(), -1);
  EXPECT_EQ(Q("1Ki").Value(), 1024);
  EXPECT_EQ(Q("1Mi").Value(), 1024 * 1024);
  EXPECT_EQ(Q("9Ei").Value(), INT64_MAX);
  EXPECT_EQ(Q("12E").Value(), INT64_MAX);  // Upstream overflows here; we saturate.
  EXPECT_EQ(Q("1.5m").MilliValue(), 2);
  EXPECT_EQ(Q("-0.5m").MilliValue(), -1);
  EXPECT_EQ(Q("1").MilliValue(), 1000);
  EXPECT_EQ(Q("1n").MilliValue(), 1);
  EXPECT_EQ(Quantity::FromMilli(1500).String(), "1500m");
  EXPECT_EQ(Quantity::FromMilli(1000).String(), "1");
  EXPECT_EQ(Quantity::FromMilli(1024, F::kBinarySI).String(), "1024m");  // TestMilliNewSet
  EXPECT_EQ(Quantity::FromMilli(1024 * 1024, F::kBinarySI).String(), "1048576m");
  EXPECT_EQ(Quantity::FromMilli(1000000, F::kDecimalExponent).String(), "1e3");
  EXPECT_EQ(Quantity::FromInt(1000).String(), "1k");  // TestNewSet
  EXPECT_EQ(Quantity::FromInt(1234000).String(), "1234k");
  EXPECT_EQ(Quantity::FromInt(1024, F::kBinarySI).String(), "1Ki");
  EXPECT_EQ(Quantity::FromInt(5, F::kBinarySI).String(), "5");
  EXPECT_EQ(Quantity::FromInt(1000000, F::kDecimalExponent).String(), "1e6");
  EXPECT_EQ(Quantity::FromInt(1025, F::kBinarySI).String(), "1025");
}

TEST(QuantityTest, CompareByValue) {
  EXPECT_EQ(Q("0").Cmp(Q("0")), 0);
  EXPECT_EQ(Q("100m").Cmp(Q("50m")), 1);
  EXPECT_EQ(Q("50m").Cmp(Q("100m")), -1);
  EXPECT_EQ(Q("10000T").Cmp(Q("100Gi")), 1);
  EXPECT_EQ(Q("1"), Q("1000m"));
  EXPECT_EQ(Q("1Ki"), Q("1024"));
  EXPECT_LT(Q("-1"), Q("-999m"));
  EXPECT_GT(Q("1E"), Q("999P"));
}

TEST(QuantityTest, AddAndSubKeepTheReceiversFormat) {
  // TestAdd / TestSub.
  EXPECT_EQ((Q("10") + Q("1e1")).String(), "20");
  Quantity a = Q("10") + Quantity::FromInt(1, F::kBinarySI);
  EXPECT_EQ(a.format(), F::kDecimalSI);
  EXPECT_EQ(a, Q("11"));
  Quantity b = Quantity::FromInt(10, F::kBinarySI) + Q("1");
  EXPECT_EQ(b.format(), F::kBinarySI);
  Quantity c = Quantity::FromInt(10, F::kBinarySI) - Q("1");
  EXPECT_EQ(c.format(), F::kBinarySI);
  EXPECT_EQ(c, Q("9"));
  EXPECT_EQ((Quantity() - Q("50")).String(), "-50");
  EXPECT_EQ((Q("50") - Quantity()).String(), "50");
  // TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix.
  for (std::string_view text : {"100m", "1Gi"}) {
    EXPECT_EQ((Q(text) + Q("0")).String(), text);
    EXPECT_EQ((Q("0") + Q(text)).String(), text);
    EXPECT_EQ((Q(text) - Q("0")).String(), text);
    EXPECT_EQ((Q("0") - Q(text)).String(), (-Q(text)).String());
  }
  EXPECT_EQ((-Q("9.01")).String(), "-9010m");  // TestQuantityNeg
  EXPECT_EQ((Q("1.5Gi") + Q("512Mi")).String(), "2Gi");
  EXPECT_EQ((Q("1Gi") + Q("1m")).String(), "1073741824001m");
  // 2^63 as BinarySI prints as 8Ei (TestZeroSubMostNegativeInheritsFormat).
  EXPECT_EQ((Q("8Ei") + Q("1")).String(), "8Ei");
}

TEST(QuantityTest, SumsSaturateAtTheBound) {
  Quantity big = Q("99999999999999999999999999999");
  Quantity sum = big + big;
  EXPECT_EQ(sum, big + Q("999999999n"));
  EXPECT_EQ((-big - big), -sum);
  EXPECT_EQ(Q(sum.String()), sum);
}

// Text of a quantity built from a random mantissa and a random suffix. Call inside a property.
std::string GenQuantityText() {
  static const std::vector<std::string> kSuffixes = {"",  "n", "u",  "m",  "k",  "M",  "G",  "T",
                                                     "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const auto digits = [](int max_count) {
    const int count = *rc::gen::inRange(0, max_count + 1);
    return *rc::gen::container<std::string>(count, rc::gen::inRange<char>('0', '9' + 1));
  };
  const int sign = *rc::gen::inRange(0, 3);
  std::string text = sign == 0 ? "" : (sign == 1 ? "-" : "+");
  const std::string whole = digits(9);
  const std::string fraction = digits(11);
  text += whole;
  if (!fraction.empty() || whole.empty()) text += "." + fraction;
  if (whole.empty() && fraction.empty()) text += "0";
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      return text + *rc::gen::elementOf(kSuffixes);
    case 1:
      return text + "e" + std::to_string(*rc::gen::inRange(-20, 21));
    default:
      return text + "E" + std::to_string(*rc::gen::inRange(-20, 21));
  }
}

// True for upstream's one non-idempotent canonical form: a BinarySI amount that is not a multiple
// of 1024 prints as a bare integer, which parses back as DecimalSI ("3000" then "3k").
bool IsBareBinary(const Quantity& q, const std::string& canonical) {
  return q.format() == F::kBinarySI &&
         canonical.find_first_not_of("-0123456789") == std::string::npos;
}

RC_GTEST_PROP(QuantityProperty, CanonicalFormIsIdempotent, ()) {
  const std::string text = GenQuantityText();
  auto q = Quantity::Parse(text);
  RC_ASSERT(q.ok());
  const std::string canonical = q->String();
  auto again = Quantity::Parse(canonical);
  RC_ASSERT(again.ok());
  RC_ASSERT(*again == *q);
  if (!IsBareBinary(*q, canonical)) RC_ASSERT(again->String() == canonical);
  const std::string second = again->String();
  auto third = Quantity::Parse(second);
  RC_ASSERT(third.ok());
  RC_ASSERT(*third == *q);
  RC_ASSERT(third->String() == second);
}

RC_GTEST_PROP(QuantityProperty, BinaryAmountsRoundTrip, ()) {
  // Fractions of binary suffixes, where the bare-integer form shows up.
  const std::int64_t units = *rc::gen::inRange<std::int64_t>(1, 1 << 20);
  const std::string fraction = "0." + std::to_string(units) + "Ki";
  const Quantity q = Q(fraction);
  const std::string canonical = q.String();
  RC_ASSERT(Q(canonical) == q);
  RC_ASSERT(Q(Q(canonical).String()).String() == Q(canonical).String());
}

RC_GTEST_PROP(QuantityProperty, OrderingAgreesWithAsDouble, ()) {
  const Quantity a = Q(GenQuantityText());
  const Quantity b = Q(GenQuantityText());
  if (a < b) RC_ASSERT(a.AsDouble() <= b.AsDouble());
  if (a.AsDouble() < b.AsDouble()) RC_ASSERT(a < b);
  RC_ASSERT((a == b) == (a.Cmp(b) == 0));
}

RC_GTEST_PROP(QuantityProperty, AddThenSubReturnsToZero, (const std::vector<std::int64_t>& milli)) {
  Quantity sum;
  for (std::int64_t m : milli) sum += Quantity::FromMilli(m);
  for (std::int64_t m : milli) sum -= Quantity::FromMilli(m);
  RC_ASSERT(sum.IsZero());
}

RC_GTEST_PROP(QuantityProperty, MilliValueRoundsAwayFromZero, (std::int64_t nanos_factor)) {
  // FromMilli(m) - 1n is just below m/1000; its MilliValue rounds back up to m in magnitude.
  const std::int64_t m = nanos_factor / 4;
  Quantity q = Quantity::FromMilli(m) - Q("1n");
  const std::int64_t expected = m > 0 ? m : m - 1;
  RC_ASSERT(q.MilliValue() == expected);
  RC_ASSERT(Quantity::FromMilli(m).Value() == (m / 1000 + (m % 1000 == 0 ? 0 : (m > 0 ? 1 : -1))));
}

}  // namespace
}  // namespace lws::api
