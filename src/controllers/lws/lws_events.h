// File: controllers/lws/lws_events.h
//
// The reasons and notes of the events the LeaderWorkerSet reconciler records (spec section 20),
// as pure string builders so that the reconciler and its tests share one spelling. `lws_name` is
// the LWS name L (also the leader StatefulSet's name); `error` is the text of the failed request's
// Status (Go prints the error with %v, i.e. its message).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "controllers/group/event_reasons.h"

namespace lws::controllers {

// ---- CreatingRevision (spec 6 steps 3 and 4) ----------------------------------------------------

// "Creating revision with key <k> for a newly created LeaderWorkerSet" (no leader sts yet).
std::string NewLwsRevisionNote(std::string_view key);
// "Creating missing revision with key <k> for existing LeaderWorkerSet" (the leader sts carries a
// key no revision has, Q16).
std::string MissingRevisionNote(std::string_view key);
// "Creating revision with key <k> for updated LWS" (step 4 found a template update).
std::string UpdatedRevisionNote(std::string_view key);

// ---- Leader StatefulSet (spec 6 steps 6-7) ------------------------------------------------------

// `leaders`: what runs the leaders, "statefulset", or "deployment" with groupIdentity Hash.
// "Created leader statefulset <L>".
std::string CreatedLeaderStatefulSetNote(std::string_view lws_name,
                                         std::string_view leaders = "statefulset");
// "Failed to create leader statefulset <L>: <err>".
std::string FailedCreateLeaderNote(std::string_view lws_name, std::string_view error,
                                   std::string_view leaders = "statefulset");
// "Failed to update leader statefulset <L>: <err>".
std::string FailedUpdateLeaderNote(std::string_view lws_name, std::string_view error,
                                   std::string_view leaders = "statefulset");
// "Updating replica <p>" when old_partition - 1 == new_partition, else
// "Updating replicas <p> to <old_partition - 1> (inclusive)"; the range can run backwards when the
// user raises the partition (Q8: "Updating replicas 4 to -1 (inclusive)").
std::string GroupsUpdatingNote(std::int32_t new_partition, std::int32_t old_partition);

// ---- Headless service (spec 6 step 8) -----------------------------------------------------------

// "Failed to create headless service for error: <err>".
std::string FailedCreateServiceNote(std::string_view error);

// ---- Surge reclaim (spec 11; also ordinary scale-downs, Q7) -------------------------------------

// "deleting surge replica <L>-<from>" when from == sts_replicas - 1, else
// "deleting surge replicas from <L>-<from> to <L>-<sts_replicas - 1>".
std::string DeletingSurgeNote(std::string_view lws_name, std::int32_t from,
                              std::int32_t sts_replicas);

// ---- Conditions (spec 12) -----------------------------------------------------------------------

// "<message>, with <ready> groups ready of total <replicas> groups".
std::string ConditionEventNote(std::string_view message, std::int32_t ready, std::int32_t replicas);

}  // namespace lws::controllers
