// The CEL evaluator (cel_ast.h): walks the tree with cel-go's semantics. Errors are values that
// propagate, except through && and ||, which are commutative over them (cel-spec
// doc/langdef.md, "Logical Operators"), and the all/exists macros built on them. Every node
// costs a step; once the budget is spent every node fails, and no && or || may swallow that.
#include <algorithm>

#include "api/cel.h"
#include "api/cel_ast.h"
#include "base/assert.h"

namespace lws::api {
namespace cel {
namespace {

bool IsBool(const Outcome& x, bool v) {
  return x.ok() && x.value.kind == Kind::kBool && x.value.b == v;
}

// a && b (is_and) or a || b over outcomes: the absorbing value (false, true) wins over errors;
// else an error (the left one first) or a non-bool makes the result an error.
Outcome Logic(bool is_and, Outcome a, Outcome b) {
  if (IsBool(a, !is_and)) return a;
  if (IsBool(b, !is_and)) return b;
  for (Outcome* x : {&a, &b}) {
    if (!x->ok()) return std::move(*x);
    if (x->value.kind != Kind::kBool) return Fail(std::string(kNoOverload));
  }
  return Ok(Value::Bool(is_and));
}

bool IsTypeIdent(std::string_view n) {
  static constexpr std::string_view kTypes[] = {"int",   "uint", "double",    "bool", "string",
                                                "bytes", "list", "null_type", "map",  "type"};
  return std::find(std::begin(kTypes), std::end(kTypes), n) != std::end(kTypes);
}

}  // namespace

Outcome Evaluator::Eval(const Expr& e) {
  if (!budget_->Charge(1)) return Fail(std::string(kCostExceeded));
  switch (e.kind) {
    case ExprKind::kLiteral:
      return Ok(e.literal);
    case ExprKind::kIdent:
      return EvalIdent(e);
    case ExprKind::kSelect:
    case ExprKind::kHas: {
      Outcome x = Eval(*e.args[0]);
      if (!x.ok()) return x;
      return Select(x.value, e.name, e.kind == ExprKind::kHas);
    }
    case ExprKind::kIndex: {
      Outcome x = Eval(*e.args[0]);
      if (!x.ok()) return x;
      Outcome key = Eval(*e.args[1]);
      if (!key.ok()) return key;
      return Index(x.value, key.value);
    }
    case ExprKind::kCall:
      return EvalCall(e);
    case ExprKind::kList:
      return EvalList(e);
    case ExprKind::kMap:
      return EvalMap(e);
    case ExprKind::kCond:
      return EvalCond(e);
    case ExprKind::kAnd:
    case ExprKind::kOr:
      return EvalLogic(e);
    case ExprKind::kNot: {
      Outcome x = Eval(*e.args[0]);
      if (!x.ok()) return x;
      if (x.value.kind != Kind::kBool) return Fail(std::string(kNoOverload));
      return Ok(Value::Bool(!x.value.b));
    }
    case ExprKind::kNeg: {
      Outcome x = Eval(*e.args[0]);
      return x.ok() ? Negate(x.value) : x;
    }
    case ExprKind::kBinary:
      return EvalBinary(e);
    case ExprKind::kMacro:
      return EvalMacro(e);
  }
  return Fail("unknown expression");
}

Outcome Evaluator::EvalIdent(const Expr& e) {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
    if (it->first == e.name) return Ok(it->second);
  }
  if (e.name == "self") return Ok(self_);
  // The name lives in the tree, which outlives the evaluation.
  if (IsTypeIdent(e.name)) return Ok(Value::Type(e.name));
  return Fail("undeclared reference to '" + e.name + "'");
}

Outcome Evaluator::EvalLogic(const Expr& e) {
  bool is_and = e.kind == ExprKind::kAnd;
  Outcome left = Eval(*e.args[0]);
  if (budget_->spent()) return Fail(std::string(kCostExceeded));
  if (IsBool(left, !is_and)) return left;  // short circuit
  Outcome right = Eval(*e.args[1]);
  if (budget_->spent()) return Fail(std::string(kCostExceeded));
  return Logic(is_and, std::move(left), std::move(right));
}

Outcome Evaluator::EvalCond(const Expr& e) {
  Outcome c = Eval(*e.args[0]);
  if (!c.ok()) return c;
  if (c.value.kind != Kind::kBool) return Fail(std::string(kNoOverload));
  return Eval(*e.args[c.value.b ? 1 : 2]);
}

Outcome Evaluator::EvalBinary(const Expr& e) {
  Outcome l = Eval(*e.args[0]);
  if (!l.ok()) return l;
  Outcome r = Eval(*e.args[1]);
  if (!r.ok()) return r;
  const Value& a = l.value;
  const Value& b = r.value;
  switch (e.op) {
    case BinaryOp::kEq:
      return Ok(Value::Bool(Equal(a, b, budget_)));
    case BinaryOp::kNe:
      return Ok(Value::Bool(!Equal(a, b, budget_)));
    case BinaryOp::kIn:
      return Contains(b, a, budget_);
    case BinaryOp::kAdd:
      return Add(a, b, budget_);
    case BinaryOp::kSub:
      return Arith('-', a, b);
    case BinaryOp::kMul:
      return Arith('*', a, b);
    case BinaryOp::kDiv:
      return Arith('/', a, b);
    case BinaryOp::kMod:
      return Arith('%', a, b);
    default:
      break;
  }
  Outcome c = Compare(a, b);
  if (!c.ok()) return c;
  std::int64_t cmp = c.value.i;
  if (cmp == 2) return Ok(Value::Bool(false));  // NaN is unordered
  bool holds = e.op == BinaryOp::kLt   ? cmp < 0
               : e.op == BinaryOp::kLe ? cmp <= 0
               : e.op == BinaryOp::kGt ? cmp > 0
                                       : cmp >= 0;
  return Ok(Value::Bool(holds));
}

Outcome Evaluator::EvalList(const Expr& e) {
  ValueList items;
  budget_->Charge(static_cast<std::int64_t>(e.args.size()));
  for (const auto& a : e.args) {
    Outcome x = Eval(*a);
    if (!x.ok()) return x;
    items.push_back(std::move(x.value));
  }
  return Ok(Value::List(std::move(items)));
}

Outcome Evaluator::EvalMap(const Expr& e) {
  ValueEntries entries;
  for (std::size_t i = 0; i + 1 < e.args.size(); i += 2) {
    Outcome k = Eval(*e.args[i]);
    if (!k.ok()) return k;
    Kind kind = k.value.kind;
    if (kind != Kind::kString && kind != Kind::kInt && kind != Kind::kUint && kind != Kind::kBool) {
      return Fail("unsupported key type: " + std::string(TypeName(k.value)));
    }
    for (const auto& entry : entries) {
      if (Equal(entry.first, k.value, budget_)) return Fail("Failed with repeated key");
    }
    Outcome v = Eval(*e.args[i + 1]);
    if (!v.ok()) return v;
    entries.emplace_back(std::move(k.value), std::move(v.value));
  }
  return Ok(Value::Map(std::move(entries)));
}

Outcome Evaluator::EvalMacro(const Expr& e) {
  Outcome range = Eval(*e.args[0]);
  if (!range.ok()) return range;
  ValueList items;
  if (Outcome r = Range(range.value, &items); !r.ok()) return r;
  budget_->Charge(static_cast<std::int64_t>(items.size()));
  Outcome accu = Ok(e.macro == MacroKind::kAll      ? Value::Bool(true)
                    : e.macro == MacroKind::kExists ? Value::Bool(false)
                                                    : Value::Int(0));
  ValueList built;
  for (const Value& item : items) {
    if (budget_->spent()) return Fail(std::string(kCostExceeded));
    bool done = false;
    Outcome step = MacroStep(e, item, &accu, &built, &done);
    if (!step.ok()) return step;
    if (done) break;
  }
  if (budget_->spent()) return Fail(std::string(kCostExceeded));
  switch (e.macro) {
    case MacroKind::kAll:
    case MacroKind::kExists:
      return accu;
    case MacroKind::kExistsOne:
      return Ok(Value::Bool(accu.value.i == 1));
    default:
      return Ok(Value::List(std::move(built)));
  }
}

// One iteration with the variable bound to `item`. all and exists fold the predicate into
// `accu` with && and || (stopping, `done`, once it is false or true); the others fail on the
// first error.
Outcome Evaluator::MacroStep(const Expr& e, const Value& item, Outcome* accu, ValueList* built,
                             bool* done) {
  vars_.emplace_back(e.name, item);
  Outcome p = Eval(*e.args[1]);
  Outcome result = Ok(Value());
  bool is_bool = p.ok() && p.value.kind == Kind::kBool;
  if (e.macro == MacroKind::kAll || e.macro == MacroKind::kExists) {
    bool is_all = e.macro == MacroKind::kAll;
    *accu = Logic(is_all, std::move(*accu), std::move(p));
    *done = IsBool(*accu, !is_all);
  } else if (!p.ok()) {
    result = std::move(p);
  } else if (e.macro == MacroKind::kMap) {
    built->push_back(std::move(p.value));
  } else if (!is_bool) {
    result = Fail(std::string(kNoOverload));
  } else if (e.macro == MacroKind::kExistsOne) {
    accu->value.i += p.value.b ? 1 : 0;
  } else if (e.macro == MacroKind::kFilter) {
    if (p.value.b) built->push_back(item);
  } else if (p.value.b) {  // map(x, p, t)
    Outcome t = Eval(*e.args[2]);
    if (t.ok()) {
      built->push_back(std::move(t.value));
    } else {
      result = std::move(t);
    }
  }
  vars_.pop_back();
  return result;
}

}  // namespace cel

