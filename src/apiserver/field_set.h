// File: apiserver/field_set.h
//
// Sets of field paths, the currency of server-side apply (sigs.k8s.io/structured-merge-diff,
// package fieldpath). A path leads from the object root to one field or list item through path
// elements of four kinds, written as in metadata.managedFields[].fieldsV1:
//
//   f:<name>            a field of an object                     ".spec.replicas"
//   k:{"name":"c"}      the item of a map-typed list with these key values
//   v:"x"               the item of a set-typed list with this value
//   i:3                 a position (accepted and written back; apply itself never produces one)
//
// A FieldSet is a tree: each node holds `members` (paths that end there) and `children` (paths
// that continue). A path element may be both, which FieldsV1 writes as a "." entry inside the
// child object: {"k:{\"name\":\"c\"}":{".":{},"f:image":{}}}.
//
// Invariants: (1) no child set is empty; (2) every operation returns a normalised set, so two
// sets with the same paths compare equal. Values only; not thread-safe by sharing.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::apiserver {

using api::Json;

// Deepest nesting (objects and lists) that apply and FieldsV1 accept; deeper input is rejected
// before any recursive walk, so no request can exhaust the stack. Real objects stay below 40.
inline constexpr std::size_t kMaxFieldDepth = 1000;

class PathElement {
 public:
  enum class Kind { kField, kKey, kValue, kIndex };

  static PathElement Field(std::string name);
  // REQUIRES: `fields` is a JSON object (key field name -> value).
  static PathElement Key(Json fields);
  static PathElement Value(Json value);
  static PathElement Index(int index);

  Kind kind() const { return kind_; }
  const std::string& name() const { return name_; }  // kField
  const Json& value() const { return value_; }       // kKey (object) or kValue
  int index() const { return index_; }               // kIndex

  // The total order of structured-merge-diff: fields < keys < values < indexes, then by content
  // (names bytewise, values numerically for numbers, then strings, booleans, lists, maps, null).
  int Compare(const PathElement& other) const;
  bool operator<(const PathElement& other) const { return Compare(other) < 0; }
  bool operator==(const PathElement& other) const { return Compare(other) == 0; }

  // FieldsV1 key: "f:name", "k:{\"name\":\"c\"}", "v:\"x\"", "i:3".
  std::string Serialize() const;
  // Human form used in conflict messages: ".name", "[name=\"c\"]", "[=\"x\"]", "[3]".
  std::string String() const;

 private:
  Kind kind_ = Kind::kField;
  std::string name_;
  Json value_;
  int index_ = 0;
};

using Path = std::vector<PathElement>;

// ".spec.template.spec.containers[name=\"c\"].image", as fieldpath.Path.String().
std::string PathString(const Path& path);

// Total order on JSON values used for path elements (value.Compare upstream).
int CompareValues(const Json& a, const Json& b);

// Parses one FieldsV1 key. nullopt for an unknown element type, which upstream silently drops;
// an error for a malformed key of a known type.
Result<std::optional<PathElement>> ParsePathElement(std::string_view text);

class FieldSet {
 public:
  FieldSet() = default;

  void Insert(const Path& path);
  bool Has(const Path& path) const;
  bool empty() const { return members_.empty() && children_.empty(); }

  bool HasMember(const PathElement& pe) const { return members_.count(pe) > 0; }
  // The elements that end a path here, and the sets below the elements paths go through.
  const std::set<PathElement>& members() const { return members_; }
  const std::map<PathElement, FieldSet>& children() const { return children_; }
  // The set of paths below `pe` (with `pe` removed), or nullptr.
  const FieldSet* Child(const PathElement& pe) const;

  FieldSet Union(const FieldSet& other) const;
  // Union in place: copies only what `other` adds.
  void Add(const FieldSet& other);
  FieldSet Intersection(const FieldSet& other) const;
  // Paths in this set that are not in `other` (a member of `other` removes only that path).
  FieldSet Difference(const FieldSet& other) const;
  // Difference in place: walks only where `other` goes.
  void Subtract(const FieldSet& other);
  // Like Difference, but a member of `other` also removes every path below it.
  FieldSet RecursiveDifference(const FieldSet& other) const;
  // Adds, as a member, every field-name element that has children (EnsureNamedFieldsAreMembers;
  // without a full schema every object key counts as a named field).
  FieldSet WithFieldsAsMembers() const;

  // Every path in the set: at each node the members first, then each child in order (the
  // order of fieldpath.Set.Iterate, which conflict messages follow).
  std::vector<Path> Paths() const;
  std::size_t size() const;

  // The FieldsV1 JSON object (members as {}, "." for a child that is also a member).
  Json ToFieldsV1() const;
  // Reads FieldsV1. Unknown element types are dropped (as upstream); malformed keys and non-object
  // nodes are errors whose message names the key.
  static Result<FieldSet> FromFieldsV1(const Json& fields);

  // Inserts paths one after another, starting each from where it leaves the previous one
  // instead of from the root: a walk that emits paths in tree order shares most of each prefix.
  // REQUIRES: nothing removes paths from the set while an Inserter on it is in use.
  class Inserter {
   public:
    explicit Inserter(FieldSet* root) : root_(root) {}
    void Insert(const Path& path);

   private:
    FieldSet* root_;
    // chain_[i]: the element of the last path at depth i, as stored, and the set below it.
    std::vector<std::pair<const PathElement*, FieldSet*>> chain_;
  };

  bool operator==(const FieldSet& other) const {
    return members_ == other.members_ && children_ == other.children_;
  }

 private:
  void InsertAt(const Path& path, std::size_t i);
  void CollectPaths(Path* prefix, std::vector<Path>* out) const;
  static Status ReadNode(const Json& node, std::size_t depth, FieldSet* into, bool* is_member);

  std::set<PathElement> members_;
  std::map<PathElement, FieldSet> children_;
};

// One step of a walk that leaves out the paths that are members of `skip`: true when element
// `pe` is left out; otherwise `*below` is the part of `skip` under `pe` (nullptr: none).
bool SkipsElement(const FieldSet* skip, const PathElement& pe, const FieldSet** below);

}  // namespace lws::apiserver
