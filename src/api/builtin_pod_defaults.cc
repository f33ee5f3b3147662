// Pod and pod-template defaulting (SetObjectDefaults_Pod / SetObjectDefaults_PodTemplate of
// pkg/apis/core/v1). See builtin_defaults.h for the contract.
#include <string>
#include <string_view>

#include "api/builtin_defaults.h"
#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/quantity.h"

namespace lws::api {

using builtin::Array;
using builtin::DefaultNonZero;
using builtin::DefaultString;
using builtin::DefaultValue;
using builtin::ForEachObject;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::int64_t kDefaultTerminationGracePeriodSeconds = 30;
constexpr std::int64_t kDefaultVolumeMode = 0644;  // 420: secret, configMap, downwardAPI, projected
constexpr std::int64_t kServiceAccountTokenSeconds = 3600;

bool HasUpper(std::string_view s) {
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') return true;
  }
  return false;
}

// SetDefaults_Container: Always when the image's tag is "latest" (a reference without tag and
// digest normalizes to ":latest"), IfNotPresent otherwise, including for references that do
// not parse (empty, or upper case in the repository path) since upstream ignores the error.
std::string_view PullPolicyFor(std::string_view image) {
  if (image.empty()) return "IfNotPresent";
  std::string_view name = image;
  const bool has_digest = name.find('@') != std::string_view::npos;
  if (has_digest) name = name.substr(0, name.find('@'));
  const std::size_t slash = name.rfind('/');
  const std::size_t colon = name.rfind(':');
  std::string_view tag;
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    tag = name.substr(colon + 1);
    name = name.substr(0, colon);
  }
  // The first component is a registry host (which may hold upper case) when it looks like one.
  const std::size_t first_slash = name.find('/');
  if (first_slash != std::string_view::npos) {
    const std::string_view host = name.substr(0, first_slash);
    if (host.find_first_of(".:") != std::string_view::npos || host == "localhost") {
      name = name.substr(first_slash + 1);
    }
  }
  if (HasUpper(name)) return "IfNotPresent";
  if (tag.empty() && !has_digest) tag = "latest";
  return tag == "latest" ? "Always" : "IfNotPresent";
}

void DefaultFieldRef(Json* holder) {
  DefaultString(Object(holder, "fieldRef"), "apiVersion", "v1");
}

void DefaultHTTPGet(Json* handler) {
  Json* http = Object(handler, "httpGet");
  DefaultString(http, "path", "/");
  DefaultString(http, "scheme", "HTTP");
}

void DefaultProbe(Json* probe) {
  if (probe == nullptr) return;
  DefaultNonZero(probe, "timeoutSeconds", 1);
  DefaultNonZero(probe, "periodSeconds", 10);
  DefaultNonZero(probe, "successThreshold", 1);
  DefaultNonZero(probe, "failureThreshold", 3);
  DefaultHTTPGet(probe);
}

void DefaultContainer(Json& c) {
  DefaultString(&c, "imagePullPolicy", PullPolicyFor(StringMember(c, "image")));
  DefaultString(&c, "terminationMessagePath", "/dev/termination-log");
  DefaultString(&c, "terminationMessagePolicy", "File");
  ForEachObject(Array(&c, "ports"), [](Json& p) { DefaultString(&p, "protocol", "TCP"); });
  ForEachObject(Array(&c, "env"), [](Json& e) { DefaultFieldRef(Object(&e, "valueFrom")); });
  if (Json* resources = Object(&c, "resources")) {
    CanonicalizeQuantities(Object(resources, "limits"));
    CanonicalizeQuantities(Object(resources, "requests"));
  }
  for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) {
    DefaultProbe(Object(&c, probe));
  }
  if (Json* lifecycle = Object(&c, "lifecycle")) {
    DefaultHTTPGet(Object(lifecycle, "postStart"));
    DefaultHTTPGet(Object(lifecycle, "preStop"));
  }
}

// SetDefaults_Volume: a volume naming no source at all is an emptyDir.
bool HasVolumeSource(const Json& volume) {
  for (auto it = volume.begin(); it != volume.end(); ++it) {
    if (it.key() != "name" && !it->is_null()) return true;
  }
  return false;
}

void DefaultDownwardAPIItems(Json* source) {
  ForEachObject(Array(source, "items"), [](Json& item) { DefaultFieldRef(&item); });
}

