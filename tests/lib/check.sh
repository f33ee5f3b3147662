# The pass/fail bookkeeping every shell test shares (sourced, not run).
#   check NAME COMMAND...                        runs COMMAND, prints ok/FAIL, counts failures
#   eventually SECONDS COMMAND...                retries COMMAND until it succeeds or time is up
failures=0
check() {
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; return; fi
  echo "FAIL $name"
  failures=$((failures + 1))
  # What the last kubectl said, for scripts that keep it in $tmp/err: a failure in CI is then
  # readable from the log alone.
  if [ -n "${tmp:-}" ] && [ -s "$tmp/err" ]; then tail -n 5 "$tmp/err" | sed 's/^/     /'; fi
}
eventually() {
  local seconds="$1"; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.2
  done
}
