// File: controllers/lws/lws_events_test.cc
#include "controllers/lws/lws_events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lws::controllers {
namespace {

struct NoteCase {
  std::string name;
  std::string got;
  std::string want;
};

TEST(LwsEventsTest, NotesMatchUpstreamWording) {
  const std::vector<NoteCase> cases = {
      {"new revision", NewLwsRevisionNote("abc"),
       "Creating revision with key abc for a newly created LeaderWorkerSet"},
      {"missing revision", MissingRevisionNote("legacy"),
       "Creating missing revision with key legacy for existing LeaderWorkerSet"},
      {"updated revision", UpdatedRevisionNote("xyz"),
       "Creating revision with key xyz for updated LWS"},
      {"created leader sts", CreatedLeaderStatefulSetNote("test-sample"),
       "Created leader statefulset test-sample"},
      {"failed create", FailedCreateLeaderNote("test-sample", "boom"),
       "Failed to create leader statefulset test-sample: boom"},
      {"failed update", FailedUpdateLeaderNote("test-sample", "field is immutable"),
       "Failed to update leader statefulset test-sample: field is immutable"},
      {"one group updating", GroupsUpdatingNote(2, 3), "Updating replica 2"},
      {"range updating", GroupsUpdatingNote(1, 4), "Updating replicas 1 to 3 (inclusive)"},
      {"Q8 backwards range", GroupsUpdatingNote(4, 0), "Updating replicas 4 to -1 (inclusive)"},
      {"partition zero from one", GroupsUpdatingNote(0, 1), "Updating replica 0"},
      {"service", FailedCreateServiceNote("quota exceeded"),
       "Failed to create headless service for error: quota exceeded"},
      {"one surge", DeletingSurgeNote("test-sample", 5, 6), "deleting surge replica test-sample-5"},
      {"surge range", DeletingSurgeNote("test-sample", 4, 6),
       "deleting surge replicas from test-sample-4 to test-sample-5"},
      {"condition", ConditionEventNote("All replicas are ready", 4, 4),
       "All replicas are ready, with 4 groups ready of total 4 groups"},
      {"condition partial", ConditionEventNote("Replicas are progressing", 1, 3),
       "Replicas are progressing, with 1 groups ready of total 3 groups"},
  };
  for (const auto& c : cases) EXPECT_EQ(c.got, c.want) << c.name;
}

TEST(LwsEventsTest, ReasonsAreUpstreamConstants) {
  EXPECT_EQ(kReasonCreatingRevision, "CreatingRevision");
  EXPECT_EQ(kReasonGroupsProgressing, "GroupsProgressing");
  EXPECT_EQ(kReasonGroupsUpdating, "GroupsUpdating");
  EXPECT_EQ(kReasonFailedCreate, "FailedCreate");
  EXPECT_EQ(kReasonFailedUpdate, "FailedUpdate");
}

}  // namespace
}  // namespace lws::controllers
