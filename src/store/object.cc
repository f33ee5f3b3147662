#include "store/object.h"

#include <algorithm>

namespace lws::store {

std::string Serialize(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

api::StringMap LabelsOf(const Json& object) {
  api::StringMap labels;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return labels;
  if (auto it = meta->find("labels"); it != meta->end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      if (value.is_string()) labels.emplace(key, value.get<std::string>());
    }
  }
  return labels;
}

Json CopyWithoutManagedFields(const Json& object) {
  if (!object.is_object()) return object;
  Json out = Json::object();
  for (const auto& [key, value] : object.items()) {
    if (key != "metadata" || !value.is_object()) {
      out[key] = value;
      continue;
    }
    Json& meta = out[key] = Json::object();
    for (const auto& [field, item] : value.items()) {
      if (field != "managedFields") meta[field] = item;
    }
  }
  return out;
}

namespace {

// Frees `json`'s members depth first: each container is emptied after its children, so nothing
// is moved on the way. Nodes deeper than kMaxDepth are left to nlohmann's own destructor, which
// does not recurse: hostile input may nest arbitrarily deep.
void FreeDepthFirst(Json& json, int depth) {
  constexpr int kMaxDepth = 64;
  if (depth > kMaxDepth) return;
  if (json.is_object()) {
    auto& members = json.get_ref<Json::object_t&>();
    for (auto& member : members) {
      if (member.second.is_structured()) FreeDepthFirst(member.second, depth + 1);
    }
    members.clear();
  } else if (json.is_array()) {
    auto& items = json.get_ref<Json::array_t&>();
    for (Json& item : items) {
      if (item.is_structured()) FreeDepthFirst(item, depth + 1);
    }
    items.clear();
  }
}

}  // namespace

StoredObject::StoredObject(Json json, std::uint64_t rv, std::uint64_t body_rv)
    : json_(std::move(json)),
      resource_version_(rv),
      body_rv_(body_rv != 0 ? body_rv : rv),
      labels_(LabelsOf(json_)) {}

StoredObject::~StoredObject() { FreeDepthFirst(json_, 0); }

const ObjectName& StoredObject::name() const {
  std::call_once(name_once_, [this] { name_ = NameOf(json_); });
  return name_;
}

const std::string& StoredObject::uid() const {
  static const std::string kNone;
  const Json& uid = api::ChildOrNull(api::ChildOrNull(json_, "metadata"), "uid");
  return uid.is_string() ? uid.get_ref<const std::string&>() : kNone;
}

bool StoredObject::deleting() const {
  return !api::ChildOrNull(api::ChildOrNull(json_, "metadata"), "deletionTimestamp").is_null();
}

void StoredObject::SetStatusWrittenOver(const std::shared_ptr<const StoredObject>& over) {
  status_written_over_ = over;
  if (over != nullptr && over->body_rv_ != 0) body_rv_ = over->body_rv_;
}

const ManagedEntries& StoredObject::managed_fields() const {
  std::call_once(entries_once_, [this] {
    if (!entries_maker_) return;
    managed_fields_ = entries_maker_(json_);
    entries_maker_ = nullptr;  // frees the older versions it held
  });
  return managed_fields_;
}

void StoredObject::SetManagedFields(ManagedEntries entries) {
  managed_fields_ = std::move(entries);
  entries_maker_ = nullptr;
  deferred_depth_ = 0;
}

void StoredObject::DeferManagedFields(DeferredEntries deferred) {
  managed_fields_.clear();
  entries_maker_ = std::move(deferred.maker);
  deferred_depth_ = deferred.depth;
}

Json StoredObject::FullJson() const {
  Json out = json_;
  const ManagedEntries& entries = managed_fields();
  if (!entries.empty()) PutManagedFields(&out, entries);
  return out;
}

namespace {

// Serialize(object) with `entries` as its metadata.managedFields, without copying the object:
// members are written in key order (the order FlatMap keeps), the entries at theirs.
std::string SerializeWithEntries(const Json& object, const ManagedEntries& entries) {
  auto dump = [](const Json& value) { return Serialize(value); };
  auto write_entries = [&](std::string* out) {
    *out += "\"managedFields\":[";
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) *out += ',';
      *out += dump(*entries[i]);
    }
    *out += ']';
  };
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : object.items()) {
    if (!first) out += ',';
    first = false;
    out += dump(Json(key));
    out += ':';
    if (key != "metadata" || !value.is_object()) {
      out += dump(value);
      continue;
    }
    out += '{';
    bool written = false, first_member = true;
    for (const auto& [meta_key, meta_value] : value.items()) {
      if (!written && std::string_view(meta_key) > "managedFields") {
        if (!first_member) out += ',';
        write_entries(&out);
        written = true;
        first_member = false;
      }
      if (meta_key == "managedFields") continue;  // replaced by the entries
      if (!first_member) out += ',';
      first_member = false;
      out += dump(Json(meta_key));
      out += ':';
      out += dump(meta_value);
    }
    if (!written) {
      if (!first_member) out += ',';
      write_entries(&out);
    }
    out += '}';
  }
  return out + "}";
}

}  // namespace

