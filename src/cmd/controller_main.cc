// The lws-controller executable: `lws controller` alone, built without the embedded API server,
// the simulated cluster and the simulator (the operator image needs none of them).
#include "cli/controller.h"
#include "cli/program.h"

int main(int argc, char** argv) {
  lws::cli::ReserveThreadStacks();
  return lws::cli::ControllerMain(argc, argv);
}
