// The commonly hit part of pkg/apis/core/validation's ValidatePodSpec and ValidatePodUpdate,
// over JSON, with upstream's messages and field paths.
#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/name_validation.h"
#include "api/quantity.h"

namespace lws::api {

using builtin::Array;
using builtin::ForEachObject;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::int64_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

// Go's string view of a field: "" unless it is a JSON string.
std::string Str(const Json& obj, std::string_view key) { return StringMember(obj, key); }

void AddAll(ErrorList* errs, const FieldPath& path, const Json& value,
            const std::vector<std::string>& problems) {
  for (const auto& p : problems) errs->push_back(Invalid(path, value, p));
}

// Required when empty, else NotSupported unless one of `valid`.
void CheckEnum(ErrorList* errs, const Json& obj, std::string_view key, const FieldPath& path,
               const std::vector<std::string>& valid) {
  const std::string value = Str(obj, key);
  if (value.empty()) {
    errs->push_back(Required(path, ""));
  } else if (std::find(valid.begin(), valid.end(), value) == valid.end()) {
    errs->push_back(NotSupported(path, value, valid));
  }
}

void ValidateContainerPorts(const Json& c, const FieldPath& path, ErrorList* errs) {
  std::set<std::string> names;
  const Json* ports = Array(c, "ports");
  for (std::size_t i = 0; ports != nullptr && i < ports->size(); ++i) {
    const Json& port = (*ports)[i];
    if (!port.is_object()) continue;
    const FieldPath at = path.Index(i);
    const std::string name = Str(port, "name");
    if (!name.empty()) {
      const auto problems = IsValidPortName(name);
      if (!problems.empty()) {
        AddAll(errs, at.Child("name"), name, problems);
      } else if (!names.insert(name).second) {
        errs->push_back(
            FieldError(FieldErrorType::kDuplicate, at.Child("name").String(), name, ""));
      }
    }
    const std::int64_t container_port = builtin::IntValue(Member(port, "containerPort"));
    if (container_port == 0) {
      errs->push_back(Required(at.Child("containerPort"), ""));
    } else {
      AddAll(errs, at.Child("containerPort"), container_port, IsValidPortNum(container_port));
    }
    const std::int64_t host_port = builtin::IntValue(Member(port, "hostPort"));
    if (host_port != 0) AddAll(errs, at.Child("hostPort"), host_port, IsValidPortNum(host_port));
    CheckEnum(errs, port, "protocol", at.Child("protocol"), {"SCTP", "TCP", "UDP"});
  }
}

void ValidateVolumeMounts(const Json& c, const std::set<std::string>& volumes,
                          const FieldPath& path, ErrorList* errs) {
  const Json* mounts = Array(c, "volumeMounts");
  for (std::size_t i = 0; mounts != nullptr && i < mounts->size(); ++i) {
    const Json& mount = (*mounts)[i];
    if (!mount.is_object()) continue;
    const std::string name = Str(mount, "name");
    if (name.empty()) {
      errs->push_back(Required(path.Index(i).Child("name"), ""));
    } else if (volumes.count(name) == 0) {
      errs->push_back(
          FieldError(FieldErrorType::kNotFound, path.Index(i).Child("name").String(), name, ""));
    }
    if (Str(mount, "mountPath").empty())
      errs->push_back(Required(path.Index(i).Child("mountPath"), ""));
  }
}

// ValidateContainerResourceRequirements: a request may not exceed its limit.
void ValidateResources(const Json& c, const FieldPath& path, ErrorList* errs) {
  const Json* resources = Object(c, "resources");
  const Json* requests = resources != nullptr ? Object(*resources, "requests") : nullptr;
  const Json* limits = resources != nullptr ? Object(*resources, "limits") : nullptr;
  if (requests == nullptr || limits == nullptr) return;
  for (const auto& [name, value] : requests->items()) {
    const Json* limit = Member(*limits, name);
    if (limit == nullptr || !value.is_string() || !limit->is_string()) continue;
    auto request_q = Quantity::Parse(value.get<std::string>());
    auto limit_q = Quantity::Parse(limit->get<std::string>());
    if (request_q.ok() && limit_q.ok() && *request_q > *limit_q) {
      errs->push_back(
          Invalid(path.Child("requests").Key(name), request_q->String(),
                  "must be less than or equal to " + name + " limit of " + limit_q->String()));
    }
  }
}

// validateContainerCommon's subset.
void ValidateContainer(const Json& c, const std::set<std::string>& volumes, const FieldPath& path,
                       ErrorList* errs) {
  const std::string name = Str(c, "name");
  if (name.empty()) {
    errs->push_back(Required(path.Child("name"), ""));
  } else {
    AddAll(errs, path.Child("name"), name, IsDNS1123Label(name));
  }
  if (Str(c, "image").empty()) errs->push_back(Required(path.Child("image"), ""));
  CheckEnum(errs, c, "terminationMessagePolicy", path.Child("terminationMessagePolicy"),
            {"File", "FallbackToLogsOnError"});
  ValidateContainerPorts(c, path.Child("ports"), errs);
  ValidateVolumeMounts(c, volumes, path.Child("volumeMounts"), errs);
  CheckEnum(errs, c, "imagePullPolicy", path.Child("imagePullPolicy"),
            {"Always", "IfNotPresent", "Never"});
  ValidateResources(c, path.Child("resources"), errs);
}

// Containers, then init containers; names unique across both lists.
void ValidateContainers(const Json& spec, const std::set<std::string>& volumes,
                        const FieldPath& path, ErrorList* errs) {
  std::set<std::string> names;
  for (const char* list : {"containers", "initContainers"}) {
    const Json* items = Array(spec, list);
    const bool regular = std::string_view(list) == "containers";
    if (regular && (items == nullptr || items->empty())) {
      errs->push_back(Required(path.Child(list), ""));
      continue;
    }
    for (std::size_t i = 0; items != nullptr && i < items->size(); ++i) {
      if (!(*items)[i].is_object()) continue;
      const FieldPath at = path.Child(list).Index(i);
      ValidateContainer((*items)[i], volumes, at, errs);
      const std::string name = Str((*items)[i], "name");
      if ((regular || !name.empty()) && !names.insert(name).second) {
        errs->push_back(
            FieldError(FieldErrorType::kDuplicate, at.Child("name").String(), name, ""));
      }
      if (regular && !IsUnset(Member((*items)[i], "restartPolicy"))) {
        errs->push_back(
            Forbidden(at.Child("restartPolicy"), "may not be set for non-init containers"));
      }
    }
  }
}

std::set<std::string> ValidateVolumes(const Json& spec, const FieldPath& path, ErrorList* errs) {
  std::set<std::string> names;
  const Json* volumes = Array(spec, "volumes");
  for (std::size_t i = 0; volumes != nullptr && i < volumes->size(); ++i) {
    const Json& v = (*volumes)[i];
    if (!v.is_object()) continue;
    const std::string name = Str(v, "name");
    const FieldPath at = path.Index(i).Child("name");
    if (name.empty()) {
      errs->push_back(Required(at, ""));
    } else {
      AddAll(errs, at, name, IsDNS1123Label(name));
    }
    if (!name.empty() && !names.insert(name).second) {
      errs->push_back(FieldError(FieldErrorType::kDuplicate, at.String(), name, ""));
    }
  }
  return names;
}

}  // namespace

