// File: transport/http.cc
#include "transport/http.h"

#include <algorithm>
#include <cctype>

namespace lws::transport {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string HttpHeaders::Get(std::string_view name) const {
  for (const auto& [key, value] : fields) {
    if (EqualsIgnoreCase(key, name)) return value;
  }
  return "";
}

bool HttpHeaders::Has(std::string_view name) const {
  return std::any_of(fields.begin(), fields.end(),
                     [&](const auto& field) { return EqualsIgnoreCase(field.first, name); });
}

}  // namespace lws::transport
