// File: admission/typed_object.h
//
// The objects of an admission request decoded as API types, shared by every plugin that reads
// them typed. One LWS write passes the LWS webhook twice (defaulting, then validation), and
// without sharing each pass would decode the new object, and validation the old one too.
//
//   - The new object: decoded at the first Typed<T>() after it last changed, then the same
//     decoding for every later reader. The chain forgets it after each mutating plugin and
//     before the validating phase, since both a plugin and the server (defaulting again between
//     the phases) may change the JSON; nothing else writes it during admission.
//   - The old object: the stored version's shared view (store/decoded_view.h) when the request
//     names the version, so it is decoded once per version, not per request, and the
//     controllers' informers share the same view. Views leave out managedFields.
//
// Threading: an admission request is used by one thread.
#pragma once

#include <memory>
#include <typeindex>

#include "api/codec.h"
#include "api/field.h"

namespace lws::admission {

// `value` is meaningful only when `errors` is empty: the decoder's field errors.
template <class T>
struct Decoded {
  T value;
  api::ErrorList errors;
};

// One JSON object's decoding as one type at a time (a second type replaces the first: plugins
// of one resource read one type).
class TypedObject {
 public:
  template <api::Modeled T>
  const Decoded<T>& Get(const api::Json& json) const {
    if (held_ == nullptr || type_ != typeid(T)) {
      auto decoded = std::make_shared<Decoded<T>>();
      decoded->errors = api::DecodeInto(json, &decoded->value);
      held_ = decoded;
      type_ = typeid(T);
    }
    return *static_cast<const Decoded<T>*>(held_.get());
  }
  // The JSON may have changed: the next Get decodes it again.
  void Forget() const { held_.reset(); }

 private:
  mutable std::shared_ptr<const void> held_;
  mutable std::type_index type_ = typeid(void);
};

}  // namespace lws::admission
