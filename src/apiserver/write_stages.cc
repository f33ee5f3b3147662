// File: apiserver/write_stages.cc
//
// The object pipeline every write shares, in the stages kube-apiserver runs (spec 3.3); the verbs
// (handlers_write.cc, handlers_patch.cc, handlers_subresource.cc) call PrepareForWrite, then
// record managedFields and store (or, with dryRun=All, only pretend to):
//   decode    the body as an object of the addressed resource, checked against the URL
//             (DecodeObjectBody); then its depth, unknown fields per fieldValidation, pruned and
//             defaulted (DecodeForWrite);
//   mutate    the mutating admission plugins, then pruned and defaulted again (MutateForWrite);
//   validate  the CRD schema or the built-in rules (ValidateForWrite), then the validating
//             admission plugins.
// A DELETE (and each object of a deletecollection) passes both admission phases with the stored
// object as the old one and nothing to mutate (AdmitDelete).
#include <algorithm>
#include <initializer_list>
#include <string>

#include "api/json_depth.h"
#include "api/meta.h"
#include "api/object_meta_validation.h"
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

}  // namespace

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

const api::StructuralSchema* RequestHandler::Schema() const {
  auto found = served_->schemas.find(info_->GroupResource());
  return found == served_->schemas.end() ? nullptr : found->second.get();
}

Status RequestHandler::PrepareForWrite(Json* object, const Json* old, std::string_view subresource,
                                       const store::StoredObject* old_version) {
  const api::StructuralSchema* schema = Schema();
  RETURN_IF_ERROR(DecodeForWrite(object, old, subresource, schema));
  admission::AdmissionRequest admission = AdmissionFor(object, old, subresource, old_version);
  const admission::AdmissionChain& chain = server_->options_.admission;
  const bool admitted = chain.Handles(*info_, subresource);
  if (admitted) RETURN_IF_ERROR(MutateForWrite(&admission, schema));
  RETURN_IF_ERROR(ValidateForWrite(object, old, subresource, schema));
  return admitted ? chain.RunValidating(admission) : Status::Ok();
}

// What every object gets before any webhook sees it.
Status RequestHandler::DecodeForWrite(Json* object, const Json* old, std::string_view subresource,
                                      const api::StructuralSchema* schema) {
  ASSIGN_OR_RETURN(FieldValidation mode, FieldValidationMode());
  // A patch can nest an object deeper than any body could (kube-apiserver decodes the patched
  // object again).
  if (!request_.in_process) {
    if (std::string deep = api::JsonDepthError(*object); !deep.empty()) {
      return Status::BadRequest(info_->kind + " in version " + api::GoQuote(info_->version) +
                                " cannot be handled as a " + info_->kind + ": " + deep);
    }
  }
  if (schema != nullptr) {
    RETURN_IF_ERROR(ReportUnknownFields(schema->Prune(object), mode));
    schema->ApplyDefaults(object);
    return Status::Ok();
  }
  // In-process callers are this project's controllers, whose objects are typed by construction.
  if (!request_.in_process) {
    ASSIGN_OR_RETURN(std::vector<std::string> unknown, DecodeBuiltin(*info_, object));
    RETURN_IF_ERROR(ReportUnknownFields(unknown, mode));
  }
  // namespaces/finalize takes spec.finalizers from the body: a plain update's carry-over, which
  // keeps the stored ones, does not apply (upstream's namespaceFinalizeStrategy).
  DefaultBuiltin(object, subresource == "finalize" ? nullptr : old);
  return Status::Ok();
}

admission::AdmissionRequest RequestHandler::AdmissionFor(Json* object, const Json* old,
                                                         std::string_view subresource,
                                                         const store::StoredObject* old_version) {
  admission::AdmissionRequest admission;
  admission.operation = old == nullptr ? admission::AdmissionOperation::kCreate
                                       : admission::AdmissionOperation::kUpdate;
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
  return admission;
}

Status RequestHandler::MutateForWrite(admission::AdmissionRequest* admission,
                                      const api::StructuralSchema* schema) {
  // Mutating webhooks run before the server validates (spec 3.3): the LWS webhook's defaults
  // can make an object valid, e.g. `networkConfig: {}` gets its required subdomainPolicy.
  RETURN_IF_ERROR(server_->options_.admission.RunMutating(*admission));
  // kube-apiserver decodes a webhook's patched object again: pruned (silently) and defaulted.
  if (schema != nullptr) {
    (void)schema->Prune(admission->object);
    schema->ApplyDefaults(admission->object);
  } else {
    DefaultBuiltin(admission->object, nullptr);
  }
  return Status::Ok();
}

Status RequestHandler::ValidateForWrite(Json* object, const Json* old, std::string_view subresource,
                                        const api::StructuralSchema* schema) {
  api::ErrorList errors;
  if (schema != nullptr) {
    errors = ValidateCustomMetadata(*object, info_->namespaced);
    // After the metadata's errors, which can hold back the CEL rules as the schema's own do.
    schema->Validate(*object, &errors);
  } else {
    if (old == nullptr) PrepareBuiltinCreate(object);
    errors = ValidateBuiltin(*object, old, subresource);
  }
  if (errors.empty()) return Status::Ok();
  return api::InvalidStatus(store::QualifiedKind(*info_), store::MetaString(*object, "name"),
                            errors);
}

Status RequestHandler::AdmitDelete(const store::StoredObject& stored, bool dry_run) {
  const Json& current = stored.document();
  const admission::AdmissionChain& chain = server_->options_.admission;
  if (!chain.Handles(*info_, "")) return Status::Ok();
  admission::AdmissionRequest admission;
  admission.operation = admission::AdmissionOperation::kDelete;
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

}  // namespace lws::apiserver