const std::string& StoredObject::bytes() const {
  std::call_once(bytes_once_, [this] {
    // The store always gives a version metadata, so the entries have a place to go.
    auto meta = json_.is_object() ? json_.find("metadata") : json_.end();
    const ManagedEntries& entries = managed_fields();
    const bool apart = !entries.empty() && meta != json_.end() && meta->is_object();
    bytes_ = apart             ? SerializeWithEntries(json_, entries)
             : entries.empty() ? Serialize(json_)
                               : Serialize(FullJson());
  });
  return bytes_;
}

void StoredObject::SetBytes(std::string text) {
  std::call_once(bytes_once_, [this, &text] { bytes_ = std::move(text); });
}

std::shared_ptr<const void> StoredObject::FindView(std::type_index type) const {
  MutexLock lock(&views_mu_);
  for (const auto& [view_type, view] : views_) {
    if (view_type == type) return view.lock();
  }
  return nullptr;
}

void StoredObject::KeepView(std::type_index type, const std::shared_ptr<const void>& view) const {
  MutexLock lock(&views_mu_);
  for (auto& [view_type, kept] : views_) {
    if (view_type == type) {
      kept = view;
      return;
    }
  }
  views_.emplace_back(type, view);
}

ManagedEntries ManagedEntriesOf(Json array) {
  ManagedEntries entries;
  entries.reserve(array.size());
  for (Json& entry : array) entries.push_back(std::make_shared<const Json>(std::move(entry)));
  return entries;
}

ManagedEntries TakeManagedFields(Json* object) {
  auto meta = object->find("metadata");
  if (meta == object->end() || !meta->is_object()) return {};
  auto found = meta->find("managedFields");
  // An empty array stays: it is stored and served as it was written.
  if (found == meta->end() || !found->is_array() || found->empty()) return {};
  ManagedEntries entries = ManagedEntriesOf(std::move(*found));
  meta->erase(found);
  return entries;
}

void PutManagedFieldsJson(Json* object, Json entries) {
  if (!object->is_object()) return;
  if (entries.empty()) {
    auto meta = object->find("metadata");
    if (meta != object->end() && meta->is_object()) meta->erase("managedFields");
    return;
  }
  Json& meta = (*object)["metadata"];
  if (!meta.is_object()) meta = Json::object();
  meta["managedFields"] = std::move(entries);
}

Json ManagedEntriesJson(const ManagedEntries& entries) {
  Json array = Json::array();
  for (const ManagedEntry& entry : entries) array.push_back(*entry);
  return array;
}

void PutManagedFields(Json* object, const ManagedEntries& entries) {
  PutManagedFieldsJson(object, ManagedEntriesJson(entries));
}

bool SameManagedFields(const ManagedEntries& a, const ManagedEntries& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i] && *a[i] != *b[i]) return false;
  }
  return true;
}

Json ManagedFieldsJson(const StoredObject& version) {
  if (version.managed_fields().empty()) {
    auto meta = version.document().find("metadata");
    if (meta == version.document().end() || !meta->is_object()) return nullptr;
    auto found = meta->find("managedFields");
    return found == meta->end() ? Json() : *found;
  }
  return ManagedEntriesJson(version.managed_fields());
}

ObjectPtr MakeStoredObject(Json json, std::uint64_t rv) {
  ManagedEntries entries = TakeManagedFields(&json);
  return MakeStoredObject(std::move(json), rv, std::move(entries));
}

namespace {

// Writes `rv` into `json` as metadata.resourceVersion (removes it when 0), giving the object a
// metadata it lacks.
void PutResourceVersion(Json* json, std::uint64_t rv) {
  Json& meta = (*json)["metadata"];
  if (!meta.is_object()) meta = Json::object();
  if (rv == 0) {
    meta.erase("resourceVersion");
  } else {
    meta["resourceVersion"] = std::to_string(rv);
  }
}

}  // namespace

