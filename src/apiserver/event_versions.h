// File: apiserver/event_versions.h
//
// events.k8s.io/v1 Events are another version of the core/v1 Events, not a second list: as in
// kube-apiserver, one stored object answers both APIs. The server stores the core/v1 form and
// converts at the edge (upstream pkg/apis/events/v1/conversion.go): the v1 names are the core
// ones renamed, at the top level only,
//
//   events.k8s.io/v1           core/v1
//   note                       message
//   regarding                  involvedObject
//   reportingController        reportingComponent
//   deprecatedSource           source
//   deprecatedFirstTimestamp   firstTimestamp
//   deprecatedLastTimestamp    lastTimestamp
//   deprecatedCount            count
//
// and every other field (eventTime, series, related, action, reason, type, reportingInstance,
// metadata) is the same. So the same renaming also converts a patch document, whatever its
// type, and a field selector.
//
// The functions are pure; handlers_events_v1.cc applies them to requests and answers.
#pragma once

#include <string>
#include <string_view>

#include "api/codec.h"
#include "apiserver/patch.h"
#include "base/result.h"

namespace lws::apiserver {

inline constexpr std::string_view kEventsGroup = "events.k8s.io";
inline constexpr std::string_view kEventsV1ApiVersion = "events.k8s.io/v1";

// The core/v1 Event of an events.k8s.io/v1 Event (or of part of one: a merge or apply patch).
// apiVersion, when it names events.k8s.io/v1, becomes v1.
api::Json EventsV1ToCoreEvent(api::Json event);
// The events.k8s.io/v1 Event of a stored core/v1 Event.
api::Json CoreEventToEventsV1(api::Json event);

// An events.k8s.io/v1 patch of `type` as the same patch of the core/v1 object: top-level keys
// renamed (merge, strategic, apply), or each operation's "path" and "from" (JSON patch).
api::Json EventsV1PatchToCore(PatchType type, api::Json patch);

// An events.k8s.io/v1 field selector ("regarding.name=x,type!=Normal") in core/v1 field labels
// (upstream AddFieldLabelConversionsForEvent). 400 "field label not supported: <label>" for a
// label events.k8s.io/v1 does not select on.
Result<std::string> EventsV1FieldSelectorToCore(std::string_view selector);

// A JSON answer of the core/v1 events API as the events.k8s.io/v1 API gives it: an Event, an
// EventList, a Table's row objects, a watch event line, or a Status, whose messages and details
// name the events.k8s.io resource (`events.events.k8s.io "x" not found`). Other documents are
// returned unchanged.
api::Json CoreAnswerToEventsV1(api::Json answer);

}  // namespace lws::apiserver
