// The progress deadline's clock (progress_deadline.h): progress restarts it, completion forgets
// it, and the reconcile is asked to look again when the deadline would pass.
#include "controllers/lws/progress_deadline.h"

#include <gtest/gtest.h>

namespace lws::controllers {
namespace {

using namespace std::chrono_literals;

const Time kT0 = *ParseRfc3339("2026-01-01T00:00:00Z");

ProgressDeadlineInputs At(Time now, std::optional<ProgressMark> mark) {
  return ProgressDeadlineInputs{10min, std::move(mark), now, nullptr};
}

TEST(ProgressDeadlineTest, TheClockRunsFromTheLastChange) {
  ProgressCheck first = CheckProgress(At(kT0, std::nullopt), "a", false);
  EXPECT_EQ(first.mark, (ProgressMark{"a", kT0}));
  EXPECT_EQ(first.recheck_after, Duration(10min));
  EXPECT_FALSE(first.exceeded);

  ProgressCheck later = CheckProgress(At(kT0 + 4min, first.mark), "a", false);
  EXPECT_EQ(later.mark, first.mark);
  EXPECT_EQ(later.recheck_after, Duration(6min));

  ProgressCheck moved = CheckProgress(At(kT0 + 9min, first.mark), "b", false);
  EXPECT_EQ(moved.mark, (ProgressMark{"b", kT0 + 9min}));
  EXPECT_FALSE(moved.exceeded);

  ProgressCheck stalled = CheckProgress(At(kT0 + 19min, moved.mark), "b", false);
  EXPECT_TRUE(stalled.exceeded);
  EXPECT_FALSE(stalled.recheck_after.has_value());
  EXPECT_EQ(stalled.mark, moved.mark);
}

TEST(ProgressDeadlineTest, CompletionForgetsTheClock) {
  ProgressCheck done = CheckProgress(At(kT0 + 1h, ProgressMark{"a", kT0}), "a", true);
  EXPECT_FALSE(done.mark.has_value());
  EXPECT_FALSE(done.exceeded);
  EXPECT_FALSE(done.recheck_after.has_value());
}

}  // namespace
}  // namespace lws::controllers
