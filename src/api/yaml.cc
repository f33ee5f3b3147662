// YAML loading: yaml-cpp builds the node graph, this file resolves it to JSON the way
// sigs.k8s.io/yaml (goyaml.v2 + JSON conversion) does. See yaml.h for the rules.
#include "api/yaml.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "api/base64.h"
#include "api/json_depth.h"
#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

using yaml_internal::ResolvePlain;

constexpr int kMaxDepth = 1000;
constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

Status SyntaxError(int line, int column, std::string_view reason) {
  return Status::BadRequest("yaml: line " + std::to_string(line < 0 ? 1 : line + 1) + ", column " +
                            std::to_string(column < 0 ? 1 : column + 1) + ": " +
                            std::string(reason));
}

Status MarkError(const YAML::Mark& m, std::string_view reason) {
  return SyntaxError(m.line, m.column, reason);
}

// goyaml.v2 refuses input that is not UTF-8 or that holds control characters.
Status CheckText(std::string_view text) {
  int line = 0;
  int column = 0;
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    if (!yaml_internal::NextCodePoint(text, &i, &c)) {
      return SyntaxError(line, column, "invalid UTF-8 in input");
    }
    if (!yaml_internal::IsPlainPrintable(c) && c != 0x85 && c != 0x2028 && c != 0x2029) {
      return SyntaxError(line, column, "control characters are not allowed");
    }
    if (c == '\n') {
      ++line, column = 0;
    } else {
      ++column;
    }
  }
  return Status::Ok();
}

// Go's json.Marshal cannot write inf/nan, and the API server reads an integral float back as an
// integer; both effects happen between sigs.k8s.io/yaml and the server.
Result<Json> NumberForJson(double v, const YAML::Mark& n) {
  if (!std::isfinite(v))
    return MarkError(n, "json: unsupported value: " + yaml_internal::GoFloatV(v));
  if (v == std::floor(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
    return Json(static_cast<std::int64_t>(v));
  }
  return Json(v);
}

// !!binary: standard base64 (line breaks allowed); bytes that are not UTF-8 become U+FFFD, as
// Go's json.Marshal writes them.
Result<Json> DecodeBinary(const std::string& text, const YAML::Mark& n) {
  std::string bytes;
  unsigned bits = 0;
  int nbits = 0;
  std::size_t pad = 0;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++pad;
      continue;
    }
    int v = Base64Sextet(c);
    if (v < 0 || pad > 0) return MarkError(n, "!!binary value contains invalid base64 data");
    bits = (bits << 6) | static_cast<unsigned>(v);
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      bytes.push_back(static_cast<char>((bits >> nbits) & 0xFF));
    }
  }
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    std::size_t start = i;
    char32_t c = 0;
    if (yaml_internal::NextCodePoint(bytes, &i, &c)) {
      out.append(bytes, start, i - start);
    } else {
      out += "\xEF\xBF\xBD";
      i = start + 1;
    }
  }
  return Json(std::move(out));
}

// yaml-cpp decodes the escapes \N and \_ to the single bytes 0x85 and 0xA0 instead of UTF-8.
// The input was checked to be UTF-8, so any stray byte came from such an escape: read it as the
// Latin-1 code point it stands for.
std::string FixEscapedBytes(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    char32_t c = 0;
    if (yaml_internal::NextCodePoint(s, &i, &c)) {
      out.append(s, start, i - start);
    } else {
      auto b = static_cast<unsigned char>(s[start]);
      out += static_cast<char>(0xC0 | (b >> 6));
      out += static_cast<char>(0x80 | (b & 0x3F));
      i = start + 1;
    }
  }
  return out;
}

// The Go value of a scalar node under its tag; ints and floats are not yet JSON-normalized.
Result<Json> ScalarValue(const std::string& tag, const std::string& raw, const YAML::Mark& n) {
  const std::string text = FixEscapedBytes(raw);
  if (tag == "?") return ResolvePlain(text);
  if (tag.rfind(kTagPrefix, 0) != 0) return Json(text);  // "!", local and unknown tags
  std::string_view kind = std::string_view(tag).substr(kTagPrefix.size());
  if (kind == "binary") return DecodeBinary(text, n);
  if (kind != "int" && kind != "float" && kind != "bool") return Json(text);
  Json v = ResolvePlain(text);
  bool ok = (kind == "bool" && v.is_boolean()) || (kind == "int" && (v.is_number_integer())) ||
            (kind == "float" && v.is_number());
  if (!ok) {
    std::string got = v.is_string()    ? "str"
                      : v.is_null()    ? "null"
                      : v.is_boolean() ? "bool"
                                       : "float";
    if (v.is_number_integer()) got = "int";
    return MarkError(n, "cannot decode !!" + got + " `" + text + "` as a !!" + std::string(kind));
  }
  if (kind == "float" && v.is_number_integer()) return Json(v.get<double>());
  return v;
}

