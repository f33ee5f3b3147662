// What a parsed CEL expression must pass before it runs (cel_ast.h). cel-go's type checker does
// far more; this keeps to what decides whether the subset can evaluate the rule at all, so that
// a rule it cannot run is skipped when the schema is compiled instead of failing every object.
#include <algorithm>

#include "api/cel_ast.h"

namespace lws::api::cel {
namespace {

bool IsTypeName(std::string_view n) {
  static constexpr std::string_view kTypes[] = {"int",   "uint", "double",    "bool", "string",
                                                "bytes", "list", "null_type", "map",  "type"};
  return std::find(std::begin(kTypes), std::end(kTypes), n) != std::end(kTypes);
}

// Arguments a supported function takes, counting the receiver; -1 when it is not supported.
// `receiver`: called as x.f(...) rather than f(x, ...).
int Arity(std::string_view name, bool receiver) {
  if (name == "size") return 1;
  if (name == "contains" || name == "startsWith" || name == "endsWith") return receiver ? 2 : -1;
  if (name == "matches") return 2;
  if (name == "int" || name == "uint" || name == "double" || name == "string" || name == "type" ||
      name == "dyn") {
    return receiver ? -1 : 1;
  }
  return -1;
}

class Checker {
 public:
  Status Visit(Expr* e) {
    switch (e->kind) {
      case ExprKind::kIdent:
        return Ident(*e);
      case ExprKind::kCall:
        RETURN_IF_ERROR(Call(e));
        break;
      case ExprKind::kMacro:
        return Macro(e);
      default:
        break;
    }
    for (auto& a : e->args) RETURN_IF_ERROR(Visit(a.get()));
    return Status::Ok();
  }

 private:
  Status Ident(const Expr& e) const {
    if (std::find(vars_.begin(), vars_.end(), e.name) != vars_.end()) return Status::Ok();
    if (e.name == "self" || IsTypeName(e.name)) return Status::Ok();
    if (e.name == "oldSelf") {
      return Status::BadRequest("uses oldSelf: transition rules are not evaluated");
    }
    return Status::BadRequest("undeclared reference to '" + e.name + "'");
  }

  static Status Call(Expr* e) {
    int arity = Arity(e->name, e->receiver);
    if (arity < 0) return Status::BadRequest("function '" + e->name + "' is not supported");
    if (static_cast<int>(e->args.size()) != arity) {
      return Status::BadRequest("found no matching overload for '" + e->name + "' with " +
                                std::to_string(e->args.size()) + " argument(s)");
    }
    // A constant pattern is compiled once, and an invalid one fails here as in cel-go.
    if (e->name == "matches" && e->args[1]->kind == ExprKind::kLiteral &&
        e->args[1]->literal.kind == Kind::kString) {
      auto re = SchemaRegex::Compile(e->args[1]->literal.str);
      if (!re.ok()) return Status::BadRequest("compile error: " + re.status().message());
      e->regex = std::make_shared<const SchemaRegex>(*re);
    }
    return Status::Ok();
  }

  Status Macro(Expr* e) {
    RETURN_IF_ERROR(Visit(e->args[0].get()));
    vars_.push_back(e->name);
    for (std::size_t i = 1; i < e->args.size(); ++i) {
      Status s = Visit(e->args[i].get());
      if (!s.ok()) return s;
    }
    vars_.pop_back();
    return Status::Ok();
  }

  std::vector<std::string> vars_;  // comprehension variables in scope
};

// Whether the expression can only produce something other than a bool.
bool NeverBool(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return e.literal.kind != Kind::kBool;
    case ExprKind::kList:
    case ExprKind::kMap:
    case ExprKind::kNeg:
      return true;
    case ExprKind::kBinary:
      return e.op == BinaryOp::kAdd || e.op == BinaryOp::kSub || e.op == BinaryOp::kMul ||
             e.op == BinaryOp::kDiv || e.op == BinaryOp::kMod;
    case ExprKind::kMacro:
      return e.macro == MacroKind::kFilter || e.macro == MacroKind::kMap ||
             e.macro == MacroKind::kMapFilter;
    default:
      return false;
  }
}

}  // namespace

Status Check(Expr* root) {
  RETURN_IF_ERROR(Checker().Visit(root));
  if (NeverBool(*root)) return Status::BadRequest("cel expression must evaluate to a bool");
  return Status::Ok();
}

}  // namespace lws::api::cel
