#include "api/field_selector.h"

#include <algorithm>

namespace lws::api {

namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

// utf8.DecodeRuneInString: the byte length of the rune at the start of `s` (not empty), and
// whether it is valid UTF-8. An invalid byte counts as a one-byte U+FFFD.
std::pair<std::size_t, bool> RuneAt(std::string_view s) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = b(0);
  if (lead < 0x80) return {1, true};
  std::size_t width = 0;
  unsigned char low = 0x80, high = 0xBF;  // Allowed range of the second byte.
  if (lead >= 0xC2 && lead <= 0xDF) {
    width = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    width = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    width = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return {1, false};
  }
  if (s.size() < width || b(1) < low || b(1) > high) return {1, false};
  for (std::size_t i = 2; i < width; ++i) {
    if (b(i) < 0x80 || b(i) > 0xBF) return {1, false};
  }
  return {width, true};
}

// splitTerms: cut at commas not escaped by a backslash; the backslashes stay in the terms.
std::vector<std::string_view> SplitTerms(std::string_view selector) {
  std::vector<std::string_view> terms;
  if (selector.empty()) return terms;
  std::size_t start = 0;
  bool in_slash = false;
  for (std::size_t i = 0; i < selector.size(); ++i) {
    if (in_slash) {
      in_slash = false;
    } else if (selector[i] == '\\') {
      in_slash = true;
    } else if (selector[i] == ',') {
      terms.push_back(selector.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(selector.substr(start));
  return terms;
}

struct SplitResult {
  std::string_view lhs;
  std::string_view op;
  std::string_view rhs;
};

// splitTerm: the first operator wins, "!=" and "==" before "=" at the same place.
std::optional<SplitResult> SplitTerm(std::string_view term) {
  for (std::size_t i = 0; i < term.size(); ++i) {
    for (std::string_view op : {"!=", "==", "="}) {
      if (term.substr(i).starts_with(op)) {
        return SplitResult{term.substr(0, i), op, term.substr(i + op.size())};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string EscapeFieldValue(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == ',' || c == '=') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

Result<std::string> UnescapeFieldValue(std::string_view value) {
  if (value.find_first_of("\\,=") == std::string_view::npos) return std::string(value);
  std::string out;
  bool in_slash = false;
  while (!value.empty()) {
    const auto [width, valid] = RuneAt(value);
    const std::string_view rune = valid ? value.substr(0, width) : kReplacementChar;
    value.remove_prefix(width);
    if (in_slash) {
      if (rune != "\\" && rune != "," && rune != "=") {
        return Status::BadRequest("invalid field selector: invalid escape sequence: \\" +
                                  std::string(rune));
      }
      out += rune;
      in_slash = false;
    } else if (rune == "\\") {
      in_slash = true;
    } else if (rune == "," || rune == "=") {
      // Go prints the rune with %v, which is its code point.
      return Status::BadRequest("invalid field selector: unescaped character in value: " +
                                std::to_string(static_cast<int>(rune[0])));
    } else {
      out += rune;
    }
  }
  if (in_slash) return Status::BadRequest("invalid field selector: invalid escape sequence: \\");
  return out;
}

Result<FieldSelector> FieldSelector::Parse(std::string_view text) {
  std::vector<std::string_view> parts = SplitTerms(text);
  std::sort(parts.begin(), parts.end());
  FieldSelector selector;
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    auto split = SplitTerm(part);
    if (!split) {
      return Status::BadRequest("invalid selector: '" + std::string(text) +
                                "'; can't understand '" + std::string(part) + "'");
    }
    ASSIGN_OR_RETURN(std::string value, UnescapeFieldValue(split->rhs));
    // Upstream's identity transform drops a term whose field and value are both empty ("=").
    if (split->lhs.empty() && value.empty()) continue;
    selector.terms_.push_back(
        {std::string(split->lhs),
         split->op == "!=" ? SelectionOperator::kNotEquals : SelectionOperator::kEquals,
         std::move(value)});
  }
  return selector;
}

FieldSelector FieldSelector::OneTermEqual(std::string field, std::string value) {
  FieldSelector selector;
  selector.terms_.push_back({std::move(field), SelectionOperator::kEquals, std::move(value)});
  return selector;
}

bool FieldSelector::Matches(const StringMap& fields) const {
  return std::all_of(terms_.begin(), terms_.end(), [&](const Term& term) {
    const auto it = fields.find(term.field);
    const std::string_view actual = it == fields.end() ? "" : std::string_view(it->second);
    return (actual == term.value) == (term.op == SelectionOperator::kEquals);
  });
}

std::string FieldSelector::String() const {
  std::string out;
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (i > 0) out += ",";
    out += terms_[i].field + (terms_[i].op == SelectionOperator::kEquals ? "=" : "!=") +
           EscapeFieldValue(terms_[i].value);
  }
  return out;
}

std::optional<std::string> FieldSelector::RequiresExactMatch(std::string_view field) const {
  for (const auto& term : terms_) {
    if (term.op == SelectionOperator::kEquals && term.field == field) return term.value;
  }
  return std::nullopt;
}

}  // namespace lws::api
