// File: apiserver/http.h
//
// The transport's plain request and response (transport/http.h) by the names the handlers use:
// the API server decides what to answer, the transport (lws_http) carries it.
#pragma once

#include "transport/http.h"

namespace lws::apiserver {

using transport::HttpHandler;
using transport::HttpHeaders;
using transport::HttpRequest;
using transport::HttpResponse;
using transport::ResponseStream;

}  // namespace lws::apiserver
