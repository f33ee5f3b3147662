// File: api/event_validation.h
//
// Validation of Events as kube-apiserver v1.32 does it (pkg/apis/core/validation/events.go),
// over the stored core/v1 form, with upstream's field paths (core names, also for requests made
// through events.k8s.io/v1) and messages:
//   every Event (legacyValidateEvent): the namespace a DNS-1123 subdomain; without eventTime
//     (an old-style event) involvedObject.namespace matches the event's namespace, or is empty
//     in default; with eventTime, reportingController (a qualified name), reportingInstance,
//     action and reason are required, and length limits hold (128; message 1024).
//   through events.k8s.io/v1 (strict): object metadata; eventTime required; type Normal or
//     Warning; firstTimestamp, lastTimestamp, count and source unset; series with count >= 2
//     and lastObservedTime. Updates keep the event's identity fields (involvedObject, reason,
//     message, source, timestamps, count, type, eventTime, action, related, reportingController,
//     reportingInstance) and validate a changed series.
// Events written through core/v1 get only the legacy rules, for backwards compatibility.
#pragma once

#include "api/field.h"

namespace lws::api {

enum class EventApi { kCoreV1, kEventsV1 };

// The errors of creating (`old == nullptr`) or updating the core/v1 Event `event` through `api`.
// Never throws, whatever the JSON shape.
ErrorList ValidateEvent(const Json& event, const Json* old, EventApi api);

}  // namespace lws::api
