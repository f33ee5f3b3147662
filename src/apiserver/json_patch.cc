// RFC 6902 JSON patch with the semantics of gopkg.in/evanphx/json-patch.v4 (v4.12), the library
// kube-apiserver applies JSON patches with, preceded by the handler's typed decode of the body.
// Declared in patch.h.
//
// evanphx represents a document as maps and slices of lazily decoded nodes where a JSON null is
// a nil node. That is why traversing through a null fails like a missing key, why test finds a
// missing key equal to null, and why some inputs make the Go code dereference nil (a panic,
// which the server turns into a 500; mirrored with GoPanic).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "api/go_json.h"
#include "api/intstr.h"
#include "api/json_depth.h"
#include "apiserver/patch.h"
#include "apiserver/patch_go.h"

namespace lws::apiserver {

namespace {

using internal::GoPanic;

Status Fail(std::string message) { return Status::Invalid(std::move(message), {}); }

// The handler decodes the body into []jsonPatchOp{Op, Path, From string; Value interface{}}
// before anything else; type errors there are 400s with Go's decoder wording.
Status DecodeOperations(const Json& patch) {
  auto type_word = [](const Json& v) -> std::string {
    if (v.is_object()) return "object";
    if (v.is_array()) return "array";
    if (v.is_string()) return "string";
    if (v.is_boolean()) return "bool";
    return "number";
  };
  const std::string prefix = "error decoding patch: json: cannot unmarshal ";
  // Go's decoder checks the syntax (nesting depth included) before any type.
  if (std::string deep = api::JsonDepthError(patch); !deep.empty()) {
    return Status::BadRequest("error decoding patch: " + deep);
  }
  if (!patch.is_array() && !patch.is_null()) {
    return Status::BadRequest(prefix + type_word(patch) +
                              " into Go value of type []handlers.jsonPatchOp");
  }
  if (patch.is_null()) return Status::Ok();
  for (const Json& op : patch) {
    if (op.is_null()) continue;
    if (!op.is_object()) {
      return Status::BadRequest(prefix + type_word(op) +
                                " into Go value of type handlers.jsonPatchOp");
    }
    for (const char* field : {"from", "op", "path"}) {
      auto it = op.find(field);
      if (it != op.end() && !it->is_null() && !it->is_string()) {
        return Status::BadRequest(prefix + type_word(*it) + " into Go struct field jsonPatchOp." +
                                  field + " of type string");
      }
    }
  }
  return Status::Ok();
}

// strconv.Atoi, with its error text for the caller's message.
bool GoAtoi(const std::string& s, std::int64_t* out, std::string* err) {
  auto parsed = api::GoAtoi(s);
  if (!parsed.ok()) {
    *err = parsed.status().message();
    return false;
  }
  *out = *parsed;
  return true;
}

std::string InvalidIndex(std::int64_t idx) {
  return "Unable to access invalid index: " + std::to_string(idx) + ": invalid index referenced";
}

// RFC 6901 unescaping in one left-to-right pass, like Go's strings.Replacer("~1","/","~0","~").
std::string DecodeKey(std::string_view k) {
  std::string out;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (k[i] == '~' && i + 1 < k.size() && (k[i + 1] == '0' || k[i + 1] == '1')) {
      out += k[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += k[i];
    }
  }
  return out;
}

// container.get: the node at `key`, or null for a missing key or a JSON null (a nil node).
Result<Json*> Get(Json& c, const std::string& key) {
  if (c.is_object()) {
    auto it = c.find(key);
    return (it == c.end() || it->is_null()) ? nullptr : &*it;
  }
  std::int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) return Fail(err);
  const auto n = static_cast<std::int64_t>(c.size());
  if (idx < 0) {
    if (idx < -n) return Fail(InvalidIndex(idx));
    idx += n;
  }
  if (idx >= n) return Fail(InvalidIndex(idx));
  Json& e = c[static_cast<std::size_t>(idx)];
  return e.is_null() ? nullptr : &e;
}

Status AddAt(Json& c, const std::string& key, Json value) {
  if (c.is_object()) {
    c[key] = std::move(value);
    return Status::Ok();
  }
  if (key == "-") {
    c.push_back(std::move(value));
    return Status::Ok();
  }
  std::int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err))
    return Fail("value was not a proper array index: '" + key + "': " + err);
  const auto size = static_cast<std::int64_t>(c.size()) + 1;
  if (idx >= size || idx < -size) return Fail(InvalidIndex(idx));
  if (idx < 0) idx += size;
  c.insert(c.begin() + idx, std::move(value));
  return Status::Ok();
}

