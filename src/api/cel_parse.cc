// The CEL parser (cel_ast.h): recursive descent over cel-spec's grammar (doc/langdef.md,
// "Syntax"), with cel-go's choices where the grammar leaves them: `-` right before a number is
// part of the literal, an even run of `!` or `-` cancels out, && and || chains become balanced
// trees, and has/all/exists/exists_one/filter/map are expanded as macros.
#include <charconv>

#include "api/cel_ast.h"

namespace lws::api::cel {
namespace {

using ExprPtr = std::unique_ptr<Expr>;

bool IsReservedWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
      "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};
  for (std::string_view k : kWords) {
    if (w == k) return true;
  }
  return false;
}

// The words CEL's lexer makes tokens of, which cannot name a field.
bool IsLiteralOrIn(std::string_view w) {
  return w == "true" || w == "false" || w == "null" || w == "in";
}

// Words that cannot name a variable or function (cel-go parser.go, reservedIds).
bool IsKeyword(std::string_view w) { return IsLiteralOrIn(w) || IsReservedWord(w); }

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

  Result<ExprPtr> ParseAll() {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    if (Cur().kind != Tok::kEnd) return Error(Cur().offset, "unexpected " + Describe(Cur()));
    return e;
  }

 private:
  const Token& Cur() const { return tokens_[pos_]; }
  bool IsPunct(std::string_view p) const { return Cur().kind == Tok::kPunct && Cur().text == p; }
  bool Accept(std::string_view p) {
    if (!IsPunct(p)) return false;
    ++pos_;
    return true;
  }
  Status Expect(std::string_view p) {
    if (Accept(p)) return Status::Ok();
    return Error(Cur().offset, "expected '" + std::string(p) + "', found " + Describe(Cur()));
  }
  static std::string Describe(const Token& t) {
    if (t.kind == Tok::kEnd) return "end of expression";
    if (t.kind == Tok::kString) return "string literal";
    return "'" + t.text + "'";
  }
  Status Error(std::size_t offset, const std::string& what) const {
    return Status::BadRequest("syntax error at " + Position(text_, offset) + ": " + what);
  }

