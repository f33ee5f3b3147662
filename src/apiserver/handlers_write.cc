// File: apiserver/handlers_write.cc
//
// POST, PUT, DELETE and deletecollection, and the object pipeline every write shares:
// decode the body, check it against the URL, prune (reporting unknown fields per
// fieldValidation) and default, run the mutating admission plugins, default again, validate
// (CRD schema or built-in rules), run the validating admission plugins, record managedFields,
// then store (or, with dryRun=All, only pretend to). This is kube-apiserver's order (spec 3.3).
// A DELETE (and each object of a deletecollection) passes both admission phases with the stored
// object as the old one and nothing to mutate.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <typeinfo>

#include "api/intstr.h"
#include "api/json_depth.h"
#include "api/meta.h"
#include "api/object_meta_validation.h"
#include "api/yaml.h"
#include "apiserver/builtin_shape.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "store/object_rules.h"

namespace lws::apiserver {
namespace {

// Checks name/generateName and labels/annotations of a custom resource, as the API server does
// for every object before any webhook sees it.
api::ErrorList ValidateCustomMetadata(const Json& object, bool namespaced) {
  api::ObjectMeta meta;
  api::ErrorList errors =
      api::DecodeInto(object.value("metadata", Json::object()), &meta, api::FieldPath("metadata"));
  if (!errors.empty()) return errors;
  return api::ValidateObjectMeta(
      meta, api::NameRule::kDNS1123Subdomain, api::FieldPath("metadata"),
      namespaced ? api::MetaScope::kNamespaced : api::MetaScope::kCluster);
}

// True when the store can only commit `object` over `current`: it names current's
// resourceVersion, so any other live version is a conflict.
bool PinnedTo(const Json& object, const store::StoredObject& current) {
  const std::string rv = store::MetaString(object, "resourceVersion");
  return !rv.empty() && rv == std::to_string(current.resource_version);
}

}  // namespace

// The mark is kept in the version's view slots and points at the ServedResources whose list
// types it was checked under: a CRD change makes a new snapshot, so old marks stop counting and
// the next write checks again.
struct ShapesCheckedMark {};

bool ShapesChecked(const store::StoredObject& version,
                   const std::shared_ptr<const ServedResources>& served) {
  return served != nullptr && version.FindView(typeid(ShapesCheckedMark)) == served;
}

void MarkShapesChecked(const store::StoredObject& version,
                       const std::shared_ptr<const ServedResources>& served) {
  version.KeepView(typeid(ShapesCheckedMark), served);
}

Result<Json> RequestHandler::BodyJson(
    const std::function<Result<Json>(const std::string&)>& decode) const {
  if (request_.body_value != nullptr) return std::move(*request_.body_value);  // read once
  return decode(request_.bytes());
}

Result<Json> RequestHandler::SubresourceBody(
    std::string_view kind, std::initializer_list<std::string_view> versions) const {
  const std::string content_type = request_.content_type;
  ASSIGN_OR_RETURN(Json body, BodyJson([&](const std::string& bytes) {
                     return ParseObjectBody(content_type, bytes);
                   }));
  const std::string name(kind);
  if (!body.is_object()) return Status::BadRequest("not a " + name + " object");
  const std::string body_kind = api::StringMember(body, "kind");
  const std::string api_version = api::StringMember(body, "apiVersion");
  const bool known_version = api_version.empty() || std::find(versions.begin(), versions.end(),
                                                              api_version) != versions.end();
  if ((!body_kind.empty() && body_kind != kind) || !known_version) {
    return Status::BadRequest("not a " + name + " object: " + api_version + ", Kind=" + body_kind);
  }
  return body;
}

Result<Json> RequestHandler::DecodeObjectBody(bool require_name_match) {
  const std::string content_type = request_.content_type;
  ASSIGN_OR_RETURN(Json object, BodyJson([&](const std::string& body) {
                     return ParseObjectBody(content_type, body);
                   }));
  if (!object.is_object()) {
    return Status::BadRequest(
        "couldn't get version/kind; json parse error: json: cannot "
        "unmarshal " +
        std::string(object.type_name()) +
        " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
        "Kind string \"json:\\\"kind,omitempty\\\"\" }");
  }
  // Like the real decoder, an object that names no apiVersion or kind takes the URL's (the
  // typed Python client sends none unless the caller sets them).
  std::string kind = api::StringMember(object, "kind");
  std::string api_version = api::StringMember(object, "apiVersion");
  if (kind.empty()) object["kind"] = kind = info_->kind;
  if (api_version.empty()) object["apiVersion"] = api_version = info_->ApiVersion();
  if (api_version != info_->ApiVersion()) {
    return Status::BadRequest("the API version in the data (" + api_version +
                              ") does not match the expected API version (" + info_->ApiVersion() +
                              ")");
  }
  if (kind != info_->kind) {
    return Status::BadRequest("the kind in the data (" + kind +
                              ") does not match the expected kind (" + info_->kind + ")");
  }
  Json& metadata = object["metadata"];
  if (metadata.is_null()) metadata = Json::object();
  if (!metadata.is_object()) return Status::BadRequest("metadata must be an object");
  std::string ns = api::StringMember(metadata, "namespace");
  if (info_->namespaced) {
    if (!ns.empty() && ns != target_.namespace_) {
      return Status::BadRequest(
          "the namespace of the provided object does not match the "
          "namespace sent on the request");
    }
    metadata["namespace"] = target_.namespace_;
  } else {
    metadata.erase("namespace");
  }
  std::string name = api::StringMember(metadata, "name");
  body_name_ = name;
  if (require_name_match && name != target_.name) {
    return Status::BadRequest("the name of the object (" + name +
                              ") does not match the name on the URL (" + target_.name + ")");
  }
  return object;
}

Status RequestHandler::ReportUnknownFields(const std::vector<std::string>& unknown,
                                           FieldValidation mode) {
  if (!unknown.empty() && mode == FieldValidation::kStrict) {
    std::string message = info_->kind + " in version " + api::GoQuote(info_->version) +
                          " cannot be handled as a " + info_->kind + ": strict decoding error: ";
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      message += (i ? ", " : "") + std::string("unknown field ") + api::GoQuote(unknown[i]);
    }
    return Status::BadRequest(message);
  }
  if (mode == FieldValidation::kWarn) {
    for (const auto& path : unknown) warnings_.push_back("unknown field " + api::GoQuote(path));
  }
  return Status::Ok();
}