Status RemoveAt(Json& c, const std::string& key) {
  if (c.is_object()) {
    if (c.erase(key) == 0)
      return Fail("Unable to remove nonexistent key: " + key + ": missing value");
    return Status::Ok();
  }
  std::int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) return Fail(err);
  const auto n = static_cast<std::int64_t>(c.size());
  if (idx >= n || idx < -n) return Fail(InvalidIndex(idx));
  if (idx < 0) idx += n;
  c.erase(c.begin() + idx);
  return Status::Ok();
}

// findObject: the container holding the last segment of `path`, or null when a segment before
// it is missing, null, a scalar or a bad index. Segment 0 (before the first '/') is ignored.
Json* FindContainer(Json& doc, std::string_view path, std::string* key) {
  std::size_t slash = path.find('/');
  if (slash == std::string_view::npos) return nullptr;
  Json* cur = &doc;
  std::string_view rest = path.substr(slash + 1);
  for (std::size_t next = rest.find('/'); next != std::string_view::npos; next = rest.find('/')) {
    Result<Json*> child = Get(*cur, DecodeKey(rest.substr(0, next)));
    if (!child.ok() || *child == nullptr || !(*child)->is_structured()) return nullptr;
    cur = *child;
    rest = rest.substr(next + 1);
  }
  *key = DecodeKey(rest);
  return cur;
}

// lazyNode.equal with `n` a document node and `o` the operation's value (Go: o.raw, possibly a
// nil node inside arrays). Objects compare key by key, arrays element by element, scalars by
// their text (so 1 and 1.0 differ). A null array element on either side is a nil node that Go
// dereferences.
bool NodeEqual(const Json& n, const Json* o) {
  const GoPanic nil{"runtime error: invalid memory address or nil pointer dereference"};
  if (o == nullptr) throw nil;
  if (n.is_object()) {
    if (!o->is_object() || o->size() != n.size()) return false;
    for (const auto& [k, v] : n.items()) {
      auto it = o->find(k);
      if (it == o->end() || v.is_null() != it->is_null()) return false;
      if (!v.is_null() && !NodeEqual(v, &*it)) return false;
    }
    return true;
  }
  if (n.is_array()) {
    if (!o->is_array() || o->size() != n.size()) return false;
    for (std::size_t i = 0; i < n.size(); ++i) {
      if (n[i].is_null()) throw nil;
      if (!NodeEqual(n[i], (*o)[i].is_null() ? nullptr : &(*o)[i])) return false;
    }
    return true;
  }
  if (o->is_structured()) return false;
  return internal::KindOf(n) == internal::KindOf(*o) && n == *o;
}

class Patcher {
 public:
  explicit Patcher(Json doc) : doc_(std::move(doc)) {}
  Json Take() { return std::move(doc_); }

  Status Apply(const Json& op) {
    const std::string kind = Field(op, "op").value_or("unknown");
    if (kind == "add") return Add(op);
    if (kind == "remove") return Remove(op);
    if (kind == "replace") return Replace(op);
    if (kind == "move") return Move(op);
    if (kind == "test") return Test(op);
    if (kind == "copy") return Copy(op);
    return Fail("Unexpected kind: " + kind);
  }

