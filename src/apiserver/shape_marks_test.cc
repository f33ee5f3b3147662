// Tests of the shape-check marks of a served snapshot (shape_marks.h).
#include "apiserver/shape_marks.h"

#include <gtest/gtest.h>

#include <vector>

namespace lws::apiserver {
namespace {

store::ObjectPtr Version(const std::string& name, std::uint64_t rv) {
  return store::MakeStoredObject({{"metadata", {{"name", name}, {"namespace", "default"}}}}, rv);
}

TEST(ShapeMarks, OnlyAMarkedVersionReadsMarked) {
  ShapeMarks marks;
  store::ObjectPtr marked = Version("a", 1);
  store::ObjectPtr other = Version("a", 2);
  EXPECT_FALSE(marks.Marked(marked));
  marks.Mark(marked);
  EXPECT_TRUE(marks.Marked(marked));
  EXPECT_FALSE(marks.Marked(other)) << "a later version of the same object is not marked";
  EXPECT_FALSE(marks.Marked(nullptr));
  marks.Mark(nullptr);  // nothing to mark: no crash, no entry
}

TEST(ShapeMarks, MarksOfFreedVersionsAreDroppedAndDoNotCountForNewOnes) {
  ShapeMarks marks;
  store::ObjectPtr kept = Version("kept", 1);
  marks.Mark(kept);
  // Many versions marked and freed: the table sweeps them as it grows, and a version allocated
  // where a freed marked one was reads as unmarked.
  for (std::uint64_t rv = 2; rv < 5000; ++rv) {
    store::ObjectPtr transient = Version("t", rv);
    EXPECT_FALSE(marks.Marked(transient)) << "rv " << rv;
    marks.Mark(transient);
    EXPECT_TRUE(marks.Marked(transient));
  }
  EXPECT_TRUE(marks.Marked(kept)) << "a live version keeps its mark through the sweeps";
}

TEST(ShapeMarks, TwoSnapshotsKeepTheirOwnMarks) {
  // A CRD change makes a new snapshot: its table starts empty, so every version is checked
  // again under the new list types.
  ShapeMarks before, after;
  store::ObjectPtr version = Version("a", 1);
  before.Mark(version);
  EXPECT_TRUE(before.Marked(version));
  EXPECT_FALSE(after.Marked(version));
}

}  // namespace
}  // namespace lws::apiserver