ObjectPtr MakeStoredObject(Json json, std::uint64_t rv, ManagedEntries managed_fields) {
  return MakeStoredObject(std::move(json), rv, NewEntries(std::move(managed_fields)));
}

ObjectPtr MakeStoredObject(Json json, std::uint64_t rv, NewEntries entries,
                           const ObjectPtr& status_written_over) {
  // The entries given made replace any the document holds; deferred ones require it holds none.
  if (!entries.deferred && !entries.made.empty()) TakeManagedFields(&json);
  PutResourceVersion(&json, rv);
  auto stored = std::make_shared<StoredObject>(std::move(json), rv);
  stored->SetStatusWrittenOver(status_written_over);
  if (entries.deferred) {
    stored->DeferManagedFields(std::move(*entries.deferred));
  } else {
    stored->SetManagedFields(std::move(entries.made));
  }
  return stored;
}

bool MayDeferAfter(const StoredObject* previous) {
  return previous == nullptr || previous->deferred_depth() < kMaxDeferredDepth;
}

namespace {

// The deferred form of a version keeping `version`'s entries (a binding, a deletion mark).
DeferredEntries SameEntriesAs(ObjectPtr version) {
  const int depth = version->deferred_depth() + 1;
  return {[version = std::move(version)](const Json&) { return version->managed_fields(); }, depth};
}

}  // namespace

NewEntries KeptEntries(const ObjectPtr& live) {
  NewEntries out;
  if (live->deferred_depth() == 0 || !MayDeferAfter(live.get())) {
    out.made = live->managed_fields();
  } else {
    out.deferred = SameEntriesAs(live);
  }
  out.kept_from = live.get();
  return out;
}

bool SameEntries(const NewEntries& entries, const Json& json, const StoredObject& version) {
  if (entries.kept_from == &version) return true;
  if (entries.deferred)
    return SameManagedFields(entries.deferred->maker(json), version.managed_fields());
  return SameManagedFields(entries.made, version.managed_fields());
}

std::string MetaString(const Json& object, std::string_view field) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto it = meta->find(field);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

ObjectName NameOf(const Json& object) {
  return ObjectName{MetaString(object, "namespace"), MetaString(object, "name")};
}

namespace {

// The JSON path of a field label (".spec.nodeName"), or "" when `field` is not a label of info.
std::string PathOf(const api::ResourceInfo& info, std::string_view field) {
  for (const auto& [label, path] : info.field_labels) {
    if (label == field) return path;
  }
  return "";
}

const Json* Walk(const Json& object, std::string_view path) {
  const Json* at = &object;
  std::size_t pos = path.starts_with('.') ? 1 : 0;
  while (pos <= path.size()) {
    std::size_t dot = path.find('.', pos);
    if (dot == std::string_view::npos) dot = path.size();
    std::string_view key = path.substr(pos, dot - pos);
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
    pos = dot + 1;
  }
  return at;
}

}  // namespace

Status ValidateFieldSelector(const api::ResourceInfo& info, const api::FieldSelector& selector) {
  for (const auto& term : selector.terms()) {
    if (term.field == "metadata.name" || term.field == "metadata.namespace") continue;
    if (PathOf(info, term.field).empty()) {
      return Status::BadRequest("field label not supported: " + term.field);
    }
  }
  return Status::Ok();
}

std::string FieldValue(const api::ResourceInfo& info, const Json& object, std::string_view field) {
  if (field == "metadata.name") return MetaString(object, "name");
  if (field == "metadata.namespace") return MetaString(object, "namespace");
  const Json* value = Walk(object, PathOf(info, field));
  if (value == nullptr || value->is_null()) {
    // Go renders these bool fields with strconv.FormatBool, so an unset one reads "false".
    bool go_bool = field == "spec.hostNetwork" || field == "spec.unschedulable";
    return go_bool ? "false" : "";
  }
  if (value->is_string()) return value->get<std::string>();
  if (value->is_boolean()) return value->get<bool>() ? "true" : "false";
  return Serialize(*value);
}

bool MatchesFields(const api::ResourceInfo& info, const Json& object,
                   const api::FieldSelector& selector) {
  if (selector.Empty()) return true;
  api::StringMap fields;
  for (const auto& term : selector.terms()) {
    if (!fields.contains(term.field)) fields[term.field] = FieldValue(info, object, term.field);
  }
  return selector.Matches(fields);
}

}  // namespace lws::store
