// The events.k8s.io/v1 <-> core/v1 Event conversion (event_versions.h).
#include "apiserver/event_versions.h"

#include <array>
#include <utility>

#include "api/field_selector.h"

namespace lws::apiserver {
namespace {

using api::Json;

struct Rename {
  std::string_view v1;
  std::string_view core;
};

// Upstream Convert_v1_Event_To_core_Event and its inverse.
constexpr std::array<Rename, 7> kRenames = {{
    {"note", "message"},
    {"regarding", "involvedObject"},
    {"reportingController", "reportingComponent"},
    {"deprecatedSource", "source"},
    {"deprecatedFirstTimestamp", "firstTimestamp"},
    {"deprecatedLastTimestamp", "lastTimestamp"},
    {"deprecatedCount", "count"},
}};

// Upstream AddFieldLabelConversionsForEvent: the only labels events.k8s.io/v1 selects on.
constexpr std::array<Rename, 13> kFieldLabels = {{
    {"reason", "reason"},
    {"regarding.kind", "involvedObject.kind"},
    {"regarding.namespace", "involvedObject.namespace"},
    {"regarding.name", "involvedObject.name"},
    {"regarding.uid", "involvedObject.uid"},
    {"regarding.apiVersion", "involvedObject.apiVersion"},
    {"regarding.resourceVersion", "involvedObject.resourceVersion"},
    {"regarding.fieldPath", "involvedObject.fieldPath"},
    {"reportingController", "reportingComponent"},
    {"source", "source"},
    {"type", "type"},
    {"metadata.namespace", "metadata.namespace"},
    {"metadata.name", "metadata.name"},
}};

// Moves each top-level member named `from` of a rename to its `to` name. Both forms are moved
// in one pass over the renames, so a document that (wrongly) carries both names keeps the one
// of the target version.
template <typename From, typename To>
Json RenameMembers(Json object, From from, To to) {
  if (!object.is_object()) return object;
  for (const Rename& r : kRenames) {
    auto it = object.find(std::string(from(r)));
    if (it == object.end()) continue;
    Json value = std::move(*it);
    object.erase(it);
    object[std::string(to(r))] = std::move(value);
  }
  return object;
}

constexpr auto V1Name = [](const Rename& r) { return r.v1; };
constexpr auto CoreName = [](const Rename& r) { return r.core; };

// "/note/x" -> "/message/x": a JSON pointer whose first token is a renamed v1 member.
std::string PointerToCore(const std::string& pointer) {
  if (pointer.empty() || pointer[0] != '/') return pointer;
  std::size_t end = pointer.find('/', 1);
  std::string first = pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  for (const Rename& r : kRenames) {
    if (first == r.v1) {
      return "/" + std::string(r.core) + (end == std::string::npos ? "" : pointer.substr(end));
    }
  }
  return pointer;
}

bool IsEventsKind(const Json& document, std::string_view kind) {
  return document.is_object() && api::StringMember(document, "kind") == kind;
}

// `events "x" not found` -> `events.events.k8s.io "x" not found`; `Event "x" is invalid` ->
// `Event.events.k8s.io "x" is invalid`: the names kube-apiserver gives the events.k8s.io
// resource and kind in its messages.
std::string MessageForEventsV1(std::string message) {
  const std::string group = "." + std::string(kEventsGroup);
  for (std::string_view prefix : {"events \"", "Event \""}) {
    if (message.rfind(prefix, 0) == 0) return message.insert(prefix.size() - 2, group);
  }
  const std::string conflict = "Operation cannot be fulfilled on events \"";
  if (message.rfind(conflict, 0) == 0) return message.insert(conflict.size() - 2, group);
  return message;
}

Json StatusForEventsV1(Json status) {
  if (status.contains("message") && status["message"].is_string()) {
    status["message"] = MessageForEventsV1(status["message"].get<std::string>());
  }
  auto details = status.find("details");
  if (details != status.end() && details->is_object()) {
    std::string kind = api::StringMember(*details, "kind");
    if (kind == "events" || kind == "Event") (*details)["group"] = kEventsGroup;
  }
  return status;
}

}  // namespace

Json EventsV1ToCoreEvent(Json event) {
  Json core = RenameMembers(std::move(event), V1Name, CoreName);
  if (core.is_object() && api::StringMember(core, "apiVersion") == kEventsV1ApiVersion) {
    core["apiVersion"] = "v1";
  }
  return core;
}

Json CoreEventToEventsV1(Json event) {
  Json v1 = RenameMembers(std::move(event), CoreName, V1Name);
  if (v1.is_object()) v1["apiVersion"] = kEventsV1ApiVersion;
  return v1;
}

Json EventsV1PatchToCore(PatchType type, Json patch) {
  if (type != PatchType::kJson) return EventsV1ToCoreEvent(std::move(patch));
  if (!patch.is_array()) return patch;
  for (Json& op : patch) {
    if (!op.is_object()) continue;
    for (const char* key : {"path", "from"}) {
      auto it = op.find(key);
      if (it != op.end() && it->is_string()) *it = PointerToCore(it->get<std::string>());
    }
  }
  return patch;
}

Result<std::string> EventsV1FieldSelectorToCore(std::string_view selector) {
  ASSIGN_OR_RETURN(api::FieldSelector parsed, api::FieldSelector::Parse(selector));
  std::string out;
  for (const api::FieldSelector::Term& term : parsed.terms()) {
    const Rename* found = nullptr;
    for (const Rename& label : kFieldLabels) {
      if (term.field == label.v1) found = &label;
    }
    if (found == nullptr) return Status::BadRequest("field label not supported: " + term.field);
    if (!out.empty()) out += ',';
    out += std::string(found->core);
    out += term.op == api::SelectionOperator::kNotEquals ? "!=" : "=";
    out += api::EscapeFieldValue(term.value);
  }
  return out;
}

Json CoreAnswerToEventsV1(Json answer) {
  if (!answer.is_object()) return answer;
  if (IsEventsKind(answer, "Event")) return CoreEventToEventsV1(std::move(answer));
  if (IsEventsKind(answer, "Status")) return StatusForEventsV1(std::move(answer));
  if (IsEventsKind(answer, "EventList")) {
    answer["apiVersion"] = kEventsV1ApiVersion;
    if (answer.contains("items") && answer["items"].is_array()) {
      for (Json& item : answer["items"]) item = CoreEventToEventsV1(std::move(item));
    }
    return answer;
  }
  if (IsEventsKind(answer, "Table")) {
    if (answer.contains("rows") && answer["rows"].is_array()) {
      for (Json& row : answer["rows"]) {
        if (row.is_object() && IsEventsKind(row.value("object", Json()), "Event")) {
          row["object"] = CoreEventToEventsV1(std::move(row["object"]));
        }
      }
    }
    return answer;
  }
  // A watch event: {"type": ..., "object": ...}.
  if (answer.contains("type") && answer.contains("object") && answer.size() == 2) {
    answer["object"] = CoreAnswerToEventsV1(std::move(answer["object"]));
  }
  return answer;
}

}  // namespace lws::apiserver