 private:
  static std::optional<std::string> Field(const Json& op, const char* name) {
    if (!op.is_object()) return std::nullopt;
    auto it = op.find(name);
    if (it == op.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  }
  // The operation's value: absent and null both write null; test and root replace tell them
  // apart (has_value).
  static Json Value(const Json& op, bool* has_value) {
    auto it = op.find("value");
    *has_value = it != op.end();
    return *has_value ? *it : Json();
  }

  // "<op> operation does not apply: <what>: <path>: missing value" (add and remove quote it).
  static Status NotApplicable(std::string_view op, std::string_view what, const std::string& path) {
    const bool quoted = op == "add" || op == "remove";
    return Fail(std::string(op) + " operation does not apply: " + std::string(what) + ": " +
                (quoted ? "\"" + path + "\"" : path) + ": missing value");
  }
  static Status Wrapped(const std::string& context, const Status& cause) {
    return Fail(context + ": " + cause.message());
  }
  static GoPanic NilDereference() {
    return GoPanic{"runtime error: invalid memory address or nil pointer dereference"};
  }

  Status Add(const Json& op) {
    auto path = Field(op, "path");
    if (!path) return Fail("add operation failed to decode path: missing value");
    std::string key;
    Json* c = FindContainer(doc_, *path, &key);
    if (c == nullptr) return NotApplicable("add", "doc is missing path", *path);
    bool has_value = false;
    Status s = AddAt(*c, key, Value(op, &has_value));
    return s.ok() ? s : Wrapped("error in add for path: '" + *path + "'", s);
  }

  Status Remove(const Json& op) {
    auto path = Field(op, "path");
    if (!path) return Fail("remove operation failed to decode path: missing value");
    std::string key;
    Json* c = FindContainer(doc_, *path, &key);
    if (c == nullptr) return NotApplicable("remove", "doc is missing path", *path);
    Status s = RemoveAt(*c, key);
    return s.ok() ? s : Wrapped("error in remove for path: '" + *path + "'", s);
  }

  Status Replace(const Json& op) {
    auto path = Field(op, "path");
    if (!path) {
      return Fail(
          "replace operation failed to decode path: operation missing path field: "
          "missing value");
    }
    bool has_value = false;
    Json value = Value(op, &has_value);
    if (path->empty()) {
      if (!has_value) throw NilDereference();
      // A scalar value is silently ignored (the library wraps a nil error).
      if (value.is_structured()) doc_ = std::move(value);
      return Status::Ok();
    }
    std::string key;
    Json* c = FindContainer(doc_, *path, &key);
    if (c == nullptr) return NotApplicable("replace", "doc is missing path", *path);
    if (!Get(*c, key).ok()) return NotApplicable("replace", "doc is missing key", *path);
    if (c->is_object()) {
      (*c)[key] = std::move(value);
    } else {
      *Slot(*c, key) = std::move(value);
    }
    return Status::Ok();
  }

  // The array element `key` names; REQUIRES: Get(c, key) succeeded.
  static Json* Slot(Json& c, const std::string& key) {
    std::int64_t idx = 0;
    std::string err;
    GoAtoi(key, &idx, &err);
    if (idx < 0) idx += static_cast<std::int64_t>(c.size());
    return &c[static_cast<std::size_t>(idx)];
  }

  Status Move(const Json& op) {
    auto from = Field(op, "from");
    if (!from) {
      return Fail(
          "move operation failed to decode from: operation, missing from field: "
          "missing value");
    }
    std::string key;
    Json* c = FindContainer(doc_, *from, &key);
    if (c == nullptr) return NotApplicable("move", "doc is missing from path", *from);
    Result<Json*> node = Get(*c, key);
    if (!node.ok()) return Wrapped("error in move for path: '" + key + "'", node.status());
    Json value = *node == nullptr ? Json() : std::move(**node);
    if (Status s = RemoveAt(*c, key); !s.ok()) {
      return Wrapped("error in move for path: '" + key + "'", s);
    }
    auto path = Field(op, "path");
    if (!path) {
      return Fail(
          "move operation failed to decode path: operation missing path field: "
          "missing value");
    }
    Json* dest = FindContainer(doc_, *path, &key);
    if (dest == nullptr) return NotApplicable("move", "doc is missing destination path", *path);
    Status s = AddAt(*dest, key, std::move(value));
    return s.ok() ? s : Wrapped("error in move for path: '" + *path + "'", s);
  }

  Status Test(const Json& op) {
    auto path = Field(op, "path");
    if (!path) {
      return Fail(
          "test operation failed to decode path: operation missing path field: "
          "missing value");
    }
    bool has_value = false;
    Json value = Value(op, &has_value);
    const Status failed = Fail("testing value " + *path + " failed: test failed");
    if (path->empty()) {
      if (!has_value) throw NilDereference();
      return NodeEqual(doc_, &value) ? Status::Ok() : failed;
    }
    std::string key;
    Json* c = FindContainer(doc_, *path, &key);
    if (c == nullptr) return NotApplicable("test", "is missing path", *path);
    Result<Json*> node = Get(*c, key);
    if (!node.ok()) return Wrapped("error in test for path: '" + *path + "'", node.status());
    if (*node == nullptr) {  // missing or null: passes only against an explicit null
      if (!has_value) throw NilDereference();
      return value.is_null() ? Status::Ok() : failed;
    }
    if (!has_value || value.is_null()) return failed;
    return NodeEqual(**node, &value) ? Status::Ok() : failed;
  }

  Status Copy(const Json& op) {
    auto from = Field(op, "from");
    if (!from) {
      return Fail(
          "copy operation failed to decode from: operation, missing from field: "
          "missing value");
    }
    std::string key;
    Json* c = FindContainer(doc_, *from, &key);
    if (c == nullptr) return NotApplicable("copy", "doc is missing from path", *from);
    Result<Json*> node = Get(*c, key);
    if (!node.ok()) return Wrapped("error in copy for from: '" + *from + "'", node.status());
    auto path = Field(op, "path");
    if (!path) return Fail("copy operation failed to decode path: missing value");
    Json* dest = FindContainer(doc_, *path, &key);
    if (dest == nullptr) return NotApplicable("copy", "doc is missing destination path", *path);
    Json value = *node == nullptr ? Json() : **node;
    if (*node != nullptr) copied_bytes_ += api::MarshalGoJson(value).size();
    if (copied_bytes_ > kMaxJsonPatchCopyBytes) {
      return Fail("Unable to complete the copy, the accumulated size increase of copy is " +
                  std::to_string(copied_bytes_) + ", exceeding the limit " +
                  std::to_string(kMaxJsonPatchCopyBytes));
    }
    Status s = AddAt(*dest, key, std::move(value));
    return s.ok() ? s : Wrapped("error while adding value during copy", s);
  }

  Json doc_;
  std::size_t copied_bytes_ = 0;
};

}  // namespace

namespace internal {

Result<Json> ApplyJsonPatchDetailed(const Json& original, const Json& patch) {
  RETURN_IF_ERROR(DecodeOperations(patch));
  if (patch.is_null()) return original;
  if (patch.size() > kMaxJsonPatchOperations) {
    return Status(Code::kRequestEntityTooLarge,
                  "The allowed maximum operations in a JSON patch is " +
                      std::to_string(kMaxJsonPatchOperations) + ", got " +
                      std::to_string(patch.size()));
  }
  if (!original.is_structured()) return Status::Internal("invalid JSON document");
  try {
    Patcher patcher(original);
    for (const Json& op : patch) RETURN_IF_ERROR(patcher.Apply(op));
    return patcher.Take();
  } catch (const GoPanic&) {
    return Status::Internal(std::string(kApiserverPanicMessage));
  }
}

}  // namespace internal

}  // namespace lws::apiserver
