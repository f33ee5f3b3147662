#!/usr/bin/env bash
# Fails when a C++ file of the repository is not formatted as .clang-format says (Google style
# at 100 columns): formatting is mechanical (spec/aesthetics.md), so CI checks it rather than
# review. Fix a failure with
#   git ls-files '*.cc' '*.h' | xargs clang-format-14 -i
# Runs in scripts/test.sh before the build; lists every file that differs.
set -euo pipefail
cd "$(dirname "$0")/.."
format="$(command -v clang-format-14 || command -v clang-format)"
# One clang-format for all files (a process per file takes minutes); its -Werror diagnostics
# name each file that differs as "path:line:col: error: code should be clang-formatted".
mapfile -t bad < <(git ls-files '*.cc' '*.h' |
  xargs "$format" --style=file --dry-run -Werror 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ "${#bad[@]}" -ne 0 ]; then
  echo "check_format: ${#bad[@]} file(s) not formatted as .clang-format says:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "run: git ls-files '*.cc' '*.h' | xargs $format -i" >&2
  exit 1
fi
echo "check_format: $(git ls-files '*.cc' '*.h' | wc -l) files formatted"
