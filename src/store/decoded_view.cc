// The one non-template part of decoded views (decoded_view.h): the warning for a version that
// does not decode, kept here so that the header does not pull in the logger.
#include "store/decoded_view.h"

#include "base/log.h"

namespace lws::store {

void WarnUndecodable(const std::string& reader, const StoredObject& object, const Status& why) {
  Logger(reader)->warn("skipping undecodable {}: {}", object.name().name, why.message());
}

}  // namespace lws::store
