#include "cli/demo_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace lws::cli {

namespace {

// The time column ("+12.4s", right-aligned so that the seconds line up) and the gap
// that follows it; continuation and grid lines are indented by as much.
constexpr int kTimeWidth = 7;
constexpr int kIndent = kTimeWidth + 2;
constexpr int kGap = 2;
constexpr int kGlyphWidth = 2;
// A grid taller than this would push the header off a small terminal at every redraw.
constexpr int kGridLinesMax = 16;

constexpr char kRevisionGlyphs[] = "o?ns-";  // the order in which counts list the glyphs
constexpr char kStateGlyphs[] = "+~x-";

char StateGlyph(GroupState state) {
  switch (state) {
    case GroupState::kReady:
      return '+';
    case GroupState::kStarting:
      return '~';
    case GroupState::kTerminating:
      return 'x';
    case GroupState::kMissing:
      break;
  }
  return '-';
}

char RevisionGlyph(const GroupView& group) {
  if (group.surge) return 's';
  if (group.state == GroupState::kMissing) return '-';
  if (group.revision == GroupRevision::kNew) return 'n';
  if (group.revision == GroupRevision::kOld) return 'o';
  return '?';
}

int Digits(std::int64_t n) { return static_cast<int>(fmt::formatted_size("{}", n)); }

// The widths of the columns between TIME and CONDITIONS, for the views of one table.
struct Columns {
  int ready = 5;   // "READY", or "128/128"
  int groups = 6;  // "GROUPS", or the glyphs of replicas + maxSurge groups
  bool glyphs = true;
};

int GlyphsWidth(std::size_t count) {
  return count == 0 ? 0 : static_cast<int>(count) * (kGlyphWidth + 1) - 1;
}

// What a row takes before its conditions: the time, PARTITION, READY, UPDATED and GROUPS.
int RowWidthBeforeConditions(const Columns& columns) {
  return kIndent + 9 + kGap + columns.ready + kGap + 7 + kGap + columns.groups + kGap;
}

// Glyphs when those of every group the rollout may have (replicas + maxSurge) fit beside the
// other columns: the choice holds for a whole table, so that rows stay aligned.
Columns ColumnsFor(const RolloutView& view, int width) {
  Columns columns;
  columns.ready = std::max(5, 2 * Digits(view.replicas) + 1);
  std::size_t count = std::max<std::size_t>(view.replicas + view.max_surge, view.groups.size());
  columns.groups = std::max(6, GlyphsWidth(count));
  columns.glyphs = RowWidthBeforeConditions(columns) - kGap <= width;
  if (!columns.glyphs) columns.groups = 6;
  return columns;
}

std::string Glyphs(const std::vector<GroupView>& groups, std::size_t from, std::size_t to) {
  std::string text;
  for (std::size_t i = from; i < to && i < groups.size(); ++i) {
    if (!text.empty()) text += ' ';
    text += GroupGlyph(groups[i]);
  }
  return text;
}

// "40o+ 1ox 22n+ 1s~": how many groups show each glyph, old before new before surge.
std::string GlyphCounts(const RolloutView& view) {
  std::map<std::string, int> counts;
  for (const GroupView& group : view.groups) ++counts[GroupGlyph(group)];
  std::string text;
  for (const char* revision = kRevisionGlyphs; *revision != '\0'; ++revision) {
    for (const char* state = kStateGlyphs; *state != '\0'; ++state) {
      auto it = counts.find(std::string{*revision, *state});
      if (it == counts.end()) continue;
      text += fmt::format("{}{}{}", text.empty() ? "" : " ", it->second, it->first);
    }
  }
  return text.empty() ? "-" : text;
}

// The True conditions; until the controller has seen the latest spec, the status describes
// the previous one, and the row says so.
std::string Conditions(const RolloutView& view) {
  std::string text =
      view.true_conditions.empty() ? "-" : fmt::format("{}", fmt::join(view.true_conditions, " "));
  if (view.observed_generation < view.generation) {
    text += fmt::format(" (gen {} unobserved)", view.generation);
  }
  return text;
}

// `text` cut to `width` columns, "..." marking the cut: only for conditions that fit no line.
std::string Fit(const std::string& text, int width) {
  if (static_cast<int>(text.size()) <= width) return text;
  if (width <= 3) return text.substr(0, std::max(width, 0));
  return text.substr(0, width - 3) + "...";
}

std::string FormatColumns(const Columns& columns, const std::string& time,
                          const std::string& partition, const std::string& ready,
                          const std::string& updated, const std::string& groups) {
  return fmt::format("{:>{}}  {:<9}  {:<{}}  {:<7}  {:<{}}  ", time, kTimeWidth, partition, ready,
                     columns.ready, updated, groups, columns.groups);
}

}  // namespace

