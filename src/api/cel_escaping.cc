// Property names as CEL identifiers (k8s.io/apiserver/pkg/cel/escaping.go, Escape and
// Unescape): a property name may hold '.', '-' and '/', which CEL identifiers cannot, and may be
// a CEL keyword. `a.b-c` is selected as self.a__dot__b__dash__c, `true` as self.__true__.
#include <algorithm>
#include <array>

#include "api/cel_value.h"

namespace lws::api::cel {
namespace {

// celReservedSymbols: CEL's reserved words, which escape to __{word}__.
bool IsReserved(std::string_view s) {
  static constexpr std::array<std::string_view, 21> kReserved = {
      "true",     "false",   "null",      "in",       "as",  "break",  "const",
      "continue", "else",    "for",       "function", "if",  "import", "let",
      "loop",     "package", "namespace", "return",   "var", "void",   "while"};
  return std::find(kReserved.begin(), kReserved.end(), s) != kReserved.end();
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '/';
}

}  // namespace

bool EscapeName(std::string_view name, std::string* out) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  if (IsReserved(name)) {
    *out = "__" + std::string(name) + "__";
    return true;
  }
  out->clear();
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!IsNameChar(c)) return false;
    if (c == '_' && i + 1 < name.size() && name[i + 1] == '_') {
      *out += "__underscores__";
      ++i;
    } else if (c == '.') {
      *out += "__dot__";
    } else if (c == '-') {
      *out += "__dash__";
    } else if (c == '/') {
      *out += "__slash__";
    } else {
      *out += c;
    }
  }
  return true;
}

// Unescape, made exact: a name is found only when escaping it gives `ident` back, as the
// apiextensions type declarations list fields by their escaped names.
bool UnescapeName(std::string_view ident, std::string* out) {
  if (ident.size() > 4 && ident.substr(0, 2) == "__" && ident.substr(ident.size() - 2) == "__" &&
      IsReserved(ident.substr(2, ident.size() - 4))) {
    *out = std::string(ident.substr(2, ident.size() - 4));
    return true;
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kCodes = {{
      {"__underscores__", "__"},
      {"__dot__", "."},
      {"__dash__", "-"},
      {"__slash__", "/"},
  }};
  out->clear();
  for (std::size_t i = 0; i < ident.size();) {
    bool replaced = false;
    for (const auto& [code, text] : kCodes) {
      if (ident.substr(i, code.size()) == code) {
        *out += text;
        i += code.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) *out += ident[i++];
  }
  std::string again;
  return EscapeName(*out, &again) && again == ident;
}

}  // namespace lws::api::cel