void DefaultVolume(Json& v) {
  if (!HasVolumeSource(v)) v["emptyDir"] = Json::object();
  DefaultValue(Object(&v, "hostPath"), "type", "");
  DefaultValue(Object(&v, "secret"), "defaultMode", kDefaultVolumeMode);
  DefaultValue(Object(&v, "configMap"), "defaultMode", kDefaultVolumeMode);
  if (Json* downward = Object(&v, "downwardAPI")) {
    DefaultValue(downward, "defaultMode", kDefaultVolumeMode);
    DefaultDownwardAPIItems(downward);
  }
  if (Json* projected = Object(&v, "projected")) {
    DefaultValue(projected, "defaultMode", kDefaultVolumeMode);
    ForEachObject(Array(projected, "sources"), [](Json& s) {
      DefaultDownwardAPIItems(Object(&s, "downwardAPI"));
      DefaultValue(Object(&s, "serviceAccountToken"), "expirationSeconds",
                   kServiceAccountTokenSeconds);
    });
  }
  if (Json* ephemeral = Object(&v, "ephemeral")) {
    ApplyClaimSpecDefaults(Object(Object(ephemeral, "volumeClaimTemplate"), "spec"));
  }
}

// SetDefaults_Pod: a container with limits but no request for a resource requests its limit.
void CopyLimitsToRequests(Json& c) {
  Json* resources = Object(&c, "resources");
  if (Object(resources, "limits") == nullptr) return;
  Json* requests = builtin::EnsureObject(resources, "requests");
  // Looked up after "requests" is added: adding a member moves its siblings (base/flat_map.h).
  const Json* limits = Object(resources, "limits");
  if (requests == nullptr || limits == nullptr) return;
  for (auto it = limits->begin(); it != limits->end(); ++it) {
    if (!requests->contains(it.key())) (*requests)[it.key()] = *it;
  }
}

// With hostNetwork every container port is also a host port (defaultHostNetworkPorts).
void DefaultHostPorts(Json& c) {
  ForEachObject(Array(&c, "ports"), [](Json& p) {
    const Json* container_port = Member(p, "containerPort");
    if (container_port != nullptr && container_port->is_number()) {
      DefaultNonZero(&p, "hostPort", builtin::IntValue(container_port));
    }
  });
}

}  // namespace

void CanonicalizeQuantities(Json* list) {
  if (list == nullptr || !list->is_object()) return;
  for (auto& [key, value] : list->items()) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_number()) {
      text = value.dump();
    } else {
      continue;
    }
    auto parsed = Quantity::Parse(text);
    if (!parsed.ok()) continue;  // Left for the decoder to reject.
    Quantity q = *parsed;
    // SetDefaults_ResourceList rounds up to milli precision. MilliValue saturates far beyond
    // any real amount, so only values that fit are rounded.
    const double magnitude = q.AsDouble() < 0 ? -q.AsDouble() : q.AsDouble();
    if (magnitude < 1e15) {
      Quantity rounded = Quantity::FromMilli(q.MilliValue(), q.format());
      if (rounded != q) q = rounded;
    }
    value = q.String();
  }
}

void ApplyClaimSpecDefaults(Json* claim_spec) {
  if (claim_spec == nullptr) return;
  DefaultString(claim_spec, "volumeMode", "Filesystem");
  if (Json* resources = Object(claim_spec, "resources")) {
    CanonicalizeQuantities(Object(resources, "limits"));
    CanonicalizeQuantities(Object(resources, "requests"));
  }
}

void ApplyPodTemplateSpecDefaults(Json* spec) {
  if (spec == nullptr || !spec->is_object()) return;
  DefaultString(spec, "dnsPolicy", "ClusterFirst");
  DefaultString(spec, "restartPolicy", "Always");
  DefaultValue(spec, "securityContext", Json::object());
  DefaultValue(spec, "terminationGracePeriodSeconds", kDefaultTerminationGracePeriodSeconds);
  DefaultString(spec, "schedulerName", "default-scheduler");
  ForEachObject(Array(spec, "volumes"), DefaultVolume);
  ForEachObject(Array(spec, "initContainers"), DefaultContainer);
  ForEachObject(Array(spec, "containers"), DefaultContainer);
  ForEachObject(Array(spec, "ephemeralContainers"), DefaultContainer);
}

void ApplyPodDefaults(Json* pod) {
  Json* spec = Object(pod, "spec");
  if (spec == nullptr) return;
  // SetDefaults_Pod runs first, so copied requests are canonicalized with the rest.
  ForEachObject(Array(spec, "containers"), CopyLimitsToRequests);
  ForEachObject(Array(spec, "initContainers"), CopyLimitsToRequests);
  DefaultValue(spec, "enableServiceLinks", true);
  const Json* host_network = Member(*spec, "hostNetwork");
  if (host_network != nullptr && host_network->is_boolean() && host_network->get<bool>()) {
    ForEachObject(Array(spec, "containers"), DefaultHostPorts);
    ForEachObject(Array(spec, "initContainers"), DefaultHostPorts);
  }
  ApplyPodTemplateSpecDefaults(spec);
}

}  // namespace lws::api
