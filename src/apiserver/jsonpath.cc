// Parser half of jsonpath.h: a hand-written scanner with the grammar and the error messages of
// client-go's util/jsonpath/parser.go. Sub-expressions (union branches, ['key'], filter operands)
// are parsed as nested templates, as upstream does; kMaxDepth bounds that nesting.
#include "apiserver/jsonpath.h"

#include <algorithm>
#include <cstdlib>

#include "apiserver/jsonpath_literals.h"

namespace lws::apiserver {

namespace {

using jsonpath_literals::DescribeRune;
using jsonpath_literals::ParseInt64;
using jsonpath_literals::Unquote;
using Node = JsonPath::Node;
using Kind = JsonPath::Node::Kind;

constexpr int kMaxDepth = 8;

Status SyntaxError(std::string message) { return Status::BadRequest(std::move(message)); }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Letters, digits and '_'; bytes of multi-byte UTF-8 sequences count as letters.
bool IsAlphaNumeric(char c) {
  auto u = static_cast<unsigned char>(c);
  return c == '_' || IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || u >= 0x80;
}

bool IsTerminator(char c) {
  switch (c) {
    case ' ':
    case '\t':
    case '\r':
    case '\n':
    case '.':
    case ',':
    case '[':
    case ']':
    case '$':
    case '@':
    case '{':
    case '}':
      return true;
    default:
      return false;
  }
}

Node Leaf(Kind kind, std::string text = {}) {
  Node n;
  n.kind = kind;
  n.text = std::move(text);
  return n;
}

class Parser {
 public:
  Parser(std::string input, int depth) : owned_(std::move(input)), input_(owned_), depth_(depth) {}
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // Parses the whole input as a template (text runs and {actions}) into `root`.
  Status ParseTemplate(std::vector<Node>* root) {
    while (true) {
      std::size_t brace = input_.find('{', pos_);
      if (brace == std::string_view::npos) {
        if (start_ < input_.size()) root->push_back(Leaf(Kind::kText, std::string(Rest())));
        return Status::Ok();
      }
      if (brace > start_) {
        root->push_back(Leaf(Kind::kText, std::string(input_.substr(start_, brace - start_))));
      }
      Advance(brace + 1);
      root->push_back(Leaf(Kind::kList));
      RETURN_IF_ERROR(ParseInsideAction(&root->back()));
    }
  }

 private:
  std::string_view Rest() const { return input_.substr(start_); }
  bool At(std::string_view prefix) const { return input_.substr(pos_, prefix.size()) == prefix; }
  // Moves to `pos` and drops the text scanned so far (client-go's consumeText).
  void Advance(std::size_t pos) {
    pos_ = pos;
    start_ = pos;
  }

  Status ParseInsideAction(Node* cur) {
    while (true) {
      if (At("}")) {
        Advance(pos_ + 1);
        return Status::Ok();
      }
      if (At("[?(")) {
        RETURN_IF_ERROR(ParseFilter(cur));
        continue;
      }
      if (At("..")) {
        RETURN_IF_ERROR(ParseRecursive(cur));
        continue;
      }
      if (pos_ >= input_.size()) return SyntaxError("unclosed action");
      char r = input_[pos_++];
      if (r == '\r' || r == '\n') return SyntaxError("unclosed action");
      if (r == ' ' || r == '@' || r == '$') {
        Advance(pos_);
      } else if (r == '[') {
        RETURN_IF_ERROR(ParseArray(cur));
      } else if (r == '"' || r == '\'') {
        RETURN_IF_ERROR(ParseQuote(cur, r));
      } else if (r == '.') {
        RETURN_IF_ERROR(ParseField(cur));
      } else if (r == '+' || r == '-' || IsDigit(r)) {
        --pos_;
        RETURN_IF_ERROR(ParseNumber(cur));
      } else if (IsAlphaNumeric(r)) {
        --pos_;
        RETURN_IF_ERROR(ParseIdentifier(cur));
      } else {
        return SyntaxError("unrecognized character in action: " + DescribeRune(r));
      }
    }
  }

  // Reads up to the next unescaped terminator; a backslash escapes the following character.
  Status ParseField(Node* cur) {
    Advance(pos_);
    while (pos_ < input_.size()) {
      char r = input_[pos_];
      if (r == '\\') {
        pos_ = std::min(pos_ + 2, input_.size());
        continue;
      }
      if (IsTerminator(r)) break;
      ++pos_;
    }
    std::string value(input_.substr(start_, pos_ - start_));
    Advance(pos_);
    if (value == "*") {
      cur->children.push_back(Leaf(Kind::kWildcard));
    } else {
      std::string unescaped;
      for (char c : value) {
        if (c != '\\') unescaped.push_back(c);
      }
      cur->children.push_back(Leaf(Kind::kField, std::move(unescaped)));
    }
    return Status::Ok();
  }

