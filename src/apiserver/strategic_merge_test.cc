#include "apiserver/strategic_merge.h"

#include <gtest/gtest.h>

#include <string>

namespace lws::apiserver {
namespace {

Json Pod() {
  return Json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p1", "labels": {"app": "x"}, "finalizers": ["a", "b", "c"],
                 "ownerReferences": [{"uid": "u1", "name": "o1"}]},
    "spec": {
      "containers": [
        {"name": "c", "image": "busybox:1",
         "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "1"}],
         "ports": [{"containerPort": 80, "name": "http"}]},
        {"name": "d", "image": "nginx"}],
      "volumes": [{"name": "v", "emptyDir": {}}],
      "tolerations": [{"key": "k1", "operator": "Exists"}],
      "securityContext": {"runAsUser": 1000}
    }
  })");
}

struct Case {
  const char* name;
  const char* patch;
  const char* path;  // JSON pointer into the result
  const char* want;
};

TEST(StrategicMergeTest, PodPatches) {
  const Case cases[] = {
      // kubectl apply (kubectl-compat 7.2): the container keeps its place, d stays.
      {"setElementOrder", R"({"spec":{"$setElementOrder/containers":[{"name":"c"}],
                              "containers":[{"image":"busybox:2","name":"c"}]}})",
       "/spec/containers",
       R"([{"name":"c","image":"busybox:2","env":[{"name":"A","value":"1"},{"name":"B","value":"1"}],
            "ports":[{"containerPort":80,"name":"http"}]},{"name":"d","image":"nginx"}])"},
      {"reorder containers",
       R"({"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"c"}]}})",
       "/spec/containers/0/name", R"("d")"},
      // kubectl edit / label.
      {"label", R"({"metadata":{"labels":{"edited":"yes"}}})", "/metadata/labels",
       R"({"app":"x","edited":"yes"})"},
      {"delete label", R"({"metadata":{"labels":{"app":null}}})", "/metadata/labels", R"({})"},
      {"env by name", R"({"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"2"}]}]}})",
       "/spec/containers/0/env", R"([{"name":"A","value":"1"},{"name":"B","value":"2"}])"},
      // Without $setElementOrder a new item goes before the live ones it cannot be placed among.
      {"env added", R"({"spec":{"containers":[{"name":"c","env":[{"name":"C","value":"3"}]}]}})",
       "/spec/containers/0/env",
       R"([{"name":"C","value":"3"},{"name":"A","value":"1"},{"name":"B","value":"1"}])"},
      {"env with order", R"({"spec":{"containers":[{"name":"c",
          "$setElementOrder/env":[{"name":"A"},{"name":"B"},{"name":"C"}],
          "env":[{"name":"C","value":"3"}]}]}})",
       "/spec/containers/0/env",
       R"([{"name":"A","value":"1"},{"name":"B","value":"1"},{"name":"C","value":"3"}])"},
      {"delete container", R"({"spec":{"containers":[{"name":"d","$patch":"delete"}]}})",
       "/spec/containers/1", "null"},
      {"replace containers",
       R"({"spec":{"containers":[{"$patch":"replace"},{"name":"n","image":"i"}]}})",
       "/spec/containers", R"([{"name":"n","image":"i"}])"},
      {"ports by containerPort",
       R"({"spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"protocol":"TCP"}]}]}})",
       "/spec/containers/0/ports", R"([{"containerPort":80,"name":"http","protocol":"TCP"}])"},
      // kubectl apply when a volume changes source type.
      {"retainKeys volume", R"({"spec":{"volumes":[{"name":"v","$retainKeys":["configMap","name"],
                                                       "configMap":{"name":"cm"}}]}})",
       "/spec/volumes", R"([{"name":"v","configMap":{"name":"cm"}}])"},
      {"delete finalizer", R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}})",
       "/metadata/finalizers", R"(["a","c"])"},
      {"add finalizers", R"({"metadata":{"finalizers":["d","a"]}})", "/metadata/finalizers",
       R"(["d","a","b","c"])"},
      {"ownerReferences by uid", R"({"metadata":{"ownerReferences":[{"uid":"u2","name":"o2"}]}})",
       "/metadata/ownerReferences", R"([{"uid":"u2","name":"o2"},{"uid":"u1","name":"o1"}])"},
      {"tolerations are atomic", R"({"spec":{"tolerations":[{"key":"k2","operator":"Exists"}]}})",
       "/spec/tolerations", R"([{"key":"k2","operator":"Exists"}])"},
      {"replace map", R"({"metadata":{"labels":{"$patch":"replace","z":"1"}}})", "/metadata/labels",
       R"({"z":"1"})"},
      {"delete map", R"({"spec":{"securityContext":{"$patch":"delete"}}})", "/spec/securityContext",
       R"({})"},
      {"new field drops nulls and $patch maps",
       R"({"spec":{"affinity":{"a":null,"b":[{"$patch":"delete"},{"c":null}]}}})", "/spec/affinity",
       R"({"b":[{}]})"},
      {"directive left by replace is dropped",
       R"({"spec":{"$patch":"replace","$setElementOrder/containers":[{"name":"z"}],
                   "containers":[{"name":"z"}]}})",
       "/spec", R"({"containers":[{"name":"z"}]})"},
      {"null patch value for a missing key", R"({"spec":{"nodeName":null}})", "/spec/nodeName",
       "null"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ApplyStrategicMergePatch(Pod(), Json::parse(c.patch), "Pod");
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const Json::json_pointer ptr(c.path);
    const Json want = Json::parse(c.want);
    if (want.is_null()) {
      EXPECT_FALSE(got->contains(ptr)) << got->dump();
    } else {
      ASSERT_TRUE(got->contains(ptr)) << got->dump();
      EXPECT_EQ(got->at(ptr), want) << got->at(ptr).dump();
    }
  }
}

