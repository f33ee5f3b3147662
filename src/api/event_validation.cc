// Event validation (event_validation.h), after upstream pkg/apis/core/validation/events.go.
#include "api/event_validation.h"

#include <fmt/format.h>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/codec.h"
#include "api/meta.h"
#include "api/name_validation.h"
#include "api/object_meta_validation.h"

namespace lws::api {
namespace {

using builtin::Member;

constexpr std::size_t kReportingInstanceLengthLimit = 128;
constexpr std::size_t kActionLengthLimit = 128;
constexpr std::size_t kReasonLengthLimit = 128;
constexpr std::size_t kNoteLengthLimit = 1024;

// A member that is absent, null, "" or 0: Go's zero value, which the typed decoder cannot tell
// from an absent field.
bool IsZero(const Json& object, std::string_view key) {
  const Json* value = Member(object, key);
  if (value == nullptr || value->is_null()) return true;
  if (value->is_string()) return value->get_ref<const std::string&>().empty();
  if (value->is_number()) return *value == 0;
  if (value->is_object()) return value->empty();
  return false;
}

std::string NestedString(const Json& object, std::string_view key, std::string_view inner) {
  const Json* outer = Member(object, key);
  return outer != nullptr && outer->is_object() ? StringMember(*outer, inner) : "";
}

std::string MetadataNamespace(const Json& event) {
  return NestedString(event, "metadata", "namespace");
}

void CheckLength(ErrorList* errs, const Json& event, std::string_view field, std::size_t limit) {
  if (StringMember(event, field).size() > limit) {
    errs->push_back(Invalid(FieldPath(std::string(field)), "",
                            fmt::format("can have at most {} characters", limit)));
  }
}

void RequireNonEmpty(ErrorList* errs, const Json& event, std::string_view field) {
  if (StringMember(event, field).empty())
    errs->push_back(Required(FieldPath(std::string(field)), ""));
}

// legacyValidateEvent.
ErrorList LegacyErrors(const Json& event) {
  ErrorList errs;
  const std::string ns = MetadataNamespace(event);
  const std::string involved_ns = NestedString(event, "involvedObject", "namespace");
  const FieldPath involved_path = FieldPath("involvedObject").Child("namespace");
  if (IsZero(event, "eventTime")) {
    bool matches = involved_ns.empty() ? (ns.empty() || ns == "default") : ns == involved_ns;
    if (!matches)
      errs.push_back(Invalid(involved_path, involved_ns, "does not match event.namespace"));
  } else {
    if (involved_ns.empty() && ns != "default" && ns != "kube-system") {
      errs.push_back(Invalid(involved_path, involved_ns, "does not match event.namespace"));
    }
    const std::string controller = StringMember(event, "reportingComponent");
    if (controller.empty()) errs.push_back(Required(FieldPath("reportingController"), ""));
    for (const std::string& msg : IsQualifiedName(controller)) {
      errs.push_back(Invalid(FieldPath("reportingController"), controller, msg));
    }
    RequireNonEmpty(&errs, event, "reportingInstance");
    CheckLength(&errs, event, "reportingInstance", kReportingInstanceLengthLimit);
    RequireNonEmpty(&errs, event, "action");
    CheckLength(&errs, event, "action", kActionLengthLimit);
    RequireNonEmpty(&errs, event, "reason");
    CheckLength(&errs, event, "reason", kReasonLengthLimit);
    CheckLength(&errs, event, "message", kNoteLengthLimit);
  }
  for (const std::string& msg : IsDNS1123Subdomain(ns)) {
    errs.push_back(Invalid(FieldPath("namespace"), ns, msg));
  }
  return errs;
}

// validateV1EventSeries.
ErrorList SeriesErrors(const Json& event) {
  ErrorList errs;
  const Json* series = Member(event, "series");
  if (series == nullptr || !series->is_object()) return errs;
  const Json* count = Member(*series, "count");
  if (count == nullptr || !count->is_number() || *count < 2) {
    errs.push_back(Invalid(FieldPath("series.count"), "", "should be at least 2"));
  }
  if (IsZero(*series, "lastObservedTime")) {
    errs.push_back(Required(FieldPath("series.lastObservedTime"), ""));
  }
  return errs;
}

ErrorList StrictCreateErrors(const Json& event) {
  ErrorList errs;
  ObjectMeta meta;
  const Json* metadata = Member(event, "metadata");
  if (metadata != nullptr && metadata->is_object()) {
    errs = DecodeInto(*metadata, &meta, FieldPath("metadata"));
  }
  AppendErrors(&errs, ValidateObjectMeta(meta, NameRule::kDNS1123Subdomain, FieldPath("metadata")));
  AppendErrors(&errs, SeriesErrors(event));
  if (IsZero(event, "eventTime")) errs.push_back(Required(FieldPath("eventTime"), ""));
  const std::string type = StringMember(event, "type");
  if (type != "Normal" && type != "Warning") {
    errs.push_back(Invalid(FieldPath("type"), "", "has invalid value: " + type));
  }
  for (std::string_view field : {"firstTimestamp", "lastTimestamp", "count"}) {
    if (!IsZero(event, field))
      errs.push_back(Invalid(FieldPath(std::string(field)), "", "needs to be unset"));
  }
  if (!NestedString(event, "source", "component").empty() ||
      !NestedString(event, "source", "host").empty()) {
    errs.push_back(Invalid(FieldPath("source"), "", "needs to be unset"));
  }
  return errs;
}

ErrorList StrictUpdateErrors(const Json& event, const Json& old) {
  ErrorList errs;
  auto member = [](const Json& object, std::string_view key) {
    const Json* value = Member(object, key);
    return value == nullptr ? Json() : *value;
  };
  if (member(event, "series") != member(old, "series")) AppendErrors(&errs, SeriesErrors(event));
  for (std::string_view field :
       {"involvedObject", "reason", "message", "source", "firstTimestamp", "lastTimestamp", "count",
        "type", "eventTime", "action", "related", "reportingComponent", "reportingInstance"}) {
    Json now = member(event, field);
    if (IsZero(event, field) && IsZero(old, field)) continue;
    if (now == member(old, field)) continue;
    std::string path = field == "reportingComponent" ? "reportingController" : std::string(field);
    errs.push_back(Invalid(FieldPath(path), now, "field is immutable"));
  }
  return errs;
}

}  // namespace

ErrorList ValidateEvent(const Json& event, const Json* old, EventApi api) {
  if (!event.is_object()) return {};
  ErrorList errs = LegacyErrors(event);
  if (api == EventApi::kCoreV1) return errs;
  AppendErrors(&errs, old == nullptr || !old->is_object() ? StrictCreateErrors(event)
                                                          : StrictUpdateErrors(event, *old));
  return errs;
}

}  // namespace lws::api