  Status ParseRecursive(Node* cur) {
    if (!cur->children.empty() && cur->children.back().kind == Kind::kRecursive) {
      return SyntaxError("invalid multiple recursive descent");
    }
    Advance(pos_ + 2);
    cur->children.push_back(Leaf(Kind::kRecursive));
    if (pos_ < input_.size() && IsAlphaNumeric(input_[pos_])) return ParseField(cur);
    return Status::Ok();
  }

  Status ParseNumber(Node* cur) {
    if (input_[pos_] == '+' || input_[pos_] == '-') ++pos_;
    while (pos_ < input_.size() && (input_[pos_] == '.' || IsDigit(input_[pos_]))) ++pos_;
    std::string value(input_.substr(start_, pos_ - start_));
    Advance(pos_);
    Node n;
    if (ParseInt64(value, &n.int_value)) {
      n.kind = Kind::kInt;
      cur->children.push_back(std::move(n));
      return Status::Ok();
    }
    char* end = nullptr;
    double d = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size()) {
      return SyntaxError("cannot parse number " + value);
    }
    n.kind = Kind::kFloat;
    n.float_value = d;
    cur->children.push_back(std::move(n));
    return Status::Ok();
  }

  Status ParseIdentifier(Node* cur) {
    while (pos_ < input_.size() && !IsTerminator(input_[pos_])) ++pos_;
    std::string value(input_.substr(start_, pos_ - start_));
    Advance(pos_);
    if (value == "true" || value == "false") {
      Node n = Leaf(Kind::kBool);
      n.bool_value = value == "true";
      cur->children.push_back(std::move(n));
    } else {
      cur->children.push_back(Leaf(Kind::kIdentifier, std::move(value)));
    }
    return Status::Ok();
  }

  Status ParseQuote(Node* cur, char quote) {
    while (true) {
      if (pos_ >= input_.size() || input_[pos_] == '\n') {
        return SyntaxError("unterminated quoted string");
      }
      char r = input_[pos_++];
      if (r == quote && input_[pos_ - 2] != '\\') break;
    }
    std::string_view value = input_.substr(start_, pos_ - start_);
    Advance(pos_);
    std::string text;
    if (!Unquote(value, &text)) {
      return SyntaxError("unquote string " + std::string(value) + " error invalid syntax");
    }
    cur->children.push_back(Leaf(Kind::kText, std::move(text)));
    return Status::Ok();
  }

  Status ParseArray(Node* cur) {
    std::size_t close = pos_;
    while (close < input_.size() && input_[close] != ']' && input_[close] != '\n') ++close;
    if (close >= input_.size() || input_[close] == '\n') return SyntaxError("unterminated array");
    std::string text(input_.substr(pos_, close - pos_));
    Advance(close + 1);
    if (text == "*") text = ":";
    std::vector<std::string> parts = Split(text, ',');
    if (parts.size() > 1) {
      Node union_node = Leaf(Kind::kUnion);
      for (const std::string& part : parts) {
        Node branch;
        RETURN_IF_ERROR(ParseAction("[" + TrimSpaces(part) + "]", &branch));
        union_node.children.push_back(std::move(branch));
      }
      cur->children.push_back(std::move(union_node));
      return Status::Ok();
    }
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'' &&
        text.find('\'', 1) == text.size() - 1) {
      Node key;
      RETURN_IF_ERROR(ParseAction("." + text.substr(1, text.size() - 2), &key));
      for (Node& n : key.children) cur->children.push_back(std::move(n));
      return Status::Ok();
    }
    Node array = Leaf(Kind::kArray);
    RETURN_IF_ERROR(ParseSlice(text, &array.slice));
    cur->children.push_back(std::move(array));
    return Status::Ok();
  }

