// File: store/document_object.h
//
// A document an API server answered with, as a stored version: what the HTTP client reads off
// the wire and what the API server's write port answers when its answer is not a stored object
// (a Status document of a delete or a binding), and the Status an error answer carries.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"
#include "store/object.h"

namespace lws::store {

// The Status an API error answer (a metav1.Status document) carries: its code from the reason
// (or `http_code`), message and field causes.
Status StatusFromDocument(int http_code, const Json& document);

// Parses a decimal resourceVersion as the API serves it ("123"); anything else is BadRequest.
Result<std::uint64_t> ParseResourceVersionText(std::string_view text);

// `document` as a stored version: its resourceVersion parsed from metadata.resourceVersion (0
// when absent, as in a Status document), the JSON otherwise kept as sent (MakeStoredObject would
// add metadata to a Status document). Internal when it is not an object or its resourceVersion
// is not a number.
Result<ObjectPtr> DocumentObject(Json document);

}  // namespace lws::store