Status RequestHandler::PrepareForWrite(Json* object, const Json* old, std::string_view subresource,
                                       const store::StoredObject* old_version) {
  ASSIGN_OR_RETURN(FieldValidation mode, FieldValidationMode());
  auto found = served_->schemas.find(info_->GroupResource());
  const api::StructuralSchema* schema =
      found == served_->schemas.end() ? nullptr : found->second.get();

  // Decoding: what every object gets before any webhook sees it. A patch can nest an object
  // deeper than any body could (kube-apiserver decodes the patched object again).
  if (!request_.in_process) {
    if (std::string deep = api::JsonDepthError(*object); !deep.empty()) {
      return Status::BadRequest(info_->kind + " in version " + api::GoQuote(info_->version) +
                                " cannot be handled as a " + info_->kind + ": " + deep);
    }
  }
  if (schema != nullptr) {
    RETURN_IF_ERROR(ReportUnknownFields(schema->Prune(object), mode));
    schema->ApplyDefaults(object);
  } else {
    // In-process callers are this project's controllers, whose objects are typed by construction.
    if (!request_.in_process) {
      ASSIGN_OR_RETURN(std::vector<std::string> unknown, DecodeBuiltin(*info_, object));
      RETURN_IF_ERROR(ReportUnknownFields(unknown, mode));
    }
    DefaultBuiltin(object, old);
  }

  AdmissionRequest admission;
  admission.operation = old == nullptr ? AdmissionOperation::kCreate : AdmissionOperation::kUpdate;
  admission.resource = info_;
  admission.subresource = std::string(subresource);
  admission.namespace_ = target_.namespace_;
  admission.name = store::MetaString(*object, "name");
  admission.object = object;
  admission.old_object = old;
  admission.old_version = old_version;
  admission.dry_run = DryRun();
  admission.field_manager = request_.options.field_manager;
  admission.warnings = &warnings_;
  admission.user = &user_;
  const AdmissionChain& chain = server_->options_.admission;
  const bool admitted = chain.Handles(*info_, subresource);
  if (admitted) {
    // Mutating webhooks run before the server validates (spec 3.3): the LWS webhook's defaults
    // can make an object valid, e.g. `networkConfig: {}` gets its required subdomainPolicy.
    RETURN_IF_ERROR(chain.RunMutating(admission));
    // kube-apiserver decodes a webhook's patched object again: pruned (silently) and defaulted.
    if (schema != nullptr) {
      (void)schema->Prune(object);
      schema->ApplyDefaults(object);
    } else {
      DefaultBuiltin(object, nullptr);
    }
  }

  api::ErrorList errors;
  if (schema != nullptr) {
    errors = ValidateCustomMetadata(*object, info_->namespaced);
    api::ErrorList schema_errors = schema->Validate(*object);
    errors.insert(errors.end(), schema_errors.begin(), schema_errors.end());
  } else {
    if (old == nullptr) PrepareBuiltinCreate(object);
    errors = ValidateBuiltin(*object, old, subresource);
  }
  if (!errors.empty()) {
    return api::InvalidStatus(store::QualifiedKind(*info_), admission.name, errors);
  }
  return admitted ? chain.RunValidating(admission) : Status::Ok();
}

