// File: cli/demo_render.h
//
// How `lws up --demo` draws its RolloutView (cli/demo_view.h) within a width: the pure half of
// the output, so that its layout and its terminal sequences are tested without a terminal.
//
// Each group is a two-character glyph, its revision then its state (GroupLegend() explains it
// once): "o+" an old ready group, "n~" a new one starting, "sx" a surge group terminating, "--"
// a group without a leader pod. A phase of the demo is a table with a header, like
// `kubectl get -w`:
//
//      TIME  PARTITION  READY  UPDATED  GROUPS          CONDITIONS
//     +0.2s  3          4/4    1        o+ o+ o+ o+ s~  Progressing UpdateInProgress
//
// When the glyphs of replicas + maxSurge groups do not fit the width, GROUPS counts the groups
// by glyph instead ("40o+ 1ox 22n+ 1s~"); on a terminal the glyphs then follow the row as a
// grid, each line led by the index of its first group. Conditions that do not fit the row
// continue on the next line. No line is ever wider than the width.
//
// LiveView prints a table as the rollout goes. Not on a terminal it is an append-only log: the
// header, then a row whenever the view changes. On a terminal the row (and the grid) is redrawn
// in place at every poll (its time ticks), with ANSI cursor-up and erase sequences.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "cli/demo_view.h"

namespace lws::cli {

// Where the view goes: a terminal (redrawn in place) or not (an append-only log), and the
// number of columns no line may exceed.
struct ViewStyle {
  bool terminal = false;
  int width = 80;
};

inline constexpr int kDefaultWidth = 80;

// "o+", "n~", "sx", "?+" (no leader StatefulSet yet), "--" (no leader pod).
std::string GroupGlyph(const GroupView& group);

// What the glyphs mean, a few lines of at most 80 columns, each ending in a newline.
std::string GroupLegend();

// The header of a table whose rows show views like `view` (same replicas and maxSurge).
std::string TableHeader(const RolloutView& view, int width);

// One row: the elapsed time, then the view's columns; one line, or two when the conditions
// do not fit. Each line ends in a newline.
std::string TableRow(const RolloutView& view, Duration elapsed, int width);

// On a terminal, below a row whose GROUPS are counts: every group's glyph, as many per line
// as fit, each line led by its first group's index. Empty when the row shows the glyphs, or
// when the grid would be taller than a terminal should redraw.
std::vector<std::string> GroupGrid(const RolloutView& view, int width);

class LiveView {
 public:
  LiveView(std::ostream& out, ViewStyle style) : out_(out), style_(style) {}

  // The next Show starts a new table (a new header); what was drawn stays on the screen.
  void StartTable();
  // Shows `view`: on a terminal, redraws the frame when its text (time included) changed; not
  // on a terminal, appends a row when anything but the time changed.
  void Show(const RolloutView& view, Duration elapsed);

 private:
  void Redraw(const std::vector<std::string>& frame);

  std::ostream& out_;
  ViewStyle style_;
  bool header_due_ = true;
  std::string shown_;    // the text of the last row or frame, to skip repeats
  int frame_lines_ = 0;  // terminal lines the current frame takes, to move back over them
};

}  // namespace lws::cli