Result<CelProgram> CelProgram::Compile(std::string_view rule) {
  ASSIGN_OR_RETURN(std::unique_ptr<cel::Expr> root, cel::Parse(rule));
  RETURN_IF_ERROR(cel::Check(root.get()));
  CelProgram program;
  program.root_ = std::move(root);
  return program;
}

CelResult CelProgram::Evaluate(const Json& self, const SchemaNode* schema, bool resource_root,
                               std::int64_t* steps_left) const {
  LWS_ASSERT(root_ != nullptr, "CelProgram::Evaluate on a program that was not compiled");
  cel::Budget budget(*steps_left);
  CelResult result;
  cel::Outcome bound = cel::FromJson(self, schema);
  if (bound.ok() && bound.value.kind == cel::Kind::kMap && bound.value.json != nullptr) {
    bound.value.resource_root |= resource_root;  // model.WithTypeAndObjectMeta
  }
  cel::Outcome out = bound;
  if (bound.ok()) out = cel::Evaluator(std::move(bound.value), &budget).Eval(*root_);
  *steps_left = std::max<std::int64_t>(budget.left(), -1);
  if (budget.spent()) {
    result.kind = CelResult::Kind::kOutOfBudget;
    result.error = std::string(cel::kCostExceeded);
  } else if (!out.ok()) {
    result.error = std::move(out.error);
  } else if (out.value.kind != cel::Kind::kBool) {
    result.error = "cel expression must evaluate to a bool";
  } else {
    result.kind = CelResult::Kind::kValue;
    result.value = out.value.b;
  }
  return result;
}

}  // namespace lws::api
