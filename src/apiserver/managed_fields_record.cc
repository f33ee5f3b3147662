// File: apiserver/managed_fields_record.cc
//
// Recording a non-apply write in managedFields (UpdateManagedFields, RecordUpdate): what the
// write changed, which entries lose it, what the writer's entry takes. The entries' encoding
// is in managed_fields.cc.

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "apiserver/apply_value.h"
#include "apiserver/fields_v1_edit.h"
#include "apiserver/managed_fields.h"
#include "apiserver/managed_fields_internal.h"

namespace lws::apiserver {
namespace {

// {metadata.managedFields}: what every walk over a write's before and after leaves out.
const FieldSet& ManagedFieldsPath() {
  static const FieldSet kPath = [] {
    FieldSet set;
    set.Insert({PathElement::Field("metadata"), PathElement::Field("managedFields")});
    return set;
  }();
  return kPath;
}

// What no walk over a write's before and after enters: the ignored fields (rule 2) and
// metadata.managedFields.
FieldSet UntrackedFields(const Json& before, const Json& after, const FieldManagerScope& scope) {
  FieldSet skip = IgnoredFields(scope, {&before, &after});
  skip.Add(ManagedFieldsPath());
  return skip;
}

// The changes a write makes, leaving out the untracked fields.
Comparison TrackedChanges(const Json& before, const Json& after, const FieldManagerScope& scope) {
  FieldSet skip = UntrackedFields(before, after, scope);
  return Compare(before, after, scope.schema, &skip);
}

// What a write changed (modified or added) and removed, as RecordUpdate records them.
struct WriteChanges {
  FieldSet changed;
  FieldSet removed;
};

WriteChanges ChangesOf(const Json& before, const Json& after, const FieldManagerScope& scope) {
  Comparison diff = TrackedChanges(before, after, scope);
  WriteChanges out{std::move(diff.modified), std::move(diff.removed)};
  // A create adds everything and modifies nothing: take the added set instead of copying it.
  if (out.changed.empty()) {
    out.changed = std::move(diff.added);
  } else {
    out.changed.Add(diff.added);
  }
  return out;
}

// Takes a write's changes away from an entry in place: it runs on every write, and Difference
// would copy the whole entry. True when the entry owns nothing any more.
bool LoseChanges(FieldSet& fields, const WriteChanges& changes) {
  fields.Subtract(changes.changed);
  fields.Subtract(changes.removed);
  return fields.empty();
}

// The fields the writer takes: what it changed, less what it removed and the untracked metadata.
FieldSet TakenFields(FieldSet changed, const FieldSet& removed) {
  changed.Subtract(removed);
  changed.Subtract(StrippedFields());
  return changed;
}

// The writer's Update entry, before it takes anything.
ManagedFieldsEntry WriterEntry(const FieldManagerScope& scope) {
  return {scope.manager,     std::string(kOperationUpdate),
          scope.api_version, FormatRfc3339(scope.now),
          scope.subresource, {}};
}

// The writer's entry records the write: its time and apiVersion become the write's.
void Retime(ManagedFieldsEntry& entry, const FieldManagerScope& scope) {
  entry.time = FormatRfc3339(scope.now);
  entry.api_version = scope.api_version;
}

// The writer's entry (new or kept) takes `taken`, and is retimed.
void Take(ManagedFieldsEntry& entry, const FieldManagerScope& scope, FieldSet taken) {
  Retime(entry, scope);
  if (entry.fields.empty()) {
    entry.fields = std::move(taken);  // a new entry (every create): nothing to merge with
  } else {
    entry.fields.Add(taken);
  }
}

// RecordUpdate of a create that starts from no entries: the writer's entry alone, its fields
// written straight from the object, without building and encoding the set of every added path
// (a create adds every path of the object).
store::ManagedEntries RecordCreate(const Json& before, const Json& updated,
                                   const FieldManagerScope& scope) {
  FieldSet skip = UntrackedFields(before, updated, scope);
  Json fields = AddedFieldsV1(updated, scope.schema, &skip, &StrippedFields());
  store::ManagedEntries entries;  // none when nothing was taken
  if (!fields.empty()) {
    entries.push_back(std::make_shared<const Json>(WriterEntry(scope).ToJson(std::move(fields))));
  }
  return entries;
}

}  // namespace

ManagedFieldSets RecordUpdate(const Json& before, const Json& after, ManagedFieldSets managed,
                              const FieldManagerScope& scope) {
  WriteChanges changes = ChangesOf(before, after, scope);
  for (auto it = managed.begin(); it != managed.end();) {
    it = LoseChanges(it->second.fields, changes) ? managed.erase(it) : std::next(it);
  }
  FieldSet taken = TakenFields(std::move(changes.changed), changes.removed);
  if (taken.empty()) return managed;
  ManagedFieldsEntry mine = WriterEntry(scope);
  std::string id = mine.Identifier();
  Take(managed.try_emplace(id, std::move(mine)).first->second, scope, std::move(taken));
  return managed;
}

namespace {

// One live entry: decoded when the write touches it, otherwise kept as the JSON it was read from.
struct LiveEntry {
  ManagedFieldsEntry entry;    // fields decoded only when `raw` is null
  const Json* raw = nullptr;   // the undecoded entry, written back as it was...
  bool retimed = false;        // ...but with the entry's time and apiVersion, when set...
  std::optional<Json> edited;  // ...and these FieldsV1, when set
  store::ManagedEntry shared;  // `raw` as the live version shares it, if it does

