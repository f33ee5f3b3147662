// File: api/go_json_syntax.cc
#include "api/go_json_syntax.h"

#include <cstdio>
#include <vector>

#include "api/json_depth.h"

namespace lws::api {

namespace {

enum class State {
  kBeginValue,
  kBeginValueOrEmpty,
  kBeginStringOrEmpty,
  kBeginString,
  kEndValue,
  kEndTop,
  kInString,
  kInStringEsc,
  kInStringEscU,
  kNeg,
  kOne,
  kZero,
  kDot,
  kDot0,
  kE,
  kESign,
  kE0,
  kLiteral,  // inside true, false or null: `literal_` and `literal_at_` say where
};

enum class Parse { kObjectKey, kObjectValue, kArrayValue };

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Go's quoteChar: the byte as a quoted character literal.
std::string QuoteChar(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  std::string inner;
  switch (c) {
    case '\a':
      inner = "\\a";
      break;
    case '\b':
      inner = "\\b";
      break;
    case '\f':
      inner = "\\f";
      break;
    case '\n':
      inner = "\\n";
      break;
    case '\r':
      inner = "\\r";
      break;
    case '\t':
      inner = "\\t";
      break;
    case '\v':
      inner = "\\v";
      break;
    case '\\':
      inner = "\\\\";
      break;
    default: {
      char buf[8];
      if (c < 0x20 || c == 0x7f) {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        inner = buf;
      } else if (c < 0x80) {
        inner = std::string(1, static_cast<char>(c));
      } else if (c < 0xa0) {
        std::snprintf(buf, sizeof buf, "\\u%04x", c);  // Go reads the byte as rune U+00xx
        inner = buf;
      } else {
        inner = {static_cast<char>(0xc0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3f))};
      }
    }
  }
  return "'" + inner + "'";
}

class Scanner {
 public:
  // Feeds one byte; false (with error_ set) when Go's scanner refuses it.
  bool Step(char c) {
    switch (state_) {
      case State::kBeginValueOrEmpty:
        if (IsSpace(c)) return true;
        if (c == ']') return EndValue(c);
        return BeginValue(c);
      case State::kBeginValue:
        return BeginValue(c);
      case State::kBeginStringOrEmpty:
        if (IsSpace(c)) return true;
        if (c == '}') {
          stack_.back() = Parse::kObjectValue;
          return EndValue(c);
        }
        return BeginString(c);
      case State::kBeginString:
        return BeginString(c);
      case State::kEndValue:
        return EndValue(c);
      case State::kEndTop:
        return IsSpace(c) || Fail(c, "after top-level value");
      case State::kInString:
        if (c == '"') return Go(State::kEndValue);
        if (c == '\\') return Go(State::kInStringEsc);
        return static_cast<unsigned char>(c) >= 0x20 || Fail(c, "in string literal");
      case State::kInStringEsc:
        if (c == 'u') return (hex_left_ = 4, Go(State::kInStringEscU));
        if (std::string_view("bfnrt\\/\"").find(c) != std::string_view::npos)
          return Go(State::kInString);
        return Fail(c, "in string escape code");
      case State::kInStringEscU:
        if (!IsHex(c)) return Fail(c, "in \\u hexadecimal character escape");
        return --hex_left_ > 0 || Go(State::kInString);
      default:
        return Number(c);
    }
  }

  // The end of the input: Go feeds one more space.
  std::string End() {
    if (!error_.empty()) return error_;
    if (state_ == State::kEndTop) return "";
    if (Step(' ') && state_ == State::kEndTop) return "";
    return error_.empty() ? "unexpected end of JSON input" : error_;
  }

  const std::string& error() const { return error_; }

 private:
  bool Go(State next) {
    state_ = next;
    return true;
  }

  bool Fail(char c, std::string_view context) {
    error_ = "invalid character " + QuoteChar(static_cast<unsigned char>(c)) + " " +
             std::string(context);
    return false;
  }

  bool Push(char c, Parse p, State next) {
    stack_.push_back(p);
    if (static_cast<int>(stack_.size()) > kMaxJsonDepth) return Fail(c, "exceeded max depth");
    return Go(next);
  }

