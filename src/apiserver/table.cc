#include "apiserver/table.h"

#include <optional>

#include "apiserver/media_type.h"
#include "apiserver/table_printers.h"

namespace lws::apiserver {

namespace {

using table_internal::CustomRowPrinter;
using table_internal::Printer;
using table_internal::Row;

// The printer of a resource, whichever of the three kinds of table.h it is.
class AnyPrinter {
 public:
  explicit AnyPrinter(const api::ResourceInfo& resource) {
    if (resource.custom) {
      custom_.emplace(resource);
      return;
    }
    builtin_ = table_internal::FindBuiltinPrinter(resource);
    if (builtin_ == nullptr) builtin_ = &table_internal::DefaultPrinter();
  }

  const std::vector<api::PrinterColumn>& columns() const {
    return custom_ ? custom_->columns() : builtin_->columns;
  }

  Row RowFor(const Json& object, Time now) const {
    return custom_ ? custom_->RowFor(object, now) : builtin_->row(object, now);
  }

 private:
  std::optional<CustomRowPrinter> custom_;
  const Printer* builtin_ = nullptr;
};

Json ColumnJson(const api::PrinterColumn& c) {
  return Json{{"name", c.name},
              {"type", c.type},
              {"format", c.format},
              {"description", c.description},
              {"priority", c.priority}};
}

Json RowObject(const Json& object, const TableOptions& options) {
  switch (options.include_object) {
    case IncludeObject::kNone:
      return nullptr;
    case IncludeObject::kObject:
      return object;
    case IncludeObject::kMetadata:
      break;
  }
  const Json* metadata = table_internal::At(object, {"metadata"});
  return Json{
      {"kind", "PartialObjectMetadata"},
      {"apiVersion", options.api_version},
      {"metadata", metadata != nullptr && metadata->is_object() ? *metadata : Json::object()}};
}

Json BuildTable(const api::ResourceInfo& resource, const std::vector<const Json*>& objects,
                Json metadata, const TableOptions& options) {
  AnyPrinter printer(resource);
  Json columns = nullptr;
  if (!options.no_headers) {
    columns = Json::array();
    for (const api::PrinterColumn& c : printer.columns()) columns.push_back(ColumnJson(c));
  }
  Json rows = Json::array();
  for (const Json* object : objects) {
    Row row = printer.RowFor(*object, options.now);
    Json out = {{"cells", std::move(row.cells)}};
    if (!row.conditions.is_null()) out["conditions"] = std::move(row.conditions);
    out["object"] = RowObject(*object, options);
    rows.push_back(std::move(out));
  }
  return Json{{"kind", "Table"},
              {"apiVersion", options.api_version},
              {"metadata", std::move(metadata)},
              {"columnDefinitions", std::move(columns)},
              {"rows", std::move(rows)}};
}

// ListMeta with the fields a Table copies from what it converts (omitempty).
Json TableMetadata(const Json& source, bool with_continue) {
  Json metadata = Json::object();
  std::string rv = table_internal::StringAt(source, {"metadata", "resourceVersion"});
  if (!rv.empty()) metadata["resourceVersion"] = rv;
  std::string token = table_internal::StringAt(source, {"metadata", "continue"});
  if (with_continue && !token.empty()) metadata["continue"] = token;
  return metadata;
}

}  // namespace

Result<IncludeObject> ParseIncludeObject(std::string_view value) {
  if (value.empty() || value == "Metadata") return IncludeObject::kMetadata;
  if (value == "None") return IncludeObject::kNone;
  if (value == "Object") return IncludeObject::kObject;
  return Status::BadRequest("includeObject: Unsupported value: \"" + std::string(value) +
                            "\": supported values: \"None\", \"Metadata\", \"Object\"");
}

TableRepresentation NegotiateTable(std::string_view accept) {
  for (const MediaRange& range : ParseAccept(accept)) {
    if (!range.Accepts("application", "json")) continue;
    std::string as = range.Param("as");
    if (as.empty()) break;
    if (as != "Table" || range.Param("g") != "meta.k8s.io") continue;
    std::string v = range.Param("v");
    if (v == "v1" || v == "v1beta1") {
      return {true, "meta.k8s.io/" + v, "application/json;as=Table;v=" + v + ";g=meta.k8s.io"};
    }
  }
  return {false, "", "application/json"};
}

std::vector<api::PrinterColumn> TableColumns(const api::ResourceInfo& resource) {
  return AnyPrinter(resource).columns();
}

Json TableForList(const api::ResourceInfo& resource, const Json& list,
                  const TableOptions& options) {
  std::vector<const Json*> items;
  for (const Json& item : table_internal::ArrayAt(list, {"items"})) items.push_back(&item);
  return BuildTable(resource, items, TableMetadata(list, true), options);
}

Json TableForObject(const api::ResourceInfo& resource, const Json& object,
                    const TableOptions& options) {
  return BuildTable(resource, {&object}, TableMetadata(object, false), options);
}

Json TableWatchEvent(std::string_view type, const api::ResourceInfo& resource, const Json& object,
                     const TableOptions& options) {
  return Json{{"type", type}, {"object", TableForObject(resource, object, options)}};
}

std::string HumanDuration(Duration d) {
  using std::chrono::duration_cast;
  const std::int64_t seconds = duration_cast<std::chrono::seconds>(d).count();
  auto str = [](std::int64_t v) { return std::to_string(v); };
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return str(seconds) + "s";
  const std::int64_t minutes = seconds / 60;
  if (minutes < 10) {
    std::int64_t s = seconds % 60;
    return s == 0 ? str(minutes) + "m" : str(minutes) + "m" + str(s) + "s";
  }
  if (minutes < 60 * 3) return str(minutes) + "m";
  const std::int64_t hours = minutes / 60;
  if (hours < 8) {
    std::int64_t m = minutes % 60;
    return m == 0 ? str(hours) + "h" : str(hours) + "h" + str(m) + "m";
  }
  if (hours < 48) return str(hours) + "h";
  if (hours < 24 * 8) {
    std::int64_t h = hours % 24;
    return h == 0 ? str(hours / 24) + "d" : str(hours / 24) + "d" + str(h) + "h";
  }
  if (hours < 24 * 365 * 2) return str(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    std::int64_t dy = (hours / 24) % 365;
    return dy == 0 ? str(hours / 24 / 365) + "y" : str(hours / 24 / 365) + "y" + str(dy) + "d";
  }
  return str(hours / 24 / 365) + "y";
}

std::string TimestampAge(std::string_view rfc3339, Time now) {
  if (rfc3339.empty()) return "<unknown>";
  Result<Time> t = ParseRfc3339(rfc3339);
  if (!t.ok()) return "<unknown>";
  return HumanDuration(now - *t);
}

}  // namespace lws::apiserver
