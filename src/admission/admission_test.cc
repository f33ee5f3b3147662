// The admission chain's typed objects (typed_object.h): plugins share one decoding of the new
// object until it may have changed, and the old object's decoding is the stored version's view.
#include "admission/admission.h"

#include <gtest/gtest.h>

#include "api/pod.h"
#include "store/store_testing.h"

namespace lws::admission {
namespace {

using api::Json;

// Records the address and image of the pod each call decoded; optionally changes the image.
class Reader final : public AdmissionPlugin {
 public:
  explicit Reader(std::string set_image = "") : set_image_(std::move(set_image)) {}
  std::string_view Name() const override { return "Reader"; }
  bool Handles(const api::ResourceInfo&, std::string_view) const override { return true; }
  Status Mutate(AdmissionRequest& request) override {
    Note(request);
    if (!set_image_.empty()) (*request.object)["spec"]["containers"][0]["image"] = set_image_;
    return Status::Ok();
  }
  Status Validate(const AdmissionRequest& request) override {
    Note(request);
    return Status::Ok();
  }
  std::vector<const api::Pod*> seen;
  std::vector<std::string> images;

 private:
  void Note(const AdmissionRequest& request) {
    const Decoded<api::Pod>& pod = request.Typed<api::Pod>();
    EXPECT_TRUE(pod.errors.empty());
    seen.push_back(&pod.value);
    images.push_back(pod.value.spec.containers.empty() ? "" : pod.value.spec.containers[0].image);
  }
  std::string set_image_;
};

TEST(AdmissionTypedObjectTest, PluginsShareOneDecodingUntilTheObjectMayChange) {
  Json pod = store::testing::Pod("p");
  AdmissionRequest request;
  request.resource = &BuiltinResource("", "pods");
  request.object = &pod;
  const api::Pod* first = &request.Typed<api::Pod>().value;
  EXPECT_EQ(first, &request.Typed<api::Pod>().value);  // the same decoding, not a second one

  AdmissionChain chain;
  auto mutator = std::make_shared<Reader>("nginx");
  auto reader = std::make_shared<Reader>();
  chain.Add(mutator);
  chain.Add(reader);
  ASSERT_TRUE(chain.RunMutating(request).ok());
  // The second plugin sees what the first wrote, not the decoding made before it.
  EXPECT_EQ(mutator->images, (std::vector<std::string>{"busybox"}));
  EXPECT_EQ(reader->images, (std::vector<std::string>{"nginx"}));

  // The server changes the object between the phases; validation decodes it again, once.
  pod["spec"]["containers"][0]["image"] = "redis";
  ASSERT_TRUE(chain.RunValidating(request).ok());
  EXPECT_EQ(mutator->images.back(), "redis");
  EXPECT_EQ(reader->images.back(), "redis");
  EXPECT_EQ(mutator->seen.back(), reader->seen.back());
}

TEST(AdmissionTypedObjectTest, DecodeErrorsAreTheDecodersFieldErrors) {
  Json pod = store::testing::Pod("p");
  pod["spec"]["containers"] = "not a list";
  AdmissionRequest request;
  request.object = &pod;
  const Decoded<api::Pod>& decoded = request.Typed<api::Pod>();
  ASSERT_EQ(decoded.errors.size(), 1u);
  EXPECT_EQ(decoded.errors[0].field, "spec.containers");
}

class AdmissionOldObjectTest : public store::testing::StoreTest {};

TEST_F(AdmissionOldObjectTest, TheOldObjectIsTheStoredVersionsSharedView) {
  store::ObjectPtr stored = MustCreate(store::testing::Pods(), store::testing::Pod("p"));
  AdmissionRequest request;
  request.old_object = &stored->document();
  request.old_version = stored.get();
  Result<std::shared_ptr<const api::Pod>> old = request.OldTyped<api::Pod>();
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  Result<std::shared_ptr<const api::Pod>> view = store::DecodedView<api::Pod>(*stored);
  EXPECT_EQ(old->get(), view->get());  // decoded once per version, shared with the informers
  EXPECT_EQ((*old)->metadata.name, "p");

  request.old_version = nullptr;  // the webhook server's requests: decoded from the JSON
  Result<std::shared_ptr<const api::Pod>> own = request.OldTyped<api::Pod>();
  ASSERT_TRUE(own.ok());
  EXPECT_NE(own->get(), view->get());
  EXPECT_EQ((*own)->spec.containers[0].image, "busybox");
}

}  // namespace
}  // namespace lws::admission
