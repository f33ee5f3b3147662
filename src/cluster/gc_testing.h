// File: cluster/gc_testing.h
//
// Builders shared by the garbage collector's tests. Test-only.
#pragma once

#include "store/store_testing.h"

namespace lws::cluster::testing {

// `object` with an ownerReference to `owner` (a stored object of `info`) appended.
inline api::Json OwnedBy(api::Json object, const api::ResourceInfo& info,
                         const store::ObjectPtr& owner, bool block = false) {
  api::Json ref = {{"apiVersion", info.ApiVersion()},
                   {"kind", info.kind},
                   {"name", store::MetaString(owner->json, "name")},
                   {"uid", store::MetaString(owner->json, "uid")}};
  if (block) ref["blockOwnerDeletion"] = true;
  object["metadata"]["ownerReferences"].push_back(ref);
  return object;
}

}  // namespace lws::cluster::testing
