// The API errors the store returns, with upstream's messages, and the Status object that
// carries an error to clients (store/object.h).
#include "store/object.h"

namespace lws::store {

std::string QualifiedKind(const api::ResourceInfo& info) {
  return info.group.empty() ? info.kind : info.kind + "." + info.group;
}

Status NotFoundError(const api::ResourceInfo& info, std::string_view name) {
  return Status::NotFound(QualifiedResource(info) + " " + api::GoQuote(name) + " not found");
}

Status AlreadyExistsError(const api::ResourceInfo& info, std::string_view name) {
  return Status::AlreadyExists(QualifiedResource(info) + " " + api::GoQuote(name) +
                               " already exists");
}

Status ConflictError(std::string_view qualified, std::string_view name, std::string_view reason) {
  return Status::Conflict("Operation cannot be fulfilled on " + std::string(qualified) + " " +
                          api::GoQuote(name) + ": " + std::string(reason));
}

Status ModifiedConflictError(const api::ResourceInfo& info, std::string_view name) {
  return ConflictError(QualifiedResource(info), name,
                       "the object has been modified; please apply your changes to the latest "
                       "version and try again");
}

Json StatusJson(const Status& status) {
  Json out = {{"kind", "Status"},
              {"apiVersion", "v1"},
              {"metadata", Json::object()},
              {"status", status.ok() ? "Success" : "Failure"},
              {"message", status.message()},
              {"reason", std::string(status.reason())},
              {"code", status.http_code()}};
  if (!status.causes().empty()) {
    Json causes = Json::array();
    for (const auto& c : status.causes()) {
      causes.push_back({{"reason", c.type}, {"message", c.message}, {"field", c.field}});
    }
    out["details"] = {{"causes", std::move(causes)}};
  }
  return out;
}

}  // namespace lws::store
