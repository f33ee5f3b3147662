// File: operator/webhook/cert_manager.cc
#include "operator/webhook/cert_manager.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

#include "api/base64.h"
#include "base/file.h"
#include "base/log.h"

namespace lws::operator_webhook {
namespace {

const client::Resource kSecrets{"", "v1", "secrets"};
const client::Resource kMutatingConfigurations{"admissionregistration.k8s.io", "v1",
                                               "mutatingwebhookconfigurations", false};
const client::Resource kValidatingConfigurations{"admissionregistration.k8s.io", "v1",
                                                 "validatingwebhookconfigurations", false};

spdlog::logger& Log() {
  static const std::shared_ptr<spdlog::logger> log = Logger("cert-rotation");
  return *log;
}

// Writes through a temporary file and a rename, so that the webhook server never reads half a
// file; the key is readable by the owner only. Unchanged files are left alone. True iff written.
Result<bool> WriteIfChanged(const std::filesystem::path& path, const std::string& text,
                            bool secret) {
  if (Result<std::string> current = ReadFile(path.string()); current.ok() && *current == text) {
    return false;
  }
  RETURN_IF_ERROR(WriteFileAtomically(path.string(), text, secret));
  return true;
}

bool BeingDeleted(const Json& object) {
  auto metadata = object.find("metadata");
  return metadata != object.end() && metadata->is_object() &&
         metadata->contains("deletionTimestamp");
}

}  // namespace

CertManager::CertManager(EventLoop* loop, const client::Client* client, CertManagerOptions options)
    : loop_(loop),
      client_(client),
      options_(std::move(options)),
      names_(WebhookCertificateNames(options_.service_name, options_.namespace_,
                                     options_.extra_dns_names, options_.extra_ip_addresses)) {}

CertManager::~CertManager() { Stop(); }

Status CertManager::Start() {
  auto on_secret = [this](const store::WatchEvent& event) {
    if (event.object->name().name == options_.secret_name) RequestSync();
  };
  ASSIGN_OR_RETURN(auto secrets, client_->Watch(loop_, kSecrets, options_.namespace_, on_secret));
  watches_.push_back(std::move(secrets));
  const std::pair<const client::Resource*, const std::vector<std::string>*> configurations[] = {
      {&kMutatingConfigurations, &options_.mutating_configurations},
      {&kValidatingConfigurations, &options_.validating_configurations}};
  for (const auto& [resource, names] : configurations) {
    auto on_configuration = [this, names = names](const store::WatchEvent& event) {
      const std::string name = event.object->name().name;
      if (std::find(names->begin(), names->end(), name) != names->end()) RequestSync();
    };
    ASSIGN_OR_RETURN(auto watch, client_->Watch(loop_, *resource, "", on_configuration));
    watches_.push_back(std::move(watch));
  }
  RequestSync();
  return Status::Ok();
}

void CertManager::Stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& watch : watches_) watch->Stop();
  watches_.clear();
  if (sync_task_ != 0) loop_->Cancel(sync_task_);
  if (next_task_ != 0) loop_->Cancel(next_task_);
}

void CertManager::RequestSync() {
  if (stopped_ || sync_task_ != 0) return;
  sync_task_ = loop_->Post([this] {
    sync_task_ = 0;
    Sync();
  });
}

void CertManager::ScheduleNext(Duration delay) {
  if (next_task_ != 0) loop_->Cancel(next_task_);
  next_task_ = loop_->After(delay, [this] {
    next_task_ = 0;
    RequestSync();
  });
}

