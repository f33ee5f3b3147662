// The timeline picture and the HTML report (html_report.h).
#include "simulate/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

namespace lws::simulate {
namespace {

constexpr double kLeft = 70;    // room for the row labels
constexpr double kWidth = 960;  // the time axis
constexpr double kPanel = 110;  // the ready-groups panel

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct Style {
  const char* colour;
  const char* label;
};

Style StyleOf(GroupState state, bool surge) {
  switch (state) {
    case GroupState::kOldReady:
      return {"#8da9c4", "old, ready"};
    case GroupState::kOldStarting:
      return {"#cfdbe8", "old, starting"};
    case GroupState::kNewStarting:
      return surge ? Style{"#cdb4e6", "surge, starting"} : Style{"#f2c36b", "new, starting"};
    case GroupState::kNewReady:
      return surge ? Style{"#7d4fb3", "surge, ready"} : Style{"#3b9a5c", "new, ready"};
    case GroupState::kPending:
      return {"#d9534f", "pods waiting for a node"};
    case GroupState::kTerminating:
      return {"#8c8c8c", "terminating"};
    case GroupState::kAbsent:
      return {"none", ""};
  }
  return {"none", ""};
}

std::string Duration(double s) {
  if (s >= 3600) return fmt::format("{:.1f}h", s / 3600);
  if (s >= 60) return fmt::format("{:.0f}m", s / 60);
  return fmt::format("{:.0f}s", s);
}

// A step line of (time, value) pairs up to `end`.
std::string StepPath(const std::vector<std::pair<double, double>>& points, double end,
                     const std::function<double(double)>& x,
                     const std::function<double(double)>& y) {
  std::string d;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double next = i + 1 < points.size() ? points[i + 1].first : end;
    d += fmt::format("{}{:.1f},{:.1f} H{:.1f} ", i == 0 ? "M" : "L", x(points[i].first),
                     y(points[i].second), x(next));
  }
  return d;
}

}  // namespace