  // The entry as written back: the live one itself when the write left it as it was.
  store::ManagedEntry Take() {
    if (raw != nullptr && !retimed && !edited && shared != nullptr) return shared;
    return std::make_shared<const Json>(TakeJson());
  }

  // The entry as written back. Moves `edited` out: it is called once, when the entries are
  // written, and the edited FieldsV1 was already a copy.
  Json TakeJson() {
    if (raw == nullptr) return entry.ToJson();
    Json out = Json::object();
    for (const auto& [key, value] : raw->items()) {
      if (key != "fieldsV1" || !edited) out[key] = value;
    }
    if (edited) out["fieldsV1"] = std::move(*edited);
    if (retimed) {
      out["time"] = entry.time;
      out["apiVersion"] = entry.api_version;
    }
    return out;
  }
};

// True when the write's changes leave the writer's entry `fields_v1` as it is: it removes
// nothing, takes all it changes, and already owns all of that. The entry is then retimed
// without decoding and re-encoding its fields. Most LWS status writes and many of the
// StatefulSet controller's only modify counts and conditions their writer set before. The
// kubelets' writes do not: they add fields (podIP) or remove fields their entry owns (a
// condition's reason and message once the pod is ready), which EditedWriterFields handles.
bool KeepsWriterFields(const Json& fields_v1, const WriteChanges& changes, const FieldSet& taken) {
  return !taken.empty() && changes.removed.empty() && taken == changes.changed &&
         OwnsAll(fields_v1, changes.changed);
}

// The writer's entry `fields_v1` as RecordUpdate leaves it, edited as JSON, when the write takes
// all it changes: less what it removed, plus what it changed, without decoding the entry into a
// FieldSet and encoding it again (the kubelets' status writes take this path: they add and
// remove fields of their entry). nullopt when unsure of a key's spelling, or when
// the entry does not read as FieldsV1 objects: the full path decides then.
std::optional<Json> EditedWriterFields(const Json& fields_v1, const WriteChanges& changes,
                                       const FieldSet& taken) {
  if (taken.empty() || taken != changes.changed || !fields_v1.is_object() || fields_v1.empty()) {
    return std::nullopt;
  }
  Json edited = fields_v1;
  if (!RemoveFieldsV1(edited, changes.removed) || !AddFieldsV1(edited, changes.changed)) {
    return std::nullopt;
  }
  return edited;
}

// RecordUpdate over the live object's entries, decoding only those whose fields the write
// changes (and the writer's own): a status write leaves the spec owner's entry, usually the
// largest, as the JSON it was. nullopt when an entry does not read as an entry: the caller then
// takes the full path, whose rule for bad entries (drop them all) stays the only one.
std::optional<store::ManagedEntries> RecordUpdateOnLive(const LiveEntries& live_entries,
                                                        const Json& before, const Json& after,
                                                        const FieldManagerScope& scope) {
  if (!live_entries.is_array()) return std::nullopt;
  WriteChanges changes = ChangesOf(before, after, scope);
  FieldSet taken = TakenFields(changes.changed, changes.removed);  // `changed` is read below
  ManagedFieldsEntry mine = WriterEntry(scope);
  const std::string my_id = mine.Identifier();

  std::map<std::string, LiveEntry> entries;
  for (std::size_t i = 0; i < live_entries.size(); ++i) {
    const Json& item = live_entries[i];
    Result<ManagedFieldsEntry> header = DecodeEntry(item, i, /*with_fields=*/false);
    if (!header.ok()) return std::nullopt;
    std::string id = header->Identifier();
    const Json& fields_v1 = api::ChildOrNull(item, "fieldsV1");
    const bool mine = id == my_id;
    if (mine) {  // the writer's entry, kept or edited as JSON where it can be
      if (KeepsWriterFields(fields_v1, changes, taken)) {
        entries[id] = LiveEntry{std::move(*header), &item, /*retimed=*/true};
        continue;
      }
      if (std::optional<Json> edited = EditedWriterFields(fields_v1, changes, taken)) {
        entries[id] = LiveEntry{std::move(*header), &item, /*retimed=*/true, std::move(edited)};
        continue;
      }
    }
    // An entry that owns nothing is dropped, as the full path drops it: decode it too.
    const bool touched = (mine && !taken.empty()) || !fields_v1.is_object() || fields_v1.empty() ||
                         MayShare(fields_v1, changes.changed) ||
                         MayShare(fields_v1, changes.removed);
    LiveEntry live{std::move(*header), touched ? nullptr : &item};
    if (!touched) live.shared = live_entries.Shared(i);
    if (touched) {
      Result<FieldSet> set = FieldSet::FromFieldsV1(fields_v1);
      if (!set.ok()) return std::nullopt;
      live.entry.fields = std::move(*set);
    }
    entries[id] = std::move(live);  // a repeated identity keeps the last entry
  }
  for (auto it = entries.begin(); it != entries.end();) {
    const bool emptied = !it->second.raw && LoseChanges(it->second.entry.fields, changes);
    it = emptied ? entries.erase(it) : std::next(it);
  }
  if (!taken.empty()) {
    LiveEntry& writer = entries.try_emplace(my_id, LiveEntry{std::move(mine)}).first->second;
    if (writer.retimed) {
      Retime(writer.entry, scope);
    } else {
      Take(writer.entry, scope, std::move(taken));
    }
  }
  std::vector<LiveEntry*> order;
  for (auto& [id, live] : entries) order.push_back(&live);
  std::stable_sort(order.begin(), order.end(), [](const LiveEntry* a, const LiveEntry* b) {
    return SortKey(a->entry) < SortKey(b->entry);
  });
  store::ManagedEntries out;
  out.reserve(order.size());
  for (LiveEntry* live : order) out.push_back(live->Take());
  return out;
}

// The entries a write leaves, recorded from `managed` (the entries it starts from).
store::ManagedEntries RecordFrom(ManagedFieldSets managed, const Json& before, const Json& updated,
                                 const FieldManagerScope& scope) {
  if (managed.empty() && before.empty()) return RecordCreate(before, updated, scope);
  managed = RecordUpdate(before, updated, std::move(managed), scope);
  return store::ManagedEntriesOf(EncodeManagedFields(managed));
}

}  // namespace

const Json& EmptyObject() {
  static const Json kEmpty = Json::object();
  return kEmpty;
}

bool StripAndCheckShapes(const Json& before, Json* updated, const FieldManagerScope& scope,
                         bool* shapes_checked) {
  SetManagedFields(updated, {});
  const bool pass =
      (scope.live_shapes_checked ||
       ValidateShape(before, scope.schema, /*allow_duplicates=*/true, &ManagedFieldsPath())
           .empty()) &&
      ValidateShape(*updated, scope.schema, /*allow_duplicates=*/true, nullptr,
                    ValidTwin{&before, &ManagedFieldsPath()})
          .empty();
  if (shapes_checked != nullptr) *shapes_checked = pass;
  return pass;
}

store::ManagedEntries RecordKeepingLive(const Json& before, const LiveEntries& live,
                                        const Json& updated, const FieldManagerScope& scope) {
  if (std::optional<store::ManagedEntries> recorded =
          RecordUpdateOnLive(live, before, updated, scope)) {
    return std::move(*recorded);
  }
  return RecordFrom(ManagedFieldsForWrite(live, updated, scope.subresource), before, updated,
                    scope);
}

store::ManagedEntries RecordManagedFields(const Json& old, const LiveEntries& live, Json* updated,
                                          const FieldManagerScope& scope, bool* shapes_checked) {
  if (shapes_checked != nullptr) *shapes_checked = false;
  if (!updated->is_object()) return {};
  // Writes that keep the live entries (ManagedFieldsForWrite) read them lazily below; a body
  // with entries of its own takes the full path.
  const bool keeps_live = KeepsLiveEntries(*updated, scope.subresource);
  std::optional<ManagedFieldSets> managed;
  if (!keeps_live) managed = ManagedFieldsForWrite(live, *updated, scope.subresource);
  // `old` may hold managedFields: every walk below leaves them out instead of copying `old`.
  const Json& before = old.is_object() ? old : EmptyObject();
  if (!StripAndCheckShapes(before, updated, scope, shapes_checked)) return {};
  if (keeps_live) return RecordKeepingLive(before, live, *updated, scope);
  return RecordFrom(std::move(*managed), before, *updated, scope);
}

Json UpdateManagedFields(const Json& old, Json updated, const FieldManagerScope& scope,
                         bool* shapes_checked) {
  if (!updated.is_object()) {
    if (shapes_checked != nullptr) *shapes_checked = false;
    return updated;
  }
  store::ManagedEntries entries =
      RecordManagedFields(old, LiveEntries(ManagedFieldsOf(old)), &updated, scope, shapes_checked);
  store::PutManagedFields(&updated, entries);
  return updated;
}

}  // namespace lws::apiserver
