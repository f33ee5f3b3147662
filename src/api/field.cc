#include "api/field.h"

#include <cstdio>

namespace lws::api {

FieldPath FieldPath::Child(std::string_view name) const {
  FieldPath out;
  out.path_ = path_.empty() ? std::string(name) : path_ + "." + std::string(name);
  return out;
}

FieldPath FieldPath::Index(std::size_t i) const {
  FieldPath out;
  out.path_ = path_ + "[" + std::to_string(i) + "]";
  return out;
}

FieldPath FieldPath::Key(std::string_view key) const {
  FieldPath out;
  out.path_ = path_ + "[" + std::string(key) + "]";
  return out;
}

namespace {

std::string_view TypeText(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::kNotFound:
      return "Not found";
    case FieldErrorType::kRequired:
      return "Required value";
    case FieldErrorType::kDuplicate:
      return "Duplicate value";
    case FieldErrorType::kInvalid:
      return "Invalid value";
    case FieldErrorType::kNotSupported:
      return "Unsupported value";
    case FieldErrorType::kForbidden:
      return "Forbidden";
    case FieldErrorType::kTooLong:
      return "Too long";
    case FieldErrorType::kTooMany:
      return "Too many";
    case FieldErrorType::kInternal:
      return "Internal error";
    case FieldErrorType::kTypeInvalid:
      return "Invalid value";
  }
  return "Invalid value";
}

// Go prints simple values with %v, strings with %q and anything else as a struct dump; JSON is
// our closest faithful rendering of the latter.
std::string GoValue(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string StringMember(const Json& object, std::string_view key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const Json& ChildOrNull(const Json& object, std::string_view key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string GoStringSlice(const std::vector<std::string>& values, EmptySlice empty) {
  if (values.empty() && empty == EmptySlice::kNil) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += GoQuote(values[i]);
  }
  return out + "}";
}

std::string FieldError::Body() const {
  std::string s;
  switch (type) {
    case FieldErrorType::kRequired:
    case FieldErrorType::kForbidden:
    case FieldErrorType::kTooLong:
    case FieldErrorType::kInternal:
      s = TypeText(type);
      break;
    default:
      s = std::string(TypeText(type)) + ": " +
          (rendered_value.empty() ? GoValue(bad_value) : rendered_value);
  }
  if (!detail.empty()) s += ": " + detail;
  return s;
}

std::string FieldError::Error() const { return field + ": " + Body(); }

std::string_view FieldError::CauseType() const {
  switch (type) {
    case FieldErrorType::kNotFound:
      return "FieldValueNotFound";
    case FieldErrorType::kRequired:
      return "FieldValueRequired";
    case FieldErrorType::kDuplicate:
      return "FieldValueDuplicate";
    case FieldErrorType::kInvalid:
      return "FieldValueInvalid";
    case FieldErrorType::kNotSupported:
      return "FieldValueNotSupported";
    case FieldErrorType::kForbidden:
      return "FieldValueForbidden";
    case FieldErrorType::kTooLong:
      return "FieldValueTooLong";
    case FieldErrorType::kTooMany:
      return "FieldValueTooMany";
    case FieldErrorType::kInternal:
      return "InternalError";
    case FieldErrorType::kTypeInvalid:
      return "FieldValueTypeInvalid";
  }
  return "FieldValueInvalid";
}

namespace {

FieldError MakeError(FieldErrorType type, const FieldPath& path, Json value, std::string detail) {
  FieldError e;
  e.type = type;
  e.field = path.String();
  e.bad_value = std::move(value);
  e.detail = std::move(detail);
  return e;
}

}  // namespace

FieldError Invalid(const FieldPath& path, Json value, std::string detail) {
  return MakeError(FieldErrorType::kInvalid, path, std::move(value), std::move(detail));
}

FieldError Required(const FieldPath& path, std::string detail) {
  return MakeError(FieldErrorType::kRequired, path, Json(), std::move(detail));
}

FieldError Forbidden(const FieldPath& path, std::string detail) {
  return MakeError(FieldErrorType::kForbidden, path, Json(), std::move(detail));
}

FieldError NotSupported(const FieldPath& path, Json value, const std::vector<std::string>& valid) {
  std::string detail;
  if (!valid.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < valid.size(); ++i) {
      if (i) detail += ", ";
      detail += GoQuote(valid[i]);
    }
  }
  return MakeError(FieldErrorType::kNotSupported, path, std::move(value), std::move(detail));
}

FieldError TooLong(const FieldPath& path, Json value, int max_length) {
  return MakeError(FieldErrorType::kTooLong, path, std::move(value),
                   "may not be more than " + std::to_string(max_length) + " bytes");
}

FieldError TypeInvalid(const FieldPath& path, Json value, std::string detail) {
  return MakeError(FieldErrorType::kTypeInvalid, path, std::move(value), std::move(detail));
}

FieldError InternalError(const FieldPath& path, std::string detail) {
  return MakeError(FieldErrorType::kInternal, path, Json(), std::move(detail));
}

std::string AggregateMessage(const ErrorList& errors) {
  if (errors.size() == 1) return errors[0].Error();
  std::string out = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i) out += ", ";
    out += errors[i].Error();
  }
  return out + "]";
}

Status InvalidStatus(std::string_view qualified_kind, std::string_view name,
                     const ErrorList& errors) {
  std::vector<FieldCause> causes;
  causes.reserve(errors.size());
  for (const auto& e : errors) causes.push_back({std::string(e.CauseType()), e.Body(), e.field});
  std::string message = std::string(qualified_kind) + " " + GoQuote(name) +
                        " is invalid: " + AggregateMessage(errors);
  return Status::Invalid(std::move(message), std::move(causes));
}

}  // namespace lws::api
