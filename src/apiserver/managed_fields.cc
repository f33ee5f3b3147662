// File: apiserver/managed_fields.cc
//
// The entries of metadata.managedFields: decoding, encoding, which ones a write starts from,
// and the fields no entry tracks. Recording a write is in managed_fields_record.cc.

#include "apiserver/managed_fields.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "api/go_json.h"
#include "apiserver/managed_fields_internal.h"

namespace lws::apiserver {

using api::StringMember;
namespace {

std::int64_t UnixSeconds(const std::string& time) {
  if (time.empty()) return 0;
  Result<Time> t = ParseRfc3339(time);
  if (!t.ok()) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

}  // namespace

Result<ManagedFieldsEntry> DecodeEntry(const Json& item, std::size_t index, bool with_fields) {
  if (!item.is_object()) {
    return Status::BadRequest("managed fields entry " + std::to_string(index) +
                              " is not an object");
  }
  ManagedFieldsEntry entry;
  entry.manager = StringMember(item, "manager");
  entry.operation = StringMember(item, "operation");
  entry.api_version = StringMember(item, "apiVersion");
  entry.time = StringMember(item, "time");
  entry.subresource = StringMember(item, "subresource");
  if (entry.operation != kOperationApply && entry.operation != kOperationUpdate) {
    return Status::BadRequest("operation must be `Apply` or `Update`");
  }
  if (entry.api_version.empty()) return Status::BadRequest("apiVersion must not be empty");
  std::string fields_type = StringMember(item, "fieldsType");
  if (fields_type.empty()) {
    return Status::BadRequest("missing fieldsType in managed fields entry " +
                              std::to_string(index));
  }
  if (fields_type != "FieldsV1") {
    return Status::BadRequest("invalid fieldsType " + api::GoQuote(fields_type) +
                              " in managed fields entry " + std::to_string(index));
  }
  if (!with_fields) return entry;
  auto fields = item.find("fieldsV1");
  Result<FieldSet> set = FieldSet::FromFieldsV1(fields == item.end() ? Json() : *fields);
  if (!set.ok()) {
    return Status::BadRequest("error decoding versioned set from entry " + std::to_string(index) +
                              ": " + set.status().message());
  }
  entry.fields = std::move(*set);
  return entry;
}

bool KeepsLiveEntries(const Json& updated, std::string_view subresource) {
  return !subresource.empty() || !ManagedFieldsOf(updated).is_array();
}

EntryOrder SortKey(const ManagedFieldsEntry& e) {
  return std::make_tuple(e.operation, UnixSeconds(e.time), e.manager, e.api_version, e.subresource);
}

std::string ManagedFieldsEntry::Identifier() const {
  std::string out = "{";
  auto add = [&out](const char* key, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ',';
    out += std::string("\"") + key + "\":";
    api::AppendGoJsonString(value, &out);
  };
  add("manager", manager);
  add("operation", operation);
  add("apiVersion", operation == kOperationApply ? "" : api_version);
  add("subresource", subresource);
  return out + "}";
}

std::string ManagedFieldsEntry::Describe() const {
  std::string out = api::GoQuote(manager);
  if (!subresource.empty()) out += " with subresource " + api::GoQuote(subresource);
  if (operation == kOperationUpdate) out += " using " + api_version;
  return out;
}

Json ManagedFieldsEntry::ToJson() const { return ToJson(fields.ToFieldsV1()); }

Json ManagedFieldsEntry::ToJson(Json fields_v1) const {
  Json out = Json::object();
  if (!manager.empty()) out["manager"] = manager;
  if (!operation.empty()) out["operation"] = operation;
  if (!api_version.empty()) out["apiVersion"] = api_version;
  if (!time.empty()) out["time"] = time;
  out["fieldsType"] = "FieldsV1";
  out["fieldsV1"] = std::move(fields_v1);
  if (!subresource.empty()) out["subresource"] = subresource;
  return out;
}

Result<ManagedFieldSets> DecodeManagedFields(const Json& managed_fields) {
  return DecodeManagedFields(LiveEntries(managed_fields));
}

Result<ManagedFieldSets> DecodeManagedFields(const LiveEntries& managed_fields) {
  ManagedFieldSets out;
  if (managed_fields.is_null()) return out;
  if (!managed_fields.is_array()) return Status::BadRequest("managedFields is not a list");
  for (std::size_t i = 0; i < managed_fields.size(); ++i) {
    ASSIGN_OR_RETURN(ManagedFieldsEntry entry, DecodeEntry(managed_fields[i], i));
    std::string id = entry.Identifier();
    out[id] = std::move(entry);  // a repeated identity keeps the last entry, as upstream's map
  }
  return out;
}

Json EncodeManagedFields(const ManagedFieldSets& managed) {
  std::vector<const ManagedFieldsEntry*> entries;
  for (const auto& [id, entry] : managed) entries.push_back(&entry);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto* a, const auto* b) { return SortKey(*a) < SortKey(*b); });
  Json out = Json::array();
  for (const ManagedFieldsEntry* e : entries) out.push_back(e->ToJson());
  return out;
}

