// File: client/rest/rest_watch.h
//
// RestClient::Watch: client::Client's watch contract over HTTP, as client-go's reflector keeps
// it.
//
//   1. List (in pages of watch_list_page_size), on the caller's thread, so that a resource the
//      server does not serve or a missing permission fails Watch itself; every object becomes an
//      ADDED event.
//   2. A thread of its own (one per watch: the HTTP stream blocks) then watches from the list's
//      resourceVersion with allowWatchBookmarks, and posts each event to the loop. BOOKMARK
//      events only move the position the watch resumes from; the handler never sees them.
//   3. When the stream ends (the server's timeoutSeconds: quietly) or fails (connection lost,
//      an ERROR event, an error answer, a body that does not decode: one warning each), the
//      watch resumes from the last resourceVersion it saw, after a backoff that doubles per
//      failure in a row.
//   4. When the server no longer has that position (HTTP 410, or an ERROR event with code 410)
//      the watch lists again. Objects deleted meanwhile left no event, and the runtime's
//      informers (client/informer.h) only forget an object on DELETED, so the watch delivers a
//      DELETED for every object it knew that the new list lacks (its last known state, carrying
//      the list's resourceVersion), then ADDED for every listed object (the informer treats an
//      ADDED of a known object as an update, and ignores one it already has): client/relist.h.
//
// The objects the watch knows (for 4) live on its thread; the handler sees events on the loop,
// in the order the server sent them, in batches of whatever arrived meanwhile.
//
// Stop (or destroying the Subscription) cancels the thread's request (the socket is shut down,
// which ends a blocked read at once) and its backoff wait, and joins it; no handler runs after
// Stop returns, also when Stop is called from another thread than the loop's (it then waits
// for a handler that is running). Stop may be called from a handler.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/event_loop.h"
#include "base/result.h"
#include "client/client.h"
#include "store/object.h"

namespace lws::rest {

class RestClient;

// REQUIRES: `client` outlives the subscription.
Result<std::unique_ptr<client::Subscription>> StartRestWatch(const RestClient* client,
                                                             EventLoop* loop,
                                                             const client::Resource& resource,
                                                             const std::string& ns,
                                                             client::WatchHandler handler);

}  // namespace lws::rest
