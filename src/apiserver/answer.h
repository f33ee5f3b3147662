// File: apiserver/answer.h
//
// What a handler answers, before it takes one of its two forms: the HTTP response the transport
// sends (RequestHandler::Run), or the write port's Result<ObjectPtr> (PortAnswer in
// request_handler.h). A handler that answers with a stored object names it in `object`, so the
// port hands its caller that object itself instead of bytes the caller would parse again; HTTP
// sends `http.body`, the object's bytes, which an in-process request leaves empty.
#pragma once

#include <utility>

#include "store/object.h"
#include "transport/http.h"

namespace lws::apiserver {

struct Answer {
  Answer() = default;
  // A document, a Status or a stream: everything but a stored object. Implicit by design.
  Answer(transport::HttpResponse response) : http(std::move(response)) {}  // NOLINT: implicit

  transport::HttpResponse http;
  store::ObjectPtr object;  // the stored object answered, when there is one
};

}  // namespace lws::apiserver
