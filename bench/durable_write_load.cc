// File: bench/durable_write_load.cc
//
// One load tool for durable writes against two servers, so that the comparison is of the
// servers and not of the clients (docs/performance.md, "Durable writes against etcd"): N
// keep-alive HTTP/1.1 connections on loopback, one thread each, each writing new keys back to
// back for a fixed time with the same value size:
//   --target lws   POST /api/v1/namespaces/default/configmaps
//   {"metadata":{"name":K},"data":{"v":V}}
//   --target etcd  POST /v3/kv/put (etcd's JSON gateway)        {"key":base64(K),"value":base64(V)}
// Prints one JSON line: writes per second, latency p50/p99, errors. Run by
// bench/durable_writes.sh, which starts both servers on the same disk.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

#include "api/codec.h"
#include "http_load.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string Base64(const std::string& in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

struct Options {
  std::string target = "lws";
  std::uint16_t port = 0;
  int connections = 1;
  double seconds = 10;
  int value_bytes = 256;
  std::string prefix = "w";
};

struct Worker {
  std::vector<double> latencies_ms;
  std::int64_t errors = 0;
  std::string first_error;
};

std::pair<std::string, std::string> Request(const Options& o, const std::string& key,
                                            const std::string& value) {
  if (o.target == "etcd") {
    return {"/v3/kv/put", lws::api::Json{{"key", Base64(key)}, {"value", Base64(value)}}.dump()};
  }
  lws::api::Json body = {{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", key}}},
                         {"data", {{"v", value}}}};
  return {"/api/v1/namespaces/default/configmaps", body.dump()};
}

void Run(const Options& o, int index, Clock::time_point end, Worker* w) {
  auto connection = lws::bench::HttpConnection::Open(o.port);
  if (!connection.ok()) {
    w->errors = 1;
    w->first_error = std::string(connection.status().message());
    return;
  }
  const std::string value(static_cast<std::size_t>(o.value_bytes), 'v');
  std::string response;
  for (std::int64_t i = 0; Clock::now() < end; ++i) {
    auto [target, body] = Request(o, fmt::format("{}-{}-{}", o.prefix, index, i), value);
    const auto start = Clock::now();
    auto status = (*connection)->Send("POST", target, body, &response);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (status.ok() && *status < 300) {
      w->latencies_ms.push_back(ms);
    } else {
      if (w->errors++ == 0) {
        w->first_error = status.ok() ? fmt::format("HTTP {}: {}", *status, response.substr(0, 200))
                                     : std::string(status.status().message());
      }
      if (!status.ok()) return;  // the connection is gone
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Durable-write load against lws apiserver or etcd (bench/durable_writes.sh)"};
  Options o;
  app.add_option("--target", o.target, "lws or etcd")->check(CLI::IsMember({"lws", "etcd"}));
  app.add_option("--port", o.port, "The server's loopback port")->required();
  app.add_option("--connections", o.connections, "Connections, one thread each")
      ->check(CLI::Range(1, 1024));
  app.add_option("--seconds", o.seconds, "How long to write")->check(CLI::Range(0.1, 3600.0));
  app.add_option("--value-bytes", o.value_bytes, "Bytes of each value")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--prefix", o.prefix, "Key prefix (a new one per run keeps keys new)");
  CLI11_PARSE(app, argc, argv);

  std::vector<Worker> workers(static_cast<std::size_t>(o.connections));
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  const auto end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  for (int i = 0; i < o.connections; ++i)
    threads.emplace_back(Run, std::cref(o), i, end, &workers[static_cast<std::size_t>(i)]);
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<double> all;
  std::int64_t errors = 0;
  std::string first_error;
  for (const Worker& w : workers) {
    all.insert(all.end(), w.latencies_ms.begin(), w.latencies_ms.end());
    errors += w.errors;
    if (first_error.empty()) first_error = w.first_error;
  }
  std::sort(all.begin(), all.end());
  auto rank = [&](double q) {
    return all.empty() ? 0.0
                       : all[std::min(all.size() - 1, static_cast<std::size_t>(q * all.size()))];
  };
  lws::api::Json line = {{"target", o.target},
                         {"connections", o.connections},
                         {"writes", all.size()},
                         {"seconds", elapsed},
                         {"writesPerSecond", static_cast<double>(all.size()) / elapsed},
                         {"p50Ms", rank(0.5)},
                         {"p99Ms", rank(0.99)},
                         {"errors", errors}};
  if (!first_error.empty()) line["firstError"] = first_error;
  std::cout << line.dump() << "\n";
  return errors > 0 ? 1 : 0;
}
