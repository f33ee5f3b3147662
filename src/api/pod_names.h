// File: api/pod_names.h
//
// Small helpers that the pod webhook (pod_mutation.h, tpu_env.h) and later the pod controller
// share: the StatefulSet naming convention "<parent>-<ordinal>", the SHA-1 group and subgroup
// keys, the subgroup index of a worker, and Go's integer parsing and arithmetic.
//
// Why Go arithmetic: the webhook reads sizes and indexes from annotations and labels, which any
// client can set. Upstream parses them with strconv.Atoi into a 64-bit int and computes with
// wrap-around; we reproduce that exactly, including its error messages, and never hit C++
// undefined behaviour (overflow, INT64_MIN / -1) on hostile input. Go panics on a division by
// zero; the webhook server recovers the panic and rejects the request (spec quirk Q12), which is
// what DivideByZeroPanic() stands for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"

namespace lws::api {

// The parent StatefulSet name and ordinal of a pod named "<parent>-<ordinal>", as upstream's
// GetParentNameAndOrdinal (regexp "(.*)-([0-9]+)$"): ("", -1) when the name does not end in
// "-<digits>"; (parent, -1) when the digits do not fit an int32.
//   "lws-samples-132" -> ("lws-samples", 132); "lws-samples--1" -> ("lws-samples-", 1).
std::pair<std::string, int> GetParentNameAndOrdinal(std::string_view name);

// Lower-case hex SHA-1 of `data` (40 characters), as upstream utils.Sha1Hash.
std::string Sha1Hex(std::string_view data);

// Lower-case hex SHA-256 of `data` (64 characters); DisaggregatedSet revisions are its first 8.
std::string Sha256Hex(std::string_view data);

// The group-key label of a leader pod: sha1hex("<namespace>/<leader pod name>").
std::string GroupUniqueKey(std::string_view ns, std::string_view pod_name);

// The subgroup-key label: sha1hex("<leader pod name>/<subgroup index>").
std::string SubGroupUniqueKey(std::string_view leader_name, std::string_view sub_group_index);

// The subgroup-index label of worker `worker_index` in a group of `size` pods (upstream
// getSubGroupIndex). When (size-1) % sub_group_size == 0 and size % sub_group_size != 0 the
// leader is the extra member of subgroup 0, so workers count from 1: (w-1)/sgs; otherwise w/sgs.
//   (4,2,2) -> "1"; (5,2,2) -> "0"; (3,1,1) -> "1"; (3,1,2) -> "2".
// Fails with DivideByZeroPanic() when sub_group_size is 0.
Result<std::string> SubGroupIndex(std::int64_t size, std::int64_t sub_group_size,
                                  std::int64_t worker_index);

// strconv.Atoi on a 64-bit platform: optional sign, decimal digits only. Errors are Forbidden
// (a webhook denial) with Go's message: `strconv.Atoi: parsing "x": invalid syntax` or
// `strconv.Atoi: parsing "99999999999999999999": value out of range`.
Result<std::int64_t> ParseGoInt(std::string_view text);

// A webhook denial carrying upstream's bare message (code Forbidden, as controller-runtime's
// admission.Denied); the admission chain adds `admission webhook "..." denied the request: `.
Status WebhookDenied(std::string message);

// What the webhook server answers when upstream's code divides by zero: the recovered panic,
// as an internal error.
Status DivideByZeroPanic();

// Go's int operations on int64: wrap-around on overflow, division truncated toward zero,
// MinInt64 / -1 == MinInt64 and MinInt64 % -1 == 0. REQUIRES: b != 0 for GoQuo and GoRem.
std::int64_t GoAdd(std::int64_t a, std::int64_t b);
std::int64_t GoSub(std::int64_t a, std::int64_t b);
std::int64_t GoMul(std::int64_t a, std::int64_t b);
std::int64_t GoQuo(std::int64_t a, std::int64_t b);
std::int64_t GoRem(std::int64_t a, std::int64_t b);

}  // namespace lws::api