  // A node over `args`, refused when the tree would nest deeper than kCelMaxDepth.
  Result<ExprPtr> Make(ExprKind kind, std::size_t offset, std::vector<ExprPtr> args) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->offset = offset;
    for (const ExprPtr& a : args) e->depth = std::max(e->depth, a->depth + 1);
    if (e->depth > kCelMaxDepth) {
      return Error(offset,
                   "expression nests more than " + std::to_string(kCelMaxDepth) + " levels");
    }
    e->args = std::move(args);
    return e;
  }
  Result<ExprPtr> Make(ExprKind kind, std::size_t offset, ExprPtr a, ExprPtr b = nullptr) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    if (b) args.push_back(std::move(b));
    return Make(kind, offset, std::move(args));
  }

  Result<ExprPtr> ParseExpr() {
    if (++nesting_ > kCelMaxDepth) {
      return Error(Cur().offset,
                   "expression nests more than " + std::to_string(kCelMaxDepth) + " levels");
    }
    std::size_t at = Cur().offset;
    ASSIGN_OR_RETURN(ExprPtr cond, ParseLogic(ExprKind::kOr));
    if (Accept("?")) {
      ASSIGN_OR_RETURN(ExprPtr then, ParseLogic(ExprKind::kOr));
      RETURN_IF_ERROR(Expect(":"));
      ASSIGN_OR_RETURN(ExprPtr otherwise, ParseExpr());
      std::vector<ExprPtr> args;
      args.push_back(std::move(cond));
      args.push_back(std::move(then));
      args.push_back(std::move(otherwise));
      ASSIGN_OR_RETURN(cond, Make(ExprKind::kCond, at, std::move(args)));
    }
    --nesting_;
    return cond;
  }

  // a || b || c (kOr over kAnd terms) or a && b && c (kAnd over relations), balanced.
  Result<ExprPtr> ParseLogic(ExprKind kind) {
    std::string_view op = kind == ExprKind::kOr ? "||" : "&&";
    std::vector<ExprPtr> terms;
    std::size_t at = Cur().offset;
    do {
      ASSIGN_OR_RETURN(ExprPtr t,
                       kind == ExprKind::kOr ? ParseLogic(ExprKind::kAnd) : ParseRelation());
      terms.push_back(std::move(t));
    } while (Accept(op));
    return Balance(kind, at, &terms, 0, terms.size());
  }
  Result<ExprPtr> Balance(ExprKind kind, std::size_t at, std::vector<ExprPtr>* terms,
                          std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) return std::move((*terms)[lo]);
    std::size_t mid = lo + (hi - lo) / 2;
    ASSIGN_OR_RETURN(ExprPtr left, Balance(kind, at, terms, lo, mid));
    ASSIGN_OR_RETURN(ExprPtr right, Balance(kind, at, terms, mid, hi));
    return Make(kind, at, std::move(left), std::move(right));
  }

  bool RelationOp(BinaryOp* op) {
    static constexpr std::pair<std::string_view, BinaryOp> kOps[] = {
        {"==", BinaryOp::kEq}, {"!=", BinaryOp::kNe}, {"<", BinaryOp::kLt},
        {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt},  {">=", BinaryOp::kGe}};
    if (Cur().kind == Tok::kIdent && Cur().text == "in") {
      *op = BinaryOp::kIn;
      return true;
    }
    for (const auto& [text, value] : kOps) {
      if (IsPunct(text)) {
        *op = value;
        return true;
      }
    }
    return false;
  }

  // Relations, sums and products are left-associative chains of one precedence each.
  Result<ExprPtr> ParseRelation() { return ParseChain(0); }
  Result<ExprPtr> ParseChain(int level) {
    if (level == 3) return ParseUnary();
    ASSIGN_OR_RETURN(ExprPtr left, ParseChain(level + 1));
    while (true) {
      BinaryOp op;
      std::size_t at = Cur().offset;
      if (level == 0 && RelationOp(&op)) {
      } else if (level == 1 && (IsPunct("+") || IsPunct("-"))) {
        op = IsPunct("+") ? BinaryOp::kAdd : BinaryOp::kSub;
      } else if (level == 2 && (IsPunct("*") || IsPunct("/") || IsPunct("%"))) {
        op = IsPunct("*") ? BinaryOp::kMul : IsPunct("/") ? BinaryOp::kDiv : BinaryOp::kMod;
      } else {
        return left;
      }
      ++pos_;
      ASSIGN_OR_RETURN(ExprPtr right, ParseChain(level + 1));
      ASSIGN_OR_RETURN(left, Make(ExprKind::kBinary, at, std::move(left), std::move(right)));
      left->op = op;
    }
  }

  Result<ExprPtr> ParseUnary() {
    std::size_t at = Cur().offset;
    std::string_view op = IsPunct("!") ? "!" : IsPunct("-") ? "-" : "";
    int count = 0;
    while (!op.empty() && Accept(op)) ++count;
    // -5 is the literal -5 (so that -9223372036854775808 is an int), not a negation of 5.
    bool signed_literal =
        op == "-" && count == 1 && (Cur().kind == Tok::kInt || Cur().kind == Tok::kDouble);
    ASSIGN_OR_RETURN(ExprPtr operand, ParseMember(signed_literal));
    if (signed_literal || count % 2 == 0) return operand;
    return Make(op == "!" ? ExprKind::kNot : ExprKind::kNeg, at, std::move(operand));
  }

  Result<ExprPtr> ParseMember(bool negative_literal) {
    ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary(negative_literal));
    while (true) {
      std::size_t at = Cur().offset;
      if (Accept(".")) {
        const Token& field = Cur();
        // Reserved words name fields (self.namespace); only CEL's own tokens may not.
        if (field.kind != Tok::kIdent || IsLiteralOrIn(field.text)) {
          return Error(field.offset, "expected a field name, found " + Describe(field));
        }
        std::string name = Cur().text;
        ++pos_;
        if (IsPunct("(")) {
          ASSIGN_OR_RETURN(e, ParseReceiverCall(std::move(e), std::move(name), at));
        } else {
          ASSIGN_OR_RETURN(e, Make(ExprKind::kSelect, at, std::move(e)));
          e->name = std::move(name);
        }
      } else if (Accept("[")) {
        ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
        RETURN_IF_ERROR(Expect("]"));
        ASSIGN_OR_RETURN(e, Make(ExprKind::kIndex, at, std::move(e), std::move(key)));
      } else {
        return e;
      }
    }
  }

  Result<std::vector<ExprPtr>> ParseArgs(std::string_view close) {
    std::vector<ExprPtr> args;
    while (!IsPunct(close)) {
      ASSIGN_OR_RETURN(ExprPtr a, ParseExpr());
      args.push_back(std::move(a));
      if (!Accept(",")) break;
    }
    RETURN_IF_ERROR(Expect(close));
    return args;
  }

  Result<ExprPtr> ParseReceiverCall(ExprPtr target, std::string name, std::size_t at);
  Result<ExprPtr> ParseGlobalCall(std::string name, std::size_t at);
  Result<ExprPtr> ParsePrimary(bool negative_literal);
  Result<ExprPtr> ParseAggregate(bool map, std::size_t at);
  Result<ExprPtr> Literal(bool negative);

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
};

Result<ExprPtr> Parser::ParseReceiverCall(ExprPtr target, std::string name, std::size_t at) {
  ++pos_;  // (
  ASSIGN_OR_RETURN(std::vector<ExprPtr> args, ParseArgs(")"));
  static constexpr std::pair<std::string_view, MacroKind> kMacros[] = {
      {"all", MacroKind::kAll},
      {"exists", MacroKind::kExists},
      {"exists_one", MacroKind::kExistsOne},
      {"filter", MacroKind::kFilter},
      {"map", MacroKind::kMap}};
  for (const auto& [macro_name, kind] : kMacros) {
    bool arity = args.size() == 2 || (kind == MacroKind::kMap && args.size() == 3);
    if (name != macro_name || !arity) continue;
    if (args[0]->kind != ExprKind::kIdent) return Error(at, "argument must be a simple name");
    std::vector<ExprPtr> parts;
    parts.push_back(std::move(target));
    for (std::size_t i = 1; i < args.size(); ++i) parts.push_back(std::move(args[i]));
    ASSIGN_OR_RETURN(ExprPtr e, Make(ExprKind::kMacro, at, std::move(parts)));
    e->macro = args.size() == 3 ? MacroKind::kMapFilter : kind;
    e->name = args[0]->name;
    return e;
  }
  args.insert(args.begin(), std::move(target));
  ASSIGN_OR_RETURN(ExprPtr e, Make(ExprKind::kCall, at, std::move(args)));
  e->name = std::move(name);
  e->receiver = true;
  return e;
}

