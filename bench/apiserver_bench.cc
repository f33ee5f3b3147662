// The embedded API server over HTTP on loopback, against the targets of DESIGN.md section 6:
//   ./build/bench/apiserver_bench
// The server runs in this process with its default transport options (2 I/O threads) and an
// in-memory store unless a benchmark says "Durable" (SQLite in a temporary directory). Clients
// are synchronous keep-alive Beast connections, one per Google Benchmark thread; client and
// server share the machine's cores, so every client cycle is taken from the server.
// Objects are the ~2.5 KB "typical" LWS worker pod (typical_pod.h). Every response is checked
// (status code; item and event counts) and a failure ends the benchmark with an error instead of
// a rate. Results and the exact commands: docs/performance.md.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "api/resources.h"
#include "http_load.h"
#include "store/store.h"
#include "typical_pod.h"

namespace lws::bench {
namespace {

using api::Json;
using Clock = std::chrono::steady_clock;

constexpr int kStoredPods = 10'000;
constexpr int kClients = 16;
constexpr const char* kPodsPath = "/api/v1/namespaces/default/pods";

const api::ResourceInfo& Pods() {
  static const api::ResourceRegistry registry = api::ResourceRegistry::WithBuiltins();
  return *registry.Find("", "v1", "pods");
}

// The typical pod without what a server assigns, so that it can be created.
const Json& PodTemplate() {
  static const Json pod = [] {
    Json p = Json::parse(TypicalPodText());
    for (const char* key : {"uid", "resourceVersion", "creationTimestamp"})
      p["metadata"].erase(key);
    return p;
  }();
  return pod;
}

Json PodNamed(const std::string& name) {
  Json pod = PodTemplate();
  pod["metadata"]["name"] = name;
  return pod;
}

// A POST body for pod `name`, spliced around the name instead of serialised per request.
std::string PodBody(const std::string& name) {
  static const std::string kMarker = "@NAME@";
  static const std::string text = PodNamed(kMarker).dump();
  static const std::size_t at = text.find(kMarker);
  std::string body;
  body.reserve(text.size() + name.size());
  body.append(text, 0, at).append(name).append(text, at + kMarker.size());
  return body;
}

std::string StoredPodName(int i) { return "vllm-" + std::to_string(i); }

// A server shared by every run of the benchmarks that use it (setting it up per run would cost
// more than the runs). `error` is set when it could not be started.
struct SharedServer {
  std::unique_ptr<ServerUnderTest> server;
  std::string error;
  std::filesystem::path data_dir;  // removed at exit

