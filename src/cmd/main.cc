// The lws executable: wiring only. Each subcommand lives in cli/.
#include <pthread.h>

#include <cstddef>

#include "cli/commands.h"

namespace {

// Every thread the program starts gets this much stack (reserved, not committed). Request
// handling recurses once per nesting level of a client's document, and documents may nest
// api::kMaxJsonDepth (10,000) levels as in Kubernetes; glibc's default of 8 MiB is too little for
// that in the deepest paths (serialisation, merges, validation).
constexpr std::size_t kThreadStackBytes = 256u << 20;

void ReserveThreadStacks() {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return;
  if (pthread_attr_setstacksize(&attr, kThreadStackBytes) == 0) pthread_setattr_default_np(&attr);
  pthread_attr_destroy(&attr);
}

}  // namespace

int main(int argc, char** argv) {
  ReserveThreadStacks();
  return lws::cli::Main(argc, argv);
}
