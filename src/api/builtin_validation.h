// File: api/builtin_validation.h
//
// Validation of built-in kinds on create and update, the subset of kube-apiserver v1.32's
// registry validation (pkg/apis/core/validation, pkg/apis/apps/validation) that users and
// controllers actually hit, with upstream's field paths and messages, so a 422 from the embedded
// server reads like one from a real cluster. Works over JSON after ApplyBuiltinDefaults.
//
// Covered:
//   every built-in: metadata name (DNS-1123 subdomain; DNS-1123 label for Namespace and
//     StatefulSet; DNS-1035 label for Service), name or generateName required, namespace
//     required (namespaced) or forbidden (cluster-scoped), label and annotation syntax.
//   Pod: spec.containers required; container name (DNS-1123 label), image, duplicate names
//     across containers and init containers, terminationMessagePolicy, imagePullPolicy, ports
//     (name, range, duplicates, protocol), volumeMounts naming a volume, requests <= limits,
//     restartPolicy for regular containers; volume names; restartPolicy and dnsPolicy enums;
//     nodeSelector; serviceAccountName, nodeName, hostname, subdomain; activeDeadlineSeconds.
//     Update: container count, images, activeDeadlineSeconds, tolerations (additions only),
//     scheduling gates (deletions only), and "pod updates may not change fields other than ..."
//     on spec, whose trailing diff is ours (upstream prints a Go cmp.Diff of internal structs).
//   StatefulSet: podManagementPolicy, updateStrategy, persistentVolumeClaimRetentionPolicy,
//     replicas, minReadySeconds, ordinals.start, selector (required, syntax, non-empty, matches
//     the template labels), template labels/annotations, template restartPolicy Always,
//     activeDeadlineSeconds forbidden (upstream does not validate the template's pod spec).
//     Update: only replicas, ordinals, template, updateStrategy,
//     persistentVolumeClaimRetentionPolicy and minReadySeconds may change; the name is not
//     re-validated.
//   Service: ports required unless headless or ExternalName; port name (required when several),
//     uniqueness, range, protocol, targetPort; (protocol, port) and nodePort duplicates;
//     selector; type, sessionAffinity, internal/externalTrafficPolicy enums; headless
//     LoadBalancer/NodePort; ExternalName externalName; single-stack IPv4 families. Update:
//     clusterIPs may not change once set.
//   ConfigMap, Secret: data (and binaryData) keys, total size, immutability once `immutable`;
//     Secret type immutable.
// Not covered (accepted as posted): volume sources, env, probes, affinity, security contexts,
// tolerations syntax, topology spread, resource names and quantities syntax, Service IP syntax,
// metadata update rules (name, uid, ... immutability: the store owns those), other kinds' specs.
#pragma once

#include "api/field.h"
#include "api/resources.h"

namespace lws::api {

// The errors of creating (`old == nullptr`) or updating `object` of kind `info`. Empty when
// valid or when `info` is a custom resource or a kind with no rules here. REQUIRES: `object`
// (and `*old`) went through ApplyBuiltinDefaults. Never throws, whatever the JSON shape.
ErrorList ValidateBuiltin(const ResourceInfo& info, const Json& object, const Json* old);

// The errors of a /status write of a built-in kind: the metadata rules (a status write of a
// built-in kind takes the body's labels and annotations, api::StatusWriteOf), no spec rules.
ErrorList ValidateBuiltinStatusWrite(const ResourceInfo& info, const Json& object);

}  // namespace lws::api
