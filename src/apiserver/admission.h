// File: apiserver/admission.h
//
// The admission interface (admission/admission.h) by the names the server's handlers and its own
// plugins use.
#pragma once

#include "admission/admission.h"
#include "apiserver/user_info.h"

namespace lws::apiserver {

using admission::AdmissionChain;
using admission::AdmissionOperation;
using admission::AdmissionPlugin;
using admission::AdmissionRequest;
using admission::BuiltinResource;
using admission::OperationName;

}  // namespace lws::apiserver