std::string GroupGlyph(const GroupView& group) {
  return {RevisionGlyph(group), StateGlyph(group.state)};
}

std::string GroupLegend() {
  return "GROUPS shows each group's revision (o old, n new, s surge: a group above\n"
         "replicas) and state (+ ready, ~ starting, x terminating, - no pod yet): o+ is an\n"
         "old ready group, -- a group with no pod yet. CONDITIONS are the LWS's True\n"
         "conditions; (gen N unobserved): the controller has not seen generation N yet.\n";
}

std::string TableHeader(const RolloutView& view, int width) {
  Columns columns = ColumnsFor(view, width);
  std::string line =
      FormatColumns(columns, "TIME", "PARTITION", "READY", "UPDATED", "GROUPS") + "CONDITIONS";
  return Fit(line, width) + "\n";
}

std::string TableRow(const RolloutView& view, Duration elapsed, int width) {
  Columns columns = ColumnsFor(view, width);
  std::string groups =
      columns.glyphs ? Glyphs(view.groups, 0, view.groups.size()) : GlyphCounts(view);
  std::string line = FormatColumns(columns, "+" + FormatElapsed(elapsed),
                                   view.sts_found ? std::to_string(view.sts_partition) : "-",
                                   fmt::format("{}/{}", view.ready_replicas, view.replicas),
                                   std::to_string(view.updated_replicas), groups);
  std::string conditions = Conditions(view);
  if (static_cast<int>(line.size() + conditions.size()) <= width) return line + conditions + "\n";
  // The row without its trailing gap, then the conditions under the columns.
  line.erase(line.find_last_not_of(' ') + 1);
  return Fit(line, width) + "\n" + std::string(kIndent, ' ') + Fit(conditions, width - kIndent) +
         "\n";
}

std::vector<std::string> GroupGrid(const RolloutView& view, int width) {
  if (ColumnsFor(view, width).glyphs || view.groups.empty()) return {};
  const std::size_t per_line =
      static_cast<std::size_t>(std::max(1, (width - kIndent + 1) / (kGlyphWidth + 1)));
  const std::size_t lines = (view.groups.size() + per_line - 1) / per_line;
  if (lines > kGridLinesMax) return {};
  std::vector<std::string> grid;
  for (std::size_t from = 0; from < view.groups.size(); from += per_line) {
    grid.push_back(
        fmt::format("{:>{}}  {}", from, kTimeWidth, Glyphs(view.groups, from, from + per_line)));
  }
  return grid;
}

void LiveView::StartTable() {
  header_due_ = true;
  shown_.clear();
  frame_lines_ = 0;
}

void LiveView::Show(const RolloutView& view, Duration elapsed) {
  if (header_due_) {
    out_ << TableHeader(view, style_.width);
    header_due_ = false;
  }
  if (!style_.terminal) {
    // The time of a change is part of the log line, not a change itself.
    std::string row = TableRow(view, Duration::zero(), style_.width);
    if (row == shown_) return;
    shown_ = row;
    out_ << TableRow(view, elapsed, style_.width) << std::flush;
    return;
  }
  std::vector<std::string> frame;
  std::string row = TableRow(view, elapsed, style_.width);
  for (std::size_t start = 0; start < row.size();) {
    std::size_t end = row.find('\n', start);
    frame.push_back(row.substr(start, end - start));
    start = end + 1;
  }
  for (std::string& line : GroupGrid(view, style_.width)) frame.push_back(std::move(line));
  Redraw(frame);
}

// Moves back to the first line of the previous frame, erases to the end of the screen and
// writes the new frame; the cursor ends below it, where the next output belongs.
void LiveView::Redraw(const std::vector<std::string>& frame) {
  std::string text = fmt::format("{}\n", fmt::join(frame, "\n"));
  if (text == shown_) return;
  shown_ = text;
  if (frame_lines_ > 0) out_ << fmt::format("\r\x1b[{}A\x1b[J", frame_lines_);
  out_ << text << std::flush;
  frame_lines_ = static_cast<int>(frame.size());
}

}  // namespace lws::cli
