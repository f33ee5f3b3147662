// File: api/builtin_defaults.h
//
// Server-side defaulting of built-in kinds, the way kube-apiserver v1.32 applies its scheme
// defaulters (pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go and the generated
// SetObjectDefaults_* walkers) plus the few registry steps that behave like defaults (namespace
// finalizers and name label, Service IP family fields, Secret stringData). The embedded API server
// calls these on every create and update of a built-in resource, before validation.
//
// Contract, for every function here:
//   1. Works on JSON, not typed structs: fields our model does not know are kept untouched.
//   2. Idempotent: defaulting a defaulted object changes nothing.
//   3. Never throws and never repairs malformed input: a member of the wrong type (a string
//      where an object belongs) is left as it is, for validation or decoding to report.
//   4. Pure: no clock, no allocation of cluster IPs or node ports (the caller owns those).
//
// Kinds covered: core/v1 Pod, Service, Namespace, PersistentVolumeClaim, Secret; apps/v1
// StatefulSet. Every other resource, custom resources included, is left unchanged.
#pragma once

#include "api/field.h"
#include "api/resources.h"

namespace lws::api {

// Applies the v1.32 defaults of `info`'s kind to `object` (a full object: apiVersion, kind,
// metadata, spec, ...). Pods: restartPolicy, dnsPolicy, terminationGracePeriodSeconds,
// schedulerName, securityContext, enableServiceLinks, container imagePullPolicy and
// terminationMessage*, port protocols, probe and volume defaults, requests copied from limits,
// quantities in canonical form. StatefulSets: replicas, updateStrategy, podManagementPolicy,
// revisionHistoryLimit, persistentVolumeClaimRetentionPolicy, the template's pod spec defaults
// (not the Pod-only ones) and volumeClaimTemplates defaults. Services: type, sessionAffinity,
// port protocol and targetPort, internalTrafficPolicy, externalTrafficPolicy, clusterIPs from
// clusterIP, ipFamilyPolicy and ipFamilies for a single-stack IPv4 cluster. Namespaces:
// spec.finalizers ["kubernetes"] when absent and the kubernetes.io/metadata.name label. PVCs:
// volumeMode. Secrets: type Opaque, stringData merged into data (base64) and removed.
void ApplyBuiltinDefaults(const ResourceInfo& info, Json* object);

// The registry steps of an update that take values from the stored object, to run before
// ApplyBuiltinDefaults on the incoming one. Services: clusterIP and clusterIPs, ipFamilyPolicy
// and ipFamilies are carried over when the update omits them (upstream patchAllocatedValues and
// initIPFamilyFields, so a PUT of the original manifest keeps its allocated IP). Namespaces:
// spec.finalizers always come from the stored object (the namespace strategy's
// PrepareForUpdate; only /finalize changes them). Other kinds: no change.
void ApplyBuiltinUpdateCarryOver(const ResourceInfo& info, const Json& old, Json* object);

// SetDefaults_PodSpec and the nested container, probe and volume defaults, as applied to a pod
// template (StatefulSet, PodTemplate, LWS templates once created as StatefulSets). Pod-only
// defaults (enableServiceLinks, requests from limits, host ports) are not applied.
void ApplyPodTemplateSpecDefaults(Json* pod_spec);

// Whether creating `object` of kind `info` needs its uid before validation: a batch/v1 Job
// whose spec.manualSelector is not true.
bool NeedsUidBeforeCreate(const ResourceInfo& info, const Json& object);

// The Job strategy's generateSelector, for a Job with metadata.uid set: template labels
// batch.kubernetes.io/job-name and job-name (the Job's name), batch.kubernetes.io/controller-uid
// and controller-uid (its uid), each unless already set, and the selector's matchLabels
// batch.kubernetes.io/controller-uid=<uid>; the Job's own labels become the template's when it
// has none.
void GenerateJobSelector(Json* job);

}  // namespace lws::api
