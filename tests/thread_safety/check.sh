#!/usr/bin/env bash
# The thread-safety analysis works: guarded_ok.cc compiles under clang's -Wthread-safety as an
# error, and guarded_bad.cc (a guarded member read without its lock) does not, failing with the
# analysis' own message. The same flags are on in the fuzz build (CMakePresets.json), which
# compiles every library with clang.
#   check.sh <source-root>
set -euo pipefail
root="${1:?usage: check.sh <source-root>}"
cxx="${LWS_CLANG:-clang++-14}"
command -v "$cxx" >/dev/null 2>&1 || { echo "check.sh: $cxx not found; skipped"; exit 77; }
flags=(-std=c++20 -fsyntax-only -Wthread-safety -Werror=thread-safety -I "$root/src")
here="$root/tests/thread_safety"
if ! "$cxx" "${flags[@]}" "$here/guarded_ok.cc"; then
  echo "FAIL: guarded_ok.cc should compile under the analysis"
  exit 1
fi
if out=$("$cxx" "${flags[@]}" "$here/guarded_bad.cc" 2>&1); then
  echo "FAIL: guarded_bad.cc compiled: -Wthread-safety caught nothing"
  exit 1
fi
if ! grep -q "requires holding mutex 'mu_'" <<<"$out"; then
  echo "FAIL: guarded_bad.cc failed for another reason:"
  echo "$out"
  exit 1
fi
echo "thread-safety analysis: the correct use compiles, the unguarded read is an error"
