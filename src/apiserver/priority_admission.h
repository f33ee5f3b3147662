// File: apiserver/priority_admission.h
//
// kube-apiserver's Priority admission plugin (plugin/pkg/admission/priority), always on, first in
// the chain as kube-apiserver orders its plugins:
//   - a pod created with spec.priorityClassName gets that PriorityClass's value as spec.priority
//     and its preemptionPolicy; a class that does not exist is Forbidden ("no PriorityClass with
//     name X was found"); without a class, the globalDefault class's (the smallest if several),
//     else priority 0 and PreemptLowerPriority. A priority or policy given in the spec that
//     differs from the computed one is Forbidden, with upstream's words.
//   - a pod update keeps the stored priority and policy when the body leaves them out.
//   - a PriorityClass marked globalDefault is Forbidden while another one is the default.
// The classes are read from the store, listed again only after a write to them.
#pragma once

#include <memory>

#include "admission/admission.h"
#include "store/store.h"

namespace lws::apiserver {

// REQUIRES: `store` outlives the plugin.
std::shared_ptr<admission::AdmissionPlugin> NewPriorityAdmission(store::Store* store);

}  // namespace lws::apiserver
