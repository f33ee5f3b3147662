// File: client/rest/rest_decode.h
//
// What the REST client makes of an API server's answers: JSON for a 2xx answer, the server's
// Status (reason, message, causes) for anything else, and the store's immutable objects for
// what reads return, so that a REST informer holds the same kind of object as a local one.
#pragma once

#include <string>

#include "api/codec.h"
#include "base/result.h"
#include "client/rest/http_transport.h"
#include "store/object.h"
#include "store/store.h"

namespace lws::rest {

using api::Json;

// The answer's JSON body when its status is 2xx; otherwise the error it carries: the decoded
// metav1.Status (client::StatusFromAnswer), or, for a body that is none (a proxy's HTML page),
// the HTTP status and the start of the body, naming `method` and `url`.
Result<Json> DecodeAnswer(const HttpAnswer& answer, const std::string& method,
                          const std::string& url);

// A list answer ({"kind": "PodList", "metadata": {...}, "items": [...]}) as the store's result.
// Items lacking kind and apiVersion (kube-apiserver omits them for built-in types) get the
// list's, with "List" cut off the kind, so that every object looks as a watch delivers it.
Result<store::ListResult> ListResultFrom(Json list);

}  // namespace lws::rest
