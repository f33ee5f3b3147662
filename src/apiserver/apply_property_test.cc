// Properties of server-side apply over random StatefulSet-like configurations that exercise
// every list type: containers (map by name), env (map by name), finalizers (set), args (atomic).

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "apiserver/apply.h"
#include "apiserver/apply_items.h"
#include "apiserver/apply_testing.h"
#include "apiserver/apply_value.h"
#include "store/object.h"

namespace lws::apiserver {
namespace {

using testing::Options;

template <class T>
std::vector<T> Subset(const std::vector<T>& all) {
  std::vector<T> out;
  for (const T& item : all) {
    if (*rc::gen::arbitrary<bool>()) out.push_back(item);
  }
  return out;
}

Json GenContainer(const std::string& name) {
  Json c = {{"name", name}};
  if (*rc::gen::arbitrary<bool>()) c["image"] = *rc::gen::element<std::string>("i1", "i2");
  if (*rc::gen::arbitrary<bool>()) {
    c["args"] = Subset<std::string>({"-a", "-b", "-c"});
  }
  std::vector<std::string> env = Subset<std::string>({"A", "B"});
  if (!env.empty()) {
    c["env"] = Json::array();
    for (const std::string& e : env) {
      c["env"].push_back({{"name", e}, {"value", *rc::gen::element<std::string>("1", "2")}});
    }
  }
  return c;
}

Json GenConfig() {
  Json config = testing::StatefulSet(1);
  if (*rc::gen::arbitrary<bool>()) {
    config["spec"]["replicas"] = *rc::gen::inRange(0, 3);
  } else {
    config["spec"].erase("replicas");
  }
  for (const std::string& key : Subset<std::string>({"a", "b"})) {
    config["metadata"]["labels"][key] = *rc::gen::element<std::string>("1", "2");
  }
  std::vector<std::string> finalizers = Subset<std::string>({"x", "y"});
  if (!finalizers.empty()) config["metadata"]["finalizers"] = finalizers;
  Json containers = Json::array();
  std::vector<std::string> names = Subset<std::string>({"c", "d", "e"});
  if (*rc::gen::arbitrary<bool>()) std::reverse(names.begin(), names.end());
  for (const std::string& name : names) containers.push_back(GenContainer(name));
  config["spec"]["template"]["spec"]["containers"] = containers;
  if (*rc::gen::arbitrary<bool>()) config["status"] = {{"replicas", *rc::gen::inRange(0, 3)}};
  return config;
}

// A live object written by two other managers (an applier and an updater).
Json GenLive() {
  Json live = Apply(Json(), GenConfig(), Options("first", 0, true))->object;
  if (*rc::gen::arbitrary<bool>()) {
    Json edited = live;
    edited["spec"]["replicas"] = 7;
    edited["metadata"]["labels"]["edited"] = "yes";
    live = UpdateManagedFields(live, edited, testing::Scope("editor", 1));
  }
  return live;
}

RC_GTEST_PROP(ApplyProperty, ApplyingTheSameConfigTwiceChangesNothing, ()) {
  Json live = GenLive();
  Json config = GenConfig();
  Result<ApplyResult> once = Apply(live, config, Options("me", 10, /*force=*/true));
  RC_ASSERT(once.ok());
  Result<ApplyResult> twice = Apply(once->object, config, Options("me", 20, /*force=*/true));
  RC_ASSERT(twice.ok());
  // Byte-identical, managedFields included: an unchanged object keeps its entry's time.
  RC_ASSERT(twice->object.dump() == once->object.dump());
}

RC_GTEST_PROP(ApplyProperty, ResultHoldsTheConfigAndTheApplierOwnsIt, ()) {
  Json live = GenLive();
  Json config = GenConfig();
  ApplyOptions options = Options("me", 10, /*force=*/true);
  Result<ApplyResult> r = Apply(live, config, options);
  RC_ASSERT(r.ok());
  Json scoped = config;
  scoped.erase("status");  // ignored on the main resource
  const ListTypeProvider& schema = options.scope.schema;
  Json stored = store::CopyWithoutManagedFields(r->object);
  RC_ASSERT(Merge(stored, scoped, schema) == stored);
  Result<ManagedFieldSets> managed = DecodeManagedFields(ManagedFieldsOf(r->object));
  RC_ASSERT(managed.ok());
  FieldSet mine = ToFieldSet(scoped, schema).Difference(StrippedFields());
  auto entry = managed->find(R"({"manager":"me","operation":"Apply"})");
  if (mine.empty()) {
    RC_ASSERT(entry == managed->end());
  } else {
    RC_ASSERT(entry != managed->end());
    RC_ASSERT(entry->second.fields == mine);
  }
  // Forced: nobody else owns a field the apply changed.
  Comparison diff = Compare(store::CopyWithoutManagedFields(live), stored, schema);
  FieldSet changed =
      diff.modified.Union(diff.added).RecursiveDifference(IgnoredFields(options.scope, {}));
  for (const auto& [id, other] : *managed) {
    if (id != R"({"manager":"me","operation":"Apply"})") {
      RC_ASSERT(other.fields.Intersection(changed).empty());
    }
  }
}

RC_GTEST_PROP(ApplyProperty, WithoutForceEitherConflictOrNoOtherOwnerChanged, ()) {
  Json live = GenLive();
  Json config = GenConfig();
  Result<ApplyResult> r = Apply(live, config, Options("me", 10, /*force=*/false));
  if (!r.ok()) {
    RC_ASSERT(r.status().code() == Code::kConflict);
    RC_ASSERT(!r.status().causes().empty());
    for (const FieldCause& cause : r.status().causes()) {
      RC_ASSERT(cause.type == "FieldManagerConflict");
    }
    return;
  }
  Result<ApplyResult> forced = Apply(live, config, Options("me", 10, /*force=*/true));
  RC_ASSERT(forced.ok());
  RC_ASSERT(forced->object == r->object);
}

// A random part of the paths `value` sets, plus, at random, whole top-level fields.
FieldSet GenSkip(const Json& value) {
  FieldSet skip;
  for (const Path& path : ToFieldSet(value, testing::StatefulSetSchema()).Paths()) {
    if (*rc::gen::inRange(0, 4) == 0) skip.Insert(path);
  }
  for (const std::string& top : Subset<std::string>({"metadata", "spec", "status"})) {
    skip.Insert({PathElement::Field(top)});
  }
  return skip;
}

RC_GTEST_PROP(ApplyProperty, CompareWithSkipEqualsCompareThenExcluding, ()) {
  Json before = GenLive();
  Json after = *rc::gen::arbitrary<bool>() ? GenConfig() : before;
  if (*rc::gen::arbitrary<bool>()) after["spec"]["replicas"] = *rc::gen::inRange(0, 3);
  FieldSet skip = GenSkip(*rc::gen::arbitrary<bool>() ? before : after);
  Comparison walked = Compare(before, after, testing::StatefulSetSchema(), &skip);
  Comparison excluded = Compare(before, after, testing::StatefulSetSchema()).Excluding(skip);
  RC_ASSERT(walked.added == excluded.added);
  RC_ASSERT(walked.removed == excluded.removed);
  RC_ASSERT(walked.modified == excluded.modified);
}

RC_GTEST_PROP(ApplyProperty, SubtractAgreesWithDifference, ()) {
  FieldSet a = GenSkip(GenLive());
  FieldSet b = GenSkip(GenConfig());
  FieldSet subtracted = a;
  subtracted.Subtract(b);
  RC_ASSERT(subtracted == a.Difference(b));
  subtracted = a;
  subtracted.Subtract(a);
  RC_ASSERT(subtracted.empty());
}

// A non-apply write recorded the plain way: decode every live entry, RecordUpdate, encode them
// all. UpdateManagedFields leaves the entries a write does not touch undecoded and must agree.
Json RecordedByFullPath(const Json& live, Json updated, const FieldManagerScope& scope) {
  Result<ManagedFieldSets> managed = DecodeManagedFields(ManagedFieldsOf(live));
  SetManagedFields(&updated, {});
  ManagedFieldSets recorded =
      RecordUpdate(live, updated, managed.ok() ? *managed : ManagedFieldSets(), scope);
  SetManagedFields(&updated, recorded);
  return updated;
}

RC_GTEST_PROP(ApplyProperty, UpdateAgreesWithTheFullPathWhileDecodingOnlyTouchedEntries, ()) {
  Json live = GenLive();
  if (*rc::gen::arbitrary<bool>()) {
    Json with_status = live;
    with_status["status"] = {{"replicas", *rc::gen::inRange(0, 3)}, {"readyReplicas", 1}};
    live = UpdateManagedFields(live, with_status, testing::Scope("status-writer", 2, "status"));
  }
  Json edited = live;
  if (*rc::gen::arbitrary<bool>()) edited["spec"]["replicas"] = *rc::gen::inRange(0, 5);
  if (*rc::gen::arbitrary<bool>()) {
    edited["metadata"]["labels"]["edited"] = *rc::gen::element<std::string>("yes", "no");
  }
  if (*rc::gen::arbitrary<bool>()) edited["metadata"].erase("labels");
  if (*rc::gen::arbitrary<bool>()) edited["status"] = {{"replicas", *rc::gen::inRange(0, 3)}};
  if (*rc::gen::arbitrary<bool>()) {
    edited["spec"]["template"]["spec"]["containers"] =
        GenConfig()["spec"]["template"]["spec"]["containers"];
  }
  const std::string subresource = *rc::gen::element<std::string>("", "status");
  // A body without entries keeps the live ones; one with entries takes the full path anyway.
  if (subresource.empty()) edited["metadata"].erase("managedFields");
  FieldManagerScope scope = testing::Scope(
      *rc::gen::element<std::string>("first", "editor", "status-writer", "new"), 5, subresource);
  RC_PRE(ValidateShape(store::CopyWithoutManagedFields(live), scope.schema, true).empty() &&
         ValidateShape(store::CopyWithoutManagedFields(edited), scope.schema, true).empty());
  RC_ASSERT(UpdateManagedFields(live, edited, scope) == RecordedByFullPath(live, edited, scope));
}

// An entry with its FieldsV1 read and written again: every key spelled our way.
Json Respelled(Json entry) {
  Result<FieldSet> fields = FieldSet::FromFieldsV1(entry["fieldsV1"]);
  RC_ASSERT(fields.ok());
  entry["fieldsV1"] = fields->ToFieldsV1();
  return entry;
}

Json RespelledAll(Json entries) {
  for (Json& entry : entries) entry = Respelled(entry);
  return entries;
}

// The keys of a FieldsV1 tree, at every depth.
std::size_t KeyCount(const Json& fields_v1) {
  std::size_t count = 0;
  if (!fields_v1.is_object()) return count;
  for (const auto& [key, below] : fields_v1.items()) count += 1 + KeyCount(below);
  return count;
}

// A writer's entry is retimed as it is when the write modifies only fields it set before, and
// edited as JSON when the write also adds or removes fields; either way the result is the full
// path's, also when another manager shares a field, an entry owns only below a field, or a key
// is spelled another way (which the edit must leave to the full path).
RC_GTEST_PROP(ApplyProperty, AWriterRewritingItsOwnFieldsAgreesWithTheFullPath, ()) {
  Json live = GenLive();
  Json with_status = live;
  with_status["status"] = {{"replicas", 1}, {"readyReplicas", 1}, {"conditions", Json::array()}};
  with_status["status"]["conditions"].push_back({{"type", "Ready"}, {"status", "False"}});
  if (*rc::gen::arbitrary<bool>()) with_status["status"]["conditions"][0]["reason"] = "Waiting";
  live = UpdateManagedFields(live, with_status, testing::Scope("status-writer", 2, "status"));
  if (*rc::gen::arbitrary<bool>()) {  // another writer takes one of those fields
    Json taken = live;
    taken["status"]["replicas"] = 2;
    live = UpdateManagedFields(live, taken, testing::Scope("other", 3, "status"));
  }
  if (*rc::gen::arbitrary<bool>()) {  // an entry (as a client may write one) owning only below
    for (Json& entry : live["metadata"]["managedFields"]) {
      if (entry.value("manager", "") == "status-writer") {
        entry["fieldsV1"]["f:status"]["f:replicas"] = {{"f:unit", Json::object()}};
      }
    }
  }
  const bool respelled = *rc::gen::arbitrary<bool>();
  if (respelled) {  // the condition's key spelled with a space
    for (Json& entry : live["metadata"]["managedFields"]) {
      if (entry.value("manager", "") != "status-writer") continue;
      Json& conditions = entry["fieldsV1"]["f:status"]["f:conditions"];
      const std::string ours = R"(k:{"type":"Ready"})";
      if (!conditions.contains(ours)) continue;
      conditions[R"(k:{"type": "Ready"})"] = conditions[ours];
      conditions.erase(ours);
    }
  }
  Json edited = live;
  edited["metadata"].erase("managedFields");
  Json& status = edited["status"];
  if (*rc::gen::arbitrary<bool>()) status["replicas"] = *rc::gen::inRange(0, 3);
  if (*rc::gen::arbitrary<bool>()) status["conditions"][0]["status"] = "True";
  if (*rc::gen::arbitrary<bool>()) status["updatedReplicas"] = 1;
  if (*rc::gen::arbitrary<bool>()) status.erase("readyReplicas");
  if (*rc::gen::arbitrary<bool>()) status["conditions"][0].erase("reason");
  if (*rc::gen::arbitrary<bool>()) status["conditions"][0]["message"] = "starting";
  if (*rc::gen::arbitrary<bool>()) {
    status["conditions"].push_back({{"type", "Available"}, {"status", "True"}});
  }
  if (*rc::gen::arbitrary<bool>()) status["conditions"] = Json::array();  // the list stays
  if (*rc::gen::arbitrary<bool>()) status.erase("conditions");
  const std::string writer = *rc::gen::element<std::string>("status-writer", "other");
  FieldManagerScope scope = testing::Scope(writer, *rc::gen::inRange(2, 9), "status");
  if (*rc::gen::arbitrary<bool>()) scope.api_version = "apps/v1beta2";
  Json recorded = UpdateManagedFields(live, edited, scope);
  Json full = RecordedByFullPath(live, edited, scope);
  if (!respelled) {
    RC_ASSERT(recorded == full);
    return;
  }
  // An entry the write leaves alone keeps its spelling, which the full path's encoding changes;
  // the meaning must agree, and no element may be written in both spellings.
  Json& entries = recorded["metadata"]["managedFields"];
  for (const Json& entry : entries) {
    RC_ASSERT(KeyCount(entry["fieldsV1"]) == KeyCount(Respelled(entry)["fieldsV1"]));
  }
  RC_ASSERT(RespelledAll(entries) == RespelledAll(full["metadata"]["managedFields"]));
  recorded["metadata"].erase("managedFields");
  full["metadata"].erase("managedFields");
  RC_ASSERT(recorded == full);
}

// A create's FieldsV1 written straight from the object is the set Compare adds from nothing,
// less the stripped paths, encoded. Empty objects, nulls and skipped list items are leaves or
// holes the walk must treat alike.
RC_GTEST_PROP(ApplyProperty, AddedFieldsV1IsTheEncodedSetACompareFromNothingAdds, ()) {
  Json object = GenLive();
  if (*rc::gen::arbitrary<bool>()) object["spec"]["template"]["metadata"] = Json::object();
  if (*rc::gen::arbitrary<bool>()) object["spec"]["selector"] = nullptr;
  if (*rc::gen::arbitrary<bool>()) object["spec"]["template"]["spec"]["volumes"] = Json::array();
  FieldSet skip = GenSkip(object);
  FieldSet strip = GenSkip(object);
  if (*rc::gen::arbitrary<bool>()) strip.Add(StrippedFields());
  for (const std::string& map : Subset<std::string>({"metadata", "spec", "template"})) {
    Path path = {PathElement::Field(map == "template" ? "spec" : map)};
    if (map == "template") path.push_back(PathElement::Field("template"));
    strip.Insert(path);  // a member whose children stay
  }
  const ListTypeProvider schema = testing::StatefulSetSchema();
  FieldSet added = Compare(Json::object(), object, schema, &skip).added;
  added.Subtract(strip);
  RC_ASSERT(AddedFieldsV1(object, schema, &skip, &strip) == added.ToFieldsV1());
}

RC_GTEST_PROP(ApplyProperty, ACreateRecordsWhatTheFullPathRecords, ()) {
  Json object = GenConfig();
  FieldManagerScope scope = testing::Scope("creator", 5);
  scope.status_subresource = *rc::gen::arbitrary<bool>();
  RC_ASSERT(UpdateManagedFields(Json(), object, scope) ==
            RecordedByFullPath(Json::object(), object, scope));
}

// At random, breaks the shape: a container without its key, two containers of one name, or a
// container whose env item has no key.
Json MaybeBroken(Json value) {
  Json& containers = value["spec"]["template"]["spec"]["containers"];
  if (!containers.is_array() || containers.empty()) return value;
  switch (*rc::gen::inRange(0, 4)) {
    case 1:
      containers[0].erase("name");
      break;
    case 2:
      containers.push_back(containers[0]);
      break;
    case 3:
      containers[0]["env"] = Json::array({{{"value", "1"}}});
      break;
    default:
      break;
  }
  return value;
}

// A valid twin only spares the walk where it vouches: the verdict (every error, in order) is the
// one the whole walk gives, also where the twin's own check skipped a broken part.
RC_GTEST_PROP(ApplyProperty, AValidTwinChangesNoVerdict, ()) {
  const ListTypeProvider schema = testing::StatefulSetSchema();
  const bool allow_duplicates = *rc::gen::arbitrary<bool>();
  Json twin = MaybeBroken(GenLive());
  FieldSet twin_skip = GenSkip(twin);
  RC_PRE(ValidateShape(twin, schema, allow_duplicates, &twin_skip).empty());
  Json value = *rc::gen::arbitrary<bool>() ? twin : MaybeBroken(GenLive());
  if (*rc::gen::arbitrary<bool>()) value["spec"]["replicas"] = *rc::gen::inRange(0, 3);
  if (*rc::gen::arbitrary<bool>()) value = MaybeBroken(value);
  RC_ASSERT(ValidateShape(value, schema, allow_duplicates, nullptr, {&twin, &twin_skip}) ==
            ValidateShape(value, schema, allow_duplicates));
}

// Map lists compare by key, in any order: pairing aligned lists by position (SameKeysInOrder)
// finds what pairing by key finds when the same items come in the reverse order.
RC_GTEST_PROP(ApplyProperty, ComparingListsByPositionAgreesWithComparingByKey, ()) {
  const Json before = GenLive();
  Json after = *rc::gen::arbitrary<bool>() ? GenConfig() : before;
  for (Json& c : after["spec"]["template"]["spec"]["containers"]) {
    if (*rc::gen::arbitrary<bool>()) c["image"] = *rc::gen::element<std::string>("i1", "i2", "i3");
    if (c.contains("env") && *rc::gen::arbitrary<bool>()) c["env"][0]["value"] = "changed";
  }
  Json reversed = before;
  for (Json& c : reversed["spec"]["template"]["spec"]["containers"]) {
    if (c.contains("env")) std::reverse(c["env"].begin(), c["env"].end());
  }
  Json& containers = reversed["spec"]["template"]["spec"]["containers"];
  std::reverse(containers.begin(), containers.end());
  const ListTypeProvider schema = testing::StatefulSetSchema();
  Comparison by_position = Compare(before, after, schema);
  Comparison by_key = Compare(reversed, after, schema);
  RC_ASSERT(by_position.added == by_key.added);
  RC_ASSERT(by_position.removed == by_key.removed);
  RC_ASSERT(by_position.modified == by_key.modified);
}

// Where SameKeysInOrder pairs two lists by position, every item has a key, no key repeats, and
// the items at each position have the same key: pairing by key (FirstItems) pairs them alike.
RC_GTEST_PROP(ApplyProperty, ListsWithTheSameKeysInOrderPairAlikeByKey, ()) {
  const int kind = *rc::gen::inRange(0, 3);
  const ListSchema schema = kind == 0   ? MapList({"name"})
                            : kind == 1 ? MapList({"port", "protocol"}, {{"protocol", "TCP"}})
                                        : SetList();
  const auto gen_item = [&]() -> Json {
    if (kind == 2)
      return *rc::gen::element<Json>("a", "b", 1, 1.0, 2, true, nullptr, Json::object());
    Json item = Json::object();
    if (kind == 0 && *rc::gen::inRange(0, 5) > 0)
      item["name"] = *rc::gen::element<std::string>("a", "b", "c");
    if (kind == 1) {
      if (*rc::gen::inRange(0, 5) > 0) item["port"] = *rc::gen::element<Json>(80, 80.0, 81);
      if (*rc::gen::arbitrary<bool>())
        item["protocol"] = *rc::gen::element<std::string>("TCP", "UDP");
    }
    item["value"] = *rc::gen::inRange(0, 2);
    return item;
  };
  Json a = Json::array();
  for (int i = *rc::gen::inRange(0, 5); i > 0; --i) a.push_back(gen_item());
  Json b = a;
  for (Json& item : b) {
    if (item.is_object() && *rc::gen::arbitrary<bool>()) item["value"] = 7;
  }
  if (*rc::gen::inRange(0, 4) == 0 && !b.empty())
    b[*rc::gen::inRange<std::size_t>(0, b.size())] = gen_item();
  const bool aligned = items::SameKeysInOrder(a, b, schema);
  RC_CLASSIFY(aligned);
  if (!aligned) return;
  const auto first_a = items::FirstItems(&a, schema);
  const auto first_b = items::FirstItems(&b, schema);
  RC_ASSERT(first_a.size() == a.size());
  RC_ASSERT(first_b.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    Result<PathElement> pa = ListItemElement(schema, a[i]);
    Result<PathElement> pb = ListItemElement(schema, b[i]);
    RC_ASSERT(pa.ok() && pb.ok());
    RC_ASSERT(*pa == *pb);
    RC_ASSERT(first_a.at(*pa) == &a[i]);
    RC_ASSERT(first_b.at(*pb) == &b[i]);
  }
}

}  // namespace
}  // namespace lws::apiserver
