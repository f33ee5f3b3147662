# Shared by the integration tests that need a running `lws apiserver` (sourced, not run).
#   start_apiserver LWS_BIN DIR [extra args...]   starts it on a free port; sets APISERVER_PID,
#                                                APISERVER_URL, KUBECONFIG (DIR/kubeconfig)
#   start_up LWS_BIN DIR [extra args...]          the same for `lws up` (the whole local cluster)
#                                                both also set API_CA (DIR/ca.crt, "" over plain
#                                                HTTP) and API_TOKEN from the kubeconfig
#   api_curl [curl args...]                      curl -s as the administrator: trusts API_CA and
#                                                sends API_TOKEN
#   stop_apiserver [SIGNAL]                      stops it (default TERM) and waits
#   check, eventually                            from check.sh
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# start_lws LWS_BIN DIR SUBCOMMAND READY_TEXT [args...]: starts `lws SUBCOMMAND --port 0` and waits
# until its output says READY_TEXT.
start_lws() {
  local bin="$1" dir="$2" sub="$3" ready="$4"; shift 4
  export HOME="$dir/home"  # kubectl keeps its discovery cache here
  mkdir -p "$HOME"
  # A restart on the same DIR must not find the last server's banner and kubeconfig: the shell
  # goes on before the background child truncates its output, and the wait below would read the
  # old port (seen once in a loaded CI run of apiserver_durability.sh).
  rm -f "$dir/$sub.out" "$dir/kubeconfig"
  "$bin" "$sub" --port 0 --kubeconfig-out "$dir/kubeconfig" "$@" >"$dir/$sub.out" 2>"$dir/$sub.err" &
  APISERVER_PID=$!
  local deadline=$((SECONDS + 30))
  until grep -q "$ready" "$dir/$sub.out" 2>/dev/null; do
    if ! kill -0 "$APISERVER_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      echo "lws $sub did not start:"; cat "$dir/$sub.err"; return 1
    fi
    sleep 0.1
  done
  APISERVER_URL=$(grep -oE 'https?://[0-9.:]*' "$dir/$sub.out" | head -1)
  export KUBECONFIG="$dir/kubeconfig"
  read_credentials "$dir"
}
# The administrator's credentials from DIR/kubeconfig (as written by --kubeconfig-out).
read_credentials() {
  local dir="$1"
  API_CA=""
  if grep -q 'certificate-authority-data:' "$dir/kubeconfig"; then
    sed -n 's/.*certificate-authority-data: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$dir/kubeconfig" |
      base64 -d >"$dir/ca.crt"
    API_CA="$dir/ca.crt"
  fi
  API_TOKEN=$(sed -n 's/^ *token: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$dir/kubeconfig" | head -1)
}
api_curl() {
  local args=(-s)
  [ -n "${API_CA:-}" ] && args+=(--cacert "$API_CA")
  [ -n "${API_TOKEN:-}" ] && args+=(-H "Authorization: Bearer $API_TOKEN")
  curl "${args[@]}" "$@"
}
start_apiserver() { start_lws "$1" "$2" apiserver 'serving the Kubernetes API on' "${@:3}"; }
start_up() { start_lws "$1" "$2" up 'a local cluster on' "${@:3}"; }
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

# The common start of a kubectl test script: kubectl is there (else the script is skipped), and
# $tmp is a fresh directory removed on exit together with the server the script starts.
begin_kubectl_test() {
  require_kubectl
  tmp=$(mktemp -d)
  trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
}

# The common start of a kubectl test against `lws up` with testdata/up/cluster.yaml: kubectl is
# there (else skipped), $tmp is fresh, `lws up` runs with seed $2, and on exit the server stops,
# a background watch whose pid is in $watch_pid is killed and $tmp is removed. Defines k (kubectl
# with its output in $tmp/out and $tmp/err), out_has and jp.
# Usage: begin_up_kubectl_test LWS_BIN SEED
begin_up_kubectl_test() {
  require_kubectl
  tmp=$(mktemp -d)
  watch_pid=""
  trap '[ -n "$watch_pid" ] && kill $watch_pid 2>/dev/null; stop_apiserver KILL; rm -rf "$tmp"' EXIT
  data="$root/testdata/up"
  start_up "$1" "$tmp" --config "$data/cluster.yaml" --seed "$2" || exit 1
}
k() { kubectl "$@" >"$tmp/out" 2>"$tmp/err"; }
out_has() { grep -qE "$1" "$tmp/out"; }
jp() { kubectl get "$1" -o jsonpath="$2" 2>/dev/null; }
