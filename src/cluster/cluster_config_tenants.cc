// The cluster file's otherTenants section (cluster_spec.h OtherTenants).
#include "cluster/config_decoder.h"

namespace lws::cluster::internal {
namespace {

double Probability(const Json& value, const FieldPath& path, Decoder* d) {
  if (value.is_number() && value.get<double>() >= 0 && value.get<double>() <= 1) {
    return value.get<double>();
  }
  d->errors.push_back(api::Invalid(path, value, "must be a number between 0 and 1"));
  return 0;
}

OtherTenants::TakeFreed DecodeTakeFreed(const Json& value, const FieldPath& path, Decoder* d) {
  OtherTenants::TakeFreed take;
  if (!d->IsObject(value, path)) return take;
  d->Unknown(value, path, {"resource", "probability", "delay", "for", "patience"});
  if (value.contains("resource"))
    take.resource = d->String(value["resource"], path.Child("resource"));
  if (value.contains("probability")) {
    take.probability = Probability(value["probability"], path.Child("probability"), d);
  }
  if (value.contains("delay")) take.delay = d->Time(value["delay"], path.Child("delay"));
  if (value.contains("for")) take.hold = d->Time(value["for"], path.Child("for"));
  if (value.contains("patience"))
    take.patience = d->Time(value["patience"], path.Child("patience"));
  return take;
}

OtherTenants::Arrival DecodeArrival(const Json& value, const FieldPath& path, Decoder* d) {
  OtherTenants::Arrival arrival;
  if (!d->IsObject(value, path)) return arrival;
  d->Unknown(value, path, {"at", "pods", "requests", "pool", "for"});
  if (!value.contains("at"))
    d->errors.push_back(api::Required(path.Child("at"), ""));
  else
    arrival.at = d->Time(value["at"], path.Child("at"));
  if (value.contains("pods")) arrival.pods = d->Count(value["pods"], path.Child("pods"));
  if (!value.contains("requests")) {
    d->errors.push_back(api::Required(path.Child("requests"), "what each pod asks for"));
  } else {
    arrival.requests = d->StringMap(value["requests"], path.Child("requests"));
    for (const auto& [name, amount] : arrival.requests) {
      if (!api::Quantity::Parse(amount).ok()) {
        d->errors.push_back(api::Invalid(path.Child("requests").Key(name), amount,
                                         "must be a quantity such as \"8\" or \"64Gi\""));
      }
    }
  }
  if (value.contains("pool")) arrival.pool = d->String(value["pool"], path.Child("pool"));
  if (value.contains("for")) arrival.hold = d->Time(value["for"], path.Child("for"));
  return arrival;
}

}  // namespace

OtherTenants DecodeOtherTenants(const Json& value, const FieldPath& path, Decoder* d) {
  OtherTenants tenants;
  if (!d->IsObject(value, path)) return tenants;
  d->Unknown(value, path, {"takeFreed", "arrivals"});
  if (value.contains("takeFreed")) {
    tenants.take_freed = DecodeTakeFreed(value["takeFreed"], path.Child("takeFreed"), d);
  }
  const Json arrivals = value.value("arrivals", Json::array());
  if (!arrivals.is_array()) {
    d->errors.push_back(api::TypeInvalid(path.Child("arrivals"), arrivals, "must be a list"));
    return tenants;
  }
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    tenants.arrivals.push_back(DecodeArrival(arrivals[i], path.Child("arrivals").Index(i), d));
  }
  return tenants;
}

}  // namespace lws::cluster::internal