std::string TimelineSvg(const RunResult& run) {
  // The run's end; events after it (the end of a long stockout) are left out.
  const double end = std::max(run.window_start_s + run.metrics.duration_s, 1.0);
  const int rows = std::max<int>(1, static_cast<int>(run.groups.size()));
  const double row = std::clamp(420.0 / rows, 3.0, 22.0);
  const double top = kPanel + 30;
  const double height = top + rows * row + 70;
  auto x = [&](double t) { return kLeft + t / end * kWidth; };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      kLeft + kWidth + 20, height);
  svg += fmt::format("<text x=\"{}\" y=\"14\" font-size=\"13\">{} / seed {}: {}</text>\n", kLeft,
                     Escape(run.strategy), run.seed,
                     run.metrics.completed ? "completed in " + Duration(run.metrics.duration_s)
                                           : "not completed within the horizon");
  // The ready-groups panel, against replicas and the floor.
  // The panel spans from just below the floor (or the fewest groups ready after the change) to
  // the most: a dip of one group in a hundred must show. The creation's climb is cut at the bottom.
  int most = std::max(run.replicas, 1);
  int least = run.floor;
  for (const auto& [t, v] : run.ready) {
    most = std::max(most, v);
    if (t >= run.window_start_s) least = std::min(least, v);
  }
  const double bottom_value = std::max(0, least - 1);
  auto y = [&](double v) {
    const double clamped = std::max(v, bottom_value);
    return 20 + kPanel -
           (clamped - bottom_value) / std::max(1.0, most - bottom_value) * (kPanel - 10);
  };
  double last_label_y = -100;
  for (auto [value, label, dash] :
       {std::tuple{run.replicas, "replicas", "4,3"}, std::tuple{run.floor, "floor", "2,2"},
        std::tuple{static_cast<int>(bottom_value), "", ""}}) {
    const double label_y = std::max(y(value) + 4, last_label_y + 12);  // labels never overlap
    last_label_y = label_y;
    if (*dash != '\0') {
      svg += fmt::format(
          "<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\" "
          "stroke-dasharray=\"{}\"/>",
          kLeft, kLeft + kWidth, y(value), y(value), dash);
    }
    svg += fmt::format("<text x=\"4\" y=\"{:.1f}\">{}{}{}</text>\n", label_y, label,
                       *label != '\0' ? " " : "", value);
  }
  std::vector<std::pair<double, double>> ready;
  for (const auto& [t, v] : run.ready) ready.emplace_back(t, v);
  if (!ready.empty()) {
    svg += "<path fill=\"none\" stroke=\"#1f6f3f\" stroke-width=\"2\" d=\"" +
           StepPath(ready, end, x, y) + "\"/>\n";
  }
  svg += fmt::format("<text x=\"{}\" y=\"{:.0f}\" fill=\"#1f6f3f\">ready groups</text>\n",
                     kLeft + kWidth - 80, 20 + kPanel + 12);
  // One row per group.
  for (const GroupTrack& track : run.groups) {
    const double row_y = top + track.index * row;
    // Every row labelled when rows are tall enough, else every k-th, 10 px apart at least.
    const int every = std::max(1, static_cast<int>(std::ceil(10.0 / row)));
    // A role's label ("prefill 0") is cut to what the margin holds; the title keeps it whole.
    const std::string name =
        track.label.empty() ? fmt::format("group {}", track.index) : track.label;
    const std::string shown = name.size() > 11 ? name.substr(0, 10) + "~" : name;
    if (track.index % every == 0) {
      svg += fmt::format("<text x=\"4\" y=\"{:.1f}\" font-size=\"{:.0f}\">{}</text>\n",
                         row_y + std::min(row, 10.0) * 0.85, std::min(11.0, std::max(8.0, row)),
                         Escape(shown));
    }
    for (std::size_t i = 0; i < track.states.size(); ++i) {
      const auto& [t, state, surge] = track.states[i];
      const double next = i + 1 < track.states.size() ? std::get<0>(track.states[i + 1]) : end;
      const Style style = StyleOf(state, surge);
      if (std::string(style.colour) == "none" || next <= t) continue;
      svg += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{}: {} from {}</title></rect>\n",
          x(t), row_y + 0.5, std::max(0.5, x(next) - x(t)), std::max(1.0, row - 1), style.colour,
          Escape(name), style.label, Duration(t));
    }
  }
  // The scenario's events and the time axis.
  const double bottom = top + rows * row;
  int mark = 0;
  for (const auto& [t, text] : run.marks) {
    if (t > end) continue;
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\" fill=\"#222\">{}</text>\n", x(t) + 3,
                       top - 4 - 11 * (mark++ % 2), Escape(text));
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"20\" y2=\"{1:.1f}\" stroke=\"#222\" "
        "stroke-dasharray=\"3,3\"><title>{2}: {3}</title></line>\n",
        x(t), bottom, Duration(t), Escape(text));
  }
  for (int i = 0; i <= 6; ++i) {
    const double t = end * i / 6;
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", x(t),
                       bottom + 14, Duration(t));
  }
  double legend_x = kLeft;
  for (auto [state, surge] : {std::pair{GroupState::kOldReady, false},
                              {GroupState::kOldStarting, false},
                              {GroupState::kNewStarting, false},
                              {GroupState::kNewReady, false},
                              {GroupState::kNewReady, true},
                              {GroupState::kPending, false},
                              {GroupState::kTerminating, false}}) {
    const Style style = StyleOf(state, surge);
    svg += fmt::format(
        "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
        "<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text>\n",
        legend_x, bottom + 30, style.colour, legend_x + 14, bottom + 39, style.label);
    legend_x += 14 + 6.5 * std::string(style.label).size() + 16;
  }
  svg += "</svg>\n";
  return svg;
}

std::string HtmlReport(const Scenario& scenario, const Report& report) {
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lws simulate: {0}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse}}"
      "td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}th{{background:#f3f3f3}}"
      "td:first-child{{text-align:left}}pre{{background:#f7f7f7;padding:1em}}</style></"
      "head><body>\n"
      "<h1>lws simulate: {0}</h1>\n<p>LeaderWorkerSet <b>{1}</b>, horizon {2}, {3} "
      "strategies.</p>\n"
      "<h2>Summary</h2>\n<pre>{4}</pre>\n",
      Escape(scenario.name), Escape(report.lws), Duration(report.horizon_s),
      report.strategies.size(), Escape(ReportTable(report)));
  for (const StrategyResults& s : report.strategies) {
    html += "<h2>Strategy " + Escape(s.name) + "</h2>\n";
    const RunResult* drawn = nullptr;
    for (const RunResult& r : s.runs) {
      if (!r.groups.empty()) drawn = &r;
    }
    if (drawn == nullptr) continue;
    html += TimelineSvg(*drawn);
    if (drawn->metrics.stalls.empty()) {
      html += "<p>No stall in this run.</p>\n";
      continue;
    }
    html += "<p>Stalls of this run (no progress for the scenario's stall time):</p>\n<ul>\n";
    for (const Stall& stall : drawn->metrics.stalls) {
      std::string groups;
      for (int g : stall.waiting_groups) groups += (groups.empty() ? "" : ", ") + std::to_string(g);
      html += fmt::format("<li>{} to {} after the change; groups waiting: {}<ul>\n",
                          Duration(stall.from_s), Duration(stall.to_s),
                          groups.empty() ? "none" : groups);
      for (const auto& [message, count] : stall.reasons) {
        html += fmt::format("<li>{} x {}</li>\n", count, Escape(message));
      }
      html += "</ul></li>\n";
    }
    html += "</ul>\n";
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace lws::simulate
