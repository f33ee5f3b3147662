// File: controllers/group/event_reasons.h
//
// The reasons of the events the LWS controllers record (spec section 20), in one place for both
// controllers: users filter `kubectl get events` on them, so they must be upstream's exactly.
#pragma once

#include <string>

namespace lws::controllers {

inline const std::string kReasonCreatingRevision = "CreatingRevision";
inline const std::string kReasonGroupsProgressing = "GroupsProgressing";
inline const std::string kReasonGroupsUpdating = "GroupsUpdating";
inline const std::string kReasonRecreateGroup = "RecreateGroup";
inline const std::string kReasonFailedCreate = "FailedCreate";
inline const std::string kReasonFailedUpdate = "FailedUpdate";

}  // namespace lws::controllers
