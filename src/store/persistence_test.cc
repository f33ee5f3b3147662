#include "store/persistence.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>

#include "base/deferred_ack.h"
#include "store/store.h"
#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::ConfigMaps;
using testing::Pods;
using testing::Rv;

class PersistenceTest : public testing::StoreTest {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lws-store-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    store_ = OpenDurable();
    ASSERT_NE(store_, nullptr);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::unique_ptr<Store> OpenDurable() {
    StoreOptions options;
    options.data_dir = dir_.string();
    return OpenStore(options);
  }

  Result<std::unique_ptr<Store>> TryOpen() {
    StoreOptions options;
    options.clock = &clock_;
    options.data_dir = dir_.string();
    return Store::Open(options);
  }

  std::filesystem::path dir_;
};

TEST(StorageKeyTest, RoundTrip) {
  std::string gr;
  ObjectName name;
  ASSERT_TRUE(ParseStorageKey(StorageKey("statefulsets.apps", {"ns", "s1"}), &gr, &name));
  EXPECT_EQ(gr, "statefulsets.apps");
  EXPECT_EQ(name, (ObjectName{"ns", "s1"}));
  ASSERT_TRUE(ParseStorageKey(StorageKey("nodes", {"", "n1"}), &gr, &name));
  EXPECT_EQ(name, (ObjectName{"", "n1"}));
  EXPECT_FALSE(ParseStorageKey("pods/a", &gr, &name));
  EXPECT_FALSE(ParseStorageKey("pods/a/b/c", &gr, &name));
  EXPECT_FALSE(ParseStorageKey("pods/a/", &gr, &name));
}

TEST_F(PersistenceTest, EverythingComesBackAfterReopenIncludingTheCounter) {
  ObjectPtr p1 = MustCreate(Pods(), testing::Pod("p1", "default", {{"app", "web"}}));
  MustCreate(ConfigMaps(), testing::ConfigMap("c1"));
  MustCreate(testing::Nodes(), {{"metadata", {{"name", "n1"}}}});
  Json update = p1->document();
  update["spec"]["nodeName"] = "n1";
  ObjectPtr p1_updated = *store_->Update(Pods(), update);
  ASSERT_TRUE(
      store_->Delete(ConfigMaps(), "default", "c1").ok());  // rv 5: deletes move the counter
  store_.reset();

  store_ = OpenDurable();
  ASSERT_NE(store_, nullptr);
  EXPECT_EQ(store_->CurrentResourceVersion(), 5u);
  // The loaded objects' newest versions (the deletion left nothing to load).
  EXPECT_EQ(store_->LastWrite(Pods()), 4u);
  EXPECT_EQ(store_->LastWrite(testing::Nodes()), 3u);
  EXPECT_EQ(store_->LastWrite(ConfigMaps()), 0u);
  ObjectPtr back = *store_->Get(Pods(), "default", "p1");
  EXPECT_EQ(back->document(), p1_updated->document());
  EXPECT_EQ(back->bytes(), p1_updated->bytes());
  EXPECT_EQ(back->labels(), p1_updated->labels());
  EXPECT_TRUE(store_->Get(testing::Nodes(), "", "n1").ok());
  EXPECT_FALSE(store_->Get(ConfigMaps(), "default", "c1").ok());
  EXPECT_EQ(Rv(MustCreate(Pods(), testing::Pod("p2"))), "6");
  // The restarted store cannot replay events from before the restart.
  EXPECT_EQ(store_->Watch(Pods(), testing::WatchFrom(4)).status().code(), Code::kGone);
  EXPECT_TRUE(store_->Watch(Pods(), testing::WatchFrom(5)).ok());
  // Fresh uids after a restart even with the same seed.
  EXPECT_NE(MetaString((*store_->Get(Pods(), "default", "p2"))->document(), "uid"), p1->uid());
}

TEST_F(PersistenceTest, SecondOpenOfTheSameDirectoryIsRefused) {
  auto second = TryOpen();
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("locked"), std::string::npos)
      << second.status().message();
}

TEST_F(PersistenceTest, CorruptDatabaseIsAClearError) {
  store_.reset();
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  std::ofstream(dir_ / "store.db") << std::string(8192, 'x');
  auto opened = TryOpen();
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("store.db"), std::string::npos);
  EXPECT_NE(opened.status().message().find("not a database"), std::string::npos)
      << opened.status().message();
}