const Json& ManagedFieldsOf(const Json& object) {
  return api::ChildOrNull(api::ChildOrNull(object, "metadata"), "managedFields");
}

void SetEncodedManagedFields(Json* object, Json entries) {
  store::PutManagedFieldsJson(object, std::move(entries));
}

void SetManagedFields(Json* object, const ManagedFieldSets& managed) {
  SetEncodedManagedFields(object, EncodeManagedFields(managed));
}

LiveEntries LiveEntries::Of(const store::StoredObject& version) {
  if (!version.managed_fields().empty()) return LiveEntries(version.managed_fields());
  return LiveEntries(ManagedFieldsOf(version.document()));
}

std::size_t LiveEntries::size() const {
  if (shared_ != nullptr) return shared_->size();
  return value_->is_array() ? value_->size() : 0;
}

const Json& LiveEntries::operator[](std::size_t i) const {
  return shared_ != nullptr ? *(*shared_)[i] : (*value_)[i];
}

store::ManagedEntry LiveEntries::Shared(std::size_t i) const {
  return shared_ != nullptr ? (*shared_)[i] : nullptr;
}

ManagedFieldSets ManagedFieldsForWrite(const Json& live, const Json& updated,
                                       std::string_view subresource) {
  return ManagedFieldsForWrite(LiveEntries(ManagedFieldsOf(live)), updated, subresource);
}

ManagedFieldSets ManagedFieldsForWrite(const LiveEntries& live, const Json& updated,
                                       std::string_view subresource) {
  auto from_live = [&live]() {
    Result<ManagedFieldSets> decoded = DecodeManagedFields(live);
    return decoded.ok() ? std::move(*decoded) : ManagedFieldSets();
  };
  if (KeepsLiveEntries(updated, subresource)) return from_live();
  const Json& sent = ManagedFieldsOf(updated);
  bool reset = sent.empty() || (sent.size() == 1 && sent[0].is_object() && sent[0].empty());
  if (reset) return {};
  Result<ManagedFieldSets> decoded = DecodeManagedFields(sent);
  if (decoded.ok() && !decoded->empty()) return std::move(*decoded);
  return from_live();
}

FieldSet IgnoredFields(const FieldManagerScope& scope, std::initializer_list<const Json*> objects) {
  FieldSet out;
  if (scope.subresource == "status") {
    const bool with_metadata = scope.status_write != api::StatusWrite::kOnlyStatus;
    for (const Json* object : objects) {
      if (object == nullptr || !object->is_object()) continue;
      for (const auto& [key, value] : object->items()) {
        if (key != "status" && !(with_metadata && key == "metadata")) {
          out.Insert({PathElement::Field(key)});
        }
      }
    }
    if (scope.status_write == api::StatusWrite::kAllButSpecAndOwners) {
      for (const char* meta : {"deletionTimestamp", "ownerReferences"}) {
        out.Insert({PathElement::Field("metadata"), PathElement::Field(meta)});
      }
    }
  } else if (scope.subresource.empty() && scope.status_subresource) {
    out.Insert({PathElement::Field("status")});
  }
  return out;
}

const FieldSet& StrippedFields() {
  static const FieldSet kStripped = [] {
    FieldSet set;
    for (const char* top : {"apiVersion", "kind", "metadata"}) {
      set.Insert({PathElement::Field(top)});
    }
    for (const char* meta : {"name", "namespace", "creationTimestamp", "selfLink", "uid",
                             "clusterName", "generation", "managedFields", "resourceVersion"}) {
      set.Insert({PathElement::Field("metadata"), PathElement::Field(meta)});
    }
    return set;
  }();
  return kStripped;
}

}  // namespace lws::apiserver