ErrorList ValidatePodSpecSubset(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  const std::set<std::string> volumes = ValidateVolumes(spec, path.Child("volumes"), &errs);
  ValidateContainers(spec, volumes, path, &errs);
  CheckEnum(&errs, spec, "restartPolicy", path.Child("restartPolicy"),
            {"Always", "OnFailure", "Never"});
  CheckEnum(&errs, spec, "dnsPolicy", path.Child("dnsPolicy"),
            {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"});
  if (const Json* selector = Object(spec, "nodeSelector")) {
    for (auto& e : ValidateLabelMap(*selector, path.Child("nodeSelector")))
      errs.push_back(std::move(e));
  }
  for (const char* key : {"serviceAccountName", "nodeName"}) {
    const std::string value = Str(spec, key);
    if (!value.empty()) AddAll(&errs, path.Child(key), value, IsDNS1123Subdomain(value));
  }
  if (const Json* deadline = Member(spec, "activeDeadlineSeconds"); !IsUnset(deadline)) {
    const std::int64_t value = builtin::IntValue(deadline);
    if (value < 1 || value > kMaxInt32) {
      errs.push_back(
          Invalid(path.Child("activeDeadlineSeconds"), value, InclusiveRangeError(1, kMaxInt32)));
    }
  }
  for (const char* key : {"hostname", "subdomain"}) {
    const std::string value = Str(spec, key);
    if (!value.empty()) AddAll(&errs, path.Child(key), value, IsDNS1123Label(value));
  }
  return errs;
}

}  // namespace lws::api
