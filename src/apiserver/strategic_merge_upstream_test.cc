// Runs upstream's strategicpatch test cases (testdata/patch/strategic_merge_upstream.yaml) with
// upstream's MergeItem test schema.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "api/yaml.h"
#include "apiserver/strategic_merge.h"
#include "testdata/testdata_dir.h"

namespace lws::apiserver {
namespace {

FieldPatchMeta Meta(PatchStrategy strategy, std::string key, const PatchSchema* type,
                    bool retain_keys = false) {
  FieldPatchMeta meta;
  meta.strategy = strategy;
  meta.merge_key = std::move(key);
  meta.type = type;
  meta.retain_keys = retain_keys;
  return meta;
}

// upstream's MergeItem and RetainKeysMergeItem (patch_test.go).
struct MergeItemSchema {
  PatchSchema item, retain_keys_item;
  MergeItemSchema() {
    item.Set("mergingList", Meta(PatchStrategy::kMerge, "name", &item))
        .Set("mergeItemPtr", Meta(PatchStrategy::kMerge, "name", &item))
        .Set("mergingIntList", Meta(PatchStrategy::kMerge, "", nullptr))
        .Set("replacingItem", Meta(PatchStrategy::kReplace, "", nullptr))
        .Set("retainKeysMap", Meta(PatchStrategy::kNone, "", &retain_keys_item, true))
        .Set("retainKeysMergingList", Meta(PatchStrategy::kMerge, "name", &item, true));
    retain_keys_item.Set("mergingIntList", Meta(PatchStrategy::kMerge, "", nullptr))
        .Set("mergingList", Meta(PatchStrategy::kMerge, "name", &item));
  }
};

Json LoadCases() {
  std::ifstream in(TestdataDir() + "/patch/strategic_merge_upstream.yaml");
  std::stringstream text;
  text << in.rdbuf();
  auto cases = api::LoadYaml(text.str());
  EXPECT_TRUE(cases.ok()) << cases.status().ToString();
  return cases.ok() ? *cases : Json::array();
}

TEST(StrategicMergeUpstreamTest, PatchTestCases) {
  const MergeItemSchema schema;
  const Json cases = LoadCases();
  ASSERT_GE(cases.size(), 50u);
  for (const Json& c : cases) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto got = ApplyStrategicMergePatchWithSchema(c.at("original"), c.at("patch"), schema.item);
    if (c.contains("error")) {
      ASSERT_FALSE(got.ok()) << got->dump();
      EXPECT_EQ(got.status().http_code(), c.at("code").get<int>());
      EXPECT_EQ(got.status().message(), c.at("error").get<std::string>());
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, c.at("want")) << "got  " << got->dump() << "\nwant " << c.at("want").dump();
  }
}

}  // namespace
}  // namespace lws::apiserver
