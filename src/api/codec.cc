#include "api/codec.h"

#include <limits>

namespace lws::api {
namespace codec {

namespace {

// What to show of a value of the wrong type: scalars as they are, containers by kind only.
Json Shown(const Json& in) {
  if (in.is_object() || in.is_array()) return std::string(in.type_name());
  return in;
}

template <class Int>
void DecodeInt(const Json& in, Int& out, const Where& where, ErrorList& errs, const char* type) {
  if (in.is_number_integer() || in.is_number_unsigned()) {
    if (in.is_number_unsigned()) {
      auto u = in.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) {
        out = static_cast<Int>(u);
        return;
      }
    } else {
      auto v = in.get<std::int64_t>();
      if (v >= std::numeric_limits<Int>::min() && v <= std::numeric_limits<Int>::max()) {
        out = static_cast<Int>(v);
        return;
      }
    }
    errs.push_back(TypeInvalid(where.Path(), in, std::string("value out of range for ") + type));
    return;
  }
  errs.push_back(TypeInvalid(where.Path(), Shown(in), std::string("expected ") + type));
}

}  // namespace

FieldPath Where::Path() const {
  switch (step_) {
    case Step::kRoot:
      return *root_;
    case Step::kChild:
      return parent_->Path().Child(name_);
    case Step::kIndex:
      return parent_->Path().Index(index_);
    case Step::kKey:
      return parent_->Path().Key(name_);
  }
  return *root_;
}

bool IsZeroJson(const Json& in) {
  switch (in.type()) {
    case Json::value_t::null:
      return true;
    case Json::value_t::string:
      return in.get_ref<const std::string&>().empty();
    case Json::value_t::boolean:
      return !in.get<bool>();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return in == 0;
    case Json::value_t::array:
    case Json::value_t::object:
      return in.empty();
    default:
      return false;
  }
}

void DecodeValue(const Json& in, std::string& out, const Where& where, ErrorList& errs) {
  if (!in.is_string()) {
    errs.push_back(TypeInvalid(where.Path(), Shown(in), "expected string"));
    return;
  }
  out = in.get<std::string>();
}

void DecodeValue(const Json& in, std::int32_t& out, const Where& where, ErrorList& errs) {
  DecodeInt(in, out, where, errs, "int32");
}

void DecodeValue(const Json& in, std::int64_t& out, const Where& where, ErrorList& errs) {
  DecodeInt(in, out, where, errs, "int64");
}

void DecodeValue(const Json& in, bool& out, const Where& where, ErrorList& errs) {
  if (!in.is_boolean()) {
    errs.push_back(TypeInvalid(where.Path(), Shown(in), "expected boolean"));
    return;
  }
  out = in.get<bool>();
}

void DecodeValue(const Json& in, double& out, const Where& where, ErrorList& errs) {
  if (!in.is_number()) {
    errs.push_back(TypeInvalid(where.Path(), Shown(in), "expected number"));
    return;
  }
  out = in.get<double>();
}

void DecodeValue(const Json& in, Json& out, const Where&, ErrorList&) { out = in; }

void DecodeValue(const Json& in, Quantity& out, const Where& where, ErrorList& errs) {
  // Like resource.Quantity.UnmarshalJSON: a string or a bare number.
  std::string text;
  if (in.is_string()) {
    text = in.get<std::string>();
  } else if (in.is_number()) {
    text = in.dump();
  } else {
    errs.push_back(TypeInvalid(where.Path(), Shown(in), "expected a quantity string or number"));
    return;
  }
  auto parsed = Quantity::Parse(text);
  if (!parsed.ok()) {
    errs.push_back(Invalid(where.Path(), in, parsed.status().message()));
    return;
  }
  out = *parsed;
}

void DecodeValue(const Json& in, IntOrString& out, const Where& where, ErrorList& errs) {
  if (in.is_string()) {
    out = IntOrString::FromString(in.get<std::string>());
    return;
  }
  std::int32_t v = 0;
  std::size_t before = errs.size();
  DecodeInt(in, v, where, errs, "int32 or string");
  if (errs.size() == before) out = IntOrString::FromInt(v);
}

Json EncodeValue(const Quantity& v) { return v.String(); }

Json EncodeValue(const IntOrString& v) {
  if (v.is_string()) return v.string_value();
  return v.int_value();
}

}  // namespace codec

Status DecodeErrorStatus(const ErrorList& errs) {
  std::vector<FieldCause> causes;
  causes.reserve(errs.size());
  for (const auto& e : errs) causes.push_back({std::string(e.CauseType()), e.Body(), e.field});
  return Status(Code::kBadRequest, AggregateMessage(errs), std::move(causes));
}

}  // namespace lws::api
