// File: api/crd_embed.h
//
// What the embedded CRDs (api/lws_crd.h, api/disaggregatedset_crd.h) share: parsing the JSON the
// build linked in, and finding a version's schema in it. Both run once per CRD, behind a static.
#pragma once

#include <string_view>

#include "api/field.h"

namespace lws::api {

// Parses `text`, the compact JSON the build produced from deploy/crd/<file>. A failure is a build
// bug, so it asserts rather than returns.
Json ParseEmbeddedCrd(std::string_view text, std::string_view what);

// spec.versions[name=`version`].schema.openAPIV3Schema of `crd`; asserts that it exists.
const Json& CrdVersionSchema(const Json& crd, std::string_view version, std::string_view what);

}  // namespace lws::api