Status RequestHandler::AdmitDelete(const store::StoredObject& stored, bool dry_run) {
  const Json& current = stored.json;
  const AdmissionChain& chain = server_->options_.admission;
  if (!chain.Handles(*info_, "")) return Status::Ok();
  AdmissionRequest admission;
  admission.operation = AdmissionOperation::kDelete;
  admission.resource = info_;
  admission.namespace_ = store::MetaString(current, "namespace");
  admission.name = store::MetaString(current, "name");
  admission.old_object = &current;
  admission.old_version = &stored;
  admission.dry_run = dry_run;
  admission.warnings = &warnings_;
  admission.user = &user_;
  RETURN_IF_ERROR(chain.RunMutating(admission));
  return chain.RunValidating(admission);
}

FieldManagerScope RequestHandler::ManagerScope(std::string_view subresource) const {
  FieldManagerScope scope;
  scope.manager = FieldManager();
  scope.api_version = info_->ApiVersion();
  scope.subresource = std::string(subresource);
  scope.status_subresource = info_->has_status;
  scope.status_write = api::StatusWriteOf(*info_);
  scope.now = now_;
  auto types = served_->list_types.find(info_->GroupResource());
  if (types != served_->list_types.end()) scope.schema = types->second;
  return scope;
}

Json RequestHandler::WithManagedFields(const Json& old, Json updated,
                                       std::string_view subresource) {
  return UpdateManagedFields(old, std::move(updated), ManagerScope(subresource));
}

store::NewEntries RequestHandler::RecordWrite(const store::ObjectPtr& current, Json* updated,
                                              std::string_view subresource, bool* shapes_checked) {
  FieldManagerScope scope = ManagerScope(subresource);
  if (current != nullptr) scope.live_shapes_checked = ShapesChecked(*current, served_);
  return RecordOrDeferManagedFields(current, updated, scope,
                                    StoresOnlyUntracked(current.get(), *updated, subresource),
                                    shapes_checked);
}

Result<Answer> RequestHandler::Create() {
  ASSIGN_OR_RETURN(Json object, DecodeObjectBody(false));
  RETURN_IF_ERROR(CheckNamespaceExists());
  RETURN_IF_ERROR(PrepareForWrite(&object, nullptr, ""));
  RETURN_IF_ERROR(CheckNameFree(object));
  bool shapes_checked = false;
  store::NewEntries entries = RecordWrite(nullptr, &object, "", &shapes_checked);
  ASSIGN_OR_RETURN(store::ObjectPtr created,
                   CreateWithSideEffects(std::move(object), shapes_checked, std::move(entries)));
  return ObjectResponse(201, created);
}

Result<store::ObjectPtr> RequestHandler::StoreUpdate(
    Json object, bool status_only, std::optional<store::NewEntries> managed_fields) {
  store::UpdateOptions options;
  options.dry_run = DryRun();
  options.managed_fields = std::move(managed_fields);
  if (status_only) return store_->UpdateStatus(*info_, std::move(object), options);
  ASSIGN_OR_RETURN(store::ObjectPtr stored, store_->Update(*info_, std::move(object), options));
  if (!options.dry_run) RETURN_IF_ERROR(AfterWrite(stored->json, false));
  return stored;
}

