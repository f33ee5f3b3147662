// CEL's operators on values (cel_value.h): heterogeneous equality and numeric comparison as
// cel-go has them (common/types), checked integer arithmetic (common/types/overflow.go), and
// the set and map list semantics of apiextensions (schema/cel/values.go).
#include <cmath>

#include "api/cel_value.h"
#include "api/schema_node.h"

namespace lws::api::cel {
namespace {

bool IsNumber(const Value& v) {
  return v.kind == Kind::kInt || v.kind == Kind::kUint || v.kind == Kind::kDouble;
}

template <class T>
int Cmp(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int CmpDouble(double a, double b) { return std::isnan(a) || std::isnan(b) ? 2 : Cmp(a, b); }

// compareIntDouble and compareUintDouble of cel-go: out of range doubles order first.
int CmpIntDouble(std::int64_t i, double d) {
  if (std::isnan(d)) return 2;
  if (d < -9223372036854775808.0) return 1;
  if (d >= 9223372036854775808.0) return -1;
  return CmpDouble(static_cast<double>(i), d);
}
int CmpUintDouble(std::uint64_t u, double d) {
  if (std::isnan(d)) return 2;
  if (d < 0) return 1;
  if (d >= 18446744073709551616.0) return -1;
  return CmpDouble(static_cast<double>(u), d);
}
int CmpIntUint(std::int64_t i, std::uint64_t u) {
  return i < 0 ? -1 : Cmp(static_cast<std::uint64_t>(i), u);
}

// REQUIRES: both numbers. 2 when unordered (NaN).
int NumericCmp(const Value& a, const Value& b) {
  if (a.kind == Kind::kInt && b.kind == Kind::kInt) return Cmp(a.i, b.i);
  if (a.kind == Kind::kUint && b.kind == Kind::kUint) return Cmp(a.u, b.u);
  if (a.kind == Kind::kDouble && b.kind == Kind::kDouble) return CmpDouble(a.d, b.d);
  if (a.kind == Kind::kInt && b.kind == Kind::kUint) return CmpIntUint(a.i, b.u);
  if (a.kind == Kind::kUint && b.kind == Kind::kInt) return -CmpIntUint(b.i, a.u);
  if (a.kind == Kind::kInt) return CmpIntDouble(a.i, b.d);
  if (a.kind == Kind::kUint) return CmpUintDouble(a.u, b.d);
  int c = b.kind == Kind::kInt ? CmpIntDouble(b.i, a.d) : CmpUintDouble(b.u, a.d);
  return c == 2 ? 2 : -c;
}

// The value at raw key `key` of map `m`, typed as `m` types it; false when absent.
bool MapLookup(const Value& m, const Value& key, Value* out, Budget* budget) {
  if (m.json == nullptr) {
    for (const auto& [k, v] : *m.entries) {
      if (Equal(k, key, budget)) {
        *out = v;
        return true;
      }
    }
    return false;
  }
  if (key.kind != Kind::kString) return false;
  auto it = m.json->find(std::string(key.str));
  if (it == m.json->end()) return false;
  const SchemaNode* s = nullptr;
  if (m.schema != nullptr) {
    auto prop = m.schema->properties.find(std::string(key.str));
    s = prop != m.schema->properties.end() ? prop->second.get() : m.schema->additional.get();
  }
  // Fields the schema does not type (or null ones) compare as plain JSON, as upstream falls
  // back to DeepEqual for unknown fields.
  Outcome v = FromJson(*it, s);
  *out = v.ok() ? v.value : FromJson(*it, nullptr).value;
  return true;
}

void RawKeys(const Value& m, ValueList* keys) {
  if (m.json == nullptr) {
    for (const auto& entry : *m.entries) keys->push_back(entry.first);
    return;
  }
  for (auto it = m.json->begin(); it != m.json->end(); ++it) {
    keys->push_back(Value::StringIn(it.key()));
  }
}

bool MapEqual(const Value& a, const Value& b, Budget* budget) {
  if (Size(a) != Size(b)) return false;
  ValueList keys;
  RawKeys(a, &keys);
  for (const Value& k : keys) {
    Value av, bv;
    if (!MapLookup(a, k, &av, budget) || !MapLookup(b, k, &bv, budget)) return false;
    if (!Equal(av, bv, budget)) return false;
  }
  return true;
}

bool Elements(const Value& list, ValueList* out) { return Range(list, out).ok(); }

bool HasElement(const ValueList& list, const Value& x, Budget* budget) {
  for (const Value& e : list) {
    if (Equal(e, x, budget)) return true;
  }
  return false;
}

// Map lists: elements with equal values at every x-kubernetes-list-map-keys key are the same
// entry (unstructuredMapList.toMapKey).
bool SameMapKey(const Value& a, const Value& b, const SchemaNode& s, Budget* budget) {
  for (const std::string& key : s.list_map_keys) {
    Value ak, bk;
    Value name = Value::StringIn(key);
    bool has_a = a.kind == Kind::kMap && MapLookup(a, name, &ak, budget);
    bool has_b = b.kind == Kind::kMap && MapLookup(b, name, &bk, budget);
    if (has_a != has_b || (has_a && !Equal(ak, bk, budget))) return false;
  }
  return true;
}

const SchemaNode* ListTyping(const Value& list) {
  return list.schema != nullptr &&
                 (list.schema->list_type == "set" || list.schema->list_type == "map")
             ? list.schema
             : nullptr;
}

bool ListEqual(const Value& a, const Value& b, Budget* budget) {
  ValueList as, bs;
  if (!Elements(a, &as) || !Elements(b, &bs) || as.size() != bs.size()) return false;
  const SchemaNode* typing = ListTyping(a);  // as upstream, the left operand decides
  for (std::size_t i = 0; i < bs.size(); ++i) {
    if (typing == nullptr) {
      if (!Equal(as[i], bs[i], budget)) return false;
    } else if (typing->list_type == "set") {
      if (!HasElement(as, bs[i], budget)) return false;
    } else {
      bool found = false;
      for (const Value& e : as) {
        if (SameMapKey(e, bs[i], *typing, budget)) {
          found = Equal(e, bs[i], budget);
          break;
        }
      }
      if (!found) return false;
    }
  }
  return true;
}

// X + Y: atomic lists concatenate; sets append what X lacks; map lists overwrite X's entries
// with Y's of the same key and append the rest (unstructuredSetList.Add, unstructuredMapList.Add).
Value Concat(const Value& a, const Value& b, Budget* budget) {
  ValueList as, bs;
  Elements(a, &as);
  Elements(b, &bs);
  const SchemaNode* typing = ListTyping(a);
  for (Value& e : bs) {
    if (typing == nullptr) {
      as.push_back(std::move(e));
      continue;
    }
    bool merged = false;
    for (Value& x : as) {
      if (typing->list_type == "set" ? Equal(x, e, budget) : SameMapKey(x, e, *typing, budget)) {
        if (typing->list_type == "map") x = e;
        merged = true;
        break;
      }
    }
    if (!merged) as.push_back(std::move(e));
  }
  return Value::List(std::move(as), a.schema);
}

const char kIntOverflow[] = "integer overflow";
const char kUintOverflow[] = "unsigned integer overflow";

Outcome IntArith(char op, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  switch (op) {
    case '+':
      if (__builtin_add_overflow(a, b, &r)) return Fail(kIntOverflow);
      return Ok(Value::Int(r));
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) return Fail(kIntOverflow);
      return Ok(Value::Int(r));
    case '*':
      if (__builtin_mul_overflow(a, b, &r)) return Fail(kIntOverflow);
      return Ok(Value::Int(r));
    case '/':
      if (b == 0) return Fail("division by zero");
      if (a == INT64_MIN && b == -1) return Fail(kIntOverflow);
      return Ok(Value::Int(a / b));
    default:
      if (b == 0) return Fail("modulus by zero");
      if (a == INT64_MIN && b == -1) return Fail(kIntOverflow);
      return Ok(Value::Int(a % b));
  }
}

Outcome UintArith(char op, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  switch (op) {
    case '+':
      if (__builtin_add_overflow(a, b, &r)) return Fail(kUintOverflow);
      return Ok(Value::Uint(r));
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) return Fail(kUintOverflow);
      return Ok(Value::Uint(r));
    case '*':
      if (__builtin_mul_overflow(a, b, &r)) return Fail(kUintOverflow);
      return Ok(Value::Uint(r));
    case '/':
      if (b == 0) return Fail("division by zero");
      return Ok(Value::Uint(a / b));
    default:
      if (b == 0) return Fail("modulus by zero");
      return Ok(Value::Uint(a % b));
  }
}

Outcome DoubleArith(char op, double a, double b) {
  switch (op) {
    case '+':
      return Ok(Value::Double(a + b));
    case '-':
      return Ok(Value::Double(a - b));
    case '*':
      return Ok(Value::Double(a * b));
    case '/':
      return Ok(Value::Double(a / b));  // IEEE: x / 0 is an infinity, as in cel-go
    default:
      return Fail(std::string(kNoOverload));
  }
}

}  // namespace

