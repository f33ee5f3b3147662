// File: controllers/disaggregatedset/naming.h
//
// The names and labels of what a DisaggregatedSet creates (upstream pkg/utils/disaggregatedset
// utils.go; docs/disaggregatedset-upstream.md sections 3.2 and 3.3):
//
//   LeaderWorkerSet   <ds>-<slice>-<revision>-<role>    (before slices: <ds>-<revision>-<role>)
//   headless Service  <lws name>-prv
//   labels            app: <ds>-<slice>-<role>,
//   disaggregatedset.x-k8s.io/{role,slice,name,revision}
//
// The revision is the first 8 hex characters of a SHA-256 over the roles' names and LWS
// templates (revision.h).
#pragma once

#include <string>

#include "api/meta.h"

namespace lws::disaggregatedset {

inline constexpr std::string_view kServiceSuffix = "-prv";

std::string LwsName(const std::string& ds, int slice, const std::string& revision,
                    const std::string& role);
// The name an LWS had before upstream added slices; such an LWS counts as slice 0.
std::string LegacyLwsName(const std::string& ds, const std::string& revision,
                          const std::string& role);
std::string ServiceName(const std::string& lws_name);

// upstream GenerateLabels(ds, slice, revision, role).
api::StringMap DsLabels(const std::string& ds, int slice, const std::string& revision,
                        const std::string& role);

// The slice an object's labels put it in: a missing or empty slice label is slice 0 (objects made
// before slices); a label that is not a number is -1 (no slice of ours).
int SliceOfLabels(const api::StringMap& labels);

}  // namespace lws::disaggregatedset