// Thrown out of the event handler to stop yaml-cpp; caught in LoadAll.
struct BuildError {
  Status status;
};

// Builds JSON straight from yaml-cpp's parse events. Doing this ourselves (rather than through
// YAML::Load's node graph) bounds the work: every event and every alias expansion is charged to
// a budget, which stops both alias bombs and yaml-cpp 0.7 inputs on which the parser would emit
// empty documents forever.
class JsonBuilder : public YAML::EventHandler {
 public:
  struct Doc {
    Json value;
    int line;  // 0-based line of the first node
  };

  JsonBuilder(std::size_t budget, std::size_t max_docs) : budget_(budget), max_docs_(max_docs) {}
  std::vector<Doc>& docs() { return docs_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    // Every document but the first needs a 3-character separator.
    if (docs_.size() > max_docs_)
      Fail(mark, "more documents than the input can hold (parser loop)");
    Charge(1, mark);
    anchors_.clear();
    stack_.clear();
    root_.reset();
    root_line_ = -1;
  }
  void OnDocumentEnd() override {
    docs_.push_back({root_ ? std::move(*root_) : Json(), root_line_ < 0 ? 0 : root_line_});
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (ExpectingKey()) Fail(mark, "unsupported map key of type: <nil>");
    Deliver(Json(), 1, mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) Fail(mark, "anchor value contains itself");
    if (ExpectingKey()) return SetKey(KeyFromValue(it->second.first, mark), false, mark);
    Deliver(it->second.first, it->second.second, mark, 0);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    auto v = ScalarValue(tag, value, mark);
    if (!v.ok()) throw BuildError{v.status()};
    if (ExpectingKey()) {
      bool merge = tag == "?" && value == "<<";
      return SetKey(merge ? std::string() : KeyFromValue(*v, mark), merge, mark);
    }
    Json out = std::move(*v);
    if (out.is_number_float()) {
      auto n = NumberForJson(out.get<double>(), mark);
      if (!n.ok()) throw BuildError{n.status()};
      out = std::move(*n);
    }
    Deliver(std::move(out), 1, mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(Json::array(), mark, anchor);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(Json::object(), mark, anchor);
  }
  void OnMapEnd() override { Close(); }

 private:
  struct Frame {
    Json value;
    YAML::Mark mark;
    YAML::anchor_t anchor = 0;
    std::size_t size = 1;
    bool has_key = false;
    bool merge = false;
    std::string key;
  };

  [[noreturn]] static void Fail(const YAML::Mark& mark, std::string_view reason) {
    throw BuildError{MarkError(mark, reason)};
  }
  void Charge(std::size_t n, const YAML::Mark& mark) {
    if (n > budget_) Fail(mark, "document contains excessive aliasing");
    budget_ -= n;
  }
  bool ExpectingKey() const {
    return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key;
  }
  void Open(Json value, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (ExpectingKey()) Fail(mark, "invalid map key: a collection cannot be a key");
    if (stack_.size() >= kMaxDepth)
      Fail(mark, "exceeded max depth of " + std::to_string(kMaxDepth));
    Charge(1, mark);
    if (root_line_ < 0) root_line_ = mark.line;
    Frame f;
    f.value = std::move(value);
    f.mark = mark;
    f.anchor = anchor;
    stack_.push_back(std::move(f));
  }
  void Close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    Json value = std::move(f.value);
    Deliver(std::move(value), f.size, f.mark, f.anchor, /*charged=*/true);
  }
  void SetKey(std::string key, bool merge, const YAML::Mark& mark) {
    Charge(1, mark);
    Frame& f = stack_.back();
    f.has_key = true;
    f.merge = merge;
    f.key = std::move(key);
  }

  // Hands a finished value to its parent (or makes it the document's root).
  void Deliver(Json v, std::size_t size, const YAML::Mark& mark, YAML::anchor_t anchor,
               bool charged = false) {
    if (!charged) Charge(size, mark);
    if (root_line_ < 0) root_line_ = mark.line;
    if (anchor != 0) anchors_[anchor] = {v, size};
    if (stack_.empty()) {
      root_ = std::move(v);
      return;
    }
    Frame& parent = stack_.back();
    parent.size += size;
    if (parent.value.is_array()) {
      parent.value.push_back(std::move(v));
      return;
    }
    parent.has_key = false;
    if (!parent.merge) {
      parent.value[parent.key] = std::move(v);
      return;
    }
    // goyaml.v2 writes merged entries in place; of a list of maps, earlier ones win.
    std::vector<const Json*> sources;
    if (v.is_object()) sources.push_back(&v);
    if (v.is_array()) {
      for (std::size_t i = v.size(); i-- > 0;) sources.push_back(&v[i]);
    }
    if (sources.empty()) Fail(mark, "map merge requires map or sequence of maps as the value");
    for (const Json* src : sources) {
      if (!src->is_object()) Fail(mark, "map merge requires map or sequence of maps as the value");
      for (auto it = src->begin(); it != src->end(); ++it) parent.value[it.key()] = it.value();
    }
  }