Result<Answer> RequestHandler::Update(bool status_only) {
  ASSIGN_OR_RETURN(Json object, DecodeObjectBody(true));
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  std::string_view sub = status_only ? "status" : "";
  RETURN_IF_ERROR(PrepareForWrite(&object, &current->json, sub, current.get()));
  bool shapes_checked = false;
  store::NewEntries entries = RecordWrite(current, &object, sub, &shapes_checked);
  // The stored version is `object` over `current` (status writes take the rest from it), both
  // checked, when nothing else can have been written in between.
  shapes_checked = shapes_checked && PinnedTo(object, *current);
  // A status write left with no entries stores none of its own: the store keeps the live ones,
  // as it keeps them for any status body without managedFields.
  std::optional<store::NewEntries> given;
  if (!status_only || entries.deferred || !entries.made.empty()) given = std::move(entries);
  ASSIGN_OR_RETURN(store::ObjectPtr stored,
                   StoreUpdate(std::move(object), status_only, std::move(given)));
  if (shapes_checked) MarkShapesChecked(*stored, served_);
  return ObjectResponse(200, stored);
}

Result<Answer> RequestHandler::Delete() {
  Json body;
  if (request_.has_body()) {
    const std::string content_type = request_.content_type;
    ASSIGN_OR_RETURN(body, BodyJson([&](const std::string& bytes) {
                       return ParseObjectBody(content_type, bytes);
                     }));
  }
  // Query parameters fill what the body leaves out (kubectl sends a body; curl users do not).
  if (body.is_null() || body.is_object()) {
    const QueryParams& q = target_.query;
    if (q.Has("gracePeriodSeconds") && !body.contains("gracePeriodSeconds")) {
      ASSIGN_OR_RETURN(std::int64_t grace, api::GoAtoi(q.Get("gracePeriodSeconds")));
      body["gracePeriodSeconds"] = grace;
    }
    if (q.Has("propagationPolicy") && !body.contains("propagationPolicy")) {
      body["propagationPolicy"] = q.Get("propagationPolicy");
    }
    if (q.Has("orphanDependents") && !body.contains("orphanDependents")) {
      body["orphanDependents"] = q.GetBool("orphanDependents");
    }
    if (DryRun() && !body.contains("dryRun")) body["dryRun"] = {"All"};
  }
  ASSIGN_OR_RETURN(store::DeleteOptions options, store::ParseDeleteOptions(body));
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  RETURN_IF_ERROR(AdmitDelete(*current, options.dry_run));
  if (!options.dry_run) RETURN_IF_ERROR(BeforeDelete(current->json));
  ASSIGN_OR_RETURN(store::DeleteResult result,
                   store_->Delete(*info_, target_.namespace_, target_.name, options));
  if (result.deleted && !options.dry_run) RETURN_IF_ERROR(AfterWrite(result.object->json, true));
  // When the answer is the object, it is the stored version itself (an in-process caller then
  // shares it instead of parsing its bytes).
  if (!result.deleted || store::ReturnsDeletedObject(*info_))
    return ObjectResponse(200, result.object);
  return JsonResponse(200, store::DeleteResponseBody(*info_, result));
}

Result<Answer> RequestHandler::DeleteCollection() {
  store::ListOptions list_options;
  list_options.namespace_ = target_.namespace_;
  ASSIGN_OR_RETURN(list_options.label_selector,
                   api::Selector::Parse(target_.query.Get("labelSelector")));
  ASSIGN_OR_RETURN(list_options.field_selector,
                   api::FieldSelector::Parse(target_.query.Get("fieldSelector")));
  ASSIGN_OR_RETURN(store::ListResult list, store_->List(*info_, list_options));
  store::DeleteOptions options;
  options.dry_run = DryRun();
  if (target_.query.Has("propagationPolicy")) {
    options.propagation_policy = target_.query.Get("propagationPolicy");
  }
  RETURN_IF_ERROR(store::ValidateDeleteOptions(options));
  Json items = Json::array();
  for (const store::ObjectPtr& item : list.items) {
    RETURN_IF_ERROR(AdmitDelete(*item, options.dry_run));
    Result<store::DeleteResult> result =
        store_->Delete(*info_, store::MetaString(item->json, "namespace"),
                       store::MetaString(item->json, "name"), options);
    if (!result.ok()) {
      if (result.status().code() == Code::kNotFound) continue;  // raced with another delete
      return result.status();
    }
    items.push_back(result->object->FullJson());
  }
  Json body = {
      {"kind", info_->list_kind},
      {"apiVersion", info_->ApiVersion()},
      {"metadata", {{"resourceVersion", std::to_string(store_->CurrentResourceVersion())}}},
      {"items", std::move(items)}};
  return JsonResponse(200, body);
}

}  // namespace lws::apiserver
