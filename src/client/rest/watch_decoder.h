// File: client/rest/watch_decoder.h
//
// The body of a watch response, taken apart as it arrives. kube-apiserver writes one JSON
// object per event (its framer puts each in its own chunk, followed by a newline); our own
// apiserver writes newline-terminated lines, several per chunk when events come in a burst
// (apiserver/watch_stream.cc). Neither framing can be trusted to line up with reads, so
// JsonObjectSplitter finds the end of each top-level object by its braces (outside strings),
// whatever the chunking, and ignores the whitespace between objects. Brackets are counted, not
// matched: a malformed object such as "{[}]" is handed on whole and fails to decode there.
//
// DecodeWatchEvent then reads one event: {"type": "ADDED"|"MODIFIED"|"DELETED"|"BOOKMARK"|
// "ERROR", "object": {...}}. Object events and bookmarks carry metadata.resourceVersion, the
// position a watch resumes from; an ERROR event carries a metav1.Status (410 Expired when the
// position fell out of the server's history).
//
// Both are pure and take untrusted bytes: errors name what was wrong and where, nothing throws
// (fuzz/watch_event_fuzz.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "api/codec.h"
#include "base/result.h"
#include "store/watcher.h"

namespace lws::rest {

using api::Json;

class JsonObjectSplitter {
 public:
  // An object larger than this is refused (the server limits requests to 3 MiB; answers of one
  // object are of the same order).
  static constexpr std::size_t kDefaultMaxObjectBytes = 64 * 1024 * 1024;

  explicit JsonObjectSplitter(std::size_t max_object_bytes = kDefaultMaxObjectBytes)
      : max_object_bytes_(max_object_bytes) {}

  // Consumes `bytes` and calls `emit` with the text of each object completed by them, in order.
  // A byte outside an object that is not whitespace, or an object over the limit, is
  // BadRequest naming the offset in the stream; the splitter is then unusable.
  Status Feed(std::string_view bytes, const std::function<void(std::string_view)>& emit);

  // True while part of an object has been received.
  bool partial() const { return !pending_.empty(); }
  std::uint64_t offset() const { return offset_; }

 private:
  Status TooLarge(std::uint64_t offset);

  const std::size_t max_object_bytes_;
  std::string pending_;  // the object being received, from its '{'
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
  bool failed_ = false;
  std::uint64_t offset_ = 0;  // bytes consumed so far, for messages
};

struct DecodedWatchEvent {
  store::EventType type = store::EventType::kAdded;
  Json object;                         // the object, the bookmark, or the ERROR's Status
  std::uint64_t resource_version = 0;  // object events and bookmarks; 0 for ERROR
  int error_code = 0;                  // ERROR: the Status's code (410 for Expired), else 0
};

// One event's JSON text, checked: the type is known, the object is a JSON object, and object
// events and bookmarks carry a decimal metadata.resourceVersion.
Result<DecodedWatchEvent> DecodeWatchEvent(std::string_view text);

}  // namespace lws::rest