bool Equal(const Value& a, const Value& b, Budget* budget) {
  budget->Charge(1);
  if (IsNumber(a) && IsNumber(b)) return NumericCmp(a, b) == 0;
  if (a.kind != b.kind || budget->spent()) return false;
  switch (a.kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.b == b.b;
    case Kind::kString:
      budget->Charge(ByteSteps(a.str.size()));
      return a.str == b.str;
    case Kind::kType:
      return a.str == b.str;
    case Kind::kList:
      return ListEqual(a, b, budget);
    case Kind::kMap:
      return MapEqual(a, b, budget);
    default:
      return false;
  }
}

Outcome Compare(const Value& a, const Value& b) {
  if (IsNumber(a) && IsNumber(b)) return Ok(Value::Int(NumericCmp(a, b)));
  if (a.kind != b.kind) return Fail(std::string(kNoOverload));
  if (a.kind == Kind::kBool) return Ok(Value::Int(Cmp(a.b, b.b)));
  if (a.kind == Kind::kString) return Ok(Value::Int(Cmp(a.str.compare(b.str), 0)));
  return Fail(std::string(kNoOverload));
}

Outcome Add(const Value& a, const Value& b, Budget* budget) {
  if (a.kind != b.kind) return Fail(std::string(kNoOverload));
  switch (a.kind) {
    case Kind::kInt:
      return IntArith('+', a.i, b.i);
    case Kind::kUint:
      return UintArith('+', a.u, b.u);
    case Kind::kDouble:
      return DoubleArith('+', a.d, b.d);
    case Kind::kString:
      budget->Charge(ByteSteps(a.str.size() + b.str.size()));
      return Ok(Value::String(std::string(a.str) + std::string(b.str)));
    case Kind::kList:
      budget->Charge(Size(a) + Size(b));
      return Ok(Concat(a, b, budget));
    default:
      return Fail(std::string(kNoOverload));
  }
}