TEST(StrategicMergeTest, RolloutRestartOnStatefulSet) {
  const Json sts = Json::parse(R"({"kind":"StatefulSet","spec":{"replicas":2,"template":{
      "metadata":{"labels":{"app":"s"}},
      "spec":{"containers":[{"name":"c","image":"i"}]}}}})");
  // kubectl rollout restart (kubectl-compat 7.6).
  auto got = ApplyStrategicMergePatch(sts, Json::parse(R"({"spec":{"template":{"metadata":{
      "annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-01T00:00:00Z"}}}}})"),
                                      "StatefulSet");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  Json want = sts;
  want["spec"]["template"]["metadata"]["annotations"] = {
      {"kubectl.kubernetes.io/restartedAt", "2025-01-01T00:00:00Z"}};
  EXPECT_EQ(*got, want);
  // The template's containers merge by name through the StatefulSet's schema.
  auto env = ApplyStrategicMergePatch(sts, Json::parse(R"({"spec":{"template":{"spec":{
      "containers":[{"name":"c","env":[{"name":"E","value":"1"}]}]}}}})"),
                                      "StatefulSet");
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(env->at("/spec/template/spec/containers/0/image"_json_pointer), "i");
}

TEST(StrategicMergeTest, ServicePortsMergeByPort) {
  const Json svc =
      Json::parse(R"({"spec":{"ports":[{"port":80,"name":"a"},{"port":81,"name":"b"}]}})");
  auto got = ApplyStrategicMergePatch(
      svc, Json::parse(R"({"spec":{"ports":[{"port":81,"targetPort":8081}]}})"), "Service");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->at("/spec/ports"_json_pointer),
            Json::parse(R"([{"port":80,"name":"a"},{"port":81,"name":"b","targetPort":8081}])"));
  // Kinds without list metadata replace lists, like a merge patch.
  auto cm = ApplyStrategicMergePatch(Json::parse(R"({"data":{"a":"1"},"x":[1,2]})"),
                                     Json::parse(R"({"data":{"b":"2"},"x":[3]})"), "ConfigMap");
  ASSERT_TRUE(cm.ok());
  EXPECT_EQ(*cm, Json::parse(R"({"data":{"a":"1","b":"2"},"x":[3]})"));
}

struct ErrorCase {
  const char* name;
  const char* patch;
  int http_code;
  const char* message;
};

