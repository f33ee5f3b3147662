// File: transport/http.cc
#include "transport/http.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "base/assert.h"

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

HttpResponse StatusResponse(const Status& status) {
  LWS_ASSERT(!status.ok(), "StatusResponse answers failures only");
  // nlohmann's object keeps its members sorted, as the API server's documents are.
  nlohmann::json body = nlohmann::json::object();
  body["kind"] = "Status";
  body["apiVersion"] = "v1";
  body["metadata"] = nlohmann::json::object();
  body["status"] = "Failure";
  if (!status.message().empty()) body["message"] = status.message();
  body["reason"] = std::string(status.reason());
  if (!status.causes().empty()) {
    nlohmann::json causes = nlohmann::json::array();
    for (const FieldCause& c : status.causes()) {
      nlohmann::json cause = nlohmann::json::object();  // metav1.StatusCause: all omitempty
      if (!c.type.empty()) cause["reason"] = c.type;
      if (!c.message.empty()) cause["message"] = c.message;
      if (!c.field.empty()) cause["field"] = c.field;
      causes.push_back(std::move(cause));
    }
    body["details"]["causes"] = std::move(causes);
  }
  body["code"] = status.http_code();
  HttpResponse response;
  response.status = status.http_code();
  response.headers.Add("Content-Type", "application/json");
  response.body = body.dump();
  return response;
}

}  // namespace lws::transport