Result<ExprPtr> Parser::ParseGlobalCall(std::string name, std::size_t at) {
  ++pos_;  // (
  ASSIGN_OR_RETURN(std::vector<ExprPtr> args, ParseArgs(")"));
  if (name == "has" && args.size() == 1) {
    if (args[0]->kind != ExprKind::kSelect) return Error(at, "invalid argument to has() macro");
    args[0]->kind = ExprKind::kHas;
    return std::move(args[0]);
  }
  ASSIGN_OR_RETURN(ExprPtr e, Make(ExprKind::kCall, at, std::move(args)));
  e->name = std::move(name);
  return e;
}

Result<ExprPtr> Parser::ParsePrimary(bool negative_literal) {
  std::size_t at = Cur().offset;
  if (Accept("(")) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    RETURN_IF_ERROR(Expect(")"));
    return e;
  }
  if (Accept("[")) return ParseAggregate(false, at);
  if (Accept("{")) return ParseAggregate(true, at);
  Accept(".");  // a leading dot names the root scope, which is the only scope here
  if (Cur().kind != Tok::kIdent) return Literal(negative_literal);
  std::string name = Cur().text;
  if (name == "true" || name == "false" || name == "null") return Literal(false);
  if (IsKeyword(name)) return Error(at, "reserved identifier '" + name + "'");
  ++pos_;
  if (IsPunct("(")) return ParseGlobalCall(std::move(name), at);
  if (IsPunct("{")) return Error(at, "message construction is not supported");
  ASSIGN_OR_RETURN(ExprPtr e, Make(ExprKind::kIdent, at, std::vector<ExprPtr>()));
  e->name = std::move(name);
  return e;
}

// [a, b] or {k: v, ...}, each with an optional trailing comma.
Result<ExprPtr> Parser::ParseAggregate(bool map, std::size_t at) {
  std::string_view close = map ? "}" : "]";
  std::vector<ExprPtr> items;
  while (!IsPunct(close)) {
    ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
    items.push_back(std::move(item));
    if (map) {
      RETURN_IF_ERROR(Expect(":"));
      ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      items.push_back(std::move(value));
    }
    if (!Accept(",")) break;
  }
  RETURN_IF_ERROR(Expect(close));
  return Make(map ? ExprKind::kMap : ExprKind::kList, at, std::move(items));
}

Result<ExprPtr> Parser::Literal(bool negative) {
  const Token& t = Cur();
  auto e = std::make_unique<Expr>();
  e->offset = t.offset;
  std::string text = (negative ? "-" : "") + t.text;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  std::errc ec = std::errc::invalid_argument;
  if (t.kind == Tok::kInt || t.kind == Tok::kUint) {
    bool hex = t.text.size() > 2 && (t.text[1] == 'x' || t.text[1] == 'X');
    std::string digits = (negative ? "-" : "") + (hex ? t.text.substr(2) : t.text);
    first = digits.data();
    last = digits.data() + digits.size();
    if (t.kind == Tok::kInt) {
      e->literal = Value::Int(0);
      auto r = std::from_chars(first, last, e->literal.i, hex ? 16 : 10);
      ec = r.ptr == last ? r.ec : std::errc::invalid_argument;
    } else {
      e->literal = Value::Uint(0);
      auto r = std::from_chars(first, last, e->literal.u, hex ? 16 : 10);
      ec = r.ptr == last ? r.ec : std::errc::invalid_argument;
    }
  } else if (t.kind == Tok::kDouble) {
    e->literal = Value::Double(0);
    auto r = std::from_chars(first, last, e->literal.d);
    ec = r.ptr == last ? r.ec : std::errc::invalid_argument;
  } else if (t.kind == Tok::kString) {
    e->literal = Value::String(t.text);
    ec = std::errc();
  } else if (t.kind == Tok::kIdent && (t.text == "true" || t.text == "false")) {
    e->literal = Value::Bool(t.text == "true");
    ec = std::errc();
  } else if (t.kind == Tok::kIdent && t.text == "null") {
    ec = std::errc();
  } else {
    return Error(t.offset, "unexpected " + Describe(t));
  }
  if (ec != std::errc()) return Error(t.offset, "invalid number literal " + text);
  ++pos_;
  return ExprPtr(std::move(e));
}

}  // namespace

Result<std::unique_ptr<Expr>> Parse(std::string_view text) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(text, std::move(tokens)).ParseAll();
}

}  // namespace lws::api::cel
