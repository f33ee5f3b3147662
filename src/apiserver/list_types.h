// File: apiserver/list_types.h
//
// The list types server-side apply and managedFields tracking use for a resource: a custom
// resource's from its CRD schema (x-kubernetes-list-type/-map-keys), a built-in kind's from the
// strategic-merge table, as upstream derives the built-in types' schema from the same Go tags.
#pragma once

#include "api/resources.h"
#include "apiserver/apply_schema.h"

namespace lws::apiserver {

ListTypeProvider ListTypesFor(const api::ResourceInfo& resource);

}  // namespace lws::apiserver
