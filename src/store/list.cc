// Store::List: selectors, limit/continue over a consistent snapshot.
//
// A continue token carries the first page's resourceVersion and the last key returned. Later
// pages are read from that snapshot: the current objects with every change made since undone
// from the history (each changed key takes its state before its first later change). A token
// older than the history's floor can no longer be rebuilt and is 410 Expired.
#include <algorithm>

#include "store/run_locked.h"
#include "store/store.h"

namespace lws::store {

namespace {

constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Base64UrlEncode(std::string_view in) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : in) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kBase64Url[(buffer >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += kBase64Url[(buffer << (6 - bits)) & 0x3f];
  return out;
}

std::optional<std::string> Base64UrlDecode(std::string_view in) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    const char* at = std::find(kBase64Url, kBase64Url + 64, c);
    if (at == kBase64Url + 64) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(at - kBase64Url);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return out;
}

std::string EncodeContinue(std::uint64_t rv, const ObjectName& after) {
  Json token = {
      {"v", "meta.k8s.io/v1"}, {"rv", rv}, {"start", after.namespace_ + "/" + after.name}};
  return Base64UrlEncode(Serialize(token));
}

Result<ContinueToken> DecodeContinue(std::string_view text) {
  auto invalid = [](std::string_view why) {
    return Status::BadRequest("invalid continue token: continue key is not valid: " +
                              std::string(why));
  };
  std::optional<std::string> raw = Base64UrlDecode(text);
  if (!raw) return invalid("illegal base64 data");
  Json token = Json::parse(*raw, nullptr, /*allow_exceptions=*/false);
  if (!token.is_object() || token.value("v", Json()) != "meta.k8s.io/v1") {
    return invalid("server does not recognize this encoded key");
  }
  auto rv = token.find("rv");
  auto start = token.find("start");
  if (rv == token.end() || !rv->is_number_unsigned() || rv->get<std::uint64_t>() == 0) {
    return invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (start == token.end() || !start->is_string()) return invalid("encoded key is missing");
  const std::string& key = start->get_ref<const std::string&>();
  std::size_t slash = key.find('/');
  if (slash == std::string::npos) return invalid("encoded key is malformed");
  return ContinueToken{rv->get<std::uint64_t>(), {key.substr(0, slash), key.substr(slash + 1)}};
}

}  // namespace

Result<ListResult> Store::List(const api::ResourceInfo& info, const ListOptions& options) const {
  RETURN_IF_ERROR(ValidateFieldSelector(info, options.field_selector));
  std::optional<ContinueToken> token;
  if (!options.continue_token.empty()) {
    ASSIGN_OR_RETURN(token, DecodeContinue(options.continue_token));
  }
  const std::string ns = info.namespaced ? options.namespace_ : "";
  return internal::RunLocked(mu_, [&]() REQUIRES(mu_) -> Result<ListResult> {
    return ListLocked(info, ns, options, token);
  });
}

Result<ListResult> Store::ListLocked(const api::ResourceInfo& info, const std::string& ns,
                                     const ListOptions& options,
                                     const std::optional<ContinueToken>& token) const {
  const std::string gr = info.GroupResource();
  ListResult result;
  result.resource_version = token ? std::min(token->rv, rv_) : rv_;
  if (result.resource_version < history_.floor()) {
    return Status::Gone(
        "The provided continue parameter is too old to display a consistent list result. You "
        "can start a new list without the continue parameter.");
  }
  // State at the snapshot of every key changed since (null: absent at the snapshot).
  std::map<ObjectName, ObjectPtr> undo;
  const auto& events = history_.events();
  for (std::size_t i = history_.FirstAfter(result.resource_version); i < events.size(); ++i) {
    const HistoryEvent& e = events[i];
    if (e.group_resource != gr || undo.contains(e.name)) continue;
    undo.emplace(e.name, e.type == EventType::kAdded ? nullptr : e.prev);
  }
  static const ObjectMap kEmpty;
  auto found = objects_.find(gr);
  const ObjectMap& current = found == objects_.end() ? kEmpty : found->second;

  const ObjectName start = token ? token->after : ObjectName{ns, ""};
  auto cur = token ? current.upper_bound(start) : current.lower_bound(start);
  auto old = token ? undo.upper_bound(start) : undo.lower_bound(start);
  const bool selectors = !options.label_selector.Empty() || !options.field_selector.Empty();
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(options.limit, 0));
  std::int64_t remaining = 0;
  bool more = false;
  ObjectName last;
  while (cur != current.end() || old != undo.end()) {
    // Merge the two sorted sequences; the snapshot's state wins for a changed key.
    bool take_old = old != undo.end() && (cur == current.end() || !(cur->first < old->first));
    const ObjectName& name = take_old ? old->first : cur->first;
    const ObjectPtr object = take_old ? old->second : cur->second;
    if (take_old && cur != current.end() && !(old->first < cur->first)) ++cur;
    take_old ? ++old : ++cur;
    if (!ns.empty() && name.namespace_ != ns) {
      if (name.namespace_ > ns) break;
      continue;
    }
    if (!object) continue;
    if (selectors && (!options.label_selector.Matches(object->labels()) ||
                      !MatchesFields(info, object->document(), options.field_selector))) {
      continue;
    }
    if (limit > 0 && result.items.size() == limit) {
      more = true;
      ++remaining;
      if (selectors) break;  // upstream counts the rest only without selectors
      continue;
    }
    result.items.push_back(object);
    last = name;
  }
  if (more) {
    result.continue_token = EncodeContinue(result.resource_version, last);
    if (!selectors) result.remaining_item_count = remaining;
  }
  return result;
}

}  // namespace lws::store