void CertManager::Sync() {
  if (stopped_) return;
  ++syncs_;
  const Status synced = SyncOnce();
  if (synced.ok()) {
    failures_ = 0;
    if (!ready_.exchange(true)) Log().info("webhook certificates are ready");
    ScheduleNext(options_.check_interval);
    return;
  }
  // Another replica wrote first: its Secret is as good as ours, read it again at once.
  if (synced.code() == Code::kConflict || synced.code() == Code::kAlreadyExists) {
    Log().info("{}; reading it again", synced.message());
    RequestSync();
    return;
  }
  const Duration delay =
      std::min(options_.retry_delay_max, options_.retry_delay_min * (1 << std::min(failures_, 16)));
  ++failures_;
  Log().warn("webhook certificates: {} (retrying)", synced.message());
  ScheduleNext(delay);
}

Status CertManager::SyncOnce() {
  ASSIGN_OR_RETURN(CertificateMaterial material, EnsureSecret());
  RETURN_IF_ERROR(WriteFiles(material));
  return InjectCaBundles(material.ca_cert);
}

Result<CertificateMaterial> CertManager::EnsureSecret() {
  const Time now = loop_->Now();
  Result<store::ObjectPtr> stored =
      client_->Get(kSecrets, options_.namespace_, options_.secret_name);
  if (!stored.ok() && stored.status().code() != Code::kNotFound) return stored.status();
  const CertificateMaterial current =
      stored.ok() ? MaterialFromSecret((*stored)->document()) : CertificateMaterial{};
  const CertificateAction action = PlanCertificates(current, names_, options_.validity, now);
  if (action == CertificateAction::kKeep) return current;
  Log().info("secret {}/{}: {}", options_.namespace_, options_.secret_name, ToString(action));
  ASSIGN_OR_RETURN(CertificateMaterial issued,
                   IssueCertificates(current, action, names_, options_.validity, now));
  if (stored.ok()) {
    RETURN_IF_ERROR(
        client_->Update(kSecrets, SecretWithMaterial((*stored)->document(), issued)).status());
  } else {
    const Json secret = NewCertificateSecret(options_.namespace_, options_.secret_name, issued);
    RETURN_IF_ERROR(client_->Create(kSecrets, secret).status());
  }
  return issued;
}

Status CertManager::WriteFiles(const CertificateMaterial& material) {
  const std::filesystem::path dir(options_.cert_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Internal("cannot create " + dir.string() + ": " + ec.message());
  // The key first: a reader between the two writes sees a pair that does not match and keeps
  // the old one (webhook_server.h).
  ASSIGN_OR_RETURN(bool key, WriteIfChanged(dir / kServingKeyKey, material.serving_key, true));
  ASSIGN_OR_RETURN(bool cert, WriteIfChanged(dir / kServingCertKey, material.serving_cert, false));
  ASSIGN_OR_RETURN(bool ca, WriteIfChanged(dir / kCaCertKey, material.ca_cert, false));
  if ((key || cert || ca) && options_.on_files_written) options_.on_files_written();
  return Status::Ok();
}

Status CertManager::InjectCaBundles(const std::string& ca_cert_pem) {
  const std::string bundle = api::Base64Encode(ca_cert_pem);
  Status last_error;
  auto inject = [&](const client::Resource& resource, const std::string& name) {
    Result<store::ObjectPtr> stored = client_->Get(resource, "", name);
    if (!stored.ok()) {
      if (stored.status().code() == Code::kNotFound) {
        Log().info("{} {} not found: its caBundle is set once it exists", resource.resource, name);
      } else {
        last_error = stored.status();
      }
      return;
    }
    if (BeingDeleted((*stored)->document())) return;
    Json configuration = (*stored)->document();
    if (!InjectCaBundle(&configuration, bundle)) return;
    if (Status updated = client_->Update(resource, configuration).status(); !updated.ok()) {
      last_error = updated;
      return;
    }
    Log().info("injected the CA into {} {}", resource.resource, name);
  };
  for (const std::string& name : options_.mutating_configurations) {
    inject(kMutatingConfigurations, name);
  }
  for (const std::string& name : options_.validating_configurations) {
    inject(kValidatingConfigurations, name);
  }
  return last_error;
}

}  // namespace lws::operator_webhook
