#include "store/object_meta.h"

namespace lws::store {
namespace {

const Json& Metadata(const StoredObject& object) {
  return api::ChildOrNull(object.document(), "metadata");
}

// A string member read in place, "" when missing or not a string: no copy for a read made on
// every event.
std::string_view StringIn(const Json& object, std::string_view key) {
  const Json& value = api::ChildOrNull(object, key);
  return value.is_string() ? std::string_view(value.get_ref<const std::string&>())
                           : std::string_view();
}

bool TrueIn(const Json& object, std::string_view key) {
  const Json& value = api::ChildOrNull(object, key);
  return value.is_boolean() && value.get<bool>();
}

OwnerRefView RefView(const Json& ref) {
  return OwnerRefView{StringIn(ref, "apiVersion"), StringIn(ref, "kind"),
                      StringIn(ref, "name"),       StringIn(ref, "uid"),
                      TrueIn(ref, "controller"),   TrueIn(ref, "blockOwnerDeletion")};
}

}  // namespace

std::vector<OwnerRefView> OwnerReferences(const StoredObject& object) {
  std::vector<OwnerRefView> refs;
  const Json& list = api::ChildOrNull(Metadata(object), "ownerReferences");
  if (!list.is_array()) return refs;
  for (const Json& ref : list) {
    if (ref.is_object()) refs.push_back(RefView(ref));
  }
  return refs;
}

std::optional<OwnerRefView> ControllerReference(const StoredObject& object) {
  const Json& list = api::ChildOrNull(Metadata(object), "ownerReferences");
  if (!list.is_array()) return std::nullopt;
  for (const Json& ref : list) {
    if (ref.is_object() && TrueIn(ref, "controller")) return RefView(ref);
  }
  return std::nullopt;
}

std::vector<std::string_view> Finalizers(const StoredObject& object) {
  std::vector<std::string_view> out;
  const Json& list = api::ChildOrNull(Metadata(object), "finalizers");
  if (!list.is_array()) return out;
  for (const Json& f : list) {
    if (f.is_string()) out.push_back(f.get_ref<const std::string&>());
  }
  return out;
}

std::string_view Annotation(const StoredObject& object, std::string_view key) {
  return StringIn(api::ChildOrNull(Metadata(object), "annotations"), key);
}

std::string_view DeletionTimestamp(const StoredObject& object) {
  return StringIn(Metadata(object), "deletionTimestamp");
}

}  // namespace lws::store
