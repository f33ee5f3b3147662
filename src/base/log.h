// File: base/log.h
//
// Logging through spdlog. Components take a named logger ("lws", "validate", "apiserver") so a
// log line says where it came from; the level is set once from the command line.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <string_view>

namespace lws {

// Logger named `component`, created on first use, writing to stderr.
std::shared_ptr<spdlog::logger> Logger(const std::string& component);

// "trace", "debug", "info", "warn", "error", "off". Unknown names leave the level unchanged
// and return false.
bool SetLogLevel(std::string_view level);

}  // namespace lws
