#include "client/rest/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace lws::rest {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Closes the descriptors it owns on every return path.
struct Pipe {
  int fds[2] = {-1, -1};
  ~Pipe() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  void CloseRead() { CloseEnd(0); }
  void CloseWrite() { CloseEnd(1); }
  void CloseEnd(int i) {
    if (fds[i] >= 0) ::close(fds[i]);
    fds[i] = -1;
  }
};

std::vector<char*> CStrings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

Result<pid_t> Spawn(const std::string& command, const std::vector<std::string>& args,
                    const std::vector<std::string>& env, Pipe& out, Pipe& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fds[1], 2);
  std::vector<std::string> argv_strings{command};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv = CStrings(argv_strings);
  std::vector<char*> envp = CStrings(env);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, command.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) return Status::NotFound("executable " + command + " not found");
  if (rc != 0) return Status::Internal("starting " + command + ": " + std::strerror(rc));
  return pid;
}

// Appends what is readable on `fd`; returns false at end of stream or on an error.
bool Drain(int fd, std::string& sink) {
  std::array<char, 4096> buffer;
  ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  std::size_t room = kMaxProcessOutputBytes - std::min(sink.size(), kMaxProcessOutputBytes);
  sink.append(buffer.data(), std::min<std::size_t>(room, static_cast<std::size_t>(n)));
  return true;
}

// Reads both streams until they close; false when the deadline passed first.
bool ReadUntilClosed(int out_fd, int err_fd, SteadyClock::time_point deadline,
                     ProcessResult& result) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return false;
    int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return false;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      // poll ignores negative descriptors, so a closed stream simply drops out.
      if (!Drain(fds[i].fd, i == 0 ? result.stdout_text : result.stderr_text)) fds[i].fd = -1;
    }
  }
  return true;
}

// The child's wait status; false when it was still running at the deadline. A child may close its
// output and keep running, so the wait needs the deadline as much as the reads do.
bool WaitUntil(pid_t pid, SteadyClock::time_point deadline, int& status) {
  while (true) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) return true;  // not our child any more: nothing to wait for
    if (SteadyClock::now() >= deadline) return false;
    ::usleep(5000);
  }
}

void KillAndReap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::vector<std::string> ProcessEnvironment() {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) out.emplace_back(*e);
  return out;
}

Result<ProcessResult> RunProcess(const std::string& command, const std::vector<std::string>& args,
                                 const std::vector<std::string>& env,
                                 std::chrono::milliseconds timeout) {
  Pipe out;
  Pipe err;
  // O_CLOEXEC keeps these pipes out of children that other threads spawn meanwhile.
  if (::pipe2(out.fds, O_CLOEXEC) != 0 || ::pipe2(err.fds, O_CLOEXEC) != 0) {
    return Status::Internal(std::string("pipe: ") + std::strerror(errno));
  }
  ASSIGN_OR_RETURN(pid_t pid, Spawn(command, args, env, out, err));
  // Our copies of the write ends must go, or the reads below never see end of stream.
  out.CloseWrite();
  err.CloseWrite();
  ProcessResult result;
  auto deadline = SteadyClock::now() + timeout;
  int status = 0;
  if (!ReadUntilClosed(out.fds[0], err.fds[0], deadline, result) ||
      !WaitUntil(pid, deadline, status)) {
    KillAndReap(pid);
    return Status(Code::kTimeout, command + " did not finish within " +
                                      std::to_string(timeout.count()) + "ms and was killed");
  }
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace lws::rest
