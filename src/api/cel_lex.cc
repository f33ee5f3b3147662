// The CEL lexer (cel_ast.h): numbers, strings with CEL's escapes (cel-spec doc/langdef.md,
// "String and Bytes Values"), identifiers and operators. Bytes literals are rejected as
// unsupported.
#include <cctype>

#include "api/cel_ast.h"

namespace lws::api::cel {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
int HexValue(char c) { return IsDigit(c) ? c - '0' : (std::tolower(c) - 'a' + 10); }

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    *out += static_cast<char>(c);
  } else if (c < 0x800) {
    *out += static_cast<char>(0xC0 | (c >> 6));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out += static_cast<char>(0xE0 | (c >> 12));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (c >> 18));
    *out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    while (true) {
      SkipSpace();
      Token t;
      t.offset = pos_;
      if (pos_ >= text_.size()) {
        out.push_back(t);
        return out;
      }
      RETURN_IF_ERROR(Next(&t));
      out.push_back(std::move(t));
    }
  }

 private:
  Status Error(std::size_t at, const std::string& what) const {
    return Status::BadRequest("syntax error at " + Position(text_, at) + ": " + what);
  }
  char Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && Peek(1) == '/') {  // a comment runs to the end of the line
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  Status Next(Token* t) {
    char c = Peek();
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return Number(t);
    if (IsIdentStart(c)) {
      std::size_t start = pos_;
      while (IsIdentChar(Peek())) ++pos_;
      std::string_view word = text_.substr(start, pos_ - start);
      char q = Peek();
      bool quoted = q == '\'' || q == '"';
      if (quoted && (word == "r" || word == "R")) return String(t, /*raw=*/true);
      if (quoted && word.size() <= 2 && word.find_first_of("bB") != std::string_view::npos &&
          word.find_first_not_of("bBrR") == std::string_view::npos) {
        return Error(start, "bytes literals are not supported");
      }
      t->kind = Tok::kIdent;
      t->text = std::string(word);
      return Status::Ok();
    }
    if (c == '\'' || c == '"') return String(t, /*raw=*/false);
    static constexpr std::string_view kTwo[] = {"==", "!=", "<=", ">=", "&&", "||"};
    for (std::string_view two : kTwo) {
      if (text_.substr(pos_, 2) == two) {
        t->kind = Tok::kPunct;
        t->text = std::string(two);
        pos_ += 2;
        return Status::Ok();
      }
    }
    if (std::string_view("()[]{}.,:?+-*/%!<>").find(c) != std::string_view::npos) {
      t->kind = Tok::kPunct;
      t->text = std::string(1, c);
      ++pos_;
      return Status::Ok();
    }
    return Error(pos_, "token recognition error at: '" + std::string(1, c) + "'");
  }

  Status Number(Token* t) {
    std::size_t start = pos_;
    if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      pos_ += 2;
      while (IsHex(Peek())) ++pos_;
      if (pos_ == start + 2) return Error(start, "malformed hex literal");
    } else {
      bool is_double = false;
      while (IsDigit(Peek())) ++pos_;
      if (Peek() == '.' && IsDigit(Peek(1))) {
        is_double = true;
        ++pos_;
        while (IsDigit(Peek())) ++pos_;
      }
      char e = Peek();
      if ((e == 'e' || e == 'E') &&
          (IsDigit(Peek(1)) || ((Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2))))) {
        is_double = true;
        pos_ += 2;
        while (IsDigit(Peek())) ++pos_;
      }
      if (is_double) {
        t->kind = Tok::kDouble;
        t->text = std::string(text_.substr(start, pos_ - start));
        return Status::Ok();
      }
    }
    t->text = std::string(text_.substr(start, pos_ - start));
    t->kind = Tok::kInt;
    if (Peek() == 'u' || Peek() == 'U') {
      t->kind = Tok::kUint;
      ++pos_;
    }
    return Status::Ok();
  }

  Status String(Token* t, bool raw) {
    std::size_t start = pos_;
    char q = Peek();
    bool triple = Peek(1) == q && Peek(2) == q;
    std::size_t quote_size = triple ? 3 : 1;
    pos_ += quote_size;
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) return Error(start, "unterminated string literal");
      char c = text_[pos_];
      if (c == q && (!triple || (Peek(1) == q && Peek(2) == q))) break;
      if (!triple && (c == '\n' || c == '\r')) return Error(start, "newline in string literal");
      if (c == '\\' && !raw) {
        RETURN_IF_ERROR(Escape(&value));
      } else {
        value += c;
        ++pos_;
      }
    }
    pos_ += quote_size;
    t->kind = Tok::kString;
    t->text = std::move(value);
    return Status::Ok();
  }

  // One escape sequence at pos_ (a backslash), appended to `out` as UTF-8.
  Status Escape(std::string* out) {
    std::size_t at = pos_;
    char c = Peek(1);
    pos_ += 2;
    static constexpr std::string_view kFrom = "abfnrtv\\'\"`?";
    static constexpr std::string_view kTo = "\a\b\f\n\r\t\v\\'\"`?";
    if (std::size_t i = kFrom.find(c); i != std::string_view::npos && c != '\0') {
      *out += kTo[i];
      return Status::Ok();
    }
    int digits = c == 'x' || c == 'X' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    char32_t code = 0;
    if (digits > 0) {
      for (int k = 0; k < digits; ++k, ++pos_) {
        if (!IsHex(Peek())) return Error(at, "invalid escape sequence");
        code = code * 16 + HexValue(Peek());
      }
    } else if (c >= '0' && c <= '3' && Peek() >= '0' && Peek() <= '7' && Peek(1) >= '0' &&
               Peek(1) <= '7') {
      code = (c - '0') * 64 + (Peek() - '0') * 8 + (Peek(1) - '0');
      pos_ += 2;
    } else {
      return Error(at, "invalid escape sequence");
    }
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return Error(at, "invalid unicode code point in escape sequence");
    }
    AppendUtf8(code, out);
    return Status::Ok();
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string Position(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;  // columns count code points
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

Result<std::vector<Token>> Lex(std::string_view text) {
  if (text.size() > kCelMaxRuleBytes) {
    return Status::BadRequest("expression is longer than " + std::to_string(kCelMaxRuleBytes) +
                              " bytes");
  }
  return Lexer(text).Run();
}

}  // namespace lws::api::cel