TEST(StrategicMergeTest, Errors) {
  const std::string panic = "This request caused apiserver to panic. Look in the logs for details.";
  const ErrorCase cases[] = {
      {"not an object", "[1]", 400,
       "json: cannot unmarshal array into Go value of type map[string]interface {}"},
      {"string", R"("x")", 400,
       "json: cannot unmarshal string into Go value of type map[string]interface {}"},
      {"bad setElementOrder key", R"({"spec":{"$setElementOrderX":[]}})", 400,
       "invalid patch format of setElementOrder list"},
      {"bad deleteFromPrimitiveList key", R"({"metadata":{"$deleteFromPrimitiveList":["a"]}})", 400,
       "invalid patch format of primitive list"},
      {"retainKeys not a list", R"({"spec":{"$retainKeys":"x"}})", 400,
       "invalid patch format of retainKeys"},
      {"missing merge key", R"({"spec":{"containers":[{"image":"x"}]}})", 500,
       "map: map[image:x] does not contain declared merge key: name"},
      {"setElementOrder not a list", R"({"spec":{"$setElementOrder/containers":{}}})", 500,
       "expected a []interface {}, but received a map[string]interface {}"},
      {"unknown map directive", R"({"spec":{"securityContext":{"$patch":"foo","a":1}}})", 500,
       "unknown patch type: foo in map: map[$patch:foo a:1]"},
      {"non-string map directive", R"({"spec":{"securityContext":{"$patch":1}}})", 500,
       "unknown patch type: %!s(int64=1) in map: map[$patch:1]"},
      {"merge directive in list", R"({"spec":{"containers":[{"name":"c","$patch":"merge"}]}})", 500,
       "merging lists cannot yet be specified in the patch"},
      {"mixed element types", R"({"metadata":{"finalizers":[1]}})", 500,
       "list element types are not identical: [[a b c] [1]]"},
      {"object merge key", R"({"spec":{"containers":[{"name":{"x":1}}]}})", 500, panic.c_str()},
      {"null list element", R"({"spec":{"containers":[null]}})", 500,
       "list element types are not identical: [[map[env:[map[name:A value:1] map[name:B value:1]] "
       "image:busybox:1 name:c ports:[map[containerPort:80 name:http]]] map[image:nginx name:d]] "
       "[<nil>]]"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ApplyStrategicMergePatch(Pod(), Json::parse(c.patch), "Pod");
    ASSERT_FALSE(got.ok()) << got->dump();
    EXPECT_EQ(got.status().http_code(), c.http_code);
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(StrategicMergeTest, ListOfListsIsGeneric422) {
  auto got = ApplyStrategicMergePatch(Json::parse(R"({"metadata":{"finalizers":[]}})"),
                                      Json::parse(R"({"metadata":{"finalizers":[["x"]]}})"), "Pod");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kInvalid);
  EXPECT_EQ(got.status().message(),
            "the server rejected our request due to an error in our request");
}

TEST(StrategicMergeTest, NullPatchChangesNothingAndCustomResourcesAreRefused) {
  EXPECT_EQ(*ApplyStrategicMergePatch(Pod(), Json(), "Pod"), Pod());
  api::ResourceInfo lws;
  lws.custom = true;
  EXPECT_FALSE(SupportsStrategicMerge(lws));
  EXPECT_TRUE(SupportsStrategicMerge(api::ResourceInfo{}));
}

Json Nested(int depth, const Json& leaf) {
  Json v = leaf;
  for (int i = 0; i < depth; ++i) v = Json{{"a", std::move(v)}};
  return v;
}

// Go decodes 10000 levels; the merge recurses that deep without exhausting the stack.
TEST(StrategicMergeTest, DeepDocuments) {
  auto got = ApplyStrategicMergePatch(Nested(9999, 1), Nested(9999, 2), "ConfigMap");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, Nested(9999, 2));
  auto deep = ApplyStrategicMergePatch(Json::object(), Nested(10000, Json::array()), "ConfigMap");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), Code::kBadRequest);
  EXPECT_EQ(deep.status().message(), "invalid character '[' exceeded max depth");
}

}  // namespace
}  // namespace lws::apiserver
