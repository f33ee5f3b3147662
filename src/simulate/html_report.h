// File: simulate/html_report.h
//
// The pictures of a sweep. TimelineSvg draws one run: a row per group (surge groups included)
// across time, coloured by state (old ready, old starting, new starting, new ready, surge,
// pending, terminating), under a panel with the ready groups against replicas and the floor
// (replicas - maxUnavailable), with the scenario's changes and capacity events marked. Rows
// shrink with the number of groups so that 4 and 100 groups both read. HtmlReport is one
// self-contained page: the summary table of every strategy, each strategy's first run drawn,
// and that run's stalls with their reasons.
#pragma once

#include <string>

#include "simulate/report.h"

namespace lws::simulate {

// REQUIRES: `run` was made with RunOptions::timeline.
std::string TimelineSvg(const RunResult& run);
std::string HtmlReport(const Scenario& scenario, const Report& report);

}  // namespace lws::simulate
