// File: api/json_depth.cc
#include "api/json_depth.h"

#include <utility>
#include <vector>

namespace lws::api {

namespace {

std::string DepthMessage(char bracket) {
  return std::string("invalid character '") + bracket + "' exceeded max depth";
}

}  // namespace

std::size_t FirstTooDeep(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::string JsonTextDepthError(std::string_view text) {
  const std::size_t at = FirstTooDeep(text, kMaxJsonDepth);
  return at == std::string_view::npos ? "" : DepthMessage(text[at]);
}

std::string JsonDepthError(const Json& v) {
  std::vector<std::pair<const Json*, int>> stack = {{&v, 1}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node->is_structured()) continue;
    if (depth > kMaxJsonDepth) return DepthMessage(node->is_object() ? '{' : '[');
    for (const auto& child : *node) stack.emplace_back(&child, depth + 1);
  }
  return "";
}

}  // namespace lws::api
