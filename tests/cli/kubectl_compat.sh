#!/usr/bin/env bash
# The kubectl compatibility table of docs/apiserver.md, run: every row's example with the real
# kubectl against one `lws up`, top to bottom, checking its exit status and that its output
# matches the row's pattern; and every command `kubectl help` lists has a row. The table is the
# only copy of the expectations, so the documentation cannot drift from what the server does.
# Usage: kubectl_compat.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
begin_up_kubectl_test "$lws" 1

# The rows as tab-separated fields: command, example, exit status, pattern. Cells are split at
# unescaped pipes; the code spans lose their backquotes and `\|` becomes `|`.
table_rows() {
  /usr/bin/python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = lines.index("## kubectl compatibility")
header = next(i for i in range(start, len(lines)) if lines[i].startswith("| command |"))
for line in lines[header + 2:]:
    if not line.startswith("|"):
        break
    cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
    print("\t".join(c[1:-1] if c.startswith("`") and c.endswith("`") else c for c in cells[:4]))
PY
}
table_rows "$root/docs/apiserver.md" >"$tmp/rows" || exit 1
check "the table has rows" test "$(wc -l <"$tmp/rows")" -ge 42

# The examples name repository files as a user in a checkout would; what they write stays here.
work="$tmp/work"
mkdir -p "$work"
ln -s "$root/testdata" "$work/testdata"
ln -s "$root/examples" "$work/examples"

# Runs one row: its example in a shell from $work, then the exit status and the pattern. Why a
# row failed goes to $tmp/err, which `check` prints under the FAIL line.
run_row() {
  local example="$1" want_exit="$2" pattern="$3" got_exit
  (cd "$work" && timeout 150 bash -c "$example") >"$tmp/row.out" 2>&1 </dev/null
  got_exit=$?
  if [ "$got_exit" != "$want_exit" ]; then
    { echo "exit $got_exit, the table says $want_exit:"; head -n 3 "$tmp/row.out"; } >"$tmp/err"
    return 1
  fi
  if ! grep -qE -- "$pattern" "$tmp/row.out"; then
    { echo "no line matches /$pattern/:"; head -n 3 "$tmp/row.out"; } >"$tmp/err"
    return 1
  fi
}

while IFS=$'\t' read -r command example want_exit pattern; do
  : >"$tmp/err"
  check "$command: $example" run_row "$example" "$want_exit" "$pattern"
  case "$example" in
    *"kubectl $command"*) ;;
    *) check "$command: the example runs kubectl $command" false ;;
  esac
done <"$tmp/rows"

# Every command of this kubectl (kubectl help's command lines: two spaces, name, description).
kubectl help 2>/dev/null | sed -nE 's/^  ([a-z][a-z-]*)  +[A-Z].*/\1/p' >"$tmp/commands"
check "kubectl help lists 40 or more commands" test "$(wc -l <"$tmp/commands")" -ge 40
: >"$tmp/err"
while read -r command; do
  check "the table has a row for kubectl $command" \
    awk -F'\t' -v c="$command" '$1 == c { found = 1 } END { exit !found }' "$tmp/rows"
done <"$tmp/commands"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
