#!/usr/bin/env bash
# Installs everything lws-cpp needs on a bare Debian 12 (bookworm) machine.
# Idempotent: packages already present are left alone, so CI can call it on every run.
# The packages: build tools, the libraries the CMake files look for (jemalloc is the programs'
# allocator, see CMakeLists.txt), clang-format-14 for the format check, Python's Kubernetes client for the client tests, and clang for
# the fuzz targets; protoc and libprotobuf for the Kubernetes protobuf codec (proto/), curl for
# the raw-HTTP checks of the shell tests; Node.js and npm for the JavaScript client's test
# (tests/node/: npm fetches @kubernetes/client-node 1.4.0 over HTTPS, hence ca-certificates; it
# runs on Debian's Node 18).
set -euo pipefail

packages=(
  g++ cmake ninja-build pkgconf ccache git
  libboost1.81-dev libboost-system1.81-dev libboost-url1.81-dev libboost-json1.81-dev
  libssl-dev openssl
  nlohmann-json3-dev libyaml-cpp-dev libcli11-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libsqlite3-dev libjemalloc-dev
  protobuf-compiler libprotobuf-dev
  python3 python3-kubernetes curl
  nodejs npm ca-certificates
  clang-14 libclang-rt-14-dev clang-format-14
)

# A Node.js from elsewhere (NodeSource's package bundles npm and conflicts with Debian's npm)
# serves as well as Debian's: for these two, the command on PATH counts.
provided_by_command() {
  case "$1" in
    nodejs) command -v node >/dev/null 2>&1 ;;
    npm) command -v npm >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

missing=()
for p in "${packages[@]}"; do
  if provided_by_command "$p"; then continue; fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
