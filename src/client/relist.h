// File: client/relist.h
//
// What a watch that starts over from a fresh list owes its consumer. The runtime's informers
// (client/informer.h) forget an object only on DELETED, and an object deleted while the watch
// was down left no event; so a watch that re-lists first delivers DELETED for every object it
// had delivered that the list lacks, then ADDED for every listed object (client-go's reflector
// does the same through DeltaFIFO.Replace). The REST watch (client/rest/rest_watch.h) re-lists
// after 410 Gone; the fault-injecting client (client/faulty_client.h) after a dropped stream.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "api/codec.h"
#include "store/object.h"
#include "store/watcher.h"

namespace lws::client {

// The key a watch files `object` under: its namespace and name, without the namespace for a
// cluster-scoped resource (a stray namespace on a Node must not make it a second object).
store::ObjectName WatchKey(const api::Json& object, bool namespaced);

// The events that bring a watcher that knew `known` to the state of a fresh list: DELETED (the
// last known state, at `list_resource_version`, so versions only grow) for each known object
// the list lacks, in key order, then ADDED for each listed object, in list order.
std::vector<store::WatchEvent> RelistEvents(
    const std::map<store::ObjectName, store::ObjectPtr>& known,
    const std::vector<store::ObjectPtr>& listed, std::uint64_t list_resource_version,
    bool namespaced);

}  // namespace lws::client
