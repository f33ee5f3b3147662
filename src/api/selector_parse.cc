// The lexer and recursive-descent parser of labels.Parse (see selector.h). They follow upstream
// token by token, so that odd input fails, or parses, exactly as it does in a real API server:
// "x in (a,,b)" holds the empty value, "x=" requires the empty value, "a in (in)" is fine, and a
// NUL byte ends the input the way the Go lexer's zero "no more input" byte does.
#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/name_validation.h"
#include "api/selector.h"

namespace lws::api {

namespace {

using Op = SelectionOperator;

enum class Token {
  kError,
  kEnd,
  kClosedPar,
  kComma,
  kDoesNotExist,
  kDoubleEquals,
  kEquals,
  kGreaterThan,
  kIdentifier,
  kIn,
  kLessThan,
  kNotEquals,
  kNotIn,
  kOpenPar,
};

struct Item {
  Token token;
  std::string literal;
};

// string2token: the literal tokens. Anything else is an identifier (or an error).
Token LiteralToken(std::string_view s) {
  if (s == ")") return Token::kClosedPar;
  if (s == ",") return Token::kComma;
  if (s == "!") return Token::kDoesNotExist;
  if (s == "==") return Token::kDoubleEquals;
  if (s == "=") return Token::kEquals;
  if (s == ">") return Token::kGreaterThan;
  if (s == "in") return Token::kIn;
  if (s == "<") return Token::kLessThan;
  if (s == "!=") return Token::kNotEquals;
  if (s == "notin") return Token::kNotIn;
  if (s == "(") return Token::kOpenPar;
  return Token::kIdentifier;
}

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsSpecialSymbol(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Item Lex() {
    char c = Read();
    while (IsWhitespace(c)) c = Read();
    if (c == 0) return {Token::kEnd, ""};
    Unread();
    return IsSpecialSymbol(c) ? ScanSpecialSymbol() : ScanIdOrKeyword();
  }

 private:
  // Returns the next byte, or 0 past the end; a NUL byte in the input reads as 0 too.
  char Read() { return pos_ < s_.size() ? s_[pos_++] : 0; }
  void Unread() { --pos_; }

  Item ScanIdOrKeyword() {
    std::string buffer;
    while (true) {
      const char c = Read();
      if (c == 0) break;
      if (IsSpecialSymbol(c) || IsWhitespace(c)) {
        Unread();
        break;
      }
      buffer.push_back(c);
    }
    return {LiteralToken(buffer), buffer};
  }

  // The longest run of special symbols that is a token: "!=" rather than "!".
  Item ScanSpecialSymbol() {
    std::string buffer;
    Item last{Token::kError, ""};
    while (true) {
      const char c = Read();
      if (c == 0) break;
      if (!IsSpecialSymbol(c)) {
        Unread();
        break;
      }
      buffer.push_back(c);
      const Token t = LiteralToken(buffer);
      if (t != Token::kIdentifier) {
        last = {t, buffer};
      } else if (last.token != Token::kError) {
        Unread();
        break;
      }
    }
    if (last.token == Token::kError) {
      return {Token::kError, "error expected: keyword found '" + buffer + "'"};
    }
    return last;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// Where `in` and `notin` are keywords (after a key) and where they are plain values.
enum class Context { kKeyAndOperator, kValues };

class Parser {
 public:
  explicit Parser(std::string_view text) {
    Lexer lexer(text);
    do {
      items_.push_back(lexer.Lex());
    } while (items_.back().token != Token::kEnd);
  }

  Result<std::vector<Requirement>> Parse() {
    std::vector<Requirement> requirements;
    while (true) {
      const Item& next = Lookahead(Context::kValues);
      if (next.token == Token::kEnd) return requirements;
      if (next.token != Token::kIdentifier && next.token != Token::kDoesNotExist) {
        return Fail("found '" + next.literal + "', expected: !, identifier, or 'end of string'");
      }
      auto requirement = ParseRequirement();
      if (!requirement.ok()) {
        return Fail("unable to parse requirement: " + requirement.status().message());
      }
      requirements.push_back(std::move(requirement).value());
      const Item after = Consume(Context::kValues);
      if (after.token == Token::kEnd) return requirements;
      if (after.token != Token::kComma) {
        return Fail("found '" + after.literal + "', expected: ',' or 'end of string'");
      }
      const Item& following = Lookahead(Context::kValues);
      if (following.token != Token::kIdentifier && following.token != Token::kDoesNotExist) {
        return Fail("found '" + following.literal + "', expected: identifier after ','");
      }
    }
  }

 private:
  static Status Fail(std::string message) { return Status::BadRequest(std::move(message)); }

  static Item InContext(Item item, Context context) {
    if (context == Context::kValues && (item.token == Token::kIn || item.token == Token::kNotIn)) {
      item.token = Token::kIdentifier;
    }
    return item;
  }
  // The end token repeats forever, so a read past the end is the end again.
  Item Lookahead(Context context) const {
    return InContext(items_[std::min(position_, items_.size() - 1)], context);
  }
  Item Consume(Context context) {
    Item item = Lookahead(context);
    ++position_;
    return item;
  }

  Result<Requirement> ParseRequirement() {
    std::optional<Op> op;
    Item key = Consume(Context::kValues);
    if (key.token == Token::kDoesNotExist) {
      op = Op::kDoesNotExist;
      key = Consume(Context::kValues);
    }
    if (key.token != Token::kIdentifier) {
      return Fail("found '" + key.literal + "', expected: identifier");
    }
    if (auto errs = IsQualifiedName(key.literal); !errs.empty()) {
      // Upstream validates against a nil field path here, which prints as "<nil>".
      return Fail("<nil>: Invalid value: " + GoQuote(key.literal) + ": " + JoinErrors(errs));
    }
    const Token next = Lookahead(Context::kValues).token;
    if (next == Token::kEnd || next == Token::kComma) {
      if (!op) op = Op::kExists;
    }
    if (op) return Requirement::Make(std::move(key.literal), *op, {});
    ASSIGN_OR_RETURN(op, ParseOperator());
    std::set<std::string> values;
    if (*op == Op::kIn || *op == Op::kNotIn) {
      ASSIGN_OR_RETURN(values, ParseValues());
    } else {
      ASSIGN_OR_RETURN(values, ParseExactValue());
    }
    return Requirement::Make(std::move(key.literal), *op, {values.begin(), values.end()});
  }

  Result<std::optional<Op>> ParseOperator() {
    const Item item = Consume(Context::kKeyAndOperator);
    switch (item.token) {
      case Token::kIn:
        return std::optional(Op::kIn);
      case Token::kEquals:
        return std::optional(Op::kEquals);
      case Token::kDoubleEquals:
        return std::optional(Op::kDoubleEquals);
      case Token::kGreaterThan:
        return std::optional(Op::kGreaterThan);
      case Token::kLessThan:
        return std::optional(Op::kLessThan);
      case Token::kNotIn:
        return std::optional(Op::kNotIn);
      case Token::kNotEquals:
        return std::optional(Op::kNotEquals);
      default:
        return Fail("found '" + item.literal + "', expected: in, notin, =, ==, !=, gt, lt");
    }
  }

  // "(a,b,c)"; "()" is the set holding only the empty value.
  Result<std::set<std::string>> ParseValues() {
    const Item open = Consume(Context::kValues);
    if (open.token != Token::kOpenPar) {
      return Fail("found '" + open.literal + "' expected: '('");
    }
    const Item first = Lookahead(Context::kValues);
    if (first.token == Token::kIdentifier || first.token == Token::kComma) {
      ASSIGN_OR_RETURN(std::set<std::string> values, ParseIdentifiersList());
      if (Consume(Context::kValues).token != Token::kClosedPar) {
        return Fail("found '" + first.literal + "', expected: ')'");
      }
      return values;
    }
    if (first.token == Token::kClosedPar) {
      Consume(Context::kValues);
      return std::set<std::string>{""};
    }
    return Fail("found '" + first.literal + "', expected: ',', ')' or identifier");
  }

  // A comma-separated list of possibly empty identifiers, up to (not including) ")".
  Result<std::set<std::string>> ParseIdentifiersList() {
    std::set<std::string> values;
    while (true) {
      const Item item = Consume(Context::kValues);
      if (item.token == Token::kIdentifier) {
        values.insert(item.literal);
        const Item next = Lookahead(Context::kValues);
        if (next.token == Token::kComma) continue;
        if (next.token == Token::kClosedPar) return values;
        return Fail("found '" + next.literal + "', expected: ',' or ')'");
      }
      if (item.token != Token::kComma) {
        return Fail("found '" + item.literal + "', expected: ',', or identifier");
      }
      if (values.empty()) values.insert("");  // "(,"
      const Token next = Lookahead(Context::kValues).token;
      if (next == Token::kClosedPar) {  // ",)"
        values.insert("");
        return values;
      }
      if (next == Token::kComma) values.insert("");  // ",,"
    }
  }

  // The single value after =, ==, !=, > or <; nothing before "," or the end is the empty value.
  Result<std::set<std::string>> ParseExactValue() {
    const Token next = Lookahead(Context::kValues).token;
    if (next == Token::kEnd || next == Token::kComma) return std::set<std::string>{""};
    const Item item = Consume(Context::kValues);
    if (item.token == Token::kIdentifier) return std::set<std::string>{item.literal};
    return Fail("found '" + item.literal + "', expected: identifier");
  }

  std::vector<Item> items_;
  std::size_t position_ = 0;
};

}  // namespace

Result<std::vector<Requirement>> ParseLabelRequirements(std::string_view text) {
  return Parser(text).Parse();
}

}  // namespace lws::api
