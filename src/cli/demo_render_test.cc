#include "cli/demo_render.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

namespace lws::cli {
namespace {

using std::chrono::milliseconds;

// A rollout of `replicas` groups with `surge` surge groups, in the middle of the way: the
// groups below `partition` old and ready, one of them terminating, the others new, the first
// new one starting; the surge groups starting.
RolloutView MidRollout(int replicas, int surge, int partition) {
  RolloutView view;
  view.replicas = replicas;
  view.max_unavailable = 1;
  view.max_surge = surge;
  view.partition = 0;
  view.generation = 2;
  view.observed_generation = 2;
  view.ready_replicas = replicas - 1;
  view.updated_replicas = replicas - partition + surge;
  view.true_conditions = {"Progressing", "UpdateInProgress"};
  view.sts_found = true;
  view.sts_replicas = replicas + surge;
  view.sts_partition = partition;
  view.revision = "hash-new";
  for (int i = 0; i < replicas + surge; ++i) {
    GroupView group;
    group.index = i;
    group.surge = i >= replicas;
    group.revision = i < partition ? GroupRevision::kOld : GroupRevision::kNew;
    group.state = i == partition - 1              ? GroupState::kTerminating
                  : i == partition || group.surge ? GroupState::kStarting
                                                  : GroupState::kReady;
    view.groups.push_back(group);
  }
  return view;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every line of `text` fits `width` columns (the view is ASCII: a byte is a column).
void ExpectFits(const std::string& text, int width, const std::string& what) {
  for (const std::string& line : Lines(text)) {
    EXPECT_LE(static_cast<int>(line.size()), width) << what << ": " << line;
  }
}

TEST(DemoRender, TheDemosRolloutIsOneRowPerViewWithinEightyColumns) {
  RolloutView view = MidRollout(4, 1, 2);
  EXPECT_EQ(TableHeader(view, 80),
            "   TIME  PARTITION  READY  UPDATED  GROUPS          CONDITIONS\n");
  EXPECT_EQ(TableRow(view, milliseconds(12'400), 80),
            " +12.4s  2          3/4    3        o+ ox n~ n+ s~  Progressing UpdateInProgress\n");
  EXPECT_EQ(TableRow(view, milliseconds(12'400), 80).size(), 81u);  // 80 columns and the newline
  EXPECT_TRUE(GroupGrid(view, 80).empty());

  // The glyph column keeps room for the surge group when there is none: rows stay aligned.
  view.groups.pop_back();
  view.true_conditions = {"Available"};
  EXPECT_EQ(TableRow(view, milliseconds(500), 80),
            "  +0.5s  2          3/4    3        o+ ox n~ n+     Available\n");
}

TEST(DemoRender, NoLeaderSetAndAnUnobservedGeneration) {
  RolloutView view;
  view.replicas = 4;
  view.max_surge = 1;
  view.generation = 1;
  view.groups.resize(4);
  EXPECT_EQ(TableRow(view, milliseconds(0), 80),
            "  +0.0s  -          0/4    0        -- -- -- --     - (gen 1 unobserved)\n");
  view = MidRollout(4, 1, 4);
  view.generation = 3;
  // Too long for the row: the conditions continue below it.
  EXPECT_EQ(TableRow(view, milliseconds(0), 80),
            "  +0.0s  4          3/4    1        o+ o+ o+ ox s~\n"
            "         Progressing UpdateInProgress (gen 3 unobserved)\n");
}

TEST(DemoRender, EveryLineFitsEightyColumnsForFourSixteenAndSixtyFourGroups) {
  for (int replicas : {4, 16, 64}) {
    for (int surge : {1, replicas / 4}) {
      for (int partition : {replicas, replicas / 2, 1}) {
        RolloutView view = MidRollout(replicas, surge, partition);
        view.generation = 10'000;  // the longest conditions: unobserved as well
        std::string what =
            fmt::format("{} groups, {} surge, partition {}", replicas, surge, partition);
        ExpectFits(TableHeader(view, 80), 80, what);
        ExpectFits(TableRow(view, std::chrono::minutes(9) + milliseconds(59'900), 80), 80, what);
        for (const std::string& line : GroupGrid(view, 80)) EXPECT_LE(line.size(), 80u) << what;
        RolloutStats stats(Time{});
        stats.Observe(view, Time{} + std::chrono::minutes(10));
        ExpectFits(stats.Summary(view), 80, what);
      }
    }
  }
  ExpectFits(GroupLegend(), 80, "legend");
}

TEST(DemoRender, ManyGroupsAreCountedInTheRowAndDrawnInTheGrid) {
  RolloutView view = MidRollout(64, 1, 40);
  EXPECT_EQ(TableHeader(view, 80), "   TIME  PARTITION  READY  UPDATED  GROUPS  CONDITIONS\n");
  EXPECT_EQ(TableRow(view, milliseconds(3'200), 80),
            "  +3.2s  40         63/64  25       39o+ 1ox 23n+ 1n~ 1s~\n"
            "         Progressing UpdateInProgress\n");
  std::vector<std::string> grid = GroupGrid(view, 80);
  ASSERT_EQ(grid.size(), 3u);  // 24 glyphs a line
  EXPECT_EQ(grid[0],
            "      0  o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+ o+");
  EXPECT_EQ(grid[1].substr(0, 33), "     24  o+ o+ o+ o+ o+ o+ o+ o+ ");
  EXPECT_EQ(grid[1].substr(9 + 15 * 3, 6), "ox n~ ");
  EXPECT_EQ(grid[2], "     48  n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ n+ s~");

  // A wider terminal draws the glyphs of 16 groups in the row itself.
  RolloutView sixteen = MidRollout(16, 1, 8);
  EXPECT_NE(TableRow(sixteen, milliseconds(0), 80).find("7o+ 1ox"), std::string::npos);
  EXPECT_NE(TableRow(sixteen, milliseconds(0), 120).find("o+ o+ o+ o+ o+ o+ o+ ox n~ n+"),
            std::string::npos);
  EXPECT_TRUE(GroupGrid(sixteen, 120).empty());

  // Too many groups for a grid a terminal should redraw: the counts alone.
  EXPECT_TRUE(GroupGrid(MidRollout(1000, 1, 500), 80).empty());
}

TEST(DemoRender, ANarrowTerminalCutsTheLinesItCannotHold) {
  for (int replicas : {4, 64}) {
    RolloutView view = MidRollout(replicas, 1, 2);
    ExpectFits(TableHeader(view, 40), 40, "header");
    ExpectFits(TableRow(view, milliseconds(1'000), 40), 40, "row");
    for (const std::string& line : GroupGrid(view, 40)) EXPECT_LE(line.size(), 40u);
  }
  // The counts are cut; the grid on a terminal still draws every group.
  EXPECT_EQ(TableRow(MidRollout(4, 1, 2), milliseconds(0), 40).substr(0, 41),
            "  +0.0s  2          3/4    3        1...\n");
  EXPECT_EQ(GroupGrid(MidRollout(4, 1, 2), 40),
            (std::vector<std::string>{"      0  o+ ox n~ n+ s~"}));
}

// The views of a short rollout, each shown at several polls.
struct Shown {
  RolloutView view;
  int at_ms;
};

std::vector<Shown> ShortRollout() {
  RolloutView before = MidRollout(4, 1, 4);
  RolloutView during = MidRollout(4, 1, 2);
  return {{before, 0}, {before, 100}, {during, 200}, {during, 300}, {during, 400}};
}

TEST(LiveView, NotOnATerminalItIsALogOfChanges) {
  std::ostringstream out;
  LiveView live(out, ViewStyle{false, 80});
  live.StartTable();
  for (const Shown& shown : ShortRollout()) live.Show(shown.view, milliseconds(shown.at_ms));
  // Each row stamped with the time of its change; no terminal sequence.
  std::string header = TableHeader(MidRollout(4, 1, 4), 80);
  EXPECT_EQ(out.str(), header + TableRow(MidRollout(4, 1, 4), milliseconds(0), 80) +
                           TableRow(MidRollout(4, 1, 2), milliseconds(200), 80));
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);

  // A new phase is a new table, whose first row is printed even if the view did not change.
  live.StartTable();
  live.Show(MidRollout(4, 1, 2), milliseconds(0));
  EXPECT_EQ(Lines(out.str()).size(), 5u);
  EXPECT_EQ(Lines(out.str())[3], Lines(header)[0]);
}

TEST(LiveView, OnATerminalItRedrawsInPlace) {
  std::ostringstream out;
  LiveView live(out, ViewStyle{true, 80});
  live.StartTable();
  RolloutView before = MidRollout(4, 1, 4);
  live.Show(before, milliseconds(0));
  std::string expected = TableHeader(before, 80) + TableRow(before, milliseconds(0), 80);
  EXPECT_EQ(out.str(), expected);
  live.Show(before, milliseconds(0));  // nothing changed, not even the time
  EXPECT_EQ(out.str(), expected);
  // The time ticks: back up one line, erase, draw the row again.
  live.Show(before, milliseconds(100));
  expected += "\r\x1b[1A\x1b[J" + TableRow(before, milliseconds(100), 80);
  EXPECT_EQ(out.str(), expected);

  // A frame of several lines (a row whose conditions continue, and the grid) is backed over whole.
  RolloutView many = MidRollout(64, 1, 40);
  live.Show(many, milliseconds(200));
  std::string frame = TableRow(many, milliseconds(200), 80);
  for (const std::string& line : GroupGrid(many, 80)) frame += line + "\n";
  expected += "\r\x1b[1A\x1b[J" + frame;
  EXPECT_EQ(out.str(), expected);
  live.Show(MidRollout(64, 1, 39), milliseconds(300));
  EXPECT_EQ(out.str().substr(expected.size(), 10), "\r\x1b[5A\x1b[J  ");
  expected = out.str();

  // After StartTable the last frame stays: the new header goes below it, no cursor moves back.
  live.StartTable();
  live.Show(before, milliseconds(0));
  EXPECT_EQ(out.str().substr(expected.size()),
            TableHeader(before, 80) + TableRow(before, milliseconds(0), 80));
}

}  // namespace
}  // namespace lws::cli
