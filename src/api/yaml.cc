// YAML loading: yaml-cpp builds the node graph, this file resolves it to JSON the way
// sigs.k8s.io/yaml (goyaml.v2 + JSON conversion) does. See yaml.h for the rules.
#include "api/yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

using yaml_internal::ResolvePlain;

constexpr int kMaxDepth = 1000;
constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

Status SyntaxError(int line, int column, std::string_view reason) {
  return Status::BadRequest("yaml: line " + std::to_string(line < 0 ? 1 : line + 1) + ", column " +
                            std::to_string(column < 0 ? 1 : column + 1) + ": " + std::string(reason));
}

Status NodeError(const YAML::Node& n, std::string_view reason) {
  return SyntaxError(n.Mark().line, n.Mark().column, reason);
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
Result<Json> NumberForJson(double v, const YAML::Node& n) {
  if (!std::isfinite(v)) return NodeError(n, "json: unsupported value: " + yaml_internal::GoFloatV(v));
  if (v == std::floor(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
    return Json(static_cast<std::int64_t>(v));
  }
  return Json(v);
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// !!binary: standard base64 (line breaks allowed); bytes that are not UTF-8 become U+FFFD, as
// Go's json.Marshal writes them.
Result<Json> DecodeBinary(const YAML::Node& n) {
  std::string bytes;
  unsigned bits = 0;
  int nbits = 0;
  std::size_t pad = 0;
  for (char c : n.Scalar()) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++pad;
      continue;
    }
    int v = Base64Value(c);
    if (v < 0 || pad > 0) return NodeError(n, "!!binary value contains invalid base64 data");
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

// The Go value of a scalar node under its tag; ints and floats are not yet JSON-normalized.
Result<Json> ScalarValue(const YAML::Node& n) {
  const std::string& tag = n.Tag();
  const std::string& text = n.Scalar();
  if (tag == "?") return ResolvePlain(text);
  if (tag.rfind(kTagPrefix, 0) != 0) return Json(text);  // "!", local and unknown tags
  std::string_view kind = std::string_view(tag).substr(kTagPrefix.size());
  if (kind == "binary") return DecodeBinary(n);
  if (kind != "int" && kind != "float" && kind != "bool") return Json(text);
  Json v = ResolvePlain(text);
  bool ok = (kind == "bool" && v.is_boolean()) ||
            (kind == "int" && (v.is_number_integer())) ||
            (kind == "float" && v.is_number());
  if (!ok) {
    std::string got = v.is_string() ? "str" : v.is_null() ? "null" : v.is_boolean() ? "bool" : "float";
    if (v.is_number_integer()) got = "int";
    return NodeError(n, "cannot decode !!" + got + " `" + text + "` as a !!" + std::string(kind));
  }
  if (kind == "float" && v.is_number_integer()) return Json(v.get<double>());
  return v;
}

class Converter {
 public:
  explicit Converter(std::size_t budget) : budget_(budget) {}

  Result<Json> Convert(const YAML::Node& n, int depth) {
    if (depth > kMaxDepth) return NodeError(n, "exceeded max depth of " + std::to_string(kMaxDepth));
    if (budget_ == 0) return NodeError(n, "document contains excessive aliasing");
    --budget_;
    switch (n.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return Json();
      case YAML::NodeType::Scalar: {
        ASSIGN_OR_RETURN(Json v, ScalarValue(n));
        if (v.is_number_float()) return NumberForJson(v.get<double>(), n);
        return v;
      }
      case YAML::NodeType::Sequence: {
        Json out = Json::array();
        for (const YAML::Node& item : n) {
          ASSIGN_OR_RETURN(Json v, Convert(item, depth + 1));
          out.push_back(std::move(v));
        }
        return out;
      }
      case YAML::NodeType::Map:
        return Mapping(n, depth);
    }
    return Json();
  }

 private:
  static bool IsMergeKey(const YAML::Node& k) {
    return k.Type() == YAML::NodeType::Scalar && k.Tag() == "?" && k.Scalar() == "<<";
  }

  Result<Json> Mapping(const YAML::Node& n, int depth) {
    Json out = Json::object();
    for (const auto& entry : n) {
      if (IsMergeKey(entry.first)) {
        RETURN_IF_ERROR(Merge(entry.second, &out, depth + 1));
        continue;
      }
      ASSIGN_OR_RETURN(std::string key, Key(entry.first));
      ASSIGN_OR_RETURN(Json v, Convert(entry.second, depth + 1));
      out[key] = std::move(v);
    }
    return out;
  }

  // goyaml.v2 writes merged entries into the map at the point of the `<<` key; a sequence of
  // maps is applied last to first so that earlier maps win.
  Status Merge(const YAML::Node& v, Json* out, int depth) {
    std::vector<YAML::Node> sources;
    if (v.IsMap()) {
      sources.push_back(v);
    } else if (v.IsSequence()) {
      for (std::size_t i = v.size(); i-- > 0;) sources.push_back(v[i]);
    }
    if (sources.empty()) return NodeError(v, "map merge requires map or sequence of maps as the value");
    for (const YAML::Node& s : sources) {
      if (!s.IsMap()) return NodeError(s, "map merge requires map or sequence of maps as the value");
      ASSIGN_OR_RETURN(Json merged, Convert(s, depth));
      for (auto it = merged.begin(); it != merged.end(); ++it) (*out)[it.key()] = it.value();
    }
    return Status::Ok();
  }

  // sigs.k8s.io/yaml turns the Go value of a key into a JSON object key.
  Result<std::string> Key(const YAML::Node& k) {
    if (k.Type() == YAML::NodeType::Map || k.Type() == YAML::NodeType::Sequence) {
      return NodeError(k, "invalid map key: a collection cannot be a key");
    }
    if (k.Type() != YAML::NodeType::Scalar) return NodeError(k, "unsupported map key of type: <nil>");
    ASSIGN_OR_RETURN(Json v, ScalarValue(k));
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > 9223372036854775807ULL) {
      return NodeError(k, "unsupported map key of type: uint64");
    }
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number_float()) {
      std::string s = yaml_internal::FormatGoFloat(v.get<double>(), 32);
      if (s == "+Inf") return std::string(".inf");
      if (s == "-Inf") return std::string("-.inf");
      if (s == "NaN") return std::string(".nan");
      return s;
    }
    return NodeError(k, "unsupported map key of type: <nil>");
  }

  std::size_t budget_;
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

// The nesting depth of a JSON text, counted without recursion.
int JsonDepth(std::string_view text) {
  int depth = 0, max_depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return max_depth;
}

std::optional<YamlDocument> TryJson(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return std::nullopt;
  if (JsonDepth(text) > kMaxDepth) return std::nullopt;
  Json v = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) return std::nullopt;
  int line = 1;
  for (std::size_t i = 0; i < start; ++i) line += text[i] == '\n';
  return YamlDocument{std::move(v), line};
}

Result<std::vector<YamlDocument>> ConvertAll(std::string_view text, bool keep_null) {
  std::vector<YAML::Node> nodes = YAML::LoadAll(std::string(text));
  std::vector<int> markers = MarkerLines(text);
  std::vector<YamlDocument> docs;
  Converter converter(4 * text.size() + 1024);
  int previous_line = -1;
  for (const YAML::Node& n : nodes) {
    ASSIGN_OR_RETURN(Json v, converter.Convert(n, 0));
    int line = n.Mark().line;
    if (v.is_null()) {
      if (keep_null) docs.push_back({std::move(v), line + 1});
      continue;
    }
    if (previous_line >= 0) {
      bool separated = false;
      for (int m : markers) separated = separated || (m > previous_line && m <= line);
      // yaml-cpp silently starts a new document where goyaml.v2 reports an error.
      if (!separated) return NodeError(n, "did not find expected <document start>");
    }
    previous_line = line;
    docs.push_back({std::move(v), line + 1});
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