  ~SharedServer() {
    server.reset();
    if (!data_dir.empty()) std::filesystem::remove_all(data_dir);
  }
};

void StartShared(SharedServer* s, const std::string& data_dir, int pods) {
  s->data_dir = data_dir;
  if (!data_dir.empty()) std::filesystem::remove_all(data_dir);
  Result<std::unique_ptr<ServerUnderTest>> server = ServerUnderTest::Start(data_dir);
  if (!server.ok()) {
    s->error = "cannot start the server: " + server.status().message();
    return;
  }
  s->server = std::move(*server);
  for (int i = 0; i < pods; ++i) {
    Result<store::ObjectPtr> created =
        s->server->store().Create(Pods(), PodNamed(StoredPodName(i)));
    if (created.ok()) {
      Json running = (*created)->document();
      running["status"] = PodTemplate()["status"];
      created = s->server->store().UpdateStatus(Pods(), std::move(running));
    }
    if (!created.ok()) {
      s->error = "cannot store a pod: " + created.status().message();
      return;
    }
  }
}

// 10,000 stored running pods (created, then given the template's status as a kubelet would: a
// create resets a pod's status), for GET and LIST.
SharedServer& ServerWithPods() {
  static SharedServer s;
  static std::once_flag once;
  std::call_once(once, [] { StartShared(&s, "", kStoredPods); });
  return s;
}

SharedServer& EmptyServer() {
  static SharedServer s;
  static std::once_flag once;
  std::call_once(once, [] { StartShared(&s, "", 0); });
  return s;
}

SharedServer& DurableServer() {
  static SharedServer s;
  static std::once_flag once;
  std::call_once(once, [] {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("lws-apiserver-bench-" + std::to_string(::getpid()));
    StartShared(&s, dir.string(), 0);
  });
  return s;
}

// Opens this thread's connection to `shared`; "" or the reason it cannot.
std::string Connect(SharedServer& shared, std::unique_ptr<HttpConnection>* connection) {
  if (!shared.error.empty()) return shared.error;
  Result<std::unique_ptr<HttpConnection>> c = HttpConnection::Open(shared.server->port());
  if (!c.ok()) return c.status().message();
  *connection = std::move(*c);
  return "";
}

// One request whose status must be `expected`; "" or what went wrong.
std::string Expect(HttpConnection& c, std::string_view method, const std::string& target,
                   std::string_view body, int expected, std::string* response) {
  Result<int> status = c.Send(method, target, body, response);
  if (!status.ok()) return std::string(method) + " " + target + ": " + status.status().message();
  if (*status != expected) {
    return std::string(method) + " " + target + " answered " + std::to_string(*status) + ": " +
           response->substr(0, 300);
  }
  return "";
}

// Ends a (possibly multi-threaded) run with `error`. Threads must not leave the benchmark loop
// early (the others would wait for them at its end), so a failing thread idles through its
// remaining iterations and reports afterwards.
void Report(benchmark::State& state, const std::string& error) {
  if (!error.empty() && !state.error_occurred()) state.SkipWithError(error.c_str());
}

// ------------------------------------------------------------------------------------- GET

void BM_GetPod(benchmark::State& state) {
  static const std::vector<std::string> targets = [] {
    std::vector<std::string> t;
    for (int i = 0; i < kStoredPods; ++i) {
      t.push_back(std::string(kPodsPath) + "/" + StoredPodName(i * 7919 % kStoredPods));
    }
    return t;
  }();
  std::unique_ptr<HttpConnection> connection;
  std::string error = Connect(ServerWithPods(), &connection);
  std::string body;
  std::size_t next = static_cast<std::size_t>(state.thread_index()) * 613;
  for (auto _ : state) {
    if (!error.empty()) continue;
    error = Expect(*connection, "GET", targets[next++ % targets.size()], "", 200, &body);
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) state.counters["body_bytes"] = static_cast<double>(body.size());
  Report(state, error);
}
BENCHMARK(BM_GetPod)->Threads(1)->Threads(kClients)->UseRealTime();

// ----------------------------------------------------------------------------------- writes

std::atomic<std::int64_t> next_pod{0};

void PostPods(benchmark::State& state, SharedServer& shared) {
  std::unique_ptr<HttpConnection> connection;
  std::string error = Connect(shared, &connection);
  std::string response;
  std::string body;
  for (auto _ : state) {
    if (!error.empty()) continue;
    body = PodBody("bench-" + std::to_string(next_pod.fetch_add(1, std::memory_order_relaxed)));
    error = Expect(*connection, "POST", kPodsPath, body, 201, &response);
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    state.counters["request_bytes"] = static_cast<double>(body.size());
    state.counters["response_bytes"] = static_cast<double>(response.size());
  }
  Report(state, error);
}

void BM_CreatePod(benchmark::State& state) { PostPods(state, EmptyServer()); }
void BM_CreatePodDurable(benchmark::State& state) { PostPods(state, DurableServer()); }
BENCHMARK(BM_CreatePod)->Threads(1)->Threads(kClients)->UseRealTime();
BENCHMARK(BM_CreatePodDurable)->Threads(1)->Threads(kClients)->UseRealTime();

// --------------------------------------------------------------------- handler without HTTP

// The same GET and POST handed to ApiServer::Handle on this thread, without sockets, Beast or
// the transport's threads: the difference to BM_GetPod/BM_CreatePod at one client is what the
// transport and the loopback round trip cost.
transport::HttpRequest JsonRequest(std::string method, std::string target, std::string body) {
  transport::HttpRequest request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers.Add("Accept", "application/json");
  if (!body.empty()) request.headers.Add("Content-Type", "application/json");
  request.body = std::move(body);
  return request;
}

void BM_HandleGetPod(benchmark::State& state) {
  SharedServer& shared = ServerWithPods();
  std::string error = shared.error;
  const transport::HttpRequest request =
      JsonRequest("GET", std::string(kPodsPath) + "/" + StoredPodName(42), "");
  for (auto _ : state) {
    if (!error.empty()) continue;
    transport::HttpResponse response = shared.server->api().Handle(request);
    if (response.status != 200) error = "GET answered " + std::to_string(response.status);
  }
  state.SetItemsProcessed(state.iterations());
  Report(state, error);
}
BENCHMARK(BM_HandleGetPod);

void BM_HandleCreatePod(benchmark::State& state) {
  SharedServer& shared = EmptyServer();
  std::string error = shared.error;
  for (auto _ : state) {
    if (!error.empty()) continue;
    transport::HttpRequest request =
        JsonRequest("POST", kPodsPath, PodBody("direct-" + std::to_string(next_pod.fetch_add(1))));
    transport::HttpResponse response = shared.server->api().Handle(request);
    if (response.status != 201) {
      error =
          "POST answered " + std::to_string(response.status) + ": " + response.body.substr(0, 300);
    }
  }
  state.SetItemsProcessed(state.iterations());
  Report(state, error);
}
BENCHMARK(BM_HandleCreatePod);

// The same create as an in-process writer makes it (client::LocalClient): a typed call of the
// write port, the body a value, the answer the stored object. The object is built outside the
// timing (a controller has it already; the HTTP create's body bytes are made outside it too).
void BM_WriteCreatePod(benchmark::State& state) {
  SharedServer& shared = EmptyServer();
  std::string error = shared.error;
  for (auto _ : state) {
    if (!error.empty()) continue;
    state.PauseTiming();
    apiserver::WriteCall call;
    call.version = "v1";
    call.resource = "pods";
    call.namespace_ = "default";
    call.field_manager = "bench";
    call.body = PodNamed("port-" + std::to_string(next_pod.fetch_add(1)));
    state.ResumeTiming();
    Result<store::ObjectPtr> created = shared.server->api().Write(std::move(call));
    if (!created.ok()) error = "create answered " + created.status().message();
  }
  state.SetItemsProcessed(state.iterations());
  Report(state, error);
}
BENCHMARK(BM_WriteCreatePod);

// ------------------------------------------------------------------------------------- LIST

// The metadata of a list body, which the server writes after the items.
Result<Json> ListMetadata(const std::string& body) {
  const std::size_t at = body.rfind("],\"kind\":");
  if (at == std::string::npos) return Status::Internal("not a list: " + body.substr(0, 200));
  Json tail = Json::parse("{" + body.substr(at + 2), nullptr, false);
  if (tail.is_discarded() || !tail.contains("metadata")) {
    return Status::Internal("unreadable list metadata: " + body.substr(at, 300));
  }
  return tail["metadata"];
}

std::string CountItems(const std::string& body, std::size_t* items) {
  Json list = Json::parse(body, nullptr, false);
  if (list.is_discarded() || !list["items"].is_array()) return "the LIST body is not a list";
  *items += list["items"].size();
  return "";
}

std::string PercentEncode(std::string_view text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// Walks every page of `limit` pods; counts items (parsing each page) only when asked.
std::string ListInPages(HttpConnection& c, int limit, int* pages, std::size_t* items) {
  std::string body;
  std::string token;
  *pages = 0;
  do {
    std::string target = std::string(kPodsPath) + "?limit=" + std::to_string(limit);
    if (!token.empty()) target += "&continue=" + PercentEncode(token);
    if (std::string e = Expect(c, "GET", target, "", 200, &body); !e.empty()) return e;
    ++*pages;
    Result<Json> metadata = ListMetadata(body);
    if (!metadata.ok()) return metadata.status().message();
    token = metadata->value("continue", "");
    if (items) {
      if (std::string e = CountItems(body, items); !e.empty()) return e;
    }
  } while (!token.empty());
  return "";
}

void BM_List10kPods(benchmark::State& state) {
  std::unique_ptr<HttpConnection> connection;
  std::string error = Connect(ServerWithPods(), &connection);
  std::string body;
  for (auto _ : state) {
    if (!error.empty()) continue;
    error = Expect(*connection, "GET", kPodsPath, "", 200, &body);
  }
  std::size_t items = 0;
  if (error.empty()) error = CountItems(body, &items);
  if (error.empty() && items != kStoredPods) {
    error = "LIST returned " + std::to_string(items) + " pods";
  }
  state.counters["body_MB"] = static_cast<double>(body.size()) / 1e6;
  Report(state, error);
}
BENCHMARK(BM_List10kPods)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_List10kPodsPagesOf500(benchmark::State& state) {
  std::unique_ptr<HttpConnection> connection;
  std::string error = Connect(ServerWithPods(), &connection);
  int pages = 0;
  for (auto _ : state) {
    if (!error.empty()) continue;
    error = ListInPages(*connection, 500, &pages, nullptr);
  }
  std::size_t items = 0;  // verified once, untimed: the pages together hold every pod
  if (error.empty()) error = ListInPages(*connection, 500, &pages, &items);
  if (error.empty() && items != kStoredPods) {
    error = "the pages held " + std::to_string(items) + " pods";
  }
  state.counters["pages"] = pages;
  Report(state, error);
}
BENCHMARK(BM_List10kPodsPagesOf500)->Unit(benchmark::kMillisecond)->UseRealTime();

// -------------------------------------------------------------------------------- watch fan-out

constexpr int kWatchers = 100;
constexpr int kBurst = 10'000;

// 100 watch streams opened at a LIST's resourceVersion over HTTP and read by one client thread;
// then a burst of 10,000 pod creates written straight into the server's store by this thread
// (the writes' HTTP cost is BM_CreatePod's). The time runs from the first write until every
// watcher has received all 10,000 ADDED events (each one counted per watcher). A fresh server
// per iteration keeps the store's history and watchers from leaking between iterations.
void BM_WatchFanout(benchmark::State& state) {
  for (auto _ : state) {
    Result<std::unique_ptr<ServerUnderTest>> server = ServerUnderTest::Start();
    if (!server.ok()) return state.SkipWithError(server.status().message().c_str());
    Result<std::unique_ptr<HttpConnection>> lister = HttpConnection::Open((*server)->port());
    if (!lister.ok()) return state.SkipWithError(lister.status().message().c_str());
    std::string body;
    if (std::string e = Expect(**lister, "GET", kPodsPath, "", 200, &body); !e.empty()) {
      return state.SkipWithError(e.c_str());
    }
    Result<Json> metadata = ListMetadata(body);
    if (!metadata.ok()) return state.SkipWithError(metadata.status().message().c_str());
    const std::string target = std::string(kPodsPath) + "?watch=true&resourceVersion=" +
                               metadata->value("resourceVersion", "");
    Result<std::unique_ptr<WatchFanout>> fanout =
        WatchFanout::Open((*server)->port(), target, kWatchers);
    if (!fanout.ok()) return state.SkipWithError(fanout.status().message().c_str());
    std::vector<Json> pods;
    for (int i = 0; i < kBurst; ++i) pods.push_back(PodNamed("burst-" + std::to_string(i)));

    Status read_status;
    Clock::time_point done;
    const Clock::time_point start = Clock::now();
    std::thread reader([&] {
      read_status = (*fanout)->ReadUntil(kBurst, std::chrono::seconds(120));
      done = Clock::now();
    });
    std::string error;
    for (Json& pod : pods) {
      Result<store::ObjectPtr> created = (*server)->store().Create(Pods(), std::move(pod));
      if (!created.ok() && error.empty()) error = created.status().message();
    }
    const Clock::time_point written = Clock::now();
    reader.join();
    if (error.empty() && !read_status.ok()) error = read_status.message();
    if (!error.empty()) return state.SkipWithError(error.c_str());
    const double seconds = std::chrono::duration<double>(done - start).count();
    state.SetIterationTime(seconds);
    state.counters["burst_write_ms"] =
        std::chrono::duration<double, std::milli>(written - start).count();
    state.counters["events_per_s"] = kWatchers * static_cast<double>(kBurst) / seconds;
    state.counters["received_MB"] = static_cast<double>((*fanout)->body_bytes()) / 1e6;
  }
}
BENCHMARK(BM_WatchFanout)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lws::bench
