// File: apiserver/patch_go.h
//
// The Go runtime behaviours that leak into kube-apiserver's patch results and error messages,
// reproduced over decoded JSON. Upstream decodes JSON into interface{} values (string, int64,
// float64, bool, nil, map[string]interface{}, []interface{}); its patch code compares them with
// ==, uses them as map keys, prints them with %v and sorts them with sort.SliceStable. Each of
// those has observable quirks (a panic on comparing two maps, "map[a:1 b:x]" in messages, the
// placement of elements under an inconsistent less function), mirrored here:
//
//   1. Types: a JSON integer is int64 (nlohmann's unsigned values above INT64_MAX are float64, as
//      kube's int-preserving decoder makes them), other numbers float64. int64(1) != float64(1).
//   2. GoEqual is Go's == on two interface{} values: false for different types, a GoPanic for two
//      maps or two slices ("comparing uncomparable type").
//   3. RequireHashable throws the GoPanic Go raises when a map or slice is used as a map key.
//   4. GoSprintV / GoSprintS print like fmt's %v / %s (maps with sorted keys, "<nil>", floats in
//      %g form, "%!s(int64=1)" for non-strings under %s).
//   5. GoSliceStable is sort.SliceStable's exact algorithm (insertion sort on blocks of 20, then
//      SymMerge rounds), so that even an inconsistent less function orders elements as upstream.
//
// Internal to the apiserver patch code. GoPanic is thrown, never returned: the public patch
// functions catch it and answer what kube-apiserver answers after recovering from a panic.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"

namespace lws::apiserver::internal {

using api::Json;

// A Go runtime panic upstream would hit on this input.
struct GoPanic {
  std::string message;
};

// The message kube-apiserver's panic recovery filter answers with (HTTP 500).
inline constexpr std::string_view kApiserverPanicMessage =
    "This request caused apiserver to panic. Look in the logs for details.";

enum class GoKind { kNil, kString, kInt64, kFloat64, kBool, kMap, kSlice };

GoKind KindOf(const Json& v);

// reflect.TypeOf(v).String(): "string", "int64", "float64", "bool", "map[string]interface {}",
// "[]interface {}"; "%!s(<nil>)" for null (how fmt prints a nil reflect.Type with %s).
std::string GoTypeName(const Json& v);

// Go's == on two interface{} values (rule 2). Throws GoPanic.
bool GoEqual(const Json& a, const Json& b);

// Throws GoPanic when `v` cannot be a Go map key (rule 3).
void RequireHashable(const Json& v);

// fmt.Sprintf("%v", v) and fmt.Sprintf("%s", v) (rule 4).
std::string GoSprintV(const Json& v);
std::string GoSprintS(const Json& v);

// sort.SliceStable(items, less) (rule 5). `less` sees the elements at their current positions.
void GoSliceStable(std::vector<Json>& items,
                   const std::function<bool(const Json&, const Json&)>& less);

}  // namespace lws::apiserver::internal