Outcome Arith(char op, const Value& a, const Value& b) {
  if (a.kind != b.kind) return Fail(std::string(kNoOverload));
  if (a.kind == Kind::kInt) return IntArith(op, a.i, b.i);
  if (a.kind == Kind::kUint) return UintArith(op, a.u, b.u);
  if (a.kind == Kind::kDouble) return DoubleArith(op, a.d, b.d);
  return Fail(std::string(kNoOverload));
}

Outcome Negate(const Value& a) {
  if (a.kind == Kind::kInt) {
    if (a.i == INT64_MIN) return Fail(kIntOverflow);
    return Ok(Value::Int(-a.i));
  }
  if (a.kind == Kind::kDouble) return Ok(Value::Double(-a.d));
  return Fail(std::string(kNoOverload));
}

Outcome Contains(const Value& container, const Value& x, Budget* budget) {
  if (container.kind == Kind::kList) {
    ValueList items;
    if (Outcome r = Range(container, &items); !r.ok()) return r;
    budget->Charge(static_cast<std::int64_t>(items.size()));
    return Ok(Value::Bool(HasElement(items, x, budget)));
  }
  if (container.kind != Kind::kMap || IsObject(container)) return Fail(std::string(kNoOverload));
  Value ignored;
  return Ok(Value::Bool(MapLookup(container, x, &ignored, budget)));
}

}  // namespace lws::api::cel
