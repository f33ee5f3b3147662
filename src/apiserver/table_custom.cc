// Custom-resource rows (apiextensions-apiserver tableconvertor), the default printer
// (apiserver's DefaultTableConvertor) and the JSON readers every printer shares.
#include <cmath>
#include <limits>

#include "apiserver/table_printers.h"

namespace lws::apiserver::table_internal {

namespace {

api::PrinterColumn Column(std::string name, std::string type, std::string format,
                          std::string description, int priority = 0) {
  api::PrinterColumn c;
  c.name = std::move(name);
  c.type = std::move(type);
  c.format = std::move(format);
  c.description = std::move(description);
  c.priority = priority;
  return c;
}

// tableconvertor's cellForJSONValue: the value of a non-string column by its declared type;
// null when the value does not have that type.
Json CellForJsonValue(const std::string& type, const Json& value, Time now) {
  if (value.is_null()) return nullptr;
  if (type == "integer") {
    if (value.is_number_integer()) return value;
    if (value.is_number_float()) {
      double f = value.get<double>();
      // Go's int64(float64) is undefined out of range; clamp instead.
      if (!(f > -9.2e18)) return std::numeric_limits<std::int64_t>::min();
      if (!(f < 9.2e18)) return std::numeric_limits<std::int64_t>::max();
      return static_cast<std::int64_t>(f);
    }
    return nullptr;
  }
  if (type == "number") {
    return value.is_number() ? Json(value.get<double>()) : Json(nullptr);
  }
  if (type == "boolean") return value.is_boolean() ? value : Json(nullptr);
  if (type == "date") {
    if (!value.is_string()) return nullptr;
    const std::string& text = value.get_ref<const std::string&>();
    // metav1.Time.UnmarshalQueryParameter: "" and "null" are the zero time.
    if (text.empty() || text == "null") return "<unknown>";
    Result<Time> t = ParseRfc3339(text);
    if (!t.ok()) return "<invalid>";
    return HumanDuration(now - *t);
  }
  return nullptr;
}

Row DefaultRow(const Json& object, Time now) {
  Row row;
  std::string created = StringAt(object, {"metadata", "creationTimestamp"});
  Result<Time> t = ParseRfc3339(created);
  // Go formats the zero time of an unset timestamp.
  row.cells = Json::array({NameOf(object), t.ok() ? FormatRfc3339(*t) : "0001-01-01T00:00:00Z"});
  return row;
}

}  // namespace

const Printer& DefaultPrinter() {
  static const Printer* const printer =
      new Printer{{Column("Name", "string", "name", kNameDescription),
                   Column("Created At", "date", "", kCreationTimestampDescription)},
                  DefaultRow};
  return *printer;
}

CustomRowPrinter::CustomRowPrinter(const api::ResourceInfo& resource) {
  columns_.push_back(Column("Name", "string", "name", kNameDescription));
  std::vector<api::PrinterColumn> declared = resource.printer_columns;
  if (declared.empty()) {
    api::PrinterColumn age = Column("Age", "date", "", kCreationTimestampDescription);
    age.json_path = ".metadata.creationTimestamp";
    declared.push_back(age);
  }
  for (const api::PrinterColumn& c : declared) {
    Result<JsonPath> path = JsonPath::Parse("{" + c.json_path + "}");
    // tableconvertor.New stops at the first unparsable column; CRD validation rejects them, so
    // this only guards against CRDs stored before validation.
    if (!path.ok()) break;
    api::PrinterColumn column = c;
    if (column.description.empty()) {
      column.description = "Custom resource definition column (in JSONPath format): " + c.json_path;
    }
    columns_.push_back(std::move(column));
    paths_.push_back(std::move(*path));
  }
}

Row CustomRowPrinter::RowFor(const Json& object, Time now) const {
  Row row;
  row.cells.push_back(NameOf(object));
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    const std::string& type = columns_[i + 1].type;
    Result<std::vector<std::vector<Json>>> results = paths_[i].FindResults(object, true);
    if (!results.ok() || results->empty() || results->front().empty()) {
      row.cells.push_back(nullptr);
      continue;
    }
    // Printer columns are simple paths: the first value is the cell (tableconvertor).
    const Json& value = results->front().front();
    if (type == "string") {
      // jsonpath prints a nil interface as "<no value>".
      row.cells.push_back(value.is_null() ? "<no value>" : JsonPathText(value));
    } else {
      row.cells.push_back(CellForJsonValue(type, value, now));
    }
  }
  return row;
}

const Json* At(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* cur = &object;
  for (std::string_view key : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

std::string StringAt(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* v = At(object, path);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

std::int64_t IntAt(const Json& object, std::initializer_list<std::string_view> path) {
  const Json* v = At(object, path);
  if (v == nullptr || !v->is_number()) return 0;
  if (v->is_number_integer()) return v->get<std::int64_t>();
  double f = v->get<double>();
  return std::isfinite(f) && std::fabs(f) < 9.2e18 ? static_cast<std::int64_t>(f) : 0;
}

const Json& ArrayAt(const Json& object, std::initializer_list<std::string_view> path) {
  static const Json kEmpty = Json::array();
  const Json* v = At(object, path);
  return v != nullptr && v->is_array() ? *v : kEmpty;
}

std::optional<Time> TimeAt(const Json& object, std::initializer_list<std::string_view> path) {
  std::string text = StringAt(object, path);
  if (text.empty()) return std::nullopt;
  Result<Time> t = ParseRfc3339(text);
  if (!t.ok()) return std::nullopt;
  return *t;
}

std::string NameOf(const Json& object) { return StringAt(object, {"metadata", "name"}); }

std::string AgeOf(const Json& object, Time now) {
  return TimestampAge(StringAt(object, {"metadata", "creationTimestamp"}), now);
}

std::string FormatLabels(const Json& map) {
  std::string out;
  if (map.is_object()) {
    for (const auto& [key, value] : map.items()) {
      if (!out.empty()) out += ",";
      out += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  return out.empty() ? "<none>" : out;
}

}  // namespace lws::apiserver::table_internal