  // The slice grammar ^(-?\d*)(:-?\d*)?(:-?\d*)?$ and client-go's reading of its groups.
  static Status ParseSlice(const std::string& text, std::array<JsonPath::SliceParam, 3>* params) {
    std::string groups[3];
    std::size_t i = 0;
    auto read_number = [&](std::string* out) {
      if (i < text.size() && text[i] == '-') out->push_back(text[i++]);
      while (i < text.size() && IsDigit(text[i])) out->push_back(text[i++]);
    };
    read_number(&groups[0]);
    for (int g = 1; g < 3 && i < text.size() && text[i] == ':'; ++g) {
      groups[g].push_back(text[i++]);
      read_number(&groups[g]);
    }
    if (i != text.size()) return SyntaxError("invalid array index " + text);
    for (int g = 0; g < 3; ++g) {
      JsonPath::SliceParam& p = (*params)[g];
      std::string value = groups[g];
      if (!value.empty()) {
        if (g > 0) value = value.substr(1);
        if (g > 0 && value.empty()) continue;  // "a:" leaves the bound open
        p.known = true;
        if (!ParseInt64(value, &p.value)) {
          return SyntaxError("array index " + value + " is not a number");
        }
      } else if (g == 1) {
        p.known = true;
        p.value = (*params)[0].value + 1;
        p.derived = true;
      }
    }
    return Status::Ok();
  }

  Status ParseFilter(Node* cur) {
    Advance(pos_ + 3);
    bool begin = false;
    bool end = false;
    char pair = 0;
    while (true) {
      if (pos_ >= input_.size() || input_[pos_] == '\n') return SyntaxError("unterminated filter");
      char r = input_[pos_++];
      if (r == '"' || r == '\'') {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (input_[pos_ - 2] != '\\' && r == pair) end = true;
      } else if (r == ')' && begin == end) {
        break;
      }
    }
    if (pos_ >= input_.size() || input_[pos_++] != ']') {
      return SyntaxError("unclosed array expect ]");
    }
    std::string text(input_.substr(start_, pos_ - start_ - 2));
    Advance(pos_);
    Node filter = Leaf(Kind::kFilter);
    std::size_t op_at = text.find_first_of("!<>=");
    std::size_t right_at =
        op_at == std::string::npos ? op_at : text.find_first_not_of("!<>=", op_at);
    Node left;
    Node right = Leaf(Kind::kList);
    if (op_at == 0 || op_at == std::string::npos || right_at == std::string::npos) {
      RETURN_IF_ERROR(ParseAction(text, &left));
      filter.text = "exists";
    } else {
      RETURN_IF_ERROR(ParseAction(text.substr(0, op_at), &left));
      RETURN_IF_ERROR(ParseAction(text.substr(right_at), &right));
      filter.text = text.substr(op_at, right_at - op_at);
    }
    filter.children.push_back(std::move(left));
    filter.children.push_back(std::move(right));
    cur->children.push_back(std::move(filter));
    return Status::Ok();
  }

  // Parses `text` as the inside of an action (client-go parseAction): "{" + text + "}" as a
  // template whose first element is the action.
  Status ParseAction(const std::string& text, Node* out) const {
    if (depth_ + 1 > kMaxDepth) return SyntaxError("jsonpath nested too deeply");
    std::vector<Node> root;
    Parser nested("{" + text + "}", depth_ + 1);
    RETURN_IF_ERROR(nested.ParseTemplate(&root));
    *out = std::move(root.front());
    return Status::Ok();
  }

  static std::vector<std::string> Split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
      std::size_t at = s.find(sep, start);
      out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
      if (at == std::string::npos) return out;
      start = at + 1;
    }
  }

  static std::string TrimSpaces(const std::string& s) {
    std::size_t b = s.find_first_not_of(' ');
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(' ') - b + 1);
  }

  std::string owned_;       // the text being parsed
  std::string_view input_;  // views owned_
  int depth_;
  std::size_t pos_ = 0;
  std::size_t start_ = 0;
};

// Returns an error when `nodes` use range/end, which this implementation leaves out.
Status RejectRange(const std::vector<Node>& nodes) {
  for (const Node& n : nodes) {
    if (n.kind == Kind::kIdentifier && (n.text == "range" || n.text == "end")) {
      return SyntaxError("jsonpath range/end is not supported");
    }
    RETURN_IF_ERROR(RejectRange(n.children));
  }
  return Status::Ok();
}

}  // namespace

Result<JsonPath> JsonPath::Parse(std::string_view text) {
  JsonPath path;
  Parser parser(std::string(text), 0);
  RETURN_IF_ERROR(parser.ParseTemplate(&path.root_));
  RETURN_IF_ERROR(RejectRange(path.root_));
  return path;
}

}  // namespace lws::apiserver