  // sigs.k8s.io/yaml turns the Go value of a key into a JSON object key.
  static std::string KeyFromValue(const Json& v, const YAML::Mark& mark) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > 9223372036854775807ULL) {
      Fail(mark, "unsupported map key of type: uint64");
    }
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number_float()) {
      std::string s = yaml_internal::FormatGoFloat(v.get<double>(), 32);
      if (s == "+Inf") return ".inf";
      if (s == "-Inf") return "-.inf";
      if (s == "NaN") return ".nan";
      return s;
    }
    if (v.is_structured()) Fail(mark, "invalid map key: a collection cannot be a key");
    Fail(mark, "unsupported map key of type: <nil>");
  }

  std::size_t budget_;
  std::size_t max_docs_;
  std::vector<Doc> docs_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, std::pair<Json, std::size_t>> anchors_;
  std::optional<Json> root_;
  int root_line_ = -1;
};

// Line numbers (0-based) of document markers at column 0.
std::vector<int> MarkerLines(std::string_view text) {
  std::vector<int> lines;
  int line = 0;
  for (std::size_t i = 0; i <= text.size(); ++line) {
    std::string_view rest = text.substr(i);
    if (rest.rfind("---", 0) == 0 || rest.rfind("...", 0) == 0) lines.push_back(line);
    std::size_t nl = text.find('\n', i);
    if (nl == std::string_view::npos) break;
    i = nl + 1;
  }
  return lines;
}

std::optional<YamlDocument> TryJson(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return std::nullopt;
  if (FirstTooDeep(text, kMaxDepth) != std::string_view::npos) return std::nullopt;
  Json v = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) return std::nullopt;
  int line = 1;
  for (std::size_t i = 0; i < start; ++i) line += text[i] == '\n';
  return YamlDocument{std::move(v), line};
}

Result<std::vector<YamlDocument>> ConvertAll(std::string_view text, bool keep_null) {
  std::string copy(text);
  std::istringstream in(copy);
  YAML::Parser parser(in);
  JsonBuilder builder(4 * text.size() + 1024, text.size() / 3 + 1);
  try {
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const BuildError& e) {
    return e.status;
  }
  std::vector<int> markers = MarkerLines(text);
  std::vector<YamlDocument> docs;
  int previous_line = -1;
  for (JsonBuilder::Doc& d : builder.docs()) {
    if (d.value.is_null()) {
      if (keep_null) docs.push_back({std::move(d.value), d.line + 1});
      continue;
    }
    if (previous_line >= 0) {
      bool separated = false;
      for (int m : markers) separated = separated || (m > previous_line && m <= d.line);
      // yaml-cpp silently starts a new document where goyaml.v2 reports an error.
      if (!separated) return SyntaxError(d.line, 0, "did not find expected <document start>");
    }
    previous_line = d.line;
    docs.push_back({std::move(d.value), d.line + 1});
  }
  return docs;
}

Result<std::vector<YamlDocument>> LoadAll(std::string_view text, bool keep_null) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.remove_prefix(3);
  RETURN_IF_ERROR(CheckText(text));
  if (std::optional<YamlDocument> doc = TryJson(text)) {
    std::vector<YamlDocument> docs;
    docs.push_back(std::move(*doc));
    return docs;
  }
  try {
    return ConvertAll(text, keep_null);
  } catch (const YAML::Exception& e) {
    return SyntaxError(e.mark.line, e.mark.column, e.msg);
  } catch (const std::exception& e) {
    return Status::BadRequest(std::string("yaml: ") + e.what());
  }
}

}  // namespace

Result<std::vector<YamlDocument>> LoadYamlDocuments(std::string_view text) {
  return LoadAll(text, /*keep_null=*/false);
}

Result<Json> LoadYaml(std::string_view text) {
  ASSIGN_OR_RETURN(std::vector<YamlDocument> docs, LoadAll(text, /*keep_null=*/true));
  if (docs.empty()) return Status::BadRequest("yaml: no document found");
  if (docs.size() > 1) {
    return Status::BadRequest("yaml: expected one document, found " + std::to_string(docs.size()) +
                              " (second at line " + std::to_string(docs[1].line) + ")");
  }
  return std::move(docs[0].value);
}

}  // namespace lws::api
