// File: apiserver/table.h
//
// Table responses for `kubectl get` (kubectl-compat.md sections 0.6 and 4): when the Accept
// header asks for `as=Table;g=meta.k8s.io;v=v1`, lists and objects are answered as
//
//   {"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":..},
//    "columnDefinitions":[{"name","type","format","description","priority"}, ...],
//    "rows":[{"cells":[...],"object":{PartialObjectMetadata}}]}
//
// The server formats every cell; kubectl only adds NAMESPACE (from rows[].object) and hides
// priority-1 columns unless -o wide. Columns come from three printers, as on a real server:
//   1. Built-in resources: the column sets and cell logic of kubernetes
//      pkg/printers/internalversion/printers.go (pods' Status/Restarts logic included), always
//      with the wide columns, since the server prints with Wide=true.
//   2. Custom resources: Name plus the CRD's additionalPrinterColumns (Age when it has none),
//      evaluated with jsonpath.h and formatted by type as apiextensions' tableconvertor does:
//      missing values give null cells, "date" columns an age.
//   3. Anything else (CRDs themselves): Name and "Created At" (RFC 3339), apiserver's default.
// Ages use apimachinery's HumanDuration against TableOptions::now; this code never reads a clock.
// All functions are pure and total: malformed objects print as empty or "<unknown>" cells.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/resources.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::apiserver {

using Json = api::Json;

// What each row's "object" holds (the includeObject query parameter).
enum class IncludeObject {
  kNone,      // "object": null
  kMetadata,  // PartialObjectMetadata with the object's whole metadata (the default)
  kObject,    // the object itself
};

// Parses includeObject ("" means the default, Metadata); BadRequest for other values.
Result<IncludeObject> ParseIncludeObject(std::string_view value);

struct TableOptions {
  Time now;  // the instant Age cells are relative to
  IncludeObject include_object = IncludeObject::kMetadata;
  // Omits columnDefinitions (sent as null), as watch events after the first do.
  bool no_headers = false;
  // "meta.k8s.io/v1" or "meta.k8s.io/v1beta1", from NegotiateTable.
  std::string api_version = "meta.k8s.io/v1";
};

// The representation chosen for a GET or watch.
struct TableRepresentation {
  bool table = false;        // answer with a Table
  std::string api_version;   // of the Table when `table`
  std::string content_type;  // to send
};

// Picks a Table (v1, else v1beta1) when a preferred Accept range asks for as=Table;g=meta.k8s.io,
// else plain JSON; never refuses.
TableRepresentation NegotiateTable(std::string_view accept);

// The column definitions a table of `resource` has.
std::vector<api::PrinterColumn> TableColumns(const api::ResourceInfo& resource);

// A Table of the items of `list` (an XxxList); metadata carries the list's resourceVersion and
// continue token.
Json TableForList(const api::ResourceInfo& resource, const Json& list, const TableOptions& options);

// A one-row Table of `object`; metadata carries its resourceVersion.
Json TableForObject(const api::ResourceInfo& resource, const Json& object,
                    const TableOptions& options);

// A watch event in Table mode: {"type": type, "object": one-row Table}. The real server sends
// column definitions in the first event only (options.no_headers for the others).
Json TableWatchEvent(std::string_view type, const api::ResourceInfo& resource, const Json& object,
                     const TableOptions& options);

// apimachinery duration.HumanDuration: "0s", "59s", "119s", "2m", "5m30s", "10m", "3h",
// "3h5m", "8h", "2d", "2d3h", "8d", "2y", "2y10d", "8y"; "<invalid>" below -1s.
std::string HumanDuration(Duration d);

// HumanDuration(now - t) for an RFC 3339 timestamp; "<unknown>" when it is empty or unreadable.
std::string TimestampAge(std::string_view rfc3339, Time now);

}  // namespace lws::apiserver
