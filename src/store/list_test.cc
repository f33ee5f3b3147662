#include <gtest/gtest.h>

#include "store/store.h"
#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::Pods;

class ListTest : public testing::StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    for (const char* ns : {"b", "a"}) {
      for (const char* name : {"z", "m", "c"}) {
        Json pod = testing::Pod(name, ns, {{"app", std::string(name) == "m" ? "db" : "web"}});
        if (std::string(name) == "c") pod["spec"]["nodeName"] = "n1";
        MustCreate(Pods(), pod);
      }
    }
  }

  std::vector<std::string> Names(const ListOptions& options) {
    auto list = store_->List(Pods(), options);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::vector<std::string> out;
    if (!list.ok()) return out;
    for (const auto& item : list->items)
      out.push_back(item->name().namespace_ + "/" + item->name().name);
    return out;
  }

  static ListOptions Select(const std::string& labels, const std::string& fields = "",
                            const std::string& ns = "") {
    ListOptions options;
    options.namespace_ = ns;
    options.label_selector = *api::Selector::Parse(labels);
    options.field_selector = *api::FieldSelector::Parse(fields);
    return options;
  }
};

TEST_F(ListTest, SortedByNamespaceThenName) {
  EXPECT_EQ(Names({}), (std::vector<std::string>{"a/c", "a/m", "a/z", "b/c", "b/m", "b/z"}));
  auto list = *store_->List(Pods(), {});
  EXPECT_EQ(list.resource_version, 6u);
  EXPECT_TRUE(list.continue_token.empty());
  EXPECT_FALSE(list.remaining_item_count.has_value());
}

TEST_F(ListTest, Selectors) {
  struct Case {
    std::string labels, fields, ns;
    std::vector<std::string> want;
  };
  std::vector<Case> cases = {
      {"", "", "b", {"b/c", "b/m", "b/z"}},
      {"app=web", "", "", {"a/c", "a/z", "b/c", "b/z"}},
      {"app!=web", "", "a", {"a/m"}},
      {"app in (db)", "", "", {"a/m", "b/m"}},
      {"missing", "", "", {}},
      {"", "metadata.name=z", "", {"a/z", "b/z"}},
      {"", "metadata.namespace=a,metadata.name!=z", "", {"a/c", "a/m"}},
      {"", "spec.nodeName=n1", "", {"a/c", "b/c"}},
      {"", "spec.nodeName=", "b", {"b/m", "b/z"}},
      {"app=web", "status.phase!=Running", "a", {"a/c", "a/z"}},
      {"", "spec.hostNetwork=false", "a", {"a/c", "a/m", "a/z"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Names(Select(c.labels, c.fields, c.ns)), c.want) << c.labels << " | " << c.fields;
  }
}

TEST_F(ListTest, UnsupportedFieldLabel) {
  auto list = store_->List(Pods(), Select("", "spec.bogus=x"));
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), Code::kBadRequest);
  EXPECT_EQ(list.status().message(), "field label not supported: spec.bogus");
  EXPECT_EQ(store_->List(testing::ConfigMaps(), Select("", "spec.nodeName=x")).status().code(),
            Code::kBadRequest);
}

TEST_F(ListTest, PagesWithRemainingCount) {
  ListOptions options;
  options.limit = 4;
  auto first = *store_->List(Pods(), options);
  ASSERT_EQ(first.items.size(), 4u);
  EXPECT_EQ(first.remaining_item_count, 2);
  ASSERT_FALSE(first.continue_token.empty());
  options.continue_token = first.continue_token;
  auto second = *store_->List(Pods(), options);
  EXPECT_EQ(second.items.size(), 2u);
  EXPECT_TRUE(second.continue_token.empty());
  EXPECT_EQ(second.resource_version, first.resource_version);

  ListOptions selected = Select("app=web");
  selected.limit = 1;
  auto page = *store_->List(Pods(), selected);
  EXPECT_FALSE(page.remaining_item_count.has_value()) << "not counted with selectors";
  std::vector<std::string> all;
  while (true) {
    for (const auto& item : page.items)
      all.push_back(item->name().namespace_ + "/" + item->name().name);
    if (page.continue_token.empty()) break;
    selected.continue_token = page.continue_token;
    page = *store_->List(Pods(), selected);
  }
  EXPECT_EQ(all, (std::vector<std::string>{"a/c", "a/z", "b/c", "b/z"}));
}

TEST_F(ListTest, PaginationReadsTheFirstPagesSnapshotDespiteConcurrentWrites) {
  ListOptions options;
  options.limit = 2;
  auto first = *store_->List(Pods(), options);
  ASSERT_EQ(first.items.size(), 2u);  // a/c, a/m
  // Writes between pages: add before and after the cursor, delete and modify later items.
  MustCreate(Pods(), testing::Pod("d", "a"));
  MustCreate(Pods(), testing::Pod("a", "b"));
  ASSERT_TRUE(store_->Delete(Pods(), "b", "m").ok());
  Json z = (*store_->Get(Pods(), "b", "z"))->document();
  z["metadata"]["labels"]["app"] = "changed";
  ObjectPtr old_z = *store_->Get(Pods(), "b", "z");
  ASSERT_TRUE(store_->Update(Pods(), z).ok());

  std::vector<ObjectPtr> rest;
  options.continue_token = first.continue_token;
  while (!options.continue_token.empty()) {
    auto page = *store_->List(Pods(), options);
    EXPECT_EQ(page.resource_version, first.resource_version);
    rest.insert(rest.end(), page.items.begin(), page.items.end());
    options.continue_token = page.continue_token;
  }
  std::vector<std::string> names;
  for (const auto& o : rest) names.push_back(o->name().namespace_ + "/" + o->name().name);
  EXPECT_EQ(names, (std::vector<std::string>{"a/z", "b/c", "b/m", "b/z"}));
  EXPECT_EQ(rest.back(), old_z) << "the snapshot's version, bytes shared";
  // A fresh list sees the current state.
  EXPECT_EQ(Names({}), (std::vector<std::string>{"a/c", "a/d", "a/m", "a/z", "b/a", "b/c", "b/z"}));
}

TEST_F(ListTest, ExpiredAndMalformedContinueTokens) {
  StoreOptions small;
  small.history_size = 2;
  store_ = OpenStore(small);
  for (int i = 0; i < 4; ++i) MustCreate(Pods(), testing::Pod("p" + std::to_string(i)));
  ListOptions options;
  options.limit = 1;
  auto first = *store_->List(Pods(), options);
  options.continue_token = first.continue_token;
  for (int i = 0; i < 3; ++i) MustCreate(Pods(), testing::Pod("q" + std::to_string(i)));
  auto expired = store_->List(Pods(), options);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.status().code(), Code::kGone);
  EXPECT_EQ(expired.status().http_code(), 410);

  for (const char* bad : {"!!!", "e30", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MH0"}) {
    options.continue_token = bad;
    auto list = store_->List(Pods(), options);
    ASSERT_FALSE(list.ok()) << bad;
    EXPECT_EQ(list.status().code(), Code::kBadRequest) << bad;
    EXPECT_TRUE(list.status().message().starts_with("invalid continue token: ")) << bad;
  }
}

TEST_F(ListTest, ResultsShareTheStoredBytes) {
  auto list = *store_->List(Pods(), {});
  ObjectPtr got = *store_->Get(Pods(), "a", "c");
  EXPECT_EQ(list.items.front(), got);
  EXPECT_EQ(&list.items.front()->bytes(), &got->bytes());
}

}  // namespace
}  // namespace lws::store