TEST_F(PersistenceTest, CorruptRowIsAClearError) {
  store_.reset();
  {
    auto db = Database::Open(dir_.string());
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Put("pods/default/p1", 1, "{not json").ok());
  }
  auto opened = TryOpen();
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().message(),
            "store: " + (dir_ / "store.db").string() +
                ": object \"pods/default/p1\" is not a valid stored object");
}

TEST_F(PersistenceTest, UnusableDataDirectoryIsAClearError) {
  store_.reset();
  std::filesystem::remove_all(dir_);
  std::ofstream(dir_.string()) << "a file, not a directory";
  auto opened = TryOpen();
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find(dir_.string()), std::string::npos);
  std::filesystem::remove(dir_);
}

// A durable write wakes its watchers once it is flushed: at once for a caller that waits itself
// (in process: lws up's simulated cluster), and only once the held answer is released under an
// API handler's DeferredAck. (The first version of the deferral moved the watchers out before
// asking whether a scope was open, so in-process writes woke nobody.)
TEST_F(PersistenceTest, ADurableWriteWakesItsWatchersWithAndWithoutADeferredAck) {
  std::atomic<int> wakes = 0;
  WatchOptions options;
  options.notifier = [&] { ++wakes; };
  auto watch = *store_->Watch(Pods(), options);
  MustCreate(Pods(), testing::Pod("p1"));
  EXPECT_EQ(wakes.load(), 1) << "an in-process durable write woke no watcher";
  Drain(watch);

  DeferredAck::Waiter waiter;
  {
    DeferredAck scope;
    MustCreate(Pods(), testing::Pod("p2"));
    waiter = scope.Take();
  }
  ASSERT_TRUE(waiter) << "under a DeferredAck the store did not defer its acknowledgement";
  EXPECT_EQ(wakes.load(), 1) << "watchers were woken before the write was flushed";
  std::promise<Status> released;
  waiter([&](Status s) { released.set_value(std::move(s)); });
  EXPECT_TRUE(released.get_future().get().ok());
  EXPECT_EQ(wakes.load(), 2);
}

// The child acknowledges each write through a pipe; the parent kills it at a random moment with
// SIGKILL, reopens the directory and checks that every acknowledged write survived.
TEST_F(PersistenceTest, AcknowledgedWritesSurviveSigkill) {
  store_.reset();
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    ManualClock clock;
    StoreOptions options;
    options.clock = &clock;
    options.data_dir = dir_.string();
    auto opened = Store::Open(options);
    if (!opened.ok()) ::_exit(2);
    for (int i = 0;; ++i) {
      auto created = (*opened)->Create(Pods(), testing::Pod("p" + std::to_string(i)));
      if (!created.ok()) ::_exit(3);
      std::uint64_t rv = (*created)->resource_version();
      if (::write(fds[1], &rv, sizeof rv) != sizeof rv) ::_exit(4);
    }
  }
  ::close(fds[1]);
  std::mt19937 random(std::random_device{}());
  const std::size_t kill_after = 50 + random() % 400;
  std::vector<std::uint64_t> acknowledged;
  std::uint64_t rv = 0;
  while (acknowledged.size() < kill_after && ::read(fds[0], &rv, sizeof rv) == sizeof rv) {
    acknowledged.push_back(rv);
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  // Acknowledgements already in the pipe when the child died are acknowledged writes too.
  while (::read(fds[0], &rv, sizeof rv) == sizeof rv) acknowledged.push_back(rv);
  ::close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited early with " << WEXITSTATUS(status);
  ASSERT_GE(acknowledged.size(), kill_after);

  store_ = OpenDurable();
  ASSERT_NE(store_, nullptr);
  EXPECT_GE(store_->CurrentResourceVersion(), acknowledged.back());
  for (std::size_t i = 0; i < acknowledged.size(); ++i) {
    auto pod = store_->Get(Pods(), "default", "p" + std::to_string(i));
    ASSERT_TRUE(pod.ok()) << "acknowledged write " << i << " lost";
    EXPECT_EQ((*pod)->resource_version(), acknowledged[i]);
  }
}

}  // namespace
}  // namespace lws::store
