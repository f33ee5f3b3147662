# Shared by the integration tests that need a running `lws apiserver` (sourced, not run).
#   start_apiserver LWS_BIN DIR [extra args...]   starts it on a free port; sets APISERVER_PID,
#                                                APISERVER_URL, KUBECONFIG (DIR/kubeconfig)
#   stop_apiserver [SIGNAL]                      stops it (default TERM) and waits
#   check NAME COMMAND...                        runs COMMAND, prints ok/FAIL, counts failures
#   eventually SECONDS COMMAND...                retries COMMAND until it succeeds or time is up
failures=0
check() {
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
eventually() {
  local seconds="$1"; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.2
  done
}
start_apiserver() {
  local bin="$1" dir="$2"; shift 2
  export HOME="$dir/home"  # kubectl keeps its discovery cache here
  mkdir -p "$HOME"
  "$bin" apiserver --port 0 --kubeconfig-out "$dir/kubeconfig" "$@" >"$dir/apiserver.out" 2>"$dir/apiserver.err" &
  APISERVER_PID=$!
  local deadline=$((SECONDS + 30))
  until grep -q 'serving the Kubernetes API on' "$dir/apiserver.out" 2>/dev/null; do
    if ! kill -0 "$APISERVER_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      echo "lws apiserver did not start:"; cat "$dir/apiserver.err"; return 1
    fi
    sleep 0.1
  done
  APISERVER_URL=$(grep -o 'http://[0-9.:]*' "$dir/apiserver.out" | head -1)
  export KUBECONFIG="$dir/kubeconfig"
}
stop_apiserver() {
  local signal="${1:-TERM}"
  kill -"$signal" "$APISERVER_PID" 2>/dev/null
  wait "$APISERVER_PID" 2>/dev/null
  return 0
}
# kubectl cannot be installed from a Debian repository (spec/deps.md); where it is missing the
# test reports itself skipped (exit 77) instead of failing or pretending to pass.
require_kubectl() {
  if ! command -v kubectl >/dev/null 2>&1; then
    echo "SKIP: kubectl is not installed"
    exit 77
  fi
}