  bool BeginValue(char c) {
    if (IsSpace(c)) return Go(State::kBeginValue);
    switch (c) {
      case '{':
        return Push(c, Parse::kObjectKey, State::kBeginStringOrEmpty);
      case '[':
        return Push(c, Parse::kArrayValue, State::kBeginValueOrEmpty);
      case '"':
        return Go(State::kInString);
      case '-':
        return Go(State::kNeg);
      case '0':
        return Go(State::kZero);
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        if (c >= '1' && c <= '9') return Go(State::kOne);
        return Fail(c, "looking for beginning of value");
    }
  }

  bool BeginString(char c) {
    if (IsSpace(c)) return Go(State::kBeginString);
    if (c == '"') return Go(State::kInString);
    return Fail(c, "looking for beginning of object key string");
  }

  bool Literal(std::string_view word) {
    literal_ = word;
    literal_at_ = 1;
    return Go(State::kLiteral);
  }

  bool EndValue(char c) {
    if (stack_.empty()) {
      state_ = State::kEndTop;
      return IsSpace(c) || Fail(c, "after top-level value");
    }
    if (IsSpace(c)) return Go(State::kEndValue);
    Parse& top = stack_.back();
    switch (top) {
      case Parse::kObjectKey:
        if (c == ':') return (top = Parse::kObjectValue, Go(State::kBeginValue));
        return Fail(c, "after object key");
      case Parse::kObjectValue:
        if (c == ',') return (top = Parse::kObjectKey, Go(State::kBeginString));
        if (c == '}') return Pop();
        return Fail(c, "after object key:value pair");
      case Parse::kArrayValue:
        if (c == ',') return Go(State::kBeginValue);
        if (c == ']') return Pop();
        return Fail(c, "after array element");
    }
    return false;
  }

  bool Pop() {
    stack_.pop_back();
    return Go(stack_.empty() ? State::kEndTop : State::kEndValue);
  }

  bool Number(char c) {
    switch (state_) {
      case State::kLiteral:
        if (c != literal_[literal_at_]) {
          return Fail(c, "in literal " + std::string(literal_) + " (expecting '" +
                             std::string(1, literal_[literal_at_]) + "')");
        }
        return ++literal_at_ < literal_.size() || Go(State::kEndValue);
      case State::kNeg:
        if (c == '0') return Go(State::kZero);
        if (c >= '1' && c <= '9') return Go(State::kOne);
        return Fail(c, "in numeric literal");
      case State::kOne:
        if (IsDigit(c)) return true;
        [[fallthrough]];
      case State::kZero:
        if (c == '.') return Go(State::kDot);
        if (c == 'e' || c == 'E') return Go(State::kE);
        return EndValue(c);
      case State::kDot:
        return (IsDigit(c) && Go(State::kDot0)) ||
               Fail(c, "after decimal point in numeric literal");
      case State::kDot0:
        if (IsDigit(c)) return true;
        if (c == 'e' || c == 'E') return Go(State::kE);
        return EndValue(c);
      case State::kE:
        if (c == '+' || c == '-') return Go(State::kESign);
        [[fallthrough]];
      case State::kESign:
        return (IsDigit(c) && Go(State::kE0)) || Fail(c, "in exponent of numeric literal");
      case State::kE0:
        return IsDigit(c) || EndValue(c);
      default:
        return false;
    }
  }

  State state_ = State::kBeginValue;
  std::vector<Parse> stack_;
  std::string error_;
  std::string_view literal_;
  std::size_t literal_at_ = 0;
  int hex_left_ = 0;
};

}  // namespace

std::string GoJsonSyntaxError(std::string_view text) {
  Scanner scanner;
  for (char c : text) {
    if (!scanner.Step(c)) return scanner.error();
  }
  return scanner.End();
}

Result<Json> DecodeJsonBody(const std::string& body, std::string_view context) {
  if (std::string deep = JsonTextDepthError(body); !deep.empty()) {
    return Status::BadRequest(std::string(context) + ": " + deep);
  }
  Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed;
  // Worded as Go's decoder words it, as kube-apiserver's clients expect.
  std::string why = GoJsonSyntaxError(body);
  if (why.empty()) why = "invalid JSON";  // a text Go reads but the JSON library does not
  return Status::BadRequest(std::string(context) + ": " + why);
}

}  // namespace lws::api
