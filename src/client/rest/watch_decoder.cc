// File: client/rest/watch_decoder.cc
#include "client/rest/watch_decoder.h"

#include "client/client.h"

namespace lws::rest {
namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string Hex(char c) {
  constexpr char kDigits[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return {kDigits[byte >> 4], kDigits[byte & 15]};
}

Result<store::EventType> EventTypeFromName(std::string_view name) {
  if (name == "ADDED") return store::EventType::kAdded;
  if (name == "MODIFIED") return store::EventType::kModified;
  if (name == "DELETED") return store::EventType::kDeleted;
  if (name == "BOOKMARK") return store::EventType::kBookmark;
  if (name == "ERROR") return store::EventType::kError;
  return Status::BadRequest("watch event: unknown type \"" + std::string(name) + "\"");
}

// metadata.resourceVersion of an event's object, which must be a decimal string.
Result<std::uint64_t> EventResourceVersion(const Json& object, std::string_view type) {
  const Json* metadata = object.contains("metadata") ? &object["metadata"] : nullptr;
  if (!metadata || !metadata->is_object() || !metadata->contains("resourceVersion") ||
      !(*metadata)["resourceVersion"].is_string()) {
    return Status::BadRequest("watch event " + std::string(type) +
                              ": object.metadata.resourceVersion: missing or not a string");
  }
  Result<std::uint64_t> rv =
      client::ParseResourceVersionText((*metadata)["resourceVersion"].get<std::string>());
  if (!rv.ok()) {
    return Status::BadRequest("watch event " + std::string(type) +
                              ": object.metadata.resourceVersion: " + rv.status().message());
  }
  return rv;
}

}  // namespace

Status JsonObjectSplitter::Feed(std::string_view bytes,
                                const std::function<void(std::string_view)>& emit) {
  if (failed_) return Status::BadRequest("watch stream: already failed");
  // `start` is where the unbuffered part of the current object begins within `bytes`.
  std::size_t start = partial() ? 0 : std::string_view::npos;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (depth_ == 0) {
      if (IsJsonSpace(c)) continue;
      if (c != '{') {
        failed_ = true;
        return Status::BadRequest("watch stream: unexpected byte 0x" + Hex(c) +
                                  " between events at offset " + std::to_string(offset_ + i));
      }
      start = i;
    }
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (c == '}' || c == ']') {
      if (--depth_ == 0) {
        std::string_view tail = bytes.substr(start, i + 1 - start);
        if (pending_.size() + tail.size() > max_object_bytes_) return TooLarge(offset_ + i);
        if (pending_.empty()) {
          emit(tail);
        } else {
          pending_.append(tail);
          std::string object = std::move(pending_);
          pending_.clear();
          emit(object);
        }
        start = std::string_view::npos;
      }
    }
  }
  if (depth_ > 0 && start != std::string_view::npos) {
    if (pending_.size() + bytes.size() - start > max_object_bytes_) {
      return TooLarge(offset_ + bytes.size());
    }
    pending_.append(bytes.substr(start));
  }
  offset_ += bytes.size();
  return Status::Ok();
}

Status JsonObjectSplitter::TooLarge(std::uint64_t offset) {
  failed_ = true;
  return Status::BadRequest("watch stream: the event before offset " + std::to_string(offset) +
                            " exceeds " + std::to_string(max_object_bytes_) + " bytes");
}

Result<DecodedWatchEvent> DecodeWatchEvent(std::string_view text) {
  Json event = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (event.is_discarded() || !event.is_object()) {
    return Status::BadRequest("watch event: not a JSON object");
  }
  if (!event.contains("type") || !event["type"].is_string()) {
    return Status::BadRequest("watch event: type: missing or not a string");
  }
  if (!event.contains("object") || !event["object"].is_object()) {
    return Status::BadRequest("watch event: object: missing or not an object");
  }
  const std::string type = event["type"].get<std::string>();
  DecodedWatchEvent decoded;
  ASSIGN_OR_RETURN(decoded.type, EventTypeFromName(type));
  decoded.object = std::move(event["object"]);
  if (decoded.type == store::EventType::kError) {
    const Json& code = decoded.object.contains("code") ? decoded.object["code"] : Json();
    decoded.error_code = code.is_number_integer() ? code.get<int>() : 500;
    return decoded;
  }
  ASSIGN_OR_RETURN(decoded.resource_version, EventResourceVersion(decoded.object, type));
  return decoded;
}

}  // namespace lws::rest
